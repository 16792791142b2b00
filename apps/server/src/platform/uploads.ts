import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@bourse/shared';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes one uploaded file (multipart/form-data); other routes refuse file parts. */
    upload?: boolean;
  }
}

/** Where uploaded files are kept: a port, so a node farm can swap the local folder for an object store. */
export interface FileStore {
  /** Writes a file under `name` (a generated name; never a user's). */
  save(name: string, bytes: Buffer): Promise<void>;
  /** The file's bytes, or undefined when there is none by that name. */
  read(name: string): Promise<Buffer | undefined>;
}

/** A {@link FileStore} in a local folder (`${DATA_DIR}/uploads`). */
export class LocalFileStore implements FileStore {
  readonly #dir: string;

  constructor(options: { dir: string }) {
    this.#dir = options.dir;
  }

  async save(name: string, bytes: Buffer): Promise<void> {
    assertStoredName(name);
    await fs.mkdir(this.#dir, { recursive: true });
    // why: write then rename, so a reader never sees half a file.
    const temporary = path.join(this.#dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(temporary, bytes, { mode: 0o644 });
    await fs.rename(temporary, path.join(this.#dir, name));
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!STORED_NAME_RE.test(name)) return undefined;
    try {
      return await fs.readFile(path.join(this.#dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

/** A file part of a multipart request as the upload parser hands it to a route. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** An image as stored: its generated name and the URL it is served at. */
export interface StoredImage {
  name: string;
  url: string;
}

/** Largest upload accepted by default (5 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** Public path of stored uploads (spec section 7). */
export const UPLOAD_PUBLIC_PREFIX = '/Upload/public/';

/** Generated names only: 32 hex digits and the extension of the re-encoded format. */
const STORED_NAME_RE = /^[0-9a-f]{32}\.webp$/;

const ACCEPTED: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
};

// why: markup or script inside an "image" is what makes a polyglot dangerous (a browser or a
// server that sniffs it runs the other half); no genuine photo of a transfer voucher carries it.
// Only patterns long enough never to occur by chance in compressed image data are searched.
const MARKUP_RE = /<(?:script|html|body|head|iframe|object|embed|\?php|!doctype)|javascript:/i;

function assertStoredName(name: string): void {
  if (!STORED_NAME_RE.test(name)) throw new Error(`not a generated upload name: ${name}`);
}

/**
 * Whether the bytes end where the image format says the image ends. Data appended after the end
 * (a ZIP, a script, an HTML page) is how a polyglot hides its second meaning.
 */
function endsWhereImageEnds(mime: string, data: Buffer): boolean {
  const n = data.length;
  switch (mime) {
    case 'image/png':
      return n >= 12 && data.readUInt32BE(n - 12) === 0 && data.toString('latin1', n - 8, n - 4) === 'IEND';
    case 'image/jpeg':
      return n >= 4 && data[n - 2] === 0xff && data[n - 1] === 0xd9;
    case 'image/gif':
      return n >= 1 && data[n - 1] === 0x3b;
    case 'image/webp': {
      if (n < 12) return false;
      const size = data.readUInt32LE(4);
      return size + 8 + (size % 2) === n || size + 8 === n;
    }
    default:
      return false;
  }
}

/**
 * Accepts images only: checked by content (magic bytes) against the name's extension, refused
 * when anything rides along (trailing data, markup), size-limited, then re-encoded with sharp to
 * WebP (which drops every metadata block and any crafted structure) and stored under a random name.
 */
export class ImageUploads {
  readonly #store: FileStore;
  readonly #maxBytes: number;

  constructor(options: { store: FileStore; maxBytes?: number }) {
    this.#store = options.store;
    this.#maxBytes = options.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * Checks, re-encodes and stores one image. Throws UPLOAD_TOO_LARGE over the size limit and
   * UPLOAD_NOT_IMAGE for anything that is not a plain JPEG, PNG, WebP or GIF named as what it is.
   */
  async storeImage(file: UploadedFile): Promise<StoredImage> {
    if (file.data.length === 0) throw new AppError('UPLOAD_NOT_IMAGE');
    if (file.data.length > this.#maxBytes) throw new AppError('UPLOAD_TOO_LARGE');
    const detected = await fileTypeFromBuffer(file.data);
    const extensions = detected ? ACCEPTED[detected.mime] : undefined;
    if (!detected || !extensions) throw new AppError('UPLOAD_NOT_IMAGE');
    const extension = path.extname(file.filename).slice(1).toLowerCase();
    if (!extensions.includes(extension)) throw new AppError('UPLOAD_NOT_IMAGE');
    if (!endsWhereImageEnds(detected.mime, file.data)) throw new AppError('UPLOAD_NOT_IMAGE');
    if (MARKUP_RE.test(file.data.toString('latin1'))) throw new AppError('UPLOAD_NOT_IMAGE');

    let encoded: Buffer;
    try {
      encoded = await sharp(file.data, { limitInputPixels: 40_000_000, failOn: 'error' })
        .rotate()
        .resize({ width: 2400, height: 2400, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer();
    } catch {
      throw new AppError('UPLOAD_NOT_IMAGE');
    }
    const name = `${randomBytes(16).toString('hex')}.webp`;
    try {
      await this.#store.save(name, encoded);
    } catch {
      throw new AppError('UPLOAD_FAILED');
    }
    return { name, url: toUploadUrl(name) };
  }
}

/**
 * The schema of a route's file part: the upload parser hands it over as an object; the schema
 * only lets it through, the service checks it (content, size, format).
 */
export function filePart(description: string) {
  return z
    .custom<UploadedFile>(
      (value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data),
      { error: 'UPLOAD_NOT_IMAGE' },
    )
    .optional()
    .meta({ type: 'string', format: 'binary', description });
}

/** The public URL of a stored upload. */
export function toUploadUrl(name: string): string {
  return `${UPLOAD_PUBLIC_PREFIX}${name}`;
}

/**
 * Parses multipart/form-data for every route: fields become plain body values, and the one file
 * part of a route marked `config.upload` becomes an {@link UploadedFile} under its field name.
 * Register it on the root instance before the API, so the session token in a multipart form is
 * in the body when the auth hook reads it.
 */
export async function registerUploadParsing(
  app: FastifyInstance,
  options: { maxBytes: number },
): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 4096, parts: 24 },
    async onFile(part: MultipartFile) {
      if (!this.routeOptions.config.upload) {
        part.file.resume();
        throw new AppError('PARAM_ERROR');
      }
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('UPLOAD_TOO_LARGE');
        throw new AppError('UPLOAD_FAILED');
      }
      const file: UploadedFile = { filename: part.filename ?? '', mimetype: part.mimetype, data };
      // why: 'keyValues' puts a part's `value` into the body; a file part has none of its own.
      (part as unknown as { value: UploadedFile }).value = file;
    },
  });
}

/**
 * Serves stored uploads read-only at `/Upload/public/<name>`: generated names only, the stored
 * format's content type, `nosniff` and a sandboxing policy, so nothing uploaded ever runs.
 */
export function registerUploadServing(app: FastifyInstance, options: { store: FileStore }): void {
  app.get<{ Params: { name: string } }>(
    `${UPLOAD_PUBLIC_PREFIX}:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const bytes = await options.store.read(request.params.name);
      if (!bytes) throw new AppError('NOT_FOUND');
      return reply
        .header('content-type', 'image/webp')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(bytes);
    },
  );
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@bourse/shared';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes one uploaded file (multipart/form-data); other routes refuse file parts. */
    upload?: boolean;
  }
}

/** Where uploaded files are kept: a port, so a node farm can swap the local folder for the shared store. */
export interface FileStore {
  /** Writes a file under `name` (a generated name; never a user's), of that content type. */
  save(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or undefined when there is none by that name. */
  read(name: string): Promise<Buffer | undefined>;
  /** Deletes the file by that name; nothing when there is none. */
  remove(name: string): Promise<void>;
}

/**
 * The file stores the platform keeps, each a folder of `DATA_DIR` on SQLite and a store of the
 * `stored_files` table on PostgreSQL: public uploads (deposit vouchers, served at
 * {@link UPLOAD_PUBLIC_PREFIX}), identity documents and support-chat pictures (both private).
 */
export const FILE_STORES = ['uploads', 'identity', 'chat'] as const;
export type FileStoreName = (typeof FILE_STORES)[number];

/** A {@link FileStore} in a local folder (`${DATA_DIR}/uploads`); the name's extension says its type. */
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
    if (!isStoredName(name)) return undefined;
    try {
      return await fs.readFile(path.join(this.#dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    assertStoredName(name);
    await fs.rm(path.join(this.#dir, name), { force: true });
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

/**
 * Most pixels an uploaded image may have: 16 Mpx, what a photographed document needs (a 16 Mpx
 * camera frame, 4608 × 3456, fits; phones save 12 Mpx by default). why: a PNG of one colour
 * compresses about 1000 to 1, so the byte limit says nothing of what decoding costs; the pixel
 * count does (up to 4 bytes each while decoding, 64 MiB at this limit).
 */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

/** Longest side an uploaded image may have, whatever its pixel count (a 1 × 16M strip is no photo). */
export const MAX_IMAGE_SIDE = 8192;

/** Longest one decode and re-encode may run before libvips abandons it (sharp counts in seconds). */
export const DECODE_TIMEOUT_SECONDS = 10;

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

/**
 * Whether `name` is one the platform generates. why: stores take and answer nothing else, so no
 * name a request carries can reach outside its store (`../`, a path, another folder's file).
 */
export function isStoredName(name: string): boolean {
  return STORED_NAME_RE.test(name);
}

/** Throws for a name the platform did not generate (a program error, never a user's input). */
export function assertStoredName(name: string): void {
  if (!isStoredName(name)) throw new Error(`not a generated upload name: ${name}`);
}

/** The content type of what {@link ImageUploads} stores: every image is re-encoded to WebP. */
export const STORED_IMAGE_TYPE = 'image/webp';

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
 * A bounded queue for image decodes: at most `concurrency` run at once, at most `maxWaiting` wait
 * for a turn, and one more is refused with UPLOAD_BUSY rather than queued. A task keeps its slot
 * until it settles, so a decode is never counted out while libvips still holds its memory.
 */
export class DecodeQueue {
  readonly #concurrency: number;
  readonly #maxWaiting: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(options: { concurrency: number; maxWaiting: number }) {
    if (!(options.concurrency >= 1 && options.maxWaiting >= 0))
      throw new Error('invalid decode queue bounds');
    this.#concurrency = options.concurrency;
    this.#maxWaiting = options.maxWaiting;
  }

  /** How many tasks run now and how many wait for a turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** Runs `task` in its turn and answers its result; throws UPLOAD_BUSY at once when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#concurrency) {
      if (this.#waiting.length >= this.#maxWaiting) throw new AppError('UPLOAD_BUSY');
      // why: the slot is handed over by the task that finishes, so `#running` is not decremented
      // and incremented in between, and no newcomer can take the turn of one that waited.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/**
 * The decode queue every {@link ImageUploads} of this process shares by default: one decode at a
 * time, eight waiting. why: what a decode spends (memory, libvips' threads, the cores) belongs to
 * the process, not to a module, so the identity, wallet and support uploads share one bound. A
 * decode of a 16 Mpx image takes well under a second, so eight waiting is a few seconds of delay.
 */
export const PROCESS_DECODE_QUEUE = new DecodeQueue({ concurrency: 1, maxWaiting: 8 });

/**
 * The image libraries, loaded with the first upload. why: loading them is about a tenth of a
 * second that every start would pay, for something only an upload needs.
 */
async function imageLibraries() {
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([
    import('file-type'),
    import('sharp'),
  ]);
  return { fileTypeFromBuffer, sharp };
}

/**
 * The image's width and height as its header gives them, read without decoding a pixel (sharp's
 * `metadata()` reads the header only); for an animated image, one frame (only the first is decoded).
 */
async function readImageSize(data: Buffer): Promise<{ width: number; height: number }> {
  const { sharp } = await imageLibraries();
  try {
    const meta = await sharp(data, { failOn: 'error' }).metadata();
    return { width: meta.width ?? 0, height: meta.pageHeight ?? meta.height ?? 0 };
  } catch {
    throw new AppError('UPLOAD_NOT_IMAGE');
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
  readonly #decodes: DecodeQueue;

  constructor(options: { store: FileStore; maxBytes?: number; decodes?: DecodeQueue }) {
    this.#store = options.store;
    this.#maxBytes = options.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    this.#decodes = options.decodes ?? PROCESS_DECODE_QUEUE;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * Deletes an image this store saved, when the record that was to point at it could not be
   * written (so nothing is left that no record names).
   */
  removeImage(name: string): Promise<void> {
    return this.#store.remove(name);
  }

  /**
   * Checks, re-encodes and stores one image. Throws UPLOAD_TOO_LARGE over the size limit,
   * UPLOAD_NOT_IMAGE for anything that is not a plain JPEG, PNG, WebP or GIF named as what it is,
   * IMAGE_TOO_LARGE when its header declares more than {@link MAX_IMAGE_PIXELS} or a side over
   * {@link MAX_IMAGE_SIDE} (or its decode outlasts {@link DECODE_TIMEOUT_SECONDS}), and UPLOAD_BUSY
   * when the decode queue is full.
   */
  async storeImage(file: UploadedFile): Promise<StoredImage> {
    if (file.data.length === 0) throw new AppError('UPLOAD_NOT_IMAGE');
    if (file.data.length > this.#maxBytes) throw new AppError('UPLOAD_TOO_LARGE');
    const { fileTypeFromBuffer, sharp } = await imageLibraries();
    const detected = await fileTypeFromBuffer(file.data);
    const extensions = detected ? ACCEPTED[detected.mime] : undefined;
    if (!detected || !extensions) throw new AppError('UPLOAD_NOT_IMAGE');
    const extension = path.extname(file.filename).slice(1).toLowerCase();
    if (!extensions.includes(extension)) throw new AppError('UPLOAD_NOT_IMAGE');
    if (!endsWhereImageEnds(detected.mime, file.data)) throw new AppError('UPLOAD_NOT_IMAGE');
    if (MARKUP_RE.test(file.data.toString('latin1'))) throw new AppError('UPLOAD_NOT_IMAGE');

    // why: the header is read before anything is decoded, so an image that would cost too much
    // (a "bomb": a few KB of one colour declaring 40 Mpx) is refused for nothing.
    const { width, height } = await readImageSize(file.data);
    if (width < 1 || height < 1) throw new AppError('UPLOAD_NOT_IMAGE');
    if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS)
      throw new AppError('IMAGE_TOO_LARGE');

    const encoded = await this.#decodes.run(async () => {
      try {
        // why: sharp's own pixel limit stays as a second guard, should a header understate.
        return await sharp(file.data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
          .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
          .rotate()
          .resize({ width: 2400, height: 2400, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer();
      } catch (error) {
        const message = (error as Error).message;
        if (/^timeout|pixel limit/i.test(message)) throw new AppError('IMAGE_TOO_LARGE');
        throw new AppError('UPLOAD_NOT_IMAGE');
      }
    });
    const name = `${randomBytes(16).toString('hex')}.webp`;
    try {
      await this.#store.save(name, encoded, STORED_IMAGE_TYPE);
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
        .header('content-type', STORED_IMAGE_TYPE)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(bytes);
    },
  );
}

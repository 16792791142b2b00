import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
// why: a version prefix tells a sealed value from a plain one (a base32 TOTP secret has no ':').
const PREFIX = 'v1:';

/**
 * Encrypts small secrets for storage (AES-256-GCM, a random IV per value): `v1:<iv>:<tag>:<data>`
 * in base64. Opening with another key, or a value changed in the store, throws: it fails closed.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`a secret key is ${KEY_BYTES} bytes, got ${key.length}`);
    this.#key = key;
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64')).join(':')}`;
  }

  open(sealed: string): string {
    if (!SecretBox.isSealed(sealed)) throw new Error('not a sealed value');
    const [iv, tag, data] = sealed
      .slice(PREFIX.length)
      .split(':')
      .map((part) => Buffer.from(part, 'base64'));
    if (!iv || !tag || !data || iv.length !== IV_BYTES) throw new Error('malformed sealed value');
    const decipher = createDecipheriv(ALGORITHM, this.#key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }
}

const HEX_KEY = /^[0-9a-f]{64}$/i;

/** A 32-byte key written as 64 hex digits or in base64; undefined when it is neither. */
export function parseSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  const key = Buffer.from(value, 'base64');
  return key.length === KEY_BYTES && key.toString('base64') === value ? key : undefined;
}

/**
 * The key kept in `file` (base64, mode 0600), created with a random key when absent and
 * `create` allows it. Throws when the file holds no valid key, or is absent and may not be made.
 */
export function loadKeyFile(file: string, options: { create: boolean }): Buffer {
  if (fs.existsSync(file)) {
    const key = parseSecretKey(fs.readFileSync(file, 'utf8'));
    if (!key) throw new Error(`${file} does not hold a 32-byte key (base64 or hex)`);
    return key;
  }
  if (!options.create) throw new Error(`${file} does not exist`);
  const key = randomBytes(KEY_BYTES);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // why: `wx` never overwrites a key another process wrote first; that one is read instead.
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return loadKeyFile(file, { create: false });
    throw error;
  }
  return key;
}

/**
 * The key of a setting such as `STAFF_SECRET_KEY`: the setting's value when given, else the key
 * file beside the store, created at the first start when `mayCreate`. Without either, the start is
 * refused with a message naming the setting.
 */
export function resolveSecretKey(input: {
  setting: Buffer | undefined;
  settingName: string;
  file: string;
  mayCreate: boolean;
}): Buffer {
  if (input.setting) return input.setting;
  if (!input.mayCreate && !fs.existsSync(input.file)) {
    throw new Error(
      `${input.settingName} is not set: give it 32 random bytes in base64 or hex (the same on every node), e.g. \`openssl rand -base64 32\`, or put them in ${input.file}`,
    );
  }
  return loadKeyFile(input.file, { create: input.mayCreate });
}

import { createHmac } from 'node:crypto';

/**
 * A keyed hash (HMAC-SHA-256) for values the platform must recognise again but never keep, such as
 * an identity document's number: equal inputs give equal hashes, and without the server's secret
 * no one holding the store can test a guessed number against them. `purpose` derives a key of its
 * own from the secret, so a hash made for one use never matches one made for another.
 */
export class KeyedHash {
  readonly #key: Buffer;

  constructor(secret: Buffer, purpose: string) {
    if (secret.length < 32) throw new Error('a keyed hash needs a secret of at least 32 bytes');
    this.#key = createHmac('sha256', secret).update(`bourse:${purpose}`).digest();
  }

  /** The hash of `value`, as 64 hex digits. */
  hash(value: string): string {
    return createHmac('sha256', this.#key).update(value, 'utf8').digest('hex');
  }
}

/**
 * An identity document's number as it is compared: letters upper-cased; spaces, dashes, dots and
 * slashes (which people type differently from the document) dropped; prefixed by the issuing
 * country, since numbers are unique only within their issuer.
 */
export function normalizeDocumentNumber(country: string, number: string): string {
  return `${country.trim().toUpperCase()}:${number.replace(/[\s\-./]/g, '').toUpperCase()}`;
}

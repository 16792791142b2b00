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
 * What an identity document is recognised by: its number alone, as `canonicalDocumentNumber`
 * (`@bourse/shared`) reads it, whatever country the customer declares. One passport approved
 * under two declared countries is one identity.
 */
export function documentNumberKey(canonicalNumber: string): string {
  // why: the prefix is never a two-letter country, so no key here equals a legacy one below.
  return `document-number:${canonicalNumber}`;
}

/**
 * The key identity documents were hashed under before: `<country>:<number>`, the declared country
 * included. Those hashes stay in the store (the numbers behind them are not kept, so they cannot be
 * re-hashed); the identity module recomputes this key for a number it is given, to recognise a
 * document recorded the old way. For a number that passes `canonicalDocumentNumber`,
 * the old normalisation gave the same canonical form, so the old hash is found again.
 */
export function legacyDocumentKey(country: string, canonicalNumber: string): string {
  return `${country.trim().toUpperCase()}:${canonicalNumber}`;
}

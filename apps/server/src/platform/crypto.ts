import { hash as digest, randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * How costly a new password hash is. `standard`: argon2id with the library's defaults (19 MiB,
 * 2 passes), OWASP's recommended floor, for every real start. `test`: 1 MiB and 1 pass, for test
 * suites that create users by the hundred (the configuration refuses it outside `NODE_ENV=test`
 * and in production). A hash carries its own parameters, so either kind verifies under both.
 */
export type PasswordHashing = 'standard' | 'test';

const TEST_HASHING = { memoryCost: 1024, timeCost: 1 };

let hashing: PasswordHashing = 'standard';

/** Sets the cost of the hashes this process makes from now on (the platform's start calls it). */
export function usePasswordHashing(kind: PasswordHashing): void {
  hashing = kind;
}

/** argon2id at the cost `usePasswordHashing` set (`standard` unless a test lowered it). */
export function hashPassword(password: string): Promise<string> {
  return hashing === 'test' ? hash(password, TEST_HASHING) : hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

export function sha256(text: string): string {
  // why: the one-shot form; every session read from the store hashes its token (a Hash object
  // each was a percent of order entry's profile).
  return digest('sha256', text, 'hex');
}

/** An opaque session token: 256 random bits, URL-safe. Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random code from an alphabet without look-alike characters (no 0/O, 1/I). */
export function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

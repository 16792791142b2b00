// The builder's hash functions on Node (node:crypto), for the server, the benchmark and tests.
// Not part of the browser verifier, which uses WebCrypto.
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { SyncHasher } from './build.ts';

// why: a raw key is converted on every HMAC; a key object made once makes salts several times cheaper.
const secretKeys = new WeakMap<Uint8Array, KeyObject>();
function secretKey(key: Uint8Array): KeyObject {
  let found = secretKeys.get(key);
  if (!found) {
    found = createSecretKey(key);
    secretKeys.set(key, found);
  }
  return found;
}

export const nodeHasher: SyncHasher = {
  sha256: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  hmac: (key, data) => new Uint8Array(createHmac('sha256', secretKey(key)).update(data).digest()),
};

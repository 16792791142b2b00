import { createHash, createHmac } from 'node:crypto';
import type { SyncHasher } from '../src/build.ts';

/** The server's hash functions (node:crypto), as the builder takes them. */
export const nodeHasher: SyncHasher = {
  sha256: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  hmac: (key, data) => new Uint8Array(createHmac('sha256', key).update(data).digest()),
};

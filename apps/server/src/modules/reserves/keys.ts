import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { keyFingerprint, toHex } from '@bourse/por';

// why: an Ed25519 private key is its 32-byte seed behind this fixed PKCS#8 prefix (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The publication key: signs snapshot headers; its public half and fingerprint are published. */
export interface PublicationKey {
  sign(data: Uint8Array): string;
  publicKeyHex: string;
  fingerprint: string;
}

/** The publication key from its 32-byte seed (kept outside the database, like the staff key). */
export async function publicationKey(seed: Buffer): Promise<PublicationKey> {
  if (seed.length !== 32) throw new Error('the publication key seed is 32 bytes');
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const der = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKeyHex = toHex(new Uint8Array(der.subarray(der.length - 32)));
  return {
    sign: (data) => toHex(new Uint8Array(sign(null, data, privateKey))),
    publicKeyHex,
    fingerprint: await keyFingerprint(publicKeyHex),
  };
}

// Checking reserve signatures (the design's section 8) with well-kept libraries: bip322-js for
// Bitcoin, viem for EVM chains. Used by the server before it stores an entry and by the command
// line for third parties; the browser verifier does not load it.
// why: both libraries are loaded on the first check, not with the module: together they are a
// few hundred milliseconds of loading that a server would otherwise pay at every start.

/** Chains whose reserve signatures the platform can check, and the scheme each uses. */
export const RESERVE_SCHEMES = {
  bitcoin: 'bip322',
  ethereum: 'eip191',
  bsc: 'eip191',
  polygon: 'eip191',
  arbitrum: 'eip191',
} as const;
export type ReserveChain = keyof typeof RESERVE_SCHEMES;

export function isReserveChain(chain: string): chain is ReserveChain {
  return Object.hasOwn(RESERVE_SCHEMES, chain);
}

/** The message a reserve entry signs: it names the snapshot and its root, so it is never reused. */
export function reserveMessage(snapshotId: bigint, root: string): string {
  return `Bourse reserves snapshot ${snapshotId} root ${root}`;
}

/**
 * Whether `signature` over `message` was made by the key of `address`: BIP-322 (with legacy
 * `signmessage` signatures for P2PKH) on Bitcoin through bip322-js, EIP-191 `personal_sign` on
 * EVM chains through viem. Malformed input answers false.
 */
export async function verifyReserveSignature(entry: {
  chain: ReserveChain;
  address: string;
  message: string;
  sig: string;
}): Promise<boolean> {
  // why: outside the try below, so a library that fails to load is an error, not a bad signature.
  if (RESERVE_SCHEMES[entry.chain] === 'bip322') {
    const { Verifier } = await import('bip322-js');
    try {
      return Verifier.verifySignature(entry.address, entry.message, entry.sig);
    } catch {
      return false;
    }
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(entry.address) || !/^0x[0-9a-fA-F]{130}$/.test(entry.sig)) return false;
  const { verifyMessage } = await import('viem');
  try {
    return await verifyMessage({
      address: entry.address as `0x${string}`,
      message: entry.message,
      signature: entry.sig as `0x${string}`,
    });
  } catch {
    return false;
  }
}

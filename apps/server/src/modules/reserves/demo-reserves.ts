import type { ReserveChain } from '@bourse/por/reserve-signatures';

// why: the demo's reserve keys are public on purpose: their entries are marked simulated and the
// app says so. A real deployment's keys never reach the server.
const DEMO_BTC_WIF = 'L396ut8T4sVReePWLR1bfCPb73g77AeUMjg27wEvJGYzLX1nXNip';
const DEMO_BTC_ADDRESS = 'bc1qjr2hteaul7tskdva9590g3328xw67r3gcyxwma';
const DEMO_EVM_KEY = '0x5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed';

/** Which demo chain holds each asset. */
const DEMO_CHAINS: Record<string, ReserveChain> = { BTC: 'bitcoin', ETH: 'ethereum', USDT: 'ethereum' };

/**
 * Simulated reserve entries for a demo snapshot: 105 % of the liabilities of BTC, ETH and USDT,
 * each signed over the snapshot's message with the demo keys (so the signatures verify), with a
 * made-up block height and hash.
 */
export async function demoReserveEntries(input: {
  message: string;
  liabilities: Map<string, bigint>;
}): Promise<
  {
    asset: string;
    chain: ReserveChain;
    address: string;
    balance: bigint;
    height: bigint;
    blockHash: string;
    sig: string;
  }[]
> {
  // why: loaded when a demo snapshot is signed, not at start (a few hundred milliseconds).
  const [{ Signer }, { privateKeyToAccount }] = await Promise.all([
    import('bip322-js'),
    import('viem/accounts'),
  ]);
  const evm = privateKeyToAccount(DEMO_EVM_KEY);
  const entries = [];
  for (const [asset, chain] of Object.entries(DEMO_CHAINS)) {
    const liability = input.liabilities.get(asset);
    if (liability === undefined) continue;
    const isBitcoin = chain === 'bitcoin';
    entries.push({
      asset,
      chain,
      address: isBitcoin ? DEMO_BTC_ADDRESS : evm.address,
      balance: (liability * 105n) / 100n,
      height: isBitcoin ? 900_000n : 23_000_000n,
      blockHash: `simulated-${asset.toLowerCase()}`,
      sig: isBitcoin
        ? String(Signer.sign(DEMO_BTC_WIF, DEMO_BTC_ADDRESS, input.message))
        : await evm.signMessage({ message: input.message }),
    });
  }
  return entries;
}

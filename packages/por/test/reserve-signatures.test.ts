import { Signer } from 'bip322-js';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { reserveMessage, verifyReserveSignature } from '../src/reserve-signatures.ts';

// A throwaway Bitcoin key (the demo's) with its P2WPKH and P2PKH addresses, and an EVM key.
const WIF = 'L396ut8T4sVReePWLR1bfCPb73g77AeUMjg27wEvJGYzLX1nXNip';
const P2WPKH = 'bc1qjr2hteaul7tskdva9590g3328xw67r3gcyxwma';
const P2PKH = '1ECp28BVmtg5cn2SUy8J3DzQfCB63ps39F';
const evm = privateKeyToAccount(`0x${'77'.repeat(32)}`);
const message = reserveMessage(42n, 'ab'.repeat(32));

describe('reserve signatures', () => {
  it('name the snapshot and its root in the message', () => {
    expect(message).toBe(`Bourse reserves snapshot 42 root ${'ab'.repeat(32)}`);
  });

  it('BIP-322 on a P2WPKH address, and legacy signmessage on a P2PKH one', async () => {
    for (const address of [P2WPKH, P2PKH]) {
      const sig = String(Signer.sign(WIF, address, message));
      expect(await verifyReserveSignature({ chain: 'bitcoin', address, message, sig })).toBe(true);
      expect(await verifyReserveSignature({ chain: 'bitcoin', address, message: `${message}.`, sig })).toBe(
        false,
      );
    }
    const sig = String(Signer.sign(WIF, P2WPKH, message));
    expect(await verifyReserveSignature({ chain: 'bitcoin', address: P2PKH, message, sig })).toBe(false);
    expect(await verifyReserveSignature({ chain: 'bitcoin', address: 'not-an-address', message, sig })).toBe(
      false,
    );
  });

  it('EIP-191 personal_sign on EVM chains', async () => {
    const sig = await evm.signMessage({ message });
    for (const chain of ['ethereum', 'bsc', 'polygon', 'arbitrum'] as const) {
      expect(await verifyReserveSignature({ chain, address: evm.address, message, sig })).toBe(true);
    }
    const other = privateKeyToAccount(`0x${'78'.repeat(32)}`);
    expect(await verifyReserveSignature({ chain: 'ethereum', address: other.address, message, sig })).toBe(
      false,
    );
    expect(
      await verifyReserveSignature({ chain: 'ethereum', address: evm.address, message, sig: '0x1234' }),
    ).toBe(false);
  });
});

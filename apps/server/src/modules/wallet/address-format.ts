import { createRequire } from 'node:module';
import type validatorModule from 'multicoin-address-validator';

// why: loaded with the first address checked, not at start (a few tens of milliseconds that
// every start paid for, before the first withdrawal or saved address needs it).
let validator: typeof validatorModule | undefined;

/**
 * Address formats a network can declare, each checked by multicoin-address-validator (checksums,
 * not just length): `eth` covers ERC20 and BEP20 tokens, `trx` TRC20. `bank` is no chain: its
 * withdrawals go to a saved bank card.
 */
export const ADDRESS_FORMATS = ['btc', 'eth', 'trx', 'ltc', 'doge', 'xrp', 'sol', 'bank'] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

export function isAddressFormat(value: string): value is AddressFormat {
  return (ADDRESS_FORMATS as readonly string[]).includes(value);
}

/** Whether `address` is a valid production (mainnet) address of the format. */
export function isValidAddress(format: string, address: string): boolean {
  if (format === 'bank' || !isAddressFormat(format)) return false;
  if (address.length > 128 || /\s/.test(address)) return false;
  validator ??= createRequire(import.meta.url)('multicoin-address-validator') as typeof validatorModule;
  try {
    return validator.validate(address, format, { networkType: 'prod' });
  } catch {
    return false;
  }
}

import { z } from 'zod';
import { parseAmount } from '../format.ts';
import { coinField, networkField } from './wallet.ts';

/**
 * The back office's configuration contract (`/admin-api/config/*`): a coin's wallet switches and a
 * network's deposit address, limits and fee. Amounts travel as decimal strings with at most 8
 * decimals, never JSON numbers.
 */

// why: 10 integer digits keep every amount (in 10^8 atoms) inside a signed 64-bit column.
const CONFIG_AMOUNT_RE = /^\d{1,10}(\.\d{1,8})?$/;

/** A configured amount: zero or more, at most 8 decimals; anything else answers CONFIG_AMOUNT_INVALID. */
export const configAmountField = z
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'CONFIG_AMOUNT_INVALID') })
  .trim()
  .regex(CONFIG_AMOUNT_RE, { error: 'CONFIG_AMOUNT_INVALID' });

/** A switch from a form or JSON: `true`/`false`, `1`/`0`. */
export const switchField = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'PARAM_ERROR' })
  .transform((v) => v === true || v === 'true' || v === '1');

/** `POST /admin-api/config/coins/:symbol`: a coin's wallet switches and the decimals it shows. */
export const CoinSettingsBody = z.object({
  convertible: switchField,
  depositEnabled: switchField,
  withdrawEnabled: switchField,
  displayDecimals: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(0).max(8),
  token: z.string().max(200).optional(),
});
export type CoinSettingsBody = z.infer<typeof CoinSettingsBody>;

/**
 * `POST /admin-api/config/networks`: creates or updates (by coin and network name) a network.
 * `maxWithdraw` `"0"` means no maximum; otherwise `minWithdraw` must not exceed it
 * (CONFIG_LIMITS_INVALID). The deposit address is checked against the address format by the server.
 */
export const NetworkSettingsBody = z
  .object({
    coin: coinField,
    network: networkField,
    addressFormat: z.string({ error: 'PARAM_ERROR' }).regex(/^[a-z0-9]{2,16}$/, { error: 'PARAM_ERROR' }),
    /** '' or absent = no deposits on this network. */
    depositAddress: z
      .string({ error: 'ADDRESS_INVALID' })
      .trim()
      .max(128, { error: 'ADDRESS_INVALID' })
      .optional()
      .transform((v) => v ?? ''),
    minDeposit: configAmountField,
    minWithdraw: configAmountField,
    maxWithdraw: configAmountField,
    withdrawFee: configAmountField,
    enabled: switchField,
    /** Order in lists; absent = keep the current one (0 for a new network). */
    sort: z.coerce.number({ error: 'PARAM_ERROR' }).int().min(0).max(10_000).optional(),
    token: z.string().max(200).optional(),
  })
  .refine(
    (v) => {
      const max = parseAmount(v.maxWithdraw);
      return max === 0n || parseAmount(v.minWithdraw) <= max;
    },
    { error: 'CONFIG_LIMITS_INVALID', path: ['maxWithdraw'] },
  );
export type NetworkSettingsBody = z.infer<typeof NetworkSettingsBody>;

// ---------------------------------------------------------------------------------------------
// Answers, and the one definition of the wallet configuration's shape

/** A coin's wallet switches. The server keeps the same shape (`CoinSettings`). */
export const WalletCoinSettings = z.object({
  coin: z.string(),
  icon: z.string(),
  /** Decimals shown for amounts of this coin. */
  displayDecimals: z.number().int(),
  convertible: z.boolean(),
  depositEnabled: z.boolean(),
  withdrawEnabled: z.boolean(),
});
export type WalletCoinSettings = z.infer<typeof WalletCoinSettings>;

/** The amounts of a network; the server holds them in atoms, the wire as decimal strings. */
export const NETWORK_AMOUNT_KEYS = ['minDeposit', 'minWithdraw', 'maxWithdraw', 'withdrawFee'] as const;
export type NetworkAmountKey = (typeof NETWORK_AMOUNT_KEYS)[number];

/** A coin's network: where deposits go and what withdrawals may be. */
export const WalletNetworkSettings = z.object({
  coin: z.string(),
  network: z.string(),
  addressFormat: z.string(),
  /** The platform's deposit address; '' = no deposits on this network. */
  depositAddress: z.string(),
  minDeposit: z.string(),
  minWithdraw: z.string(),
  /** `"0.00000000"` = no maximum. */
  maxWithdraw: z.string(),
  withdrawFee: z.string(),
  enabled: z.boolean(),
  sort: z.number().int(),
});
export type WalletNetworkSettings = z.infer<typeof WalletNetworkSettings>;

/** A coin's switches with its networks in their order. */
export const WalletCoinConfig = WalletCoinSettings.extend({ networks: z.array(WalletNetworkSettings) });
export type WalletCoinConfig = z.infer<typeof WalletCoinConfig>;

/** `GET /admin-api/config/coins`: every coin, and the address formats a network may declare. */
export const WalletConfigAnswer = z.object({
  addressFormats: z.array(z.string()),
  coins: z.array(WalletCoinConfig),
});
export type WalletConfigAnswer = z.infer<typeof WalletConfigAnswer>;

import { z } from 'zod';
import type { ResultKey } from '../errors.ts';
import { isAmountString, MAX_AMOUNT_DECIMALS, MAX_RECORD_ID } from '../format.ts';
import { UserInfo } from './auth.ts';
import { optionalText, textField, tokenField } from './fields.ts';

/**
 * The wallet's API contract: every request and answer of `/apiv/Finance/*` and the wallet's
 * `/apiv/user/*` calls. Amounts travel as decimal strings with up to 8 decimals (`"12.5"` in,
 * `"12.50000000"` out), never JSON numbers. Times are unix milliseconds. Wire names follow the
 * spec's style; the server maps them to English in its routes.
 */

// ---------------------------------------------------------------------------------------------
// Fields

/** A coin symbol such as `USDT` (upper-cased). */
export const coinField = textField('COIN_UNAVAILABLE', { max: 16 })
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z0-9]{1,16}$/.test(v), { error: 'COIN_UNAVAILABLE' });

/** A network name such as `TRC20`, `ERC20`, `BTC`, `BANK` (upper-cased). */
export const networkField = textField('NETWORK_UNAVAILABLE', { max: 16 })
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z0-9_-]{1,16}$/.test(v), { error: 'NETWORK_UNAVAILABLE' });

/**
 * A positive amount typed by a user: a plain decimal with at most 8 decimals and 10 integer digits
 * (`"12"`, `"0.5"`, `"1.23456789"`; below 10^10 units, see `MAX_AMOUNT_INTEGER_DIGITS`). Anything
 * else, zero included, answers `invalid` (AMOUNT_INVALID unless the field names its own key).
 */
export function amountField(invalid: ResultKey = 'AMOUNT_INVALID') {
  return textField(invalid, { max: 40 }).refine((v) => isAmountString(v) && /[1-9]/.test(v), {
    error: invalid,
  });
}

/**
 * A record id on the wire: a positive integer as a number or a digit string, at most
 * {@link MAX_RECORD_ID} (ids are signed 64-bit in every store; a larger one would fail in the driver).
 */
export const idField = z.coerce
  .string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR') })
  .regex(/^[1-9]\d{0,18}$/, { error: 'PARAM_ERROR' })
  // why: zod runs a refinement even after the regex refused, so BigInt only sees digits.
  .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= MAX_RECORD_ID, { error: 'PARAM_ERROR' });

/** An optional page number (1-based, at most 10,000). */
export const pageField = z.coerce
  .number({ error: 'PARAM_ERROR' })
  .int({ error: 'PARAM_ERROR' })
  .min(1, { error: 'PARAM_ERROR' })
  .max(10_000, { error: 'PARAM_ERROR' })
  .optional()
  .transform((v) => v ?? 1);

/**
 * Most rows a page number of a customer's history list may skip. A page by number reads every row
 * above it, so its cost grows with its depth; past this depth a client pages by `before`.
 */
export const MAX_HISTORY_OFFSET = 1_000;

/** The rows a customer's history list answers per page. */
export const HISTORY_PAGE_SIZE = 20;

/** A history list's page number (1-based): at most 50, the deepest page within {@link MAX_HISTORY_OFFSET}. */
const historyPageField = z.coerce
  .number({ error: 'PARAM_ERROR' })
  .int({ error: 'PARAM_ERROR' })
  .min(1, { error: 'PARAM_ERROR' })
  .max(MAX_HISTORY_OFFSET / HISTORY_PAGE_SIZE, { error: 'PARAM_ERROR' })
  .optional()
  .transform((v) => v ?? 1);

/**
 * The query of a list that grows with a customer's activity (orders, trades, contracts, deposits),
 * newest first, 20 a page: `shape`'s filters, and `before`, the last `id` of the previous page
 * (a seek, as cheap deep down as on top), or `page` for clients that count pages, up to page 50.
 * With `before`, `page` is absent or 1.
 */
export function historyQuery<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...shape, before: idField.optional(), page: historyPageField }).refine(
    (query) => {
      // why: the shape's own fields are generic here; these two are the ones this object adds.
      const { before, page } = query as { before?: string; page: number };
      return before === undefined || page === 1;
    },
    { error: 'PARAM_ERROR' },
  );
}

/**
 * The client's key for one submission (a withdrawal or a conversion): sending the same key twice
 * takes effect once and answers the first result again. 8–64 letters, digits, `-` or `_`; a new
 * random key per form submission (e.g. `crypto.randomUUID()`).
 */
export const idempotencyKeyField = textField('PARAM_ERROR', { min: 8, max: 64 }).refine(
  (v) => /^[A-Za-z0-9_-]+$/.test(v),
  { error: 'PARAM_ERROR' },
);

/** The withdrawal password as typed (checked against the stored hash, never stored). */
const payPasswordField = textField('WITHDRAW_PASSWORD_WRONG', { max: 256, trim: false });

/** An amount on the wire in answers: 8 decimals, e.g. `"12.50000000"`. */
const amount = z.string();

/** Most records a list answer carries per page. */
export const WALLET_PAGE_SIZE = 20;

// ---------------------------------------------------------------------------------------------
// Requests

/** GET calls that name one coin: `/Finance/getmoney`, `/Finance/coininfo`, `/Finance/txpage`. */
export const CoinQuery = z.object({ coin: coinField, token: tokenField });
export type CoinQuery = z.input<typeof CoinQuery>;

/** POST calls that name one coin: `/Finance/getsymbol`, `/Finance/getcoinnum`. */
export const CoinBody = z.object({ coin: coinField, token: tokenField });
export type CoinBody = z.input<typeof CoinBody>;

/** `/Finance/czpage`: the coin, and optionally the network chosen so far. */
export const DepositPageQuery = z.object({
  coin: coinField,
  network: networkField.optional(),
  token: tokenField,
});
export type DepositPageQuery = z.input<typeof DepositPageQuery>;

/**
 * Lists (`/Finance/czlist`, `/Finance/txlist`): newest first, 20 a page, optionally one coin;
 * `before` is the last `id` of the previous page (see `historyQuery`).
 */
export const RecordListQuery = historyQuery({ coin: coinField.optional(), token: tokenField });
export type RecordListQuery = z.input<typeof RecordListQuery>;

/** Details (`/Finance/czinfo`, `/Finance/txinfo`, `/user/billinfo`). */
export const RecordQuery = z.object({ id: idField, token: tokenField });
export type RecordQuery = z.input<typeof RecordQuery>;

/**
 * `/Finance/czhandle` (multipart/form-data): a deposit for review. `voucher` is the transfer
 * voucher image (JPEG, PNG, WebP or GIF, at most 5 MiB), sent as a file part; it is required.
 */
export const DepositFields = z.object({
  coin: coinField,
  network: networkField,
  amount: amountField(),
  /** The transaction hash on the chain, when the user has it. */
  hash: optionalText('TX_HASH_INVALID', 128).refine((v) => v === '' || /^[A-Za-z0-9:_-]+$/.test(v), {
    error: 'TX_HASH_INVALID',
  }),
  token: tokenField,
});
export type DepositFields = z.input<typeof DepositFields>;

/** Largest voucher image accepted (bytes). */
export const VOUCHER_MAX_BYTES = 5 * 1024 * 1024;

/**
 * `/Finance/tbhandle`: a withdrawal request. `type` `address` sends to a saved address
 * (`address_id`), `bank` to a saved bank card (`bank_id`). The amount plus the network's fee is
 * frozen until staff review it.
 */
export const WithdrawBody = z.object({
  coin: coinField,
  type: z.enum(['address', 'bank'], { error: 'PARAM_ERROR' }).optional().default('address'),
  address_id: idField.optional(),
  bank_id: idField.optional(),
  amount: amountField(),
  paypassword: payPasswordField,
  idempotency_key: idempotencyKeyField,
  /** The two-factor code (or a backup code); required when the account has codes on. */
  gacode: z.string({ error: 'TOTP_WRONG' }).max(16, { error: 'TOTP_WRONG' }).optional(),
  token: tokenField,
});
export type WithdrawBody = z.input<typeof WithdrawBody>;

/** GET `/Finance/zhuanhua`: the conversion page; with `from`, `to` and `amount` also a quote. */
export const ConvertQuery = z.object({
  from: coinField.optional(),
  to: coinField.optional(),
  amount: amountField().optional(),
  token: tokenField,
});
export type ConvertQuery = z.input<typeof ConvertQuery>;

/** POST `/Finance/zhuanhua`: convert `amount` of `from` into `to` at the index price, less the fee. */
export const ConvertBody = z.object({
  from: coinField,
  to: coinField,
  amount: amountField(),
  idempotency_key: idempotencyKeyField,
  token: tokenField,
});
export type ConvertBody = z.input<typeof ConvertBody>;

/** `/user/addaddress`: save a withdrawal address (checked against the network's address format). */
export const AddAddressBody = z.object({
  coin: coinField,
  network: networkField,
  address: textField('ADDRESS_INVALID', { max: 128 }),
  remark: optionalText('PARAM_ERROR', 64),
  token: tokenField,
});
export type AddAddressBody = z.input<typeof AddAddressBody>;

/** `/user/addresslist`: optionally one coin's addresses. */
export const AddressListQuery = z.object({ coin: coinField.optional(), token: tokenField });
export type AddressListQuery = z.input<typeof AddressListQuery>;

/** `/user/deladdress`, `/user/delbank`. */
export const DeleteBody = z.object({ id: idField, token: tokenField });
export type DeleteBody = z.input<typeof DeleteBody>;

/** `/user/addbank`: card number, holder name, bank and bank code (opening bank). */
export const AddBankBody = z.object({
  number: textField('BANK_CARD_INVALID', { max: 34 }).refine((v) => /^[0-9 -]{8,34}$/.test(v), {
    error: 'BANK_CARD_INVALID',
  }),
  name: textField('BANK_CARD_INVALID', { max: 64 }),
  bank: textField('BANK_CARD_INVALID', { max: 64 }),
  bank_code: textField('BANK_CARD_INVALID', { max: 64 }),
  token: tokenField,
});
export type AddBankBody = z.input<typeof AddBankBody>;

/** `/user/mybill`: the statement, newest first; `before` is the last `id` of the previous page. */
export const BillListQuery = z.object({
  coin: coinField.optional(),
  before: idField.optional(),
  token: tokenField,
});
export type BillListQuery = z.input<typeof BillListQuery>;

// ---------------------------------------------------------------------------------------------
// Answers

/** A coin's wallet switches as the pages need them. */
const coinFlags = {
  /** Decimals shown for amounts of this coin. */
  decimals: z.number().int(),
  can_deposit: z.boolean(),
  can_withdraw: z.boolean(),
  can_convert: z.boolean(),
};

/** One coin of the assets overview (`/Finance/index`) and the coin detail (`/Finance/coininfo`). */
export const AssetRow = z.object({
  coin: z.string(),
  name: z.string(),
  icon: z.string(),
  available: amount,
  frozen: amount,
  total: amount,
  /** Index price in USDT (`"1.00000000"` for USDT; `"0.00000000"` when no price is known). */
  price: amount,
  /** `total` valued in USDT at the index price. */
  usdt_value: amount,
  ...coinFlags,
});
export type AssetRow = z.infer<typeof AssetRow>;

/** `/Finance/index`. */
export const AssetsOverview = z.object({ total_usdt: amount, coins: z.array(AssetRow) });
export type AssetsOverview = z.infer<typeof AssetsOverview>;

/**
 * `/user/index`: the assets tab's home (the spec's `User/index`): the signed-in user's profile
 * (as `/User/getUserInfo` answers it) and the assets overview (as `/Finance/index`), in one call.
 */
export const UserHome = AssetsOverview.extend({ userInfo: UserInfo });
export type UserHome = z.infer<typeof UserHome>;

/** `/Finance/getallzhehe`: everything the user holds, valued in USDT. */
export const TotalValue = z.object({ total_usdt: amount });
export type TotalValue = z.infer<typeof TotalValue>;

/** `/Finance/getmoney`, `/Finance/getcoinnum`: one coin's balance. */
export const CoinBalance = z.object({ coin: z.string(), available: amount, frozen: amount });
export type CoinBalance = z.infer<typeof CoinBalance>;

/** `/User/czcoin`, `/Finance/txcoin`: coins open for deposit / withdrawal. */
export const CoinChoice = z.object({
  coin: z.string(),
  name: z.string(),
  icon: z.string(),
  decimals: z.number().int(),
  available: amount,
});
export const CoinChoiceList = z.array(CoinChoice);
export type CoinChoiceList = z.infer<typeof CoinChoiceList>;
export type CoinChoice = z.infer<typeof CoinChoice>;

/** A network of a coin as the deposit page shows it. */
export const DepositNetwork = z.object({
  network: z.string(),
  /** The platform's deposit address on this network. */
  address: z.string(),
  /** Deposits below it are not credited and cannot be returned. */
  min_deposit: amount,
});
export type DepositNetwork = z.infer<typeof DepositNetwork>;

/** `/Finance/czpage`. */
export const DepositPage = z.object({
  coin: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  networks: z.array(DepositNetwork),
});
export type DepositPage = z.infer<typeof DepositPage>;

/** A network of a coin as the withdrawal page shows it. */
export const WithdrawNetwork = z.object({
  network: z.string(),
  /** `address` networks take a saved address; `bank` takes a saved bank card. */
  type: z.enum(['address', 'bank']),
  min_withdraw: amount,
  max_withdraw: amount,
  /** Charged on top of the amount (frozen with it at request). */
  fee: amount,
});
export type WithdrawNetwork = z.infer<typeof WithdrawNetwork>;

/** A saved withdrawal address. */
export const WithdrawAddress = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string(),
  address: z.string(),
  remark: z.string(),
  created_at: z.number(),
});
export type WithdrawAddress = z.infer<typeof WithdrawAddress>;
export const WithdrawAddressList = z.array(WithdrawAddress);
export type WithdrawAddressList = z.infer<typeof WithdrawAddressList>;

/** A saved bank card; `number` is shown masked but for its last four digits. */
export const BankCard = z.object({
  id: z.string(),
  number: z.string(),
  name: z.string(),
  bank: z.string(),
  bank_code: z.string(),
  created_at: z.number(),
});
export type BankCard = z.infer<typeof BankCard>;
export const BankCardList = z.array(BankCard);
export type BankCardList = z.infer<typeof BankCardList>;

/** `/Finance/txpage`: what the withdrawal form needs. */
export const WithdrawPage = z.object({
  coin: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  available: amount,
  networks: z.array(WithdrawNetwork),
  addresses: WithdrawAddressList,
  bank_cards: BankCardList,
  /** 1 when the withdrawal password is set. */
  paypassword: z.union([z.literal(0), z.literal(1)]),
  /** 1 while withdrawals are blocked (24 hours after a login-password change). */
  withdraw_blocked: z.union([z.literal(0), z.literal(1)]),
  /** 1 when the account has two-factor codes on: the request then needs `gacode`. */
  totp: z.union([z.literal(0), z.literal(1)]),
});
export type WithdrawPage = z.infer<typeof WithdrawPage>;

/** `/Finance/getsymbol`: a coin's networks and index price in USDT. */
export const CoinSymbol = z.object({
  coin: z.string(),
  price: amount,
  deposit_networks: z.array(DepositNetwork),
  withdraw_networks: z.array(WithdrawNetwork),
});
export type CoinSymbol = z.infer<typeof CoinSymbol>;

/** Deposit states (spec section 4): confirming, then credited or rejected. */
export const DepositStatus = z.enum(['confirming', 'credited', 'rejected']);
export type DepositStatus = z.infer<typeof DepositStatus>;

/** A deposit record (`/Finance/czlist`, `/Finance/czinfo`). */
export const DepositRecord = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string(),
  /** The platform address the user sent to. */
  address: z.string(),
  amount: amount,
  /** Actual arrival: what staff credited (`"0.00000000"` until credited). */
  credited_amount: amount,
  hash: z.string(),
  /** URL of the voucher image under `/Upload/public/`. */
  voucher: z.string(),
  status: DepositStatus,
  /** Why staff rejected it ('' otherwise). */
  reason: z.string(),
  created_at: z.number(),
  reviewed_at: z.number().nullable(),
});
export type DepositRecord = z.infer<typeof DepositRecord>;

/** Withdrawal states (spec section 4): under review, then passed or rejected (funds returned). */
export const WithdrawalStatus = z.enum(['review', 'passed', 'rejected']);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

/** A withdrawal record (`/Finance/txlist`, `/Finance/txinfo`, the answer of `/Finance/tbhandle`). */
export const WithdrawalRecord = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string(),
  type: z.enum(['address', 'bank']),
  /** The address, or the bank card masked with its bank. */
  destination: z.string(),
  /** The quota asked for; it is what arrives when staff pass it. */
  amount: amount,
  fee: amount,
  /** Actual arrival: `amount` once passed, `"0.00000000"` before or when rejected. */
  received: amount,
  status: WithdrawalStatus,
  reason: z.string(),
  created_at: z.number(),
  reviewed_at: z.number().nullable(),
  /** Whether the customer has been sent a notice of the outcome (spec §3: "notified or not"). */
  notified: z.boolean(),
});
export type WithdrawalRecord = z.infer<typeof WithdrawalRecord>;

/** A page of records; `has_more` tells whether another page exists. */
export function recordPage<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), page: z.number().int(), has_more: z.boolean() });
}
export const DepositList = recordPage(DepositRecord);
export type DepositList = z.infer<typeof DepositList>;
export const WithdrawalList = recordPage(WithdrawalRecord);
export type WithdrawalList = z.infer<typeof WithdrawalList>;

/** A convertible coin with its index price in USDT. */
export const ConvertCoin = z.object({
  coin: z.string(),
  name: z.string(),
  price: amount,
  available: amount,
  decimals: z.number().int(),
});
export type ConvertCoin = z.infer<typeof ConvertCoin>;

/** A conversion's figures: `amount` of `from` gives `received` of `to` after `fee` (in `to`). */
export const ConvertQuote = z.object({
  from: z.string(),
  to: z.string(),
  amount: amount,
  /** Units of `to` per unit of `from`, before the fee. */
  rate: amount,
  fee: amount,
  received: amount,
});
export type ConvertQuote = z.infer<typeof ConvertQuote>;

/** GET `/Finance/zhuanhua`: the published fee, the convertible coins and, when asked, a quote. */
export const ConvertPage = z.object({
  /** Fee in percent of the converted value, e.g. `"0.20"`. */
  fee_percent: z.string(),
  coins: z.array(ConvertCoin),
  quote: ConvertQuote.nullable(),
});
export type ConvertPage = z.infer<typeof ConvertPage>;

/** POST `/Finance/zhuanhua`: the conversion done. */
export const ConvertResult = ConvertQuote.extend({ id: z.string(), created_at: z.number() });
export type ConvertResult = z.infer<typeof ConvertResult>;

/** One line of the user's statement (`/user/mybill`, `/user/billinfo`). */
export const BillLine = z.object({
  id: z.string(),
  /** The ledger entry's type, e.g. `deposit.credit`, `withdrawal.freeze`, `conversion`, `demo.credit`. */
  type: z.string(),
  /** What it refers to, e.g. `deposit:12`. */
  ref: z.string(),
  memo: z.string(),
  coin: z.string(),
  /** Which balance moved: `available`, `frozen`, ... */
  kind: z.string(),
  /** Signed: positive credits the balance. */
  amount: amount,
  balance_after: amount,
  created_at: z.number(),
});
export type BillLine = z.infer<typeof BillLine>;

/** `/user/mybill`: newest first; pass the last `id` as `before` for the next page (`has_more`). */
export const BillList = z.object({ list: z.array(BillLine), has_more: z.boolean() });
export type BillList = z.infer<typeof BillList>;

/** Re-exported so a form can show the precision rule next to the field. */
export { MAX_AMOUNT_DECIMALS };

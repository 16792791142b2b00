// Conversions between coins at the index prices, less the published fee, through the `conversion` account.

import { AppError, ATOMS_PER_UNIT, fromAtoms, type ResultKey } from '@bourse/shared';
import type { ConvertPage, ConvertQuote, ConvertResult } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { isUniqueViolation } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { findBalance, usdtPrices, walletCoins } from './coins.ts';
import { DEFAULT_CONVERSION_FEE_BPS, type WalletDeps } from './deps.ts';
import * as repo from './repository.ts';

/** The conversion fee in basis points: the configured one, else the published default. */
const feeBps = (deps: WalletDeps) => BigInt(deps.conversionFeeBps ?? DEFAULT_CONVERSION_FEE_BPS);

/** What `getConvertPage` can answer besides the codes every route can. */
export const GET_CONVERT_PAGE_ERRORS = [
  'COIN_UNAVAILABLE',
  'CONVERT_DISABLED',
  'CONVERT_SAME_COIN',
  'AMOUNT_INVALID',
  'AMOUNT_BELOW_MIN',
  'PRICE_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** The published fee, the convertible coins with prices and the user's amounts, and a quote when asked. */
export async function getConvertPage(
  deps: WalletDeps,
  userId: bigint,
  query: { from?: string; to?: string; amount?: bigint },
): Promise<ConvertPage> {
  const { db, ledger } = deps;
  const coins = (await walletCoins(deps, db)).filter((c) => c.settings.convertible);
  const balances = await ledger.userBalances(db, userId);
  const prices = await usdtPrices(deps);
  let quote: ConvertQuote | null = null;
  if (query.from && query.to && query.amount !== undefined) {
    const q = await conversionFigures(deps, query.from, query.to, query.amount);
    quote = toQuote(query.from, query.to, query.amount, q);
  }
  return {
    fee_percent: formatBps(feeBps(deps)),
    coins: coins.map((c) => ({
      coin: c.coin.symbol,
      name: c.coin.name,
      price: fromAtoms(prices.get(c.coin.symbol) ?? 0n),
      available: fromAtoms(findBalance(balances, c.coin.symbol, 'available')),
      decimals: c.settings.displayDecimals,
    })),
    quote,
  };
}

/** What `convert` can answer besides the codes every route can. */
export const CONVERT_ERRORS = [
  'PLATFORM_HALTED',
  'COIN_UNAVAILABLE',
  'CONVERT_DISABLED',
  'CONVERT_SAME_COIN',
  'AMOUNT_INVALID',
  'AMOUNT_BELOW_MIN',
  'PRICE_UNAVAILABLE',
  'BALANCE_INSUFFICIENT',
  'IDEMPOTENCY_KEY_REUSED',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];

/**
 * Converts `amount` of one coin into another at the index prices (both valued in USDT), less
 * the published fee taken in the coin received; one ledger entry through the `conversion`
 * account. The same idempotency key again answers the first conversion and moves nothing.
 */
export async function convert(
  deps: WalletDeps,
  auth: AuthContext,
  input: { from: string; to: string; amount: bigint; idempotencyKey: string },
): Promise<ConvertResult> {
  const { db, clock, ledger } = deps;
  await deps.platformHalt.requireRunning();
  const previous = await repo.findConversionByKey(db, auth.userId, input.idempotencyKey);
  if (previous) return sameConversion(previous, input);
  const q = await conversionFigures(deps, input.from, input.to, input.amount);
  const user = { userId: auth.userId };
  try {
    const row = await db.transaction().execute(async (trx) => {
      const values = {
        user_id: auth.userId,
        from_coin: input.from,
        to_coin: input.to,
        amount: input.amount,
        rate: q.rate,
        fee: q.fee,
        received: q.received,
        idempotency_key: input.idempotencyKey,
        created_at: toMillis(clock.now()),
      };
      const id = await repo.insertConversion(trx, values);
      await ledger.post(trx, {
        type: 'conversion',
        ref: `conversion:${id}`,
        memo: `${input.from} → ${input.to}`,
        by: `user:${auth.userId}`,
        postings: [
          { owner: user, asset: input.from, kind: 'available', amount: -input.amount },
          { owner: { system: 'conversion' }, asset: input.from, kind: 'available', amount: input.amount },
          { owner: { system: 'conversion' }, asset: input.to, kind: 'available', amount: -q.gross },
          { owner: user, asset: input.to, kind: 'available', amount: q.received },
          ...(q.fee > 0n
            ? [
                {
                  owner: { system: 'fees' as const },
                  asset: input.to,
                  kind: 'available' as const,
                  amount: q.fee,
                },
              ]
            : []),
        ],
      });
      return { id, ...values };
    });
    return toConvertResult(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const first = await repo.findConversionByKey(db, auth.userId, input.idempotencyKey);
    if (!first) throw error;
    return sameConversion(first, input);
  }
}

/** The figures of a conversion; truncation always favours the platform by less than one atom. */
async function conversionFigures(
  deps: WalletDeps,
  from: string,
  to: string,
  amount: bigint,
): Promise<{ rate: bigint; gross: bigint; fee: bigint; received: bigint }> {
  if (from === to) throw new AppError('CONVERT_SAME_COIN');
  const coins = await walletCoins(deps, deps.db);
  for (const symbol of [from, to]) {
    const c = coins.find((x) => x.coin.symbol === symbol);
    if (!c) throw new AppError('COIN_UNAVAILABLE');
    if (!c.settings.convertible) throw new AppError('CONVERT_DISABLED');
  }
  if (amount <= 0n) throw new AppError('AMOUNT_INVALID');
  const prices = await usdtPrices(deps);
  const fromPrice = prices.get(from);
  const toPrice = prices.get(to);
  if (!fromPrice || !toPrice) throw new AppError('PRICE_UNAVAILABLE');
  const gross = (amount * fromPrice) / toPrice;
  const fee = (gross * feeBps(deps) + 9_999n) / 10_000n;
  const received = gross - fee;
  if (received <= 0n) throw new AppError('AMOUNT_BELOW_MIN');
  return { rate: (ATOMS_PER_UNIT * fromPrice) / toPrice, gross, fee, received };
}

function formatBps(bps: bigint): string {
  return `${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`;
}

function toQuote(
  from: string,
  to: string,
  amount: bigint,
  q: { rate: bigint; fee: bigint; received: bigint },
): ConvertQuote {
  return {
    from,
    to,
    amount: fromAtoms(amount),
    rate: fromAtoms(q.rate),
    fee: fromAtoms(q.fee),
    received: fromAtoms(q.received),
  };
}

type ConversionRow = NonNullable<Awaited<ReturnType<typeof repo.findConversionByKey>>>;

function toConvertResult(row: Omit<ConversionRow, 'id'> & { id: bigint }): ConvertResult {
  return {
    ...toQuote(row.from_coin, row.to_coin, row.amount, row),
    id: String(row.id),
    created_at: fromMillis(row.created_at),
  };
}

function sameConversion(
  row: ConversionRow,
  input: { from: string; to: string; amount: bigint },
): ConvertResult {
  if (row.from_coin !== input.from || row.to_coin !== input.to || row.amount !== input.amount)
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return toConvertResult(row);
}

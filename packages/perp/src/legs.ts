import { FEE, IF, type Journal, pos, SET, avail as userAvail } from './journal.ts';
import { abs, floorDiv, initialMargin, tradeFee, value } from './math.ts';
import type { InsuranceLot, PerpPosition } from './state.ts';
import { BrokenRule } from './state.ts';
import type { PerpSpec } from './types.ts';

/** +1 for a long (or a buy), −1 for a short (or a sell), 0 for flat. */
export function signOf(qty: bigint): bigint {
  return qty > 0n ? 1n : qty < 0n ? -1n : 0n;
}

/**
 * Closes `qty` of a position at `price` (perpetual.md §2, partial and full close): releases its
 * share of entry value and margin, settles the profit against SET, takes the fee from the margin
 * and pays the rest out to the user's available balance. A full close releases everything, so the
 * rounding remainders land there and the lifetime profit is exact; a close whose payout is
 * negative (past the bankruptcy price) is covered by the insurance fund. Returns the profit.
 */
export function closeLeg(
  spec: PerpSpec,
  journal: Journal,
  position: PerpPosition,
  qty: bigint,
  price: bigint,
  rate: bigint,
): { pnl: bigint; fee: bigint } {
  const size = abs(position.qty);
  if (qty <= 0n || qty > size) throw new BrokenRule(`close of ${qty} against a position of ${size}`);
  const s = signOf(position.qty);
  const full = qty === size;
  const entryReleased = full ? position.entry : floorDiv(position.entry * qty, size);
  const marginReleased = full ? position.margin : floorDiv(position.margin * qty, size);
  const v = value(spec, qty, price);
  const pnl = s * (v - entryReleased);
  // why: the fee is taken only from what the released margin still covers after the loss, so a
  // close at the bankruptcy price costs the insurance fund nothing.
  const fullFee = rate === 0n ? 0n : tradeFee(v, rate);
  const cover = marginReleased + pnl;
  const fee = fullFee < cover ? fullFee : cover > 0n ? cover : 0n;
  const user = position.userId;
  journal.move(SET, pos(user), pnl, 'pnl');
  journal.move(pos(user), FEE, fee, 'fee');
  const payout = marginReleased + pnl - fee;
  position.entry -= entryReleased;
  position.qty -= s * qty;
  position.realised += pnl - fee;
  if (full) {
    // why: "bankrupt close": the position's margin does not cover its loss; the fund does.
    if (payout < 0n) journal.move(IF, pos(user), -payout, 'bankrupt');
    else journal.move(pos(user), userAvail(user), payout, 'payout');
    position.margin = 0n;
    position.entry = 0n;
  } else if (payout > 0n) {
    journal.move(pos(user), userAvail(user), payout, 'payout');
    position.margin -= marginReleased;
  } else {
    position.margin += pnl - fee;
    if (position.margin < 0n) {
      journal.move(IF, pos(user), -position.margin, 'bankrupt');
      position.margin = 0n;
    }
  }
  journal.positions.add(position);
  return { pnl, fee };
}

/**
 * Opens or adds `qty` at `price`: initial margin from the held funds into the position, the fee
 * to the fee account, the rest of the hold back to available. When the hold falls short (a taker
 * sell filling above its limit needs more margin than its price held), the rest comes from the
 * available balance, and what that cannot cover is margin the position goes without.
 */
export function openLeg(
  spec: PerpSpec,
  journal: Journal,
  position: PerpPosition,
  side: bigint,
  qty: bigint,
  price: bigint,
  rate: bigint,
  held: bigint,
  leverage: number,
): { fee: bigint } {
  const user = position.userId;
  const v = value(spec, qty, price);
  const fee = tradeFee(v, rate);
  let im = initialMargin(v, leverage);
  const from = { user, kind: 'hold' as const };
  let fromHold = held;
  if (held < im + fee) {
    const extra = im + fee - held;
    const taken = extra < journal.availableOf(user) ? extra : journal.availableOf(user);
    journal.move(userAvail(user), from, taken, 'hold');
    fromHold += taken;
    if (fromHold < im + fee) im = fromHold - fee;
  }
  // why: a position opened without margin is one the fund pays for at once (§4b.2).
  if (im <= 0n) throw new BrokenRule(`user ${user}: a leg of ${qty} would open with margin ${im}`);
  journal.move(from, pos(user), im, 'open');
  journal.move(from, FEE, fee, 'fee');
  journal.move(from, userAvail(user), fromHold - im - fee, 'release');
  if (position.qty === 0n) position.leverage = leverage;
  position.qty += side * qty;
  position.entry += v;
  position.margin += im;
  position.realised -= fee;
  journal.positions.add(position);
  return { fee };
}

/**
 * Closes `qty` of an insurance lot at `price`: its gain goes to the fund, its loss comes from it.
 * The fund pays no fee. Returns the lot's profit.
 */
export function closeLot(
  spec: PerpSpec,
  journal: Journal,
  lot: InsuranceLot,
  qty: bigint,
  price: bigint,
): bigint {
  const size = abs(lot.qty);
  const s = signOf(lot.qty);
  const entryReleased = qty === size ? lot.entry : floorDiv(lot.entry * qty, size);
  const pnl = s * (value(spec, qty, price) - entryReleased);
  journal.move(SET, IF, pnl, 'unwind');
  lot.entry -= entryReleased;
  lot.qty -= s * qty;
  journal.lots.add(lot);
  if (lot.qty === 0n) journal.closedLots.push(lot.id);
  return pnl;
}

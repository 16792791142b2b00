import type {
  ClearingEvent,
  CommandResult,
  InsuranceLot,
  Move,
  PerpAccount,
  PerpOrder,
  PerpPosition,
} from '@bourse/perp';
import type { Millis } from '../../platform/schema.ts';
import { balanceKey, type Owner, type Posting } from '../ledger/service.ts';
import type { PerpBatchEvent, PerpCommand } from './commands.ts';
import { lotRow, orderRow, positionRow } from './records.ts';
import type * as repo from './repository.ts';

function eventSeq(e: ClearingEvent): bigint {
  return e.type === 'trade' ? e.trade.seq : e.seq;
}

function lastSeq(result: CommandResult<unknown>): bigint {
  const last = result.events.at(-1);
  return last ? eventSeq(last) : 0n;
}

/** What an order's row keeps of the command that made it: when, its key and request, and whether IOC. */
export interface CreatedOrder {
  at: Millis;
  key: string | null;
  fingerprint: string | null;
  ioc: boolean;
}

/** Everything a batch's commands changed, gathered for its writes. */
export class BatchRecords {
  readonly orders = new Map<bigint, PerpOrder>();
  readonly positions = new Map<bigint, PerpPosition>();
  readonly lots = new Map<bigint, InsuranceLot>();
  readonly closedLots: bigint[] = [];
  readonly trades: Omit<repo.TradeRow, 'id'>[] = [];
  readonly fundingPayments: Omit<repo.FundingPaymentRow, 'id'>[] = [];
  readonly liquidations: Omit<repo.LiquidationRow, 'id'>[] = [];
  readonly fundings: Omit<repo.FundingRow, 'id'>[] = [];
  readonly insuranceMoves: Omit<repo.InsuranceMoveRow, 'id'>[] = [];
  readonly byCommand = new Map<PerpCommand, { made: bigint[] }>();
  readonly users = new Set<bigint>();
  lastRate: bigint | undefined;
  readonly #moves: Move[] = [];

  readonly symbol: string;
  readonly tick: bigint;
  readonly now: Millis;
  readonly created: Map<bigint, CreatedOrder>;

  constructor(symbol: string, tick: bigint, now: Millis, created: Map<bigint, CreatedOrder>) {
    this.symbol = symbol;
    this.tick = tick;
    this.now = now;
    this.created = created;
  }

  add(result: CommandResult<unknown>, command: PerpCommand, insuranceAfter: bigint): void {
    const { symbol, tick, now } = this;
    this.#moves.push(...result.moves);
    for (const o of result.orders) {
      this.orders.set(o.id, o);
      if (o.userId !== 0n) this.users.add(o.userId);
    }
    for (const p of result.positions) {
      this.positions.set(p.userId, p);
      this.users.add(p.userId);
    }
    for (const l of result.lots) this.lots.set(l.id, l);
    for (const id of result.closedLots) {
      this.lots.delete(id);
      this.closedLots.push(id);
    }
    if (command.kind === 'place' || command.kind === 'stops') {
      this.byCommand.set(command, {
        made: ((result.value as PerpOrder[] | undefined) ?? []).map((o) => o.id),
      });
    }
    let paid = 0n;
    let received = 0n;
    let positions = 0n;
    let residual = 0n;
    for (const e of result.events) {
      if (e.type === 'trade') {
        const t = e.trade;
        this.trades.push({
          symbol,
          seq: t.seq,
          kind: t.kind,
          price: t.price * tick,
          qty: t.qty,
          value: t.value,
          taker_side: t.takerSide,
          maker_order_no: t.makerOrderId,
          taker_order_no: t.takerOrderId,
          maker_user_id: t.makerUserId,
          taker_user_id: t.takerUserId,
          maker_fee: t.makerFee,
          taker_fee: t.takerFee,
          created_at: now,
        });
      } else if (e.type === 'funding' && command.kind === 'fund') {
        if (e.userId === null) {
          residual = e.amount;
          continue;
        }
        positions += 1n;
        if (e.amount < 0n) paid -= e.amount;
        else received += e.amount;
        this.fundingPayments.push({
          symbol,
          user_id: e.userId,
          funding_at: command.at,
          qty: e.qty,
          rate: e.rate,
          mark: e.mark * tick,
          amount: e.amount,
          created_at: now,
        });
      } else if (e.type === 'liquidation') {
        this.liquidations.push({
          symbol,
          user_id: e.userId,
          kind: 'liquidation',
          qty: e.qty,
          entry: e.entry,
          margin: e.margin,
          mark: e.mark * tick,
          price: e.bankruptcy * tick,
          pnl: -e.margin,
          remainder: e.remainder,
          lot_no: e.lotId,
          seq: e.seq,
          created_at: now,
        });
      } else if (e.type === 'adl') {
        this.liquidations.push({
          symbol,
          user_id: e.userId,
          kind: 'adl',
          qty: e.qty,
          entry: 0n,
          margin: 0n,
          mark: 0n,
          price: e.price * tick,
          pnl: e.pnl,
          remainder: 0n,
          lot_no: e.lotId,
          seq: e.seq,
          created_at: now,
        });
      }
    }
    if (command.kind === 'fund') {
      this.lastRate = command.rate;
      this.fundings.push({
        symbol,
        funding_at: command.at,
        rate: command.rate,
        mark: command.mark * tick,
        paid,
        received,
        residual,
        positions,
        seq: lastSeq(result),
        created_at: now,
      });
    }
    const byKind = new Map<repo.InsuranceMoveRow['kind'], bigint>();
    const adl = command.kind === 'mark' && result.events.some((e) => e.type === 'adl');
    for (const m of result.moves) {
      const into = 'system' in m.to && m.to.system === 'IF';
      const out = 'system' in m.from && m.from.system === 'IF';
      if (!into && !out) continue;
      const kind =
        m.why === 'takeover'
          ? 'takeover'
          : m.why === 'bankrupt'
            ? 'bankrupt'
            : m.why === 'funding'
              ? 'funding'
              : adl
                ? 'adl'
                : 'unwind';
      byKind.set(kind, (byKind.get(kind) ?? 0n) + (into ? m.amount : -m.amount));
    }
    let running = insuranceAfter - [...byKind.values()].reduce((a, b) => a + b, 0n);
    for (const [kind, amount] of byKind) {
      if (amount === 0n) continue;
      running += amount;
      this.insurance(kind, amount, running, `${command.kind}:${lastSeq(result)}`);
    }
  }

  insurance(kind: repo.InsuranceMoveRow['kind'], amount: bigint, balanceAfter: bigint, ref: string): void {
    this.insuranceMoves.push({
      symbol: this.symbol,
      kind,
      amount,
      balance_after: balanceAfter,
      ref,
      created_at: this.now,
    });
  }

  orderRows(): repo.NewOrderRow[] {
    return [...this.orders.values()].map((o) => {
      const created = this.created.get(o.id);
      const row = orderRow(this.symbol, o, this.tick, {
        idempotencyKey: created?.key ?? null,
        ioc: created?.ioc ?? false,
        createdAt: created?.at ?? this.now,
        now: this.now,
      });
      return { ...row, request_fingerprint: created?.fingerprint ?? null };
    });
  }

  /** Order numbers that ended in this batch (no longer open). */
  ended(): bigint[] {
    return [...this.orders.values()]
      .filter((o) => !['untriggered', 'new', 'partial'].includes(o.status))
      .map((o) => o.id);
  }

  positionRows(): repo.PositionRow[] {
    return [...this.positions.values()].map((p) => positionRow(this.symbol, p, this.now));
  }

  lotRows(): repo.LotRow[] {
    return [...this.lots.values()].map((l) => lotRow(this.symbol, l, this.tick));
  }

  /** The batch's moves as ledger postings, summed per account (one entry for the batch). */
  postings(quote: string): Posting[] {
    const sums = new Map<string, { owner: Owner; kind: Posting['kind']; amount: bigint }>();
    const add = (account: PerpAccount, amount: bigint) => {
      const { owner, kind } = this.#ledgerAccount(account);
      const key = balanceKey(owner, quote, kind);
      const entry = sums.get(key) ?? { owner, kind, amount: 0n };
      entry.amount += amount;
      sums.set(key, entry);
    };
    for (const m of this.#moves) {
      add(m.from, -m.amount);
      add(m.to, m.amount);
    }
    return [...sums.values()]
      .filter((s) => s.amount !== 0n)
      .map((s) => ({ owner: s.owner, asset: quote, kind: s.kind, amount: s.amount }));
  }

  #ledgerAccount(account: PerpAccount): { owner: Owner; kind: Posting['kind'] } {
    if ('user' in account) {
      const kind = account.kind === 'avail' ? 'available' : account.kind === 'hold' ? 'frozen' : 'margin';
      return { owner: { userId: account.user }, kind };
    }
    // why: fees too go to the market's own account: one `fees` row that every market's batch
    // locked made every market wait on every other (and on a paused owner's batch).
    const name = (
      { SET: 'perp_settlement', FUND: 'perp_funding', IF: 'perp_insurance', FEE: 'perp_fees' } as const
    )[account.system];
    return { owner: { system: `${name}:${this.symbol}` }, kind: 'available' };
  }

  event(seq: bigint): PerpBatchEvent | null {
    if (this.users.size === 0 && this.trades.length === 0) return null;
    return {
      symbol: this.symbol,
      seq: String(seq),
      users: [...this.users].filter((u) => u !== 0n).map(String),
      trades: this.trades
        .filter((t) => t.kind !== 'adl')
        .map((t) => ({
          id: String(t.seq),
          price: String(t.price),
          qty: String(t.qty),
          side: t.taker_side,
          at: Number(this.now),
        })),
    };
  }
}

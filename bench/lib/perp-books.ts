// A perpetual market's books read from a store no server is running on (before the server starts,
// or after it stopped): each named account's USDT and position, the insurance fund and its lots,
// and the mark, all from one consistent state. The app is built on the store without its feed,
// pricing loop or bots, so nothing moves while it is read.
import { type PerpSpec, unrealisedPnl } from '@bourse/perp';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';

export interface PerpAccountBook {
  name: string;
  userId: bigint;
  /** USDT available, held by open orders (`frozen`) and in position margin, atoms. */
  available: bigint;
  held: bigint;
  margin: bigint;
  /** Signed position quantity (base atoms) and its entry value (USDT atoms). */
  qty: bigint;
  entry: bigint;
  /** Unrealised profit at the mark, atoms. */
  upnl: bigint;
  /** available + held + margin + upnl: what the account is worth at the mark, atoms. */
  equity: bigint;
}

export interface PerpBooks {
  /** The mark in USDT atoms (0 before the first mark). */
  mark: bigint;
  /** The insurance fund's ledger balance, atoms. */
  insurance: bigint;
  /** The fund's lots: count, net signed quantity, and their unrealised profit at the mark. */
  lots: number;
  lotsQty: bigint;
  lotsUpnl: bigint;
  accounts: Map<string, PerpAccountBook>;
}

/** Reads `symbol`'s books for the accounts named (usernames) from the store in `dataDir`. */
export async function readPerpBooks(
  env: Record<string, string>,
  dataDir: string,
  symbol: string,
  names: readonly string[],
): Promise<PerpBooks> {
  const app = await buildApp({
    config: loadConfig({ ...env, DATA_DIR: dataDir }),
    startFeed: false,
    startMarketMaker: false,
    logger: false,
  });
  try {
    const { store, ledger } = app.ctx;
    const perp = app.ctx.perpetual;
    if (!perp) throw new Error('the perpetual module is not registered');
    const db = store.db;
    let sequencer = perp.local(symbol);
    for (let i = 0; i < 100 && !sequencer; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sequencer = perp.local(symbol);
    }
    if (!sequencer) throw new Error(`${symbol} was not taken`);
    const clearing = sequencer.clearing;
    const spec: PerpSpec = clearing.spec;
    const markTicks = clearing.figures.mark;
    const quote = sequencer.market.quote;
    const upnlOf = (p: { qty: bigint; entry: bigint }) =>
      markTicks === 0n ? 0n : unrealisedPnl(spec, p, markTicks);
    const accounts = new Map<string, PerpAccountBook>();
    for (const name of names) {
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', name.toLowerCase())
        .executeTakeFirst();
      if (!user) throw new Error(`no account ${name}`);
      const userId = user.id;
      const [available, held, margin] = await Promise.all(
        (['available', 'frozen', 'margin'] as const).map((kind) =>
          ledger.balance(db, { userId }, quote, kind),
        ),
      );
      const position = clearing.position(userId);
      const qty = position?.qty ?? 0n;
      const entry = position?.entry ?? 0n;
      const upnl = upnlOf({ qty, entry });
      accounts.set(name, {
        name,
        userId,
        available,
        held,
        margin,
        qty,
        entry,
        upnl,
        equity: available + held + margin + upnl,
      });
    }
    const lots = clearing.lots();
    return {
      mark: markTicks * spec.tickAtoms,
      insurance: await ledger.balance(db, { system: `perp_insurance:${symbol}` }, quote, 'available'),
      lots: lots.length,
      lotsQty: lots.reduce((sum, lot) => sum + lot.qty, 0n),
      lotsUpnl: lots.reduce((sum, lot) => sum + upnlOf(lot), 0n),
      accounts,
    };
  } finally {
    await app.close();
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCandles } from '../src/modules/spot/repository.ts';
import type { Db } from '../src/platform/db.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';

const MINUTE = 60_000n;

describe.each(DIALECTS)("a market's candles on $name", ({ name, skip }) => {
  let server: TestServer;
  let db: Db;
  beforeAll(async () => {
    server = await startServer(name);
    db = server.app.ctx.store.db;
  });
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(skip)('are the newest buckets that hold trades, however far apart, and no older', async () => {
    // why: trades in the minutes 0, 1 (two), 300, 1,000 and 1,001: a quiet market, with gaps
    // longer than `limit` buckets between them.
    const base = 1_800_000_000_000n - (1_800_000_000_000n % MINUTE);
    const trades: [bigint, bigint][] = [
      [0n, 100n],
      [1n, 101n],
      [1n, 103n],
      [300n, 99n],
      [1000n, 98n],
      [1001n, 97n],
    ];
    let seq = 0n;
    for (const [minute, price] of trades) {
      seq += 1n;
      await db
        .insertInto('spot_trades')
        .values({
          symbol: 'QUIETUSDT',
          seq,
          price,
          qty: 2n,
          quote: price * 2n,
          maker_order_id: seq,
          maker_user_id: 1n,
          taker_order_id: seq + 100n,
          taker_user_id: 2n,
          taker_side: 'buy',
          maker_fee: 0n,
          taker_fee: 0n,
          at: base + minute * MINUTE + 5n,
        })
        .execute();
    }
    const minutes = async (before: bigint, limit: number) =>
      (await listCandles(db, 'QUIETUSDT', MINUTE, base + before * MINUTE, limit)).map((c) => [
        (c.t - base) / MINUTE,
        c.o,
        c.c,
        c.v,
      ]);
    expect(await minutes(2000n, 3)).toEqual([
      [1001n, 97n, 97n, 2n],
      [1000n, 98n, 98n, 2n],
      [300n, 99n, 99n, 2n],
    ]);
    expect(await minutes(2000n, 10)).toEqual([
      [1001n, 97n, 97n, 2n],
      [1000n, 98n, 98n, 2n],
      [300n, 99n, 99n, 2n],
      [1n, 101n, 103n, 4n],
      [0n, 100n, 100n, 2n],
    ]);
    expect(await minutes(1001n, 2)).toEqual([
      [1000n, 98n, 98n, 2n],
      [300n, 99n, 99n, 2n],
    ]);
    expect(await minutes(0n, 5)).toEqual([]);
  });
});

import { toAtoms } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { toMillis } from '../../platform/time.ts';
import type { LedgerService } from '../ledger/service.ts';
import { DEMO_INSURANCE, demoPerpMarkets } from './config.ts';
import type { PerpMaker } from './maker.ts';
import * as repo from './repository.ts';

/**
 * The demo's perpetual markets where missing, each with an insurance fund funded from the `demo`
 * account in the transaction that lists it (a visible ledger entry and a fund record), and the
 * demo maker's account.
 */
export async function seedPerpDemo(deps: {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'post'>;
  maker: PerpMaker;
}): Promise<void> {
  const { db, clock, ledger } = deps;
  const now = toMillis(clock.now());
  for (const market of demoPerpMarkets(now)) {
    await db.transaction().execute(async (trx) => {
      if (!(await repo.insertMissingMarket(trx, market))) return;
      await ledger.post(trx, {
        type: 'perp.insurance',
        ref: `${market.symbol}:demo`,
        memo: `Demo insurance fund of ${market.symbol}`,
        by: 'system',
        postings: [
          { owner: { system: 'demo' }, asset: market.quote, kind: 'available', amount: -DEMO_INSURANCE },
          {
            owner: { system: `perp_insurance:${market.symbol}` },
            asset: market.quote,
            kind: 'available',
            amount: DEMO_INSURANCE,
          },
        ],
      });
      await repo.setInsurance(trx, market.symbol, DEMO_INSURANCE);
      await repo.insertInsuranceMoves(trx, [
        {
          symbol: market.symbol,
          kind: 'topup',
          amount: DEMO_INSURANCE,
          balance_after: DEMO_INSURANCE,
          ref: 'demo',
          created_at: now,
        },
      ]);
    });
  }
  await deps.maker.addDemoAccount(toAtoms('5000000'));
}

// Demo seeding: the missing coin settings and networks, and a demo account's starting balances.

import type { Db } from '../../platform/db.ts';
import { DEMO_BALANCES, type WalletConfig } from './config.ts';
import type { WalletDeps } from './deps.ts';
import * as repo from './repository.ts';
import { toCoinValues, toNetworkValues } from './settings.ts';

/** Adds the coin settings and networks that are missing (the demo seed); existing rows stay. */
export async function addMissingConfig(trx: Db, config: WalletConfig): Promise<void> {
  await repo.insertMissingWalletCoins(trx, config.coins.map(toCoinValues));
  await repo.insertMissingNetworks(trx, config.networks.map(toNetworkValues));
}

/** Credits a demo account's starting balances from the `demo` system account (one entry). */
export async function creditDemo(deps: WalletDeps, trx: Db, userId: bigint): Promise<void> {
  await deps.ledger.post(trx, {
    type: 'demo.credit',
    ref: `demo:user:${userId}`,
    memo: 'Demo credit',
    by: 'system',
    postings: DEMO_BALANCES.flatMap(({ asset, amount }) => [
      { owner: { system: 'demo' as const }, asset, kind: 'available' as const, amount: -amount },
      { owner: { userId }, asset, kind: 'available' as const, amount },
    ]),
  });
}

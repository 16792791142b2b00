import type { Db } from '../../platform/db.ts';
import type { MarketMakerSettingsTable } from '../../platform/schema.ts';

/** Queries of the market maker's table (`market_maker_settings`): plain functions of a db or transaction. */

export type SettingsRow = MarketMakerSettingsTable;

export function listSettings(db: Db): Promise<SettingsRow[]> {
  return db.selectFrom('market_maker_settings').selectAll().orderBy('symbol').execute();
}

export function findSettings(db: Db, symbol: string): Promise<SettingsRow | undefined> {
  return db.selectFrom('market_maker_settings').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export async function insertMissingSettings(db: Db, row: SettingsRow): Promise<void> {
  await db
    .insertInto('market_maker_settings')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
}

export async function upsertSettings(db: Db, row: SettingsRow): Promise<void> {
  const { symbol, ...rest } = row;
  await db
    .insertInto('market_maker_settings')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doUpdateSet(rest))
    .execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * The store enforces what the wallet checks: a user saves an address once per coin and network
 * (the same address stays allowed on two coins of one network, e.g. ETH and USDT on ERC20).
 * Duplicates saved before are dropped, the oldest kept; withdrawals copy their destination, so
 * nothing refers to the rows removed.
 *
 * Staff TOTP secrets are encrypted at rest too, but not here: the key (`STAFF_SECRET_KEY`) is a
 * setting the store never sees, so the staff module seals the secrets still in plain text when it
 * starts (`StaffService.sealPlainSecrets`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    DELETE FROM withdraw_addresses
    WHERE EXISTS (
      SELECT 1 FROM withdraw_addresses AS kept
      WHERE kept.user_id = withdraw_addresses.user_id
        AND kept.coin = withdraw_addresses.coin
        AND kept.network = withdraw_addresses.network
        AND kept.address = withdraw_addresses.address
        AND kept.id < withdraw_addresses.id
    )
  `.execute(db);
  await db.schema
    .createIndex('withdraw_addresses_unique_address')
    .unique()
    .on('withdraw_addresses')
    .columns(['user_id', 'coin', 'network', 'address'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('withdraw_addresses_unique_address').execute();
}

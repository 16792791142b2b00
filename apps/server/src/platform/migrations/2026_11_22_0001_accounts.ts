import type { Kysely } from 'kysely';
import { idColumn } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('users')
    .addColumn('id', idType, idDef)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text', (c) => c.unique())
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('pay_password_hash', 'text')
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('credit', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('invite_code', 'text', (c) => c.notNull().unique())
    .addColumn('referrer_id', 'integer', (c) => c.references('users.id'))
    .addColumn('reg_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('trade_banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('realname_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_login_at', 'bigint')
    .addColumn('last_login_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('withdraw_blocked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_referrer_idx').on('users').column('referrer_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_logs')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_logs_user_idx')
    .on('login_logs')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('captchas')
    .addColumn('captcha_key', 'text', (c) => c.primaryKey())
    .addColumn('answer_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('withdraw_addresses')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('withdraw_addresses_user_idx')
    .on('withdraw_addresses')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'withdraw_addresses', 'captchas', 'login_logs', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}

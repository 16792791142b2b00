import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Account services: a user's language (the one mail and notices are written in: the last one
 * they signed in with), two-factor codes and the anti-phishing code, one-time backup codes, the
 * codes sent by e-mail (only their hash), the mail outbox, and notifications. A notification is
 * personal (`user_id` set: a message key and its parameters, read once by setting `read_at`) or a
 * staff broadcast (`user_id` null: a title and body per locale; who has read it is in
 * `notification_reads`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .alterTable('users')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('ja-JP'))
    .execute();
  await db.schema
    .createTable('user_security')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending', 'text')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('anti_phishing', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_backup_codes')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('user_backup_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('email_codes')
    .addColumn('id', idType, idDef)
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_codes_lookup_idx')
    .on('email_codes')
    .columns(['purpose', 'email', 'id'])
    .execute();
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('msg_key', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('texts', 'text')
    .addColumn('read_at', 'bigint')
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_user_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createTable('notification_reads')
    .addColumn('notification_id', 'bigint', (c) => c.notNull().references('notifications.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('read_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pk', ['user_id', 'notification_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_reads').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('email_codes').execute();
  await db.schema.dropTable('user_backup_codes').execute();
  await db.schema.dropTable('user_security').execute();
  await db.schema.alterTable('users').dropColumn('locale').execute();
}

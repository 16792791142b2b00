import type { Kysely } from 'kysely';
import { bigIdColumn } from './helpers.ts';

/**
 * Built-in support chat (the `support` module): one conversation per user, with the unread count
 * of each side, and its messages (text, or an image kept in a private store under a generated name).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = bigIdColumn(db);
  await db.schema
    .createTable('support_conversations')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
    .addColumn('user_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('staff_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_conversations_recent_idx')
    .on('support_conversations')
    .columns(['last_message_at'])
    .execute();
  await db.schema
    .createTable('support_messages')
    .addColumn('id', idType, idDef)
    .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('support_conversations.id'))
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'bigint')
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_messages_conversation_idx')
    .on('support_messages')
    .columns(['conversation_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_conversations').execute();
}

import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Webhooks (API.md §22): subscriptions, and their deliveries, which are the outbox. A write inserts
 * the deliveries of its changes in its own transaction (webhooks/outbox.ts), so no change is ever
 * without them; workers of any process claim due ones (`lease_until_ms`), and a delivery keeps its
 * log of attempts. `body` holds the exact bytes every attempt signs and sends.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (col: ColumnDefinitionBuilder) =>
    dialect === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity();
  const idType = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .createTable('webhooks')
    .addColumn('id', idType, id)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', idType, id)
    .addColumn('webhook_id', 'bigint', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('msg_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('next_attempt_ms', 'bigint')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt_ms', 'bigint')
    // Attempts before this many count for nothing in the retry schedule (a redelivery restarts it).
    .addColumn('schedule_base', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_ms'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
}

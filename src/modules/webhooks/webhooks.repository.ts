import { sql, type Selectable } from 'kysely';
import { dialectOfExecutor } from '../../db/dialect.js';
import type { Executor, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface NewDelivery {
  webhook_id: number;
  msg_id: string;
  type: string;
  body: string;
  status: string;
  next_attempt_ms: number | null;
  created_ms: number;
}

const numericWebhook = (row: WebhookRow): WebhookRow => ({ ...row, id: Number(row.id) });
const numericDelivery = (row: DeliveryRow): DeliveryRow => ({
  ...row,
  id: Number(row.id),
  webhook_id: Number(row.webhook_id),
});

export async function activeWebhooks(db: Executor): Promise<Pick<WebhookRow, 'id' | 'events'>[]> {
  const rows = await db.selectFrom('webhooks').select(['id', 'events']).where('active', '=', 1).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function insertWebhook(db: Executor, row: Omit<WebhookRow, 'id'>): Promise<number> {
  const { id } = await db.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

export async function findWebhook(db: Executor, id: number): Promise<WebhookRow | undefined> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && numericWebhook(row);
}

export async function findWebhooks(db: Executor, ids: readonly number[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return rows.map(numericWebhook);
}

export async function listWebhooks(db: Executor, limit: number, offset: number): Promise<WebhookRow[]> {
  const rows = await db.selectFrom('webhooks').selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return rows.map(numericWebhook);
}

export async function countWebhooks(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateWebhook(
  db: Executor,
  id: number,
  changes: Partial<Pick<WebhookRow, 'url' | 'events' | 'active'>>,
): Promise<void> {
  if (Object.keys(changes).length > 0) await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhook(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function insertDeliveries(db: Executor, rows: readonly NewDelivery[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values([...rows])
    .returning('id')
    .execute();
  return inserted.map((row) => Number(row.id));
}

/** The latest attempted delivery of each webhook (`last_delivery`). */
export async function lastAttempted(db: Executor, webhookIds: readonly number[]): Promise<Map<number, DeliveryRow>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .selectAll('d')
    .where('d.webhook_id', 'in', [...webhookIds])
    .where('d.last_attempt_ms', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as later')
            .select('later.id')
            .whereRef('later.webhook_id', '=', 'd.webhook_id')
            .where(
              sql<boolean>`(later.last_attempt_ms > d.last_attempt_ms OR (later.last_attempt_ms = d.last_attempt_ms AND later.id > d.id))`,
            ),
        ),
      ),
    )
    .execute();
  return new Map(rows.map((row) => [Number(row.webhook_id), numericDelivery(row)]));
}

export async function findDelivery(db: Executor, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row && numericDelivery(row);
}

export async function listDeliveries(
  db: Executor,
  webhookId: number,
  status: string | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  let query = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (status !== undefined) query = query.where('status', '=', status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(numericDelivery), total: Number(count.n) };
}

/**
 * Claims up to `limit` due deliveries for this worker until `leaseUntil`: another worker (of any
 * process) skips them until the lease ends, so each attempt is made once. PostgreSQL: rows another
 * worker is claiming are skipped, not waited for (FOR UPDATE SKIP LOCKED); SQLite runs one write at
 * a time, so the UPDATE alone is atomic.
 */
export async function claimDue(db: Executor, now: number, leaseUntil: number, limit: number): Promise<DeliveryRow[]> {
  const lock = dialectOfExecutor(db) === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const { rows } = await sql<DeliveryRow>`
    UPDATE webhook_deliveries SET lease_until_ms = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_ms <= ${now} AND (lease_until_ms IS NULL OR lease_until_ms <= ${now})
      ORDER BY next_attempt_ms, id LIMIT ${limit} ${lock}
    )
    RETURNING *`.execute(db);
  return rows.map((row) => numericDelivery({ ...row, next_attempt_ms: numOrNull(row.next_attempt_ms) }));
}

const numOrNull = (value: number | null) => (value === null ? null : Number(value));

/** Holds a delivery for the caller until `until` (a ping, attempted outside the workers). */
export async function lease(db: Executor, id: number, until: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ lease_until_ms: until }).where('id', '=', id).execute();
}

/** Records an attempt made under `lease`; a lease that expired and was taken over records nothing. */
export async function recordAttempt(
  db: Executor,
  id: number,
  lease: number,
  changes: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_ms' | 'last_attempt_ms'>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...changes, lease_until_ms: null })
    .where('id', '=', id)
    .where('lease_until_ms', '=', lease)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function cancelPending(db: Executor, webhookId: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', next_attempt_ms: null })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}

/** Back to pending with the retry schedule restarted; its log of attempts stays. */
export async function redeliver(db: Executor, id: number, now: number, attemptsSoFar: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_ms: now,
      lease_until_ms: null,
      schedule_base: attemptsSoFar,
    })
    .where('id', '=', id)
    .execute();
}

export async function countPending(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Forgets deliveries whose last attempt is older than `beforeMs` and that will not be attempted again. */
export async function purgeDeliveries(db: Executor, beforeMs: number): Promise<void> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('last_attempt_ms', '<', beforeMs)
    .execute();
}

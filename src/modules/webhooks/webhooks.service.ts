import { callerCan } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { formatUtcSeconds } from '../../domain/dates.js';
import { ApiError, forbidden, invalidParam } from '../../errors.js';
import type { ArgsInput } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { checkedAddress } from './webhooks.addresses.js';
import type { ResolveHost } from '../import/ics.fetch.js';
import * as repo from './webhooks.repository.js';
import type { deliveryListArgs, webhookCreateArgs, webhookUpdateArgs } from './webhooks.schemas.js';
import { newMessageId, newSecret } from './webhooks.signing.js';
import { attempt, LEASE_MS, type AttemptLog, type WorkerDeps } from './webhooks.worker.js';

export interface WebhooksModule extends WorkerDeps {
  readonly db: Db;
  readonly config: Config;
  readonly clock: () => Date;
  readonly resolve: ResolveHost;
  /** Wakes this process's delivery worker (after a redelivery), when it runs one. */
  readonly wake: () => void;
}

export type WebhookCreateInput = ArgsInput<typeof webhookCreateArgs>;
export type WebhookUpdateInput = ArgsInput<typeof webhookUpdateArgs>;
export type DeliveryListInput = ArgsInput<typeof deliveryListArgs>;

/** A webhook as the API shows it (API.md §22); `secret` only when it was just created. */
export interface WebhookView {
  id: number;
  url: string;
  events: string[];
  active: boolean;
  secret?: string;
  created: string;
  last_delivery: { id: number; status: string; response_code: number | null; at: string } | null;
}

export interface DeliveryView {
  id: number;
  webhook_id: number;
  msg_id: string;
  type: string;
  status: string;
  attempts: AttemptLog[];
  next_attempt: string | null;
  created: string;
}

const utc = (ms: number) => formatUtcSeconds(Math.floor(ms / 1000));

export function presentDelivery(row: repo.DeliveryRow): DeliveryView {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    msg_id: row.msg_id,
    type: row.type,
    status: row.status,
    attempts: JSON.parse(row.attempts) as AttemptLog[],
    next_attempt: row.status === 'pending' && row.next_attempt_ms !== null ? utc(Number(row.next_attempt_ms)) : null,
    created: utc(Number(row.created_ms)),
  };
}

function presentWebhook(row: repo.WebhookRow, last: repo.DeliveryRow | undefined): WebhookView {
  const attempts = last ? (JSON.parse(last.attempts) as AttemptLog[]) : [];
  const latest = attempts.at(-1);
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    active: row.active === 1,
    created: formatUtcSeconds(Number(row.created_at)),
    last_delivery:
      last && latest ? { id: last.id, status: last.status, response_code: latest.response_code, at: latest.at } : null,
  };
}

async function present(webhooks: WebhooksModule, rows: repo.WebhookRow[]): Promise<WebhookView[]> {
  const last = await repo.lastAttempted(
    webhooks.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentWebhook(row, last.get(row.id)));
}

/** Webhooks are for administrators only (API.md §22): others 401 / 403. */
function requireAdministrator(ctx: RequestContext): void {
  if (!callerCan(ctx.caller, 'manage_users')) throw forbidden(ctx.caller !== null);
}

/** The address rules of API.md §19.3 for a webhook URL, checked after the permission check. */
async function requireAllowedUrl(webhooks: WebhooksModule, url: string): Promise<void> {
  const address = await checkedAddress(new URL(url), webhooks.config.webhookAllowPrivateUrls, webhooks.resolve);
  if (address === undefined)
    throw invalidParam('url', {
      message: 'webhook_url_forbidden',
      vars: { param: 'url' },
      code: 'rest_webhook_url_forbidden',
    });
}

async function requireWebhook(webhooks: WebhooksModule, id: number): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(webhooks.db, id);
  if (!row) throw new ApiError('rest_webhook_invalid_id');
  return row;
}

export async function createWebhook(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  input: WebhookCreateInput,
): Promise<WebhookView> {
  requireAdministrator(ctx);
  await requireAllowedUrl(webhooks, input.url);
  const secret = newSecret();
  const id = await repo.insertWebhook(webhooks.db, {
    url: input.url,
    events: JSON.stringify(input.events),
    active: input.active ? 1 : 0,
    secret,
    created_at: Math.floor(webhooks.clock().getTime() / 1000),
  });
  const [view] = await present(webhooks, [await requireWebhook(webhooks, id)]);
  return { ...view, secret };
}

export async function readWebhook(webhooks: WebhooksModule, ctx: RequestContext, id: number): Promise<WebhookView> {
  requireAdministrator(ctx);
  const [view] = await present(webhooks, [await requireWebhook(webhooks, id)]);
  return view;
}

export async function listWebhooks(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  page: number,
  perPage: number,
): Promise<{ items: WebhookView[]; total: number }> {
  requireAdministrator(ctx);
  const [rows, total] = await Promise.all([
    repo.listWebhooks(webhooks.db, perPage, (page - 1) * perPage),
    repo.countWebhooks(webhooks.db),
  ]);
  return { items: await present(webhooks, rows), total };
}

/** Partial update; deactivating cancels the pending deliveries (API.md §22). */
export async function updateWebhook(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  id: number,
  input: WebhookUpdateInput,
): Promise<WebhookView> {
  requireAdministrator(ctx);
  await requireWebhook(webhooks, id);
  if (input.url !== undefined) await requireAllowedUrl(webhooks, input.url);
  await webhooks.db.transaction().execute(async (trx) => {
    await repo.updateWebhook(trx, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
      ...(input.active !== undefined ? { active: input.active ? 1 : 0 } : {}),
    });
    if (input.active === false) await repo.cancelPending(trx, id);
  });
  return readWebhook(webhooks, ctx, id);
}

/** Permanent delete with its delivery log; returns its last state. */
export async function deleteWebhook(webhooks: WebhooksModule, ctx: RequestContext, id: number): Promise<WebhookView> {
  const last = await readWebhook(webhooks, ctx, id);
  await webhooks.db.transaction().execute((trx) => repo.deleteWebhook(trx, id));
  return last;
}

export async function listDeliveries(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  id: number,
  input: DeliveryListInput,
): Promise<{ items: DeliveryView[]; total: number }> {
  requireAdministrator(ctx);
  await requireWebhook(webhooks, id);
  const { rows, total } = await repo.listDeliveries(
    webhooks.db,
    id,
    input.status,
    input.per_page,
    (input.page - 1) * input.per_page,
  );
  return { items: rows.map(presentDelivery), total };
}

async function requireDelivery(webhooks: WebhooksModule, id: number, deliveryId: number): Promise<repo.DeliveryRow> {
  const row = await repo.findDelivery(webhooks.db, id, deliveryId);
  if (!row) throw new ApiError('rest_webhook_delivery_invalid_id');
  return row;
}

export async function readDelivery(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  id: number,
  deliveryId: number,
): Promise<DeliveryView> {
  requireAdministrator(ctx);
  await requireWebhook(webhooks, id);
  return presentDelivery(await requireDelivery(webhooks, id, deliveryId));
}

/** Back to pending, retry schedule restarted (API.md §22): 202 with the delivery. */
export async function redeliver(
  webhooks: WebhooksModule,
  ctx: RequestContext,
  id: number,
  deliveryId: number,
): Promise<DeliveryView> {
  requireAdministrator(ctx);
  await requireWebhook(webhooks, id);
  const row = await requireDelivery(webhooks, id, deliveryId);
  const attempts = (JSON.parse(row.attempts) as AttemptLog[]).length;
  await repo.redeliver(webhooks.db, deliveryId, webhooks.clock().getTime(), attempts);
  webhooks.wake();
  return presentDelivery(await requireDelivery(webhooks, id, deliveryId));
}

/**
 * Sends `webhook.ping` now and waits for the one attempt (at most the attempt timeout): 200 with
 * the delivery, succeeded or failed. It is held under a lease no worker takes and never retried.
 */
export async function ping(webhooks: WebhooksModule, ctx: RequestContext, id: number): Promise<DeliveryView> {
  requireAdministrator(ctx);
  const webhook = await requireWebhook(webhooks, id);
  const nowMs = webhooks.clock().getTime();
  const body = JSON.stringify({
    type: 'webhook.ping',
    timestamp: new Date(nowMs).toISOString(),
    data: { webhook_id: id },
  });
  const [deliveryId] = await repo.insertDeliveries(webhooks.db, [
    {
      webhook_id: id,
      msg_id: newMessageId(),
      type: 'webhook.ping',
      body,
      status: 'pending',
      next_attempt_ms: null,
      created_ms: nowMs,
    },
  ]);
  const lease = nowMs + LEASE_MS;
  await repo.lease(webhooks.db, deliveryId, lease);
  await attempt(webhooks, await requireDelivery(webhooks, id, deliveryId), webhook, lease, false);
  return presentDelivery(await requireDelivery(webhooks, id, deliveryId));
}

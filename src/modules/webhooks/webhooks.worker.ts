import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { formatUtcSeconds } from '../../domain/dates.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt, sendDelivery, type AttemptOutcome } from './webhooks.delivery.js';
import type { ResolveHost } from '../import/ics.fetch.js';
import * as repo from './webhooks.repository.js';

/** A claimed delivery stays this worker's for an attempt's time and a margin; then any worker may retry it. */
export const LEASE_MS = ATTEMPT_TIMEOUT_MS + 20_000;
/** How often due deliveries are looked for: other processes' changes and retries (API.md §22: first attempt within 5 s). */
const POLL_MS = 1_000;
const BATCH = 20;
/** Deliveries are kept this long after their last attempt (API.md §22), checked hourly. */
const KEPT_MS = 30 * 86_400_000;
const PURGE_MS = 3_600_000;

export interface AttemptLog {
  at: string;
  response_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WorkerDeps {
  readonly db: Db;
  readonly config: Config;
  readonly clock: () => Date;
  readonly resolve: ResolveHost;
  readonly log: (error: unknown, message: string) => void;
}

export function userAgentOf(config: Config): string {
  return `calendar-events-service (+${config.publicUrl})`;
}

/**
 * Makes one attempt of a delivery this worker holds under `lease` and records it: succeeded on a
 * 2xx; on a failure, pending again at the schedule's next time (or failed after the last, or at
 * once when `retry` is false: pings are never retried). A 410 fails it and deactivates the webhook,
 * cancelling its other pending deliveries.
 */
export async function attempt(
  deps: WorkerDeps,
  delivery: repo.DeliveryRow,
  webhook: repo.WebhookRow,
  lease: number,
  retry: boolean,
): Promise<repo.DeliveryRow['status']> {
  const nowMs = deps.clock().getTime();
  const outcome: AttemptOutcome = await sendDelivery(webhook, { msgId: delivery.msg_id, body: delivery.body }, nowMs, {
    allowPrivate: deps.config.webhookAllowPrivateUrls,
    resolve: deps.resolve,
    userAgent: userAgentOf(deps.config),
  });
  const attempts = [
    ...(JSON.parse(delivery.attempts) as AttemptLog[]),
    {
      at: formatUtcSeconds(Math.floor(nowMs / 1000)),
      response_code: outcome.response_code,
      duration_ms: outcome.duration_ms,
      error: outcome.error,
    },
  ];
  const gone = outcome.response_code === 410;
  const next =
    outcome.ok || gone || !retry
      ? undefined
      : nextAttemptAt(attempts.length - delivery.schedule_base, nowMs, outcome.retryAfterMs);
  const status = outcome.ok ? 'succeeded' : next === undefined ? 'failed' : 'pending';
  await repo.recordAttempt(deps.db, delivery.id, lease, {
    status,
    attempts: JSON.stringify(attempts),
    next_attempt_ms: next ?? null,
    last_attempt_ms: nowMs,
  });
  if (gone) {
    await deps.db.transaction().execute(async (trx) => {
      await repo.updateWebhook(trx, webhook.id, { active: 0 });
      await repo.cancelPending(trx, webhook.id);
    });
  }
  return status;
}

/**
 * Delivers due webhook deliveries from inside the server process (API.md §22). Any number of
 * processes may run one on the same database: each delivery is claimed by one worker at a time
 * (repo.claimDue). Woken at once by this process's commits; otherwise it polls.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.timer ??= setInterval(() => this.wake(), POLL_MS).unref();
    this.purgeTimer ??= setInterval(() => {
      repo
        .purgeDeliveries(this.deps.db, this.deps.clock().getTime() - KEPT_MS)
        .catch((error: unknown) => this.deps.log(error, 'old webhook deliveries could not be purged'));
    }, PURGE_MS).unref();
    this.wake();
  }

  /** Looks for due deliveries now (or right after the current round). */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runDue()
      .then(
        () => undefined,
        (error: unknown) => this.deps.log(error, 'webhook deliveries could not be processed'),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again && this.timer) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Attempts every delivery due now; returns how many it attempted (tests call it with their clock). */
  async runDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const nowMs = this.deps.clock().getTime();
      const lease = nowMs + LEASE_MS;
      const claimed = await repo.claimDue(this.deps.db, nowMs, lease, BATCH);
      if (claimed.length === 0) return attempted;
      const webhooks = new Map(
        (await repo.findWebhooks(this.deps.db, [...new Set(claimed.map((d) => d.webhook_id))])).map((w) => [w.id, w]),
      );
      await Promise.all(
        claimed.map(async (delivery) => {
          const webhook = webhooks.get(delivery.webhook_id);
          if (webhook) await attempt(this.deps, delivery, webhook, lease, true);
        }),
      );
      attempted += claimed.length;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    this.timer = undefined;
    this.purgeTimer = undefined;
    await this.running;
  }
}

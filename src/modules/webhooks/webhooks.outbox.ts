import type { LoggedChange } from '../../changes/change-log.js';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/schema.js';
import { NAMESPACE } from '../../http/urls.js';
import { wants } from './webhooks.patterns.js';
import * as repo from './webhooks.repository.js';
import { newMessageId } from './webhooks.signing.js';

const COLLECTIONS: Record<string, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/**
 * The thin payload of a change (API.md §22): its type, commit time and the item's REST URL, which
 * never carries a language (§15). Serialised once: these bytes are signed and sent on every attempt.
 */
function payload(config: Config, change: LoggedChange): string {
  const restUrl = `${config.publicUrl}${config.basePath}/${NAMESPACE}/${COLLECTIONS[change.type]}/${change.id}`;
  return JSON.stringify({
    type: `${change.type}.${change.action}`,
    timestamp: new Date(change.atMs).toISOString(),
    data: { id: change.id, type: change.type, rest_url: restUrl },
  });
}

/**
 * Writes the deliveries of a write's changes to every active matching webhook, in the write's own
 * transaction (changes/writes.ts onCommitting): never a change without its deliveries, nor a
 * delivery without its change. Returns how many were written.
 */
export async function enqueueDeliveries(
  trx: Executor,
  config: Config,
  changes: readonly LoggedChange[],
): Promise<number> {
  if (changes.length === 0) return 0;
  const webhooks = await repo.activeWebhooks(trx);
  if (webhooks.length === 0) return 0;
  const rows: repo.NewDelivery[] = [];
  for (const change of changes) {
    const type = `${change.type}.${change.action}`;
    const body = payload(config, change);
    for (const webhook of webhooks) {
      if (!wants(JSON.parse(webhook.events) as string[], type)) continue;
      rows.push({
        webhook_id: webhook.id,
        msg_id: newMessageId(),
        type,
        body,
        status: 'pending',
        next_attempt_ms: change.atMs,
        created_ms: change.atMs,
      });
    }
  }
  return (await repo.insertDeliveries(trx, rows)).length;
}

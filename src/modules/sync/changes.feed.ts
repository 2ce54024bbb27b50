import type { Caller } from '../../auth/caller.js';
import { callerCan } from '../../auth/caller.js';
import type { ChangeRow } from '../../changes/change-log.repository.js';
import * as repo from '../../changes/change-log.repository.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { formatDb } from '../../domain/dates.js';
import { ApiError, invalidParam } from '../../errors.js';
import { canReadPost } from '../posts/posts.rules.js';
import { DateTime } from 'luxon';

/** A change-feed entry (API.md §21.1). */
export interface FeedEntry {
  type: string;
  id: number;
  action: string;
  modified_utc: string;
}

export interface FeedPage {
  changes: FeedEntry[];
  next_since: string;
  has_more: boolean;
}

/** What a token holds: the database's epoch, a position in the feed, and when it was issued. */
export interface Token {
  epoch: string;
  position: number;
  issuedAt: number;
}

const TOKEN = /^1\.([0-9a-f-]{36})\.(\d{1,15})\.(\d{1,12})$/;

/** Opaque to clients (they must not build or edit one); readable to every process sharing the database. */
function encode(token: Token): string {
  return Buffer.from(`1.${token.epoch}.${token.position}.${token.issuedAt}`).toString('base64url');
}

/** The token in `since`; malformed is a 400 (before the permission check, as every bad input). */
export function parseSince(raw: string | undefined): Token | undefined {
  if (raw === undefined) return undefined;
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(raw)
    ? TOKEN.exec(Buffer.from(raw, 'base64url').toString('latin1'))
    : null;
  if (!match) throw invalidParam('since', { message: 'invalid_sync_token', vars: { param: 'since' } });
  return { epoch: match[1], position: Number(match[2]), issuedAt: Number(match[3]) };
}

const POST_TYPES: readonly string[] = ['event', 'venue', 'organizer'];

function readable(caller: Caller | null, type: string, status: string | null, author: number | null): boolean {
  if (status === null) return false;
  if (!POST_TYPES.includes(type)) return true;
  return canReadPost(caller, { status, author_id: author ?? 0, status_before_trash: null });
}

/**
 * The entry a caller sees for a change (API.md §21.1): the change itself when it may read the item
 * afterwards; `deleted` when it could read it before but not after; nothing otherwise.
 */
function entryFor(caller: Caller | null, row: ChangeRow): FeedEntry | undefined {
  const after = readable(caller, row.item_type, row.after_status, row.after_author);
  const before = readable(caller, row.item_type, row.before_status, row.before_author);
  const action = after ? row.action : before ? 'deleted' : undefined;
  if (action === undefined) return undefined;
  return {
    type: row.item_type,
    id: row.item_id,
    action,
    modified_utc: formatDb(DateTime.fromMillis(row.changed_at_ms, { zone: 'utc' })),
  };
}

/** Which rows may concern the caller, for the query to narrow them before entryFor decides. */
function readerOf(caller: Caller | null): 'all' | 'public' | number {
  if (callerCan(caller, 'read_others_private_posts')) return 'all';
  return caller && callerCan(caller, 'create_posts') ? caller.userId : 'public';
}

/**
 * GET /changes (API.md §21.1). The position the next token carries is read before the changes:
 * every change numbered up to it has committed (numbers follow commit order, change-log.ts), so
 * none is skipped however writers interleave.
 */
export async function readChanges(
  db: Db,
  config: Config,
  caller: Caller | null,
  token: Token | undefined,
  perPage: number,
  nowMs: number,
): Promise<FeedPage> {
  const state = await repo.syncState(db);
  // A token counts as issued no later than the first change after its position, so that while it
  // is valid none of the changes it still has to return can have been purged (purgeExpiredChanges).
  const issue = (position: number, atMs = nowMs) =>
    encode({ epoch: state.epoch, position, issuedAt: Math.floor(Math.min(atMs, nowMs) / 1000) });
  if (token === undefined) return { changes: [], next_since: issue(state.position), has_more: false };
  const expired =
    token.epoch !== state.epoch ||
    token.position > state.position ||
    nowMs / 1000 - token.issuedAt > config.changesRetentionDays * 86_400;
  if (expired) throw new ApiError('rest_sync_token_expired');
  const rows = await repo.changesAfter(db, token.position, perPage + 1, readerOf(caller));
  const hasMore = rows.length > perPage;
  const page = rows.slice(0, perPage);
  const last = page.at(-1)?.seq ?? token.position;
  return {
    changes: page.map((row) => entryFor(caller, row)).filter((entry): entry is FeedEntry => entry !== undefined),
    next_since: hasMore ? issue(last, rows[perPage].changed_at_ms) : issue(Math.max(last, state.position)),
    has_more: hasMore,
  };
}

/** Forgets changes no valid token can still ask for. */
export async function purgeExpiredChanges(db: Db, config: Config, nowMs: number): Promise<void> {
  await repo.purgeChanges(db, nowMs - config.changesRetentionDays * 86_400_000);
}

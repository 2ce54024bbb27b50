import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** What the upsert of API.md §19.3 compares an imported VEVENT with. */
export interface ImportTarget {
  id: number;
  ical_uid: string;
  status: string;
  ical_sequence: number;
  /** The file's LAST-MODIFIED (else DTSTAMP) at the last import, else the event's modification. */
  stamp: number;
}

const CHUNK = 500;

/** The events with these UIDs (trashed ones too: a trashed match is reported, not recreated). */
export async function eventsByUid(db: Executor, uids: readonly string[]): Promise<Map<string, ImportTarget>> {
  const found = new Map<string, ImportTarget>();
  for (let from = 0; from < uids.length; from += CHUNK) {
    const rows = await db
      .selectFrom('events')
      .innerJoin('posts', 'posts.id', 'events.post_id')
      .select([
        'events.post_id as id',
        'events.ical_uid',
        'posts.status',
        'events.ical_sequence',
        'events.ical_import_stamp',
        'posts.modified_at',
      ])
      .where('events.ical_uid', 'in', uids.slice(from, from + CHUNK))
      .execute();
    for (const row of rows) {
      if (row.ical_uid === null) continue;
      found.set(row.ical_uid, {
        id: row.id,
        ical_uid: row.ical_uid,
        status: row.status,
        ical_sequence: Number(row.ical_sequence),
        stamp: Number(row.ical_import_stamp ?? row.modified_at),
      });
    }
  }
  return found;
}

/** After an import wrote the event: the file's SEQUENCE (local ones continue from it) and its stamp. */
export async function setImportIdentity(
  db: Executor,
  eventId: number,
  identity: { sequence: number; stamp: number | null },
): Promise<void> {
  await db
    .updateTable('events')
    .set({ ical_sequence: identity.sequence, ical_import_stamp: identity.stamp })
    .where('post_id', '=', eventId)
    .execute();
}

/** Non-trashed posts of `type` whose title is one of `names` (compared lower-case), oldest first. */
export async function postIdsTitled(
  db: Executor,
  type: 'venue' | 'organizer',
  names: readonly string[],
): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select(['id', 'title'])
    .where('type', '=', type)
    .where('status', '<>', 'trash')
    .where(sql<SqlBool>`lower(title) in (${sql.join(names.map((name) => name.toLowerCase()))})`)
    .orderBy('id')
    .execute();
  // Ordered by the names given, so the first name's match wins.
  const lower = names.map((name) => name.toLowerCase());
  return rows
    .map((row) => ({ id: row.id, rank: lower.indexOf(row.title.toLowerCase()) }))
    .sort((a, b) => a.rank - b.rank || a.id - b.id)
    .map((row) => row.id);
}

/** A non-trashed organizer with this email address (case-insensitive), oldest first. */
export async function organizerIdByEmail(db: Executor, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('organizers')
    .innerJoin('posts', 'posts.id', 'organizers.post_id')
    .select('posts.id')
    .where('posts.status', '<>', 'trash')
    .where(sql<SqlBool>`lower(organizers.email) = ${email.toLowerCase()}`)
    .orderBy('posts.id')
    .executeTakeFirst();
  return row?.id;
}

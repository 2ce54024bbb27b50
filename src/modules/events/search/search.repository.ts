import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../../db/schema.js';
import type { OffThreadReader } from '../../../db/off-thread.js';
import { documentsContaining, listParameter, inList } from '../../../db/dialect.js';
import { termIdsOfEvents } from '../events.repository.js';

/**
 * Events whose search document alone does not answer a word (see searchDocument), with the title
 * of those that are protected and have no translation: a reader who has not unlocked them searches
 * that title alone (API.md §18).
 */
export async function inexactSearchDocuments(
  db: Executor,
): Promise<{ post_id: number; locked_title: string | null }[]> {
  // A literal, not a parameter: only then may the planners use the partial index (migration 0008).
  return db
    .selectFrom('search_documents')
    .innerJoin('posts', 'posts.id', 'search_documents.post_id')
    .select([
      'search_documents.post_id',
      sql<
        string | null
      >`CASE WHEN posts.password <> '' AND NOT EXISTS (SELECT 1 FROM post_translations t WHERE t.post_id = posts.id) THEN posts.title END`.as(
        'locked_title',
      ),
    ])
    .where(sql<SqlBool>`search_documents.exact = 0`)
    .execute();
}

/** A published, listed event as the in-memory candidate index keeps it (search/candidates.ts). */
export interface ListedEvent {
  post_id: number;
  start_key: number;
  end_key: number;
}

/** How many events lists show (published, listed): what a snapshot of them will hold. */
export async function countListedEvents(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'publish')
    .where('hide_from_listings', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Published events shown in lists, in list order, after the given one: the index reads them in chunks. */
export async function listedEventsAfter(
  db: Executor,
  after: ListedEvent | undefined,
  limit: number,
): Promise<ListedEvent[]> {
  let q = db
    .selectFrom('events')
    .select(['post_id', 'start_key', 'end_key'])
    .where('status', '=', 'publish')
    .where('hide_from_listings', '=', 0);
  if (after) q = q.where(sql<SqlBool>`(start_key, post_id) > (${after.start_key}, ${after.post_id})`);
  return q.orderBy('start_key').orderBy('post_id').limit(limit).execute();
}

/**
 * A written event as the candidate index sees it: listed (published, shown in lists) with its keys
 * and terms, and the lower-cased body of its search document when that body alone answers a search
 * word (`exact`, migration 0007), or absent.
 */
export interface ListedEventWithTerms extends ListedEvent {
  term_ids: number[];
  text?: string;
}

/** Which of the given events are listed, with their keys, terms and exact text (search/candidates.ts: events written since its snapshot). */
export async function listedEventsByIds(db: Executor, ids: readonly number[]): Promise<ListedEventWithTerms[]> {
  if (ids.length === 0) return [];
  const idList = listParameter(db, ids);
  const [rows, termsOf, documents] = await Promise.all([
    db
      .selectFrom('events')
      .select(['post_id', 'start_key', 'end_key'])
      .where('status', '=', 'publish')
      .where('hide_from_listings', '=', 0)
      .where(inList(db, 'post_id', idList))
      .execute(),
    termIdsOfEvents(db, idList),
    db
      .selectFrom('search_documents')
      .select(['post_id', 'body'])
      .where(sql<SqlBool>`exact = 1`)
      .where(inList(db, 'post_id', idList))
      .execute(),
  ]);
  const texts = new Map(documents.map((row) => [row.post_id, row.body.toLowerCase()]));
  return rows.map((row) => ({ ...row, term_ids: termsOf.get(row.post_id) ?? [], text: texts.get(row.post_id) }));
}

/** How many event–term links there are, and the largest term id linked: how long a snapshot's term list is, and how wide its numbers. */
export async function eventTermLinkStats(db: Executor): Promise<{ links: number; maxTermId: number }> {
  const row = await db
    .selectFrom('event_terms')
    .select((eb) => [eb.fn.countAll<number>().as('links'), eb.fn.max('term_id').as('max_term_id')])
    .executeTakeFirstOrThrow();
  return { links: Number(row.links), maxTermId: Number(row.max_term_id ?? 0) };
}

/** Event–term links in (event, term) order after the given one. */
export async function eventTermsAfter(
  db: Executor,
  after: { event_id: number; term_id: number } | undefined,
  limit: number,
): Promise<{ event_id: number; term_id: number }[]> {
  let q = db.selectFrom('event_terms').select(['event_id', 'term_id']);
  if (after) q = q.where(sql<SqlBool>`(event_id, term_id) > (${after.event_id}, ${after.term_id})`);
  return q.orderBy('event_id').orderBy('term_id').limit(limit).execute();
}

/**
 * Events whose text may contain `word` (see db/dialect.ts), or undefined when the word is too
 * short to narrow; read on `offThread` when given (SQLite files).
 */
export async function eventsThatMayContain(
  db: Executor,
  word: string,
  offThread?: OffThreadReader,
): Promise<ArrayLike<number> | undefined> {
  const documents = documentsContaining(db, word);
  if (!documents) return undefined;
  if (offThread?.available) {
    const { sql: text, parameters } = documents.compile(db);
    return offThread.ids(text, parameters);
  }
  const { rows } = await documents.execute(db);
  return rows.map((row) => Number(row.post_id));
}

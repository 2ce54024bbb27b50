import { sql, type SelectQueryBuilder } from 'kysely';
import { compiledOnce, type Slots } from '../../db/compiled.js';
import { listParameter, inList } from '../../db/dialect.js';
import type { Database, Executor, TermTranslationsTable } from '../../db/schema.js';
import { plannedId } from '../../db/planned-ids.js';
import { containsPattern, translatedColumn } from '../../db/translations.js';
import type { Language } from '../../i18n/languages.js';
import type { TermOrderBy } from './terms.schemas.js';

export interface TermRow {
  id: number;
  taxonomy: string;
  name: string;
  name_key: string;
  slug: string;
  description: string;
  parent_id: number;
  count: number;
  lang: string;
  /** Its revision and last change, Unix seconds (what the ETags of the events showing it are made of). */
  revision: number;
  changed_at: number;
}

export interface TermLanguages {
  lang: Language;
  defaultLang: Language;
}

export interface TermFilter {
  taxonomy: string;
  search?: string;
  slug?: string;
  include?: number[];
  exclude?: number[];
  parent?: number;
  eventId?: number;
  hideEmpty: boolean;
  /** Last changed (their own changes, not counts) at or after / before these instants (API.md §21). */
  modifiedMin?: number;
  modifiedBefore?: number;
}

export interface TermOrder {
  orderby: TermOrderBy;
  direction: 'asc' | 'desc';
  include?: number[];
}

type TermDb = Database & { tr_req: TermTranslationsTable; tr_def: TermTranslationsTable };
type TermQuery = SelectQueryBuilder<TermDb, 'terms' | 'tr_req' | 'tr_def', TermRow>;

/** Terms with their translatable columns resolved for the request language. */
function selectTerms(db: Executor, { lang, defaultLang }: TermLanguages): TermQuery {
  return db
    .selectFrom('terms')
    .leftJoin('term_translations as tr_req', (join) =>
      join.onRef('tr_req.term_id', '=', 'terms.id').on('tr_req.lang', '=', lang),
    )
    .leftJoin('term_translations as tr_def', (join) =>
      join.onRef('tr_def.term_id', '=', 'terms.id').on('tr_def.lang', '=', defaultLang),
    )
    .select([
      'terms.id',
      'terms.taxonomy',
      translatedColumn('terms', 'slug', lang, defaultLang).as('slug'),
      'terms.parent_id',
      'terms.count',
      'terms.lang',
      'terms.revision',
      sql<number>`COALESCE(terms.changed_at, terms.created_at)`.as('changed_at'),
      translatedColumn('terms', 'name', lang, defaultLang).as('name'),
      translatedColumn('terms', 'name_key', lang, defaultLang).as('name_key'),
      translatedColumn('terms', 'description', lang, defaultLang).as('description'),
    ]);
}

function applyFilter(query: TermQuery, filter: TermFilter, languages: TermLanguages): TermQuery {
  let q = query.where('terms.taxonomy', '=', filter.taxonomy);
  if (filter.hideEmpty) q = q.where('terms.count', '>', 0);
  if (filter.slug !== undefined) {
    const slug = filter.slug;
    q = q.where(
      sql<boolean>`(${translatedColumn('terms', 'slug', languages.lang, languages.defaultLang)} = ${slug} OR terms.slug = ${slug})`,
    );
  }
  if (filter.include) q = q.where('terms.id', 'in', filter.include);
  if (filter.exclude && filter.exclude.length > 0) q = q.where('terms.id', 'not in', filter.exclude);
  if (filter.parent !== undefined) q = q.where('terms.parent_id', '=', filter.parent);
  if (filter.modifiedMin !== undefined) q = q.where('terms.modified_at', '>=', filter.modifiedMin);
  if (filter.modifiedBefore !== undefined) q = q.where('terms.modified_at', '<', filter.modifiedBefore);
  if (filter.eventId !== undefined) {
    const eventId = filter.eventId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('event_terms')
          .select('event_terms.term_id')
          .whereRef('event_terms.term_id', '=', 'terms.id')
          .where('event_terms.event_id', '=', eventId),
      ),
    );
  }
  if (filter.search !== undefined) {
    const pattern = containsPattern(filter.search);
    const nameKey = translatedColumn('terms', 'name_key', languages.lang, languages.defaultLang);
    const slug = translatedColumn('terms', 'slug', languages.lang, languages.defaultLang);
    q = q.where(sql<boolean>`(${nameKey} LIKE ${pattern} ESCAPE '\\' OR ${slug} LIKE ${pattern} ESCAPE '\\')`);
  }
  return q;
}

function applyOrder(query: TermQuery, order: TermOrder): TermQuery {
  const dir = order.direction;
  switch (order.orderby) {
    case 'id':
      return query.orderBy('terms.id', dir);
    case 'slug':
      return query.orderBy(sql.ref('slug'), dir).orderBy('terms.id', dir);
    case 'count':
      return query.orderBy('terms.count', dir).orderBy('terms.id', dir);
    case 'description':
      return query.orderBy(sql.ref('description'), dir).orderBy('terms.id', dir);
    case 'include': {
      if (!order.include || order.include.length === 0) return query.orderBy('terms.id', dir);
      const cases = sql.join(
        order.include.map((id, i) => sql`WHEN ${id} THEN ${i}`),
        sql` `,
      );
      return query.orderBy(sql`CASE terms.id ${cases} END`, dir);
    }
    case 'term_group':
    case 'name':
      return query.orderBy(sql.ref('name_key'), dir).orderBy('terms.id', dir);
  }
}

export async function listTerms(
  db: Executor,
  filter: TermFilter,
  order: TermOrder,
  languages: TermLanguages,
  limit: number,
  offset: number,
): Promise<TermRow[]> {
  return applyOrder(applyFilter(selectTerms(db, languages), filter, languages), order)
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countTerms(db: Executor, filter: TermFilter, languages: TermLanguages): Promise<number> {
  const row = await applyFilter(selectTerms(db, languages), filter, languages)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findTerm(
  db: Executor,
  taxonomy: string,
  id: number,
  languages: TermLanguages,
): Promise<TermRow | undefined> {
  return selectTerms(db, languages)
    .where('terms.taxonomy', '=', taxonomy)
    .where('terms.id', '=', id)
    .executeTakeFirst();
}

/** Ids of the terms of `taxonomy` that exist among `ids`. */
export async function existingTermIds(db: Executor, taxonomy: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

const termIdsOfSlugs = compiledOnce((db, slot: Slots<[taxonomy: string, slugs: unknown]>) =>
  db
    .selectFrom('terms')
    .select(['id', 'slug'])
    .where('taxonomy', '=', slot(0))
    .where(inList(db, 'slug', slot(1), 'text')),
);

const termIdsOfTranslatedSlugs = compiledOnce(
  (db, slot: Slots<[taxonomy: string, slugs: unknown, lang: string, defaultLang: string]>) =>
    db
      .selectFrom('term_translations')
      .innerJoin('terms', 'terms.id', 'term_translations.term_id')
      .select(['terms.id', 'term_translations.slug', 'term_translations.lang'])
      .where('terms.taxonomy', '=', slot(0))
      .where(inList(db, 'term_translations.slug', slot(1), 'text'))
      .where('term_translations.lang', 'in', [slot(2), slot(3)]),
);

/**
 * Term ids by slug (exact) within a taxonomy: the original slugs, then the translated ones of the
 * request language, then those of the default language, when languages are given (API.md §15).
 * Every event write with categories or tags resolves them: compiled once, slugs as one parameter
 * (Kysely building the two queries anew was a twelfth of a create).
 */
export async function termIdsBySlugs(
  db: Executor,
  taxonomy: string,
  slugs: readonly string[],
  languages?: TermLanguages,
): Promise<Map<string, number>> {
  if (slugs.length === 0) return new Map();
  const slugList = listParameter(db, slugs);
  const rows = await termIdsOfSlugs(db, [taxonomy, slugList]);
  const result = new Map(rows.map((r) => [r.slug, r.id]));
  if (languages) {
    const translated = await termIdsOfTranslatedSlugs(db, [taxonomy, slugList, languages.lang, languages.defaultLang]);
    for (const lang of [languages.lang, languages.defaultLang]) {
      for (const row of translated)
        if (row.lang === lang && row.slug !== null && !result.has(row.slug)) result.set(row.slug, row.id);
    }
  }
  return result;
}

export async function findTermIdBySlug(
  db: Executor,
  taxonomy: string,
  slug: string,
  languages?: TermLanguages,
): Promise<number | undefined> {
  return (await termIdsBySlugs(db, taxonomy, [slug], languages)).get(slug);
}

export async function findTermIdByName(
  db: Executor,
  taxonomy: string,
  parentId: number,
  nameKey: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('parent_id', '=', parentId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
  return row?.id;
}

export async function slugExists(db: Executor, taxonomy: string, slug: string): Promise<boolean> {
  return (await findTermIdBySlug(db, taxonomy, slug)) !== undefined;
}

export interface NewTerm {
  taxonomy: string;
  name: string;
  name_key: string;
  slug: string;
  description: string;
  parent_id: number;
  lang: string;
  created_at: number;
}

export async function insertTerm(db: Executor, term: NewTerm): Promise<number> {
  const id = plannedId(term.taxonomy);
  const row = await db
    .insertInto('terms')
    .values({ ...term, ...(id === undefined ? {} : { id }), count: 0, modified_at: term.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface TermChanges {
  name?: string;
  name_key?: string;
  slug?: string;
  description?: string;
  parent_id?: number;
}

export async function updateTerm(db: Executor, id: number, changes: TermChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('terms').set(changes).where('id', '=', id).execute();
}

export async function upsertTermTranslation(
  db: Executor,
  termId: number,
  lang: string,
  fields: { name?: string; name_key?: string; slug?: string; description?: string },
): Promise<void> {
  // One statement, not a read then an insert: two concurrent first translations of a term would
  // both insert, and the second fail on the primary key.
  await db
    .insertInto('term_translations')
    .values({
      term_id: termId,
      lang,
      name: fields.name ?? null,
      name_key: fields.name_key ?? null,
      slug: fields.slug ?? null,
      description: fields.description ?? null,
    })
    .onConflict((conflict) => {
      const existing = conflict.columns(['term_id', 'lang']);
      return Object.keys(fields).length > 0 ? existing.doUpdateSet(fields) : existing.doNothing();
    })
    .execute();
}

/** Deletes a term; its children move up to its parent (WordPress's rule). Event links cascade. */
/** Deletes a term; its children move to its parent. Returns the children's ids. */
export async function deleteTerm(db: Executor, id: number, parentId: number): Promise<number[]> {
  const children = await db.selectFrom('terms').select('id').where('parent_id', '=', id).execute();
  await db.updateTable('terms').set({ parent_id: parentId }).where('parent_id', '=', id).execute();
  await db.deleteFrom('terms').where('id', '=', id).execute();
  return children.map((child) => child.id);
}

/** Ancestor chain of a term, nearest first (id, slug), by walking parent links. */
export async function ancestorsOf(db: Executor, parentId: number): Promise<{ id: number; slug: string }[]> {
  const chain: { id: number; slug: string }[] = [];
  const seen = new Set<number>();
  let current = parentId;
  while (current !== 0 && !seen.has(current)) {
    seen.add(current);
    const row = await db
      .selectFrom('terms')
      .select(['id', 'slug', 'parent_id'])
      .where('id', '=', current)
      .executeTakeFirst();
    if (!row) break;
    chain.push({ id: row.id, slug: row.slug });
    current = row.parent_id;
  }
  return chain;
}

/** Slug paths of many categories at once: id → ancestor slugs (root first) followed by its own. */
export type SlugTreeMap = Map<number, { slug: string; parent: number }>;

export async function slugPaths(db: Executor, taxonomy: string, languages?: TermLanguages): Promise<SlugTreeMap> {
  if (!languages) {
    const rows = await db
      .selectFrom('terms')
      .select(['id', 'slug', 'parent_id'])
      .where('taxonomy', '=', taxonomy)
      .execute();
    return new Map(rows.map((r) => [r.id, { slug: r.slug, parent: r.parent_id }]));
  }
  const rows = await selectTerms(db, languages).where('terms.taxonomy', '=', taxonomy).execute();
  return new Map(rows.map((r) => [r.id, { slug: r.slug, parent: r.parent_id }]));
}

/** Terms by id, in the request language. */
const termRowsByIds = compiledOnce((db, slot: Slots<[lang: Language, defaultLang: Language, ids: unknown]>) =>
  selectTerms(db, { lang: slot(0), defaultLang: slot(1) }).where(inList(db, 'terms.id', slot(2))),
);

/** Terms by id in a language; every event write reads its terms: compiled once, ids as one parameter. */
export async function findTermsByIds(
  db: Executor,
  ids: readonly number[],
  languages: TermLanguages,
): Promise<Map<number, TermRow>> {
  if (ids.length === 0) return new Map();
  const rows = await termRowsByIds(db, [languages.lang, languages.defaultLang, listParameter(db, ids)]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Recomputes `count` (published events linked, API.md §12) of the given terms. */
export async function recountTerms(db: Executor, termIds: readonly number[]): Promise<void> {
  if (termIds.length === 0) return;
  await db
    .updateTable('terms')
    .set((eb) => ({
      count: eb
        .selectFrom('event_terms')
        .innerJoin('posts', 'posts.id', 'event_terms.event_id')
        .innerJoin('events', 'events.post_id', 'event_terms.event_id')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('event_terms.term_id', '=', 'terms.id')
        .where('posts.status', '=', 'publish')
        // A series counts once, as one post (API.md §20.2).
        .where('events.series_id', 'is', null),
    }))
    .where('id', 'in', [...termIds])
    .execute();
}

// One term per statement: SQLite scanned the whole terms table for `id IN (json_each(?))` in an
// UPDATE (54 µs, against 3 µs by primary key), and a write touches a few terms.
const addToTermCount = compiledOnce((db, slot: Slots<[delta: number, termId: number]>) =>
  db
    .updateTable('terms')
    .set((eb) => ({ count: eb('count', '+', slot(0)) }))
    .where('id', '=', slot(1)),
);

/** Adds each delta to the `count` of its term (incremental maintenance of published-event counts). */
export async function adjustTermCounts(db: Executor, deltas: ReadonlyMap<number, number>): Promise<void> {
  for (const [termId, delta] of deltas) if (delta !== 0) await addToTermCount(db, [delta, termId]);
}

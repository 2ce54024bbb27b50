import type { PlannedIds } from '../../db/planned-ids.js';
import type { Executor } from '../../db/schema.js';
import type { Lists } from './lists.js';
import { eventReferences, isRecord, isSeries, sourceIdOf, type Json } from './map.js';
import { sourceOccurrences } from './overrides.js';
import * as records from './records.repository.js';
import type { ImportKind, ImportRecord } from './records.repository.js';
import { SINGULAR, type ImportOptions } from './run.js';

/*
 * `--keep-ids` (API.md §24): every item keeps its source id (posts and terms: separate sequences),
 * in copy mode every occurrence too. All ids are checked before the first write; then the
 * sequences move above the highest kept id, so that new items here never take an id the import
 * is about to use.
 */

/** TEC Pro's provisional occurrence ids start here: never kept (API.md §24). */
export const PROVISIONAL_IDS = 10_000_000;

const SEQUENCE_OF: Record<ImportKind, 'posts' | 'terms'> = {
  categories: 'terms',
  tags: 'terms',
  venues: 'posts',
  organizers: 'posts',
  events: 'posts',
};

type Progress = ImportOptions['progress'];

/** What a run will write, by kind and source id, and each series' occurrences by `recurrence_id`. */
export class KeptIds {
  readonly ids: Record<ImportKind, Set<number>> = {
    categories: new Set(),
    tags: new Set(),
    venues: new Set(),
    organizers: new Set(),
    events: new Set(),
  };
  readonly occurrences = new Map<number, Map<string, number>>();
  readonly warnings: string[] = [];

  add(kind: ImportKind, id: number | undefined): void {
    if (id !== undefined && id < PROVISIONAL_IDS) this.ids[kind].add(id);
  }

  planFor(kind: ImportKind, sourceId: number): PlannedIds | undefined {
    if (!this.ids[kind].has(sourceId)) return undefined;
    return { type: SINGULAR[kind], id: sourceId, occurrences: this.occurrences.get(sourceId) };
  }

  /** The highest id to keep in each sequence. */
  highest(): { posts: number; terms: number } {
    const top = { posts: 0, terms: 0 };
    for (const [kind, ids] of Object.entries(this.ids) as [ImportKind, Set<number>][])
      for (const id of ids) top[SEQUENCE_OF[kind]] = Math.max(top[SEQUENCE_OF[kind]], id);
    for (const byRecurrence of this.occurrences.values())
      for (const id of byRecurrence.values()) top.posts = Math.max(top.posts, id);
    return top;
  }
}

async function collect(
  lists: Lists,
  kind: ImportKind,
  query: Record<string, string | number>,
  progress: Progress,
  each: (entry: Json) => Promise<void> | void,
): Promise<void> {
  const report = progress?.(`checking ids: ${kind}`);
  let done = 0;
  for await (const outcome of lists.pages(kind, kind, query)) {
    if (!outcome.ok) continue;
    for (const entry of outcome.page.items) {
      if (isRecord(entry)) await each(entry);
      report?.(++done, Math.max(outcome.page.total, done));
    }
  }
  report?.(done, done);
}

/** A copy-mode series' occurrences, by `recurrence_id`; undefined when a page could not be read. */
async function occurrencesOf(lists: Lists, seriesId: number, withCredentials: boolean) {
  const { items, complete } = await sourceOccurrences(lists, seriesId, withCredentials);
  if (!complete) return undefined;
  const byRecurrence = new Map<string, number>();
  for (const entry of items) {
    const id = sourceIdOf(entry);
    if (id !== undefined && typeof entry.recurrence_id === 'string') byRecurrence.set(entry.recurrence_id, id);
  }
  return byRecurrence;
}

export interface SurveyQueries {
  readonly terms: Record<string, string | number>;
  readonly linked: Record<string, string | number>;
  readonly events: Record<string, string | number>;
  readonly statuses: string;
}

/** Reads every list the run will write from (kept in `lists`) and notes each id to keep. */
export async function surveyIds(lists: Lists, queries: SurveyQueries, progress?: Progress): Promise<KeptIds> {
  const kept = new KeptIds();
  for (const kind of ['categories', 'tags'] as const)
    await collect(lists, kind, queries.terms, progress, (entry) => kept.add(kind, sourceIdOf(entry)));
  for (const kind of ['venues', 'organizers'] as const)
    await collect(lists, kind, queries.linked, progress, (entry) => kept.add(kind, sourceIdOf(entry)));
  const withCredentials = queries.events.context === 'edit';
  await collect(lists, 'events', queries.events, progress, async (entry) => {
    const id = sourceIdOf(entry);
    kept.add('events', id);
    const refs = eventReferences(entry);
    kept.add('venues', sourceIdOf(refs.venue));
    for (const organizer of refs.organizers) kept.add('organizers', sourceIdOf(organizer));
    if (!lists.source.copyMode || !isSeries(entry) || id === undefined) return;
    const occurrences = await occurrencesOf(lists, id, withCredentials);
    if (occurrences) kept.occurrences.set(id, occurrences);
    else kept.warnings.push(`events #${id}: its occurrences could not be read, they get new ids here`);
  });
  const hidden = lists.source.copyMode ? undefined : await lists.hiddenEvents(queries.statuses);
  for (const id of hidden?.ids.keys() ?? []) kept.add('events', id);
  return kept;
}

const describe = (row: { id: number; type: string; slug: string }) =>
  `${row.type} #${row.id}${row.slug ? ` ${row.slug}` : ''}`;

/** Why an item cannot keep its id here, or undefined when it can. */
function conflictOf(
  kind: ImportKind,
  id: number,
  record: ImportRecord | undefined,
  holder: { id: number; type: string; slug: string } | undefined,
): string | undefined {
  if (record?.localId != null && record.localId !== id)
    return `${kind} #${id}: imported before as #${record.localId} (a run without --keep-ids)`;
  if (holder === undefined || record?.localId === id) return undefined;
  // An interrupted run created it before recording it: the same source item.
  if (record !== undefined && holder.type === SINGULAR[kind]) return undefined;
  return `${kind} #${id}: the id is taken here by ${describe(holder)}`;
}

/**
 * Every id the run would keep but cannot: taken here by anything but the same source item
 * (API.md §24). An occurrence id may be held only by an occurrence of the same series.
 */
export async function idConflicts(db: Executor, source: string, kept: KeptIds): Promise<string[]> {
  const conflicts: string[] = [];
  for (const kind of Object.keys(kept.ids) as ImportKind[]) {
    const ids = [...kept.ids[kind]];
    const recorded = await records.recordsOf(db, source, kind);
    const holders =
      SEQUENCE_OF[kind] === 'posts' ? await records.postsWithIds(db, ids) : await records.termsWithIds(db, ids);
    for (const id of ids) {
      const conflict = conflictOf(kind, id, recorded.get(id), holders.get(id));
      if (conflict) conflicts.push(conflict);
    }
  }
  for (const [seriesId, byRecurrence] of kept.occurrences) {
    const holders = await records.postsWithIds(db, [...byRecurrence.values()]);
    for (const [recurrenceId, id] of byRecurrence) {
      const holder = holders.get(id);
      if (holder && holder.seriesId !== seriesId)
        conflicts.push(
          `events #${seriesId} occurrence ${recurrenceId} #${id}: the id is taken here by ${describe(holder)}`,
        );
    }
  }
  return conflicts;
}

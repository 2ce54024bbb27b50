import type { FastifyInstance } from 'fastify';
import {
  eventBody,
  eventReferences,
  isRecord,
  isSeries,
  modifiedOf,
  organizerBody,
  parentOf,
  sourceIdOf,
  termBody,
  translationsOf,
  venueBody,
  type Json,
} from './map.js';
import type { ImportKind } from './records.repository.js';
import { ALL_STATUSES, KINDS, Run, SINGULAR, type ImportOptions, type ImportReport, type Planned } from './run.js';
import { discover, item, SourceUnusable, type Source } from './source.js';
import { Target } from './target.js';
import { copyOccurrences, sourceOccurrences } from './overrides.js';
import { SourceError } from './fetch.js';
import { Lists } from './lists.js';
import { idConflicts, surveyIds, type SurveyQueries } from './keep-ids.js';
import { raiseIdSequence } from './records.repository.js';

export { KINDS, type ImportOptions, type ImportReport } from './run.js';

const slugOf = (item: Json): string => (typeof item.slug === 'string' ? item.slug : '');

function statusOf(item: Json): string {
  return typeof item.status === 'string' && item.status !== '' ? item.status : 'publish';
}

/** Lists every page of a resource; yields the items, reporting failed pages and progress. */
async function* walk(
  run: Run,
  lists: Lists,
  options: ImportOptions,
  kind: ImportKind,
  query: Record<string, string | number>,
): AsyncGenerator<Json> {
  const progress = options.progress?.(kind);
  let done = 0;
  let total = 0;
  for await (const outcome of lists.pages(kind, kind, query)) {
    if (!outcome.ok) {
      run.pageFailed(kind, outcome.page, outcome.reason);
      continue;
    }
    total = Math.max(total, outcome.page.total);
    for (const entry of outcome.page.items) {
      if (isRecord(entry)) yield entry;
      progress?.(++done, Math.max(total, done));
    }
  }
  // A failed page leaves the bar short of its total: end it where the items did.
  if (done < total) progress?.(done, done);
}

/** Categories with every parent before its children (API.md §24); a parent missing from the list comes first as a root. */
function parentsFirst(items: Json[]): Json[] {
  const byId = new Map(items.map((entry) => [sourceIdOf(entry), entry]));
  const ordered: Json[] = [];
  const placed = new Set<number>();
  const place = (entry: Json, depth: number) => {
    const id = sourceIdOf(entry);
    if (id === undefined || placed.has(id)) return;
    const parent = byId.get(parentOf(entry));
    if (parent && depth < 100) place(parent, depth + 1);
    placed.add(id);
    ordered.push(entry);
  };
  for (const entry of items) place(entry, 0);
  return ordered;
}

async function importTerms(run: Run, lists: Lists, options: ImportOptions, kind: 'categories' | 'tags') {
  const items: Json[] = [];
  for await (const entry of walk(run, lists, options, kind, TERMS_QUERY)) items.push(entry);
  for (const listed of kind === 'categories' ? parentsFirst(items) : items) {
    const entry = await withTranslations(lists.source, kind, listed);
    const sourceId = sourceIdOf(entry);
    if (sourceId === undefined) continue;
    const parentId = parentOf(entry);
    let parent: number | undefined;
    if (kind === 'categories') {
      parent = parentId === 0 ? 0 : run.localId('categories', parentId);
      if (parent === undefined && !options.dryRun) {
        run.fail(kind, sourceId, slugOf(entry), `its parent category #${parentId} was not imported`);
        continue;
      }
    }
    await run.write({
      kind,
      sourceId,
      slug: slugOf(entry),
      body: termBody(entry, parent),
      languages: translationsOf(entry),
      modified: undefined,
    });
  }
}

/** Copy mode reads each term, venue and organizer with `context=edit` for its translations (API.md §18). */
async function withTranslations(source: Source, kind: ImportKind, entry: Json): Promise<Json> {
  if (!source.copyMode || !source.fetch.auth) return entry;
  const response = await item(source, `${kind}/${String(entry.id)}`, { context: 'edit' }).catch((error: unknown) => {
    if (error instanceof SourceError) return undefined;
    throw error;
  });
  return response?.status === 200 && isRecord(response.body) ? response.body : entry;
}

function linkedPlan(kind: 'venues' | 'organizers', entry: Json, sourceId: number): Planned {
  const status = statusOf(entry);
  return {
    kind,
    sourceId,
    slug: slugOf(entry),
    body: kind === 'venues' ? venueBody(entry, status) : organizerBody(entry, status),
    languages: translationsOf(entry),
    modified: modifiedOf(entry),
    nameField: kind === 'venues' ? 'venue' : 'organizer',
  };
}

async function importLinked(
  run: Run,
  lists: Lists,
  options: ImportOptions,
  kind: 'venues' | 'organizers',
  statuses: string,
) {
  for await (const entry of walk(run, lists, options, kind, { status: statuses })) {
    const sourceId = sourceIdOf(entry);
    if (sourceId === undefined) continue;
    await run.write(linkedPlan(kind, await withTranslations(lists.source, kind, entry), sourceId));
  }
}

/** A linked item an event embeds but no list showed (e.g. a venue the lists hide): imported from the event. */
async function ensureLinked(run: Run, source: Source, kind: 'venues' | 'organizers', embedded: Json) {
  const sourceId = sourceIdOf(embedded);
  if (sourceId === undefined) return undefined;
  if (run.isDone(kind, sourceId) || run.hasFailed(kind, sourceId)) return run.localId(kind, sourceId);
  return run.write(linkedPlan(kind, await withTranslations(source, kind, embedded), sourceId));
}

async function eventLinks(run: Run, source: Source, entry: Json, sourceId: number) {
  const refs = eventReferences(entry);
  const missing: string[] = [];
  const venue = refs.venue ? await ensureLinked(run, source, 'venues', refs.venue) : undefined;
  if (refs.venue && venue === undefined) missing.push(`venue #${String(refs.venue.id)}`);
  const organizers: number[] = [];
  for (const organizer of refs.organizers) {
    const id = await ensureLinked(run, source, 'organizers', organizer);
    if (id === undefined) missing.push(`organizer #${String(organizer.id)}`);
    else organizers.push(id);
  }
  const terms = (kind: 'categories' | 'tags', ids: number[]) =>
    ids.flatMap((id) => {
      const local = run.localId(kind, id);
      if (local === undefined) missing.push(`${SINGULAR[kind]} #${id}`);
      return local === undefined ? [] : [local];
    });
  const links = {
    venue: venue ?? null,
    organizers,
    categories: terms('categories', refs.categories),
    tags: terms('tags', refs.tags),
  };
  if (missing.length > 0)
    run.warnings.push(`events #${sourceId}: written without ${missing.join(', ')} (not imported)`);
  return links;
}

/** Copy mode: a series' occurrences, and the write that makes the local ones match them. */
async function occurrencePlan(run: Run, lists: Lists, options: ImportOptions, entry: Json, sourceId: number) {
  if (!lists.source.copyMode || !isSeries(entry)) return {};
  const occurrences = await sourceOccurrences(lists, sourceId, options.auth !== undefined);
  const afterWrite = async (localId: number, target: Target) => {
    const linksOf = (item: Json) => eventLinks(run, lists.source, item, sourceId);
    for (const warning of await copyOccurrences(target, localId, occurrences, linksOf))
      run.warnings.push(`events #${sourceId}: ${warning}`);
    if (!occurrences.complete)
      run.warnings.push(`events #${sourceId}: not every page of its occurrences could be read`);
  };
  return { occurrences, afterWrite };
}

async function writeEvent(run: Run, lists: Lists, options: ImportOptions, entry: Json, protectedAtSource: boolean) {
  const sourceId = sourceIdOf(entry);
  if (sourceId === undefined) return;
  const slug = slugOf(entry);
  // TEC never shows passwords: a protected event comes in as a draft, flagged (API.md §24).
  const status = protectedAtSource ? 'draft' : statusOf(entry);
  if (protectedAtSource)
    run.warnings.push(
      `events #${sourceId} ${slug}: password-protected at the source; imported as a draft without its password`,
    );
  const links =
    options.dryRun && run.isDone('events', sourceId) ? undefined : await eventLinks(run, lists.source, entry, sourceId);
  await run.write({
    kind: 'events',
    sourceId,
    slug,
    body: eventBody(entry, status, links ?? { venue: null, organizers: [], categories: [], tags: [] }),
    languages: translationsOf(entry),
    modified: modifiedOf(entry),
    ...(lists.source.copyMode && typeof entry.ical_uid === 'string' && entry.ical_uid !== ''
      ? { icalUid: entry.ical_uid }
      : {}),
    ...(await occurrencePlan(run, lists, options, entry, sourceId)),
  });
}

const TERMS_QUERY = { hide_empty: 'false' };

/**
 * Events as the run lists them. context=edit is for editors: without credentials a copy has the
 * published, listed events only. Series are copied whole, with their rules: the target expands
 * their occurrences (API.md §24).
 */
function eventsQuery(source: Source, options: ImportOptions, statuses: string): Record<string, string | number> {
  return {
    start_date: '1900-01-01',
    end_date: '2200-12-31',
    status: statuses,
    ...(source.copyMode ? { expand: 'false' } : {}),
    ...(source.copyMode && options.auth ? { context: 'edit' } : {}),
  };
}

async function importEvents(run: Run, lists: Lists, options: ImportOptions, statuses: string) {
  const { source } = lists;
  const listed = new Set<number>();
  const hidden = source.copyMode ? undefined : await lists.hiddenEvents(statuses);
  if (source.copyMode && !options.auth) {
    run.markIncomplete('events');
    run.warnings.push(
      'copy mode without --auth: events hidden from listings, drafts, passwords and translations are not copied',
    );
  }
  for await (const entry of walk(run, lists, options, 'events', eventsQuery(source, options, statuses))) {
    const sourceId = sourceIdOf(entry);
    if (sourceId !== undefined) listed.add(sourceId);
    await writeEvent(
      run,
      lists,
      options,
      entry,
      sourceId !== undefined && (hidden?.ids.get(sourceId)?.protected ?? false),
    );
  }
  if (source.copyMode) return;
  if (!hidden) {
    run.markIncomplete('events');
    run.warnings.push(
      'events hidden from listings could not be found: the source has no wp/v2/tribe_events route, and TEC lists never show them',
    );
    return;
  }
  if (hidden.failures.length > 0) run.markIncomplete('events');
  for (const reason of hidden.failures) run.warnings.push(`wp/v2/tribe_events ${reason}`);
  for (const [id, { protected: isProtected }] of hidden.ids) {
    if (listed.has(id)) continue;
    const response = await item(source, `events/${id}`).catch((error: unknown) => {
      if (error instanceof SourceError) return error;
      throw error;
    });
    if (response instanceof SourceError) run.fail('events', id, '', response.message);
    else if (response.status !== 200 || !isRecord(response.body))
      run.fail(
        'events',
        id,
        '',
        `HTTP ${response.status}${isRecord(response.body) ? ` ${String(response.body.code)}` : ''}`,
      );
    else await writeEvent(run, lists, options, response.body, isProtected);
  }
}

/**
 * `--keep-ids` (API.md §24): reads every list, checks that each id is free here (or already this
 * source's item), and moves the sequences above the highest; a conflict stops the run before any
 * write, listing them all.
 */
async function checkedIds(app: FastifyInstance, lists: Lists, options: ImportOptions, statuses: string) {
  const queries: SurveyQueries = {
    terms: TERMS_QUERY,
    linked: { status: statuses },
    events: eventsQuery(lists.source, options, statuses),
    statuses,
  };
  const kept = await surveyIds(lists, queries, options.progress);
  const db = app.calendar.db;
  const conflicts = await idConflicts(db, lists.source.root, kept);
  if (conflicts.length > 0)
    throw new SourceUnusable(
      [`--keep-ids: ${conflicts.length} of the source's ids are taken here; nothing was written:`, ...conflicts].join(
        '\n  ',
      ),
    );
  if (!options.dryRun) {
    const highest = kept.highest();
    await raiseIdSequence(db, 'posts', highest.posts);
    await raiseIdSequence(db, 'terms', highest.terms);
  }
  return kept;
}

/**
 * `import:tec` (API.md §24): reads a TEC site (or, in copy mode, another installation of this
 * service) and writes everything here through the API. Throws SourceUnusable (exit 2, nothing
 * written) when the source cannot be used; every other problem is a failed item in the report.
 */
export async function importTec(app: FastifyInstance, options: ImportOptions): Promise<ImportReport> {
  const fetch = {
    auth: options.auth,
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
    retryDelaysMs: options.retryDelaysMs,
    onRetry: options.onRetry,
  };
  const source = await discover(options.site, options.namespace, fetch);
  const statuses = options.auth ? ALL_STATUSES : 'publish';
  const lists = new Lists(source, options.keepIds === true);
  const kept = options.keepIds ? await checkedIds(app, lists, options, statuses) : undefined;
  const now = () => Math.floor(Date.now() / 1000);
  const target = await Target.open(app, now());
  try {
    const run = new Run(source, target, options, now, kept);
    await run.load();
    await importTerms(run, lists, options, 'categories');
    await importTerms(run, lists, options, 'tags');
    await importLinked(run, lists, options, 'venues', statuses);
    await importLinked(run, lists, options, 'organizers', statuses);
    await importEvents(run, lists, options, statuses);
    for (const kind of KINDS) run.reportVanished(kind);
    return {
      source: source.root,
      copyMode: source.copyMode,
      dryRun: options.dryRun,
      tallies: run.tallies,
      failures: run.failures,
      warnings: run.warnings,
    };
  } finally {
    await target.close();
  }
}

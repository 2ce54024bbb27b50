import type { FastifyInstance } from 'fastify';
import {
  eventBody,
  eventReferences,
  fingerprint,
  isRecord,
  modifiedOf,
  organizerBody,
  parentOf,
  sourceIdOf,
  termBody,
  translationsOf,
  venueBody,
  type Json,
} from './map.js';
import * as records from './records.repository.js';
import type { ImportKind, ImportRecord } from './records.repository.js';
import { discover, item, pages, wpEventIds, type Source } from './source.js';
import { Target, TargetRefusal } from './target.js';
import { findPostIdBySlug } from '../posts/posts.repository.js';
import { SourceError } from './fetch.js';

export const KINDS: readonly ImportKind[] = ['categories', 'tags', 'venues', 'organizers', 'events'];

export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export interface ImportReport {
  readonly source: string;
  readonly copyMode: boolean;
  readonly dryRun: boolean;
  readonly tallies: Record<ImportKind, Tally>;
  /** `{resource} #{source id} {slug}: {reason}` (API.md §24). */
  readonly failures: string[];
  readonly warnings: string[];
}

export interface ImportOptions {
  readonly site: string;
  readonly namespace?: string;
  /** `login:application-password` at the source. */
  readonly auth?: string;
  readonly dryRun: boolean;
  /** Only items modified at or after this instant (seconds) are written; terms always are. */
  readonly since?: number;
  readonly allowPrivate: boolean;
  readonly retryDelaysMs?: readonly number[];
  readonly timeoutMs?: number;
  /** A progress reporter per resource: called with items done and the total known so far. */
  readonly progress?: (kind: ImportKind) => (done: number, total: number) => void;
  readonly onRetry?: (url: string, reason: string, delayMs: number) => void;
}

type Outcome = 'created' | 'updated' | 'unchanged';

const SINGULAR: Record<ImportKind, string> = {
  categories: 'category',
  tags: 'tag',
  venues: 'venue',
  organizers: 'organizer',
  events: 'event',
};
const POST_TYPE: Partial<Record<ImportKind, string>> = { venues: 'venue', organizers: 'organizer', events: 'event' };
const ALL_STATUSES = 'publish,future,draft,pending,private';

/** One item to write: its body in the original language and the other languages' text. */
interface Planned {
  kind: ImportKind;
  sourceId: number;
  slug: string;
  body: Json;
  /** Original language first (copy mode); empty from TEC (DEFAULT_LANGUAGE, API.md §24). */
  languages: { lang: string; fields: Record<string, string> }[];
  modified: number | undefined;
  /** The name field, for the duplicate-reuse work-around of venues and organizers. */
  nameField?: 'venue' | 'organizer';
}

class Run {
  readonly tallies = Object.fromEntries(
    KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0, failed: 0 }]),
  ) as Record<ImportKind, Tally>;
  readonly failures: string[] = [];
  readonly warnings: string[] = [];
  private readonly records = new Map<ImportKind, Map<number, ImportRecord>>();
  /** Local ids of source items, by kind: recorded ones and those written in this run. */
  private readonly local = new Map<ImportKind, Map<number, number>>();
  private readonly done = new Map<ImportKind, Set<number>>();
  private readonly failed = new Map<ImportKind, Set<number>>();
  /** Resources with a page that could not be read. */
  private readonly incomplete = new Set<ImportKind>();

  constructor(
    private readonly source: Source,
    private readonly target: Target,
    private readonly options: ImportOptions,
    private readonly now: () => number,
  ) {}

  async load(): Promise<void> {
    for (const kind of KINDS) {
      const byId = await records.recordsOf(this.target.db, this.source.root, kind);
      this.records.set(kind, byId);
      this.local.set(
        kind,
        new Map([...byId].filter(([, r]) => r.localId !== null).map(([id, r]) => [id, r.localId as number])),
      );
      this.done.set(kind, new Set());
      this.failed.set(kind, new Set());
    }
  }

  localId(kind: ImportKind, sourceId: number): number | undefined {
    return this.local.get(kind)?.get(sourceId);
  }

  hasFailed(kind: ImportKind, sourceId: number): boolean {
    return this.failed.get(kind)?.has(sourceId) ?? false;
  }

  isDone(kind: ImportKind, sourceId: number): boolean {
    return this.done.get(kind)?.has(sourceId) ?? false;
  }

  fail(kind: ImportKind, sourceId: number, slug: string, reason: string): void {
    this.tallies[kind].failed++;
    this.failed.get(kind)?.add(sourceId);
    this.done.get(kind)?.add(sourceId);
    this.failures.push(`${kind} #${sourceId}${slug ? ` ${slug}` : ''}: ${reason}`);
  }

  /**
   * Items imported by earlier runs that the source no longer has: left in place, reported
   * (API.md §24). Only said when every page of the resource was read: a failed page hides items.
   */
  reportVanished(kind: ImportKind): void {
    if (this.incomplete.has(kind)) return;
    const done = this.done.get(kind) ?? new Set();
    const gone = [...(this.records.get(kind) ?? new Map<number, ImportRecord>())]
      .filter(([sourceId, record]) => record.localId !== null && !done.has(sourceId))
      .map(([sourceId]) => `#${sourceId}`);
    if (gone.length === 0) return;
    const shown = gone.slice(0, 10).join(', ') + (gone.length > 10 ? ', …' : '');
    this.warnings.push(`${kind}: ${gone.length} imported before, no longer at the source, left in place (${shown})`);
  }

  /** Not every item of the resource could be seen (a failed page, a missing route). */
  markIncomplete(kind: ImportKind): void {
    this.incomplete.add(kind);
  }

  pageFailed(kind: ImportKind, page: number, reason: string): void {
    this.markIncomplete(kind);
    this.tallies[kind].failed++;
    this.failures.push(`${kind} page ${page}: ${reason}`);
  }

  /** Writes one item (one transaction here, API.md §24); failures are recorded, never thrown. */
  async write(planned: Planned): Promise<number | undefined> {
    const { kind, sourceId, slug } = planned;
    if (this.isDone(kind, sourceId)) return this.localId(kind, sourceId);
    this.done.get(kind)?.add(sourceId);
    try {
      const outcome = await this.upsert(planned);
      this.tallies[kind][outcome]++;
      return this.localId(kind, sourceId);
    } catch (error) {
      if (error instanceof TargetRefusal || error instanceof ImportRefusal) {
        this.fail(kind, sourceId, slug, error.message);
        return undefined;
      }
      throw error;
    }
  }

  private async upsert(planned: Planned): Promise<Outcome> {
    const { kind, sourceId } = planned;
    const record = this.records.get(kind)?.get(sourceId);
    const print = fingerprint({ body: planned.body, languages: planned.languages });
    const terms = kind === 'categories' || kind === 'tags';
    const old =
      this.options.since !== undefined && planned.modified !== undefined && planned.modified < this.options.since;
    if (record?.localId != null && (record.fingerprint === print || (old && !terms))) return 'unchanged';
    if (record?.localId == null && old && !terms) return 'unchanged';
    let localId = record?.localId ?? undefined;
    if (localId !== undefined && !this.options.dryRun && !(await this.target.exists(kind, localId)))
      localId = undefined;
    if (localId === undefined) localId = await this.adoptable(planned, record !== undefined);
    if (this.options.dryRun) return localId === undefined ? 'created' : 'updated';
    const at = this.now();
    if (localId === undefined) {
      await records.reserve(this.target.db, this.source.root, kind, sourceId, at);
      localId = await this.create(planned);
      this.local.get(kind)?.set(sourceId, localId);
      await this.translate(planned, localId);
      await records.complete(this.target.db, this.source.root, kind, sourceId, { localId, fingerprint: print }, at);
      return 'created';
    }
    await this.target.update(kind, localId, this.original(planned).body, this.original(planned).lang);
    this.local.get(kind)?.set(sourceId, localId);
    await this.translate(planned, localId);
    await records.complete(this.target.db, this.source.root, kind, sourceId, { localId, fingerprint: print }, at);
    return 'updated';
  }

  /** The body in the item's original language (copy mode), and that language. */
  private original(planned: Planned): { body: Json; lang: string | undefined } {
    const [first] = planned.languages;
    if (!first) return { body: planned.body, lang: undefined };
    return { body: { ...planned.body, ...first.fields }, lang: first.lang };
  }

  private async translate(planned: Planned, localId: number): Promise<void> {
    for (const { lang, fields } of planned.languages.slice(1)) {
      if (Object.keys(fields).length > 0) await this.target.update(planned.kind, localId, fields, lang);
    }
  }

  /**
   * The local item a first write may take over: the one an interrupted run created (its record
   * has no local id yet) and that carries the source's slug. Otherwise a local item holding the
   * slug belongs to somebody else: the item fails (`slug taken`, API.md §24), never renamed.
   */
  private async adoptable(planned: Planned, interrupted: boolean): Promise<number | undefined> {
    if (planned.slug === '') return undefined;
    const holder = await this.slugHolder(planned.kind, planned.slug);
    if (holder === undefined) return undefined;
    if (interrupted && !(await records.isRecordedLocal(this.target.db, planned.kind, holder))) return holder;
    throw new ImportRefusal('slug taken');
  }

  private async slugHolder(kind: ImportKind, slug: string): Promise<number | undefined> {
    const type = POST_TYPE[kind];
    if (type) return findPostIdBySlug(this.target.db, type, slug);
    return records.termIdBySlug(this.target.db, kind === 'categories' ? 'category' : 'tag', slug);
  }

  /**
   * Creates the item. A venue or organizer whose name and description equal an existing one's
   * would be answered with that one (TEC's duplicate reuse, API.md §13), which an import must not
   * do (§24): then it is created under a name of its own and renamed at once.
   */
  private async create(planned: Planned): Promise<number> {
    const { body, lang } = this.original(planned);
    const written = await this.target.create(planned.kind, body, lang);
    const reused = planned.nameField !== undefined && planned.slug !== '' && written.slug !== planned.slug;
    if (!reused || !planned.nameField) return written.id;
    const name = String(body[planned.nameField]);
    const own = await this.target.create(
      planned.kind,
      { ...body, [planned.nameField]: `${name} (import #${planned.sourceId})` },
      lang,
    );
    await this.target.update(planned.kind, own.id, { [planned.nameField]: name }, lang);
    return own.id;
  }
}

/** An item this run refuses to write (as opposed to one the API refused). */
class ImportRefusal extends Error {}

const slugOf = (item: Json): string => (typeof item.slug === 'string' ? item.slug : '');

function statusOf(item: Json): string {
  return typeof item.status === 'string' && item.status !== '' ? item.status : 'publish';
}

/** Lists every page of a resource; yields the items, reporting failed pages and progress. */
async function* walk(
  run: Run,
  source: Source,
  options: ImportOptions,
  kind: ImportKind,
  query: Record<string, string | number>,
): AsyncGenerator<Json> {
  const progress = options.progress?.(kind);
  let done = 0;
  let total = 0;
  for await (const outcome of pages(source, `${kind}`, kind, query)) {
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

async function importTerms(run: Run, source: Source, options: ImportOptions, kind: 'categories' | 'tags') {
  const items: Json[] = [];
  for await (const entry of walk(run, source, options, kind, { hide_empty: 'false' })) items.push(entry);
  for (const listed of kind === 'categories' ? parentsFirst(items) : items) {
    const entry = await withTranslations(source, kind, listed);
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
  source: Source,
  options: ImportOptions,
  kind: 'venues' | 'organizers',
  statuses: string,
) {
  for await (const entry of walk(run, source, options, kind, { status: statuses })) {
    const sourceId = sourceIdOf(entry);
    if (sourceId === undefined) continue;
    await run.write(linkedPlan(kind, await withTranslations(source, kind, entry), sourceId));
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

async function writeEvent(run: Run, source: Source, options: ImportOptions, entry: Json, protectedAtSource: boolean) {
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
    options.dryRun && run.isDone('events', sourceId) ? undefined : await eventLinks(run, source, entry, sourceId);
  await run.write({
    kind: 'events',
    sourceId,
    slug,
    body: eventBody(entry, status, links ?? { venue: null, organizers: [], categories: [], tags: [] }),
    languages: translationsOf(entry),
    modified: modifiedOf(entry),
  });
}

async function importEvents(run: Run, source: Source, options: ImportOptions, statuses: string) {
  const listed = new Set<number>();
  const hidden = source.copyMode ? undefined : await wpEventIds(source, statuses);
  const query: Record<string, string | number> = { start_date: '1900-01-01', end_date: '2200-12-31', status: statuses };
  // context=edit is for editors: without credentials a copy has the published, listed events only.
  if (source.copyMode && options.auth) query.context = 'edit';
  else if (source.copyMode) {
    run.markIncomplete('events');
    run.warnings.push(
      'copy mode without --auth: events hidden from listings, drafts, passwords and translations are not copied',
    );
  }
  for await (const entry of walk(run, source, options, 'events', query)) {
    const sourceId = sourceIdOf(entry);
    if (sourceId !== undefined) listed.add(sourceId);
    await writeEvent(
      run,
      source,
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
    else await writeEvent(run, source, options, response.body, isProtected);
  }
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
  const now = () => Math.floor(Date.now() / 1000);
  const target = await Target.open(app, now());
  try {
    const run = new Run(source, target, options, now);
    await run.load();
    const statuses = options.auth ? ALL_STATUSES : 'publish';
    await importTerms(run, source, options, 'categories');
    await importTerms(run, source, options, 'tags');
    await importLinked(run, source, options, 'venues', statuses);
    await importLinked(run, source, options, 'organizers', statuses);
    await importEvents(run, source, options, statuses);
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

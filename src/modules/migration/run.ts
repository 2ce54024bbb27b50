import { fingerprint, type Json } from './map.js';
import * as records from './records.repository.js';
import type { ImportKind, ImportRecord } from './records.repository.js';
import type { Source } from './source.js';
import { TargetRefusal, type Target } from './target.js';
import { findPostIdBySlug } from '../posts/posts.repository.js';
import type { PlannedIds } from '../../db/planned-ids.js';
import type { KeptIds } from './keep-ids.js';
import type { SourceOccurrences } from './overrides.js';

/*
 * One run of `import:tec` (API.md §24): what it has written so far, its tallies, failures and
 * warnings, and the write of one item: unchanged, created or updated, each through the API.
 */

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
  /** Every item keeps its source id (API.md §24). */
  readonly keepIds?: boolean;
  /** Only items modified at or after this instant (seconds) are written; terms always are. */
  readonly since?: number;
  readonly allowPrivate: boolean;
  readonly retryDelaysMs?: readonly number[];
  readonly timeoutMs?: number;
  /** A progress reporter per resource or step: called with items done and the total known so far. */
  readonly progress?: (label: string) => (done: number, total: number) => void;
  readonly onRetry?: (url: string, reason: string, delayMs: number) => void;
}

type Outcome = 'created' | 'updated' | 'unchanged';

export const SINGULAR: Record<ImportKind, string> = {
  categories: 'category',
  tags: 'tag',
  venues: 'venue',
  organizers: 'organizer',
  events: 'event',
};
const POST_TYPE: Partial<Record<ImportKind, string>> = { venues: 'venue', organizers: 'organizer', events: 'event' };
export const ALL_STATUSES = 'publish,future,draft,pending,private';

/** One item to write: its body in the original language and the other languages' text. */
export interface Planned {
  kind: ImportKind;
  sourceId: number;
  slug: string;
  body: Json;
  /** Original language first (copy mode); empty from TEC (DEFAULT_LANGUAGE, API.md §24). */
  languages: { lang: string; fields: Record<string, string> }[];
  modified: number | undefined;
  /** The name field, for the duplicate-reuse work-around of venues and organizers. */
  nameField?: 'venue' | 'organizer';
  /** Copy mode: the event's iCalendar UID at the source, kept when it is created here. */
  icalUid?: string;
  /** A copy-mode series' occurrences at the source: part of what makes it changed. */
  occurrences?: SourceOccurrences;
  /** What follows a write of the item (a series' overrides), before it is recorded as done. */
  afterWrite?: (localId: number, target: Target) => Promise<void>;
}

export class Run {
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
    /** `--keep-ids`: the id each item keeps. */
    private readonly kept?: KeptIds,
  ) {
    this.warnings.push(...(kept?.warnings ?? []));
  }

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
    const print = fingerprint({
      body: planned.body,
      languages: planned.languages,
      ...(planned.occurrences ? { occurrences: planned.occurrences.items } : {}),
    });
    const terms = kind === 'categories' || kind === 'tags';
    const old =
      this.options.since !== undefined && planned.modified !== undefined && planned.modified < this.options.since;
    if (record?.localId != null && (record.fingerprint === print || (old && !terms))) return 'unchanged';
    if (record?.localId == null && old && !terms) return 'unchanged';
    let localId = record?.localId ?? undefined;
    if (localId !== undefined && !this.options.dryRun && !(await this.target.exists(kind, localId)))
      localId = undefined;
    const plan = this.kept?.planFor(kind, sourceId);
    if (localId === undefined) localId = await this.adoptable(planned, record !== undefined, plan);
    if (this.options.dryRun) return localId === undefined ? 'created' : 'updated';
    const at = this.now();
    if (localId === undefined) {
      await records.reserve(this.target.db, this.source.root, kind, sourceId, at);
      localId = await this.create(planned, await this.withIcalUid(planned, plan));
      this.local.get(kind)?.set(sourceId, localId);
      await this.translate(planned, localId);
      await planned.afterWrite?.(localId, this.target);
      await records.complete(this.target.db, this.source.root, kind, sourceId, { localId, fingerprint: print }, at);
      return 'created';
    }
    const { body, lang } = this.original(planned);
    await this.target.update(kind, localId, body, lang, plan);
    this.local.get(kind)?.set(sourceId, localId);
    await this.translate(planned, localId);
    await planned.afterWrite?.(localId, this.target);
    await records.complete(this.target.db, this.source.root, kind, sourceId, { localId, fingerprint: print }, at);
    return 'updated';
  }

  /** The body in the item's original language (copy mode), and that language. */
  private original(planned: Planned): { body: Json; lang: string | undefined } {
    const [first] = planned.languages;
    if (!first) return { body: planned.body, lang: undefined };
    return { body: { ...planned.body, ...first.fields }, lang: first.lang };
  }

  /**
   * Copy mode keeps a new event's iCalendar UID (API.md §24), unless an event here has it already
   * (one imported from a feed, say): then it gets a UID of its own, with a warning.
   */
  private async withIcalUid(planned: Planned, plan: PlannedIds | undefined): Promise<PlannedIds | undefined> {
    const uid = planned.icalUid;
    if (uid === undefined) return plan;
    if (await records.icalUidTaken(this.target.db, uid)) {
      this.warnings.push(`events #${planned.sourceId} ${planned.slug}: its UID ${uid} is taken here, given a new one`);
      return plan;
    }
    return { ...plan, type: SINGULAR[planned.kind], icalUid: uid };
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
  private async adoptable(
    planned: Planned,
    interrupted: boolean,
    plan: PlannedIds | undefined,
  ): Promise<number | undefined> {
    // With --keep-ids the item an interrupted run created holds the kept id (checked before writing).
    const kept = plan?.id;
    if (interrupted && kept !== undefined && (await this.target.exists(planned.kind, kept))) return kept;
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
  private async create(planned: Planned, plan: PlannedIds | undefined): Promise<number> {
    const { body, lang } = this.original(planned);
    const written = await this.target.create(planned.kind, body, lang, plan);
    const reused = planned.nameField !== undefined && planned.slug !== '' && written.slug !== planned.slug;
    if (!reused || !planned.nameField) return written.id;
    const name = String(body[planned.nameField]);
    const own = await this.target.create(
      planned.kind,
      { ...body, [planned.nameField]: `${name} (import #${planned.sourceId})` },
      lang,
      plan,
    );
    await this.target.update(planned.kind, own.id, { [planned.nameField]: name }, lang);
    return own.id;
  }
}

/** An item this run refuses to write (as opposed to one the API refused). */
class ImportRefusal extends Error {}

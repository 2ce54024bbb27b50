import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Role } from '../../src/auth/capabilities.js';
import type { TestApi, TestResponse } from './app.js';
import { DEFAULT_NOW, useTestApp } from './app.js';
import { testDialects } from './databases.js';
import { nextSlot } from './fixtures.js';

// The role × route × object permission matrix of issue 23 (API.md §4, §13, §14, §17, §18 and
// docs/api.md "Roles and permissions"). The expected outcome of every case comes from `expected()`,
// an oracle written from the contract's capability table, never from the implementation. Each case
// is run against the real API; disagreements are collected as violations and reported together.

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export type Actor = Role | 'anonymous';
export const ACTORS: readonly Actor[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber', 'anonymous'];

/** Roles that may create posts, and so may own one (§4 "create events, venues, organizers"). */
const CREATORS: readonly Actor[] = ['administrator', 'editor', 'author', 'contributor'];
/** Roles that may publish (§4). */
const PUBLISHERS: readonly Actor[] = ['administrator', 'editor', 'author'];
/** Roles that may edit and delete others' posts (§4), and delete permanently (§13, §17). */
const EDITORS: readonly Actor[] = ['administrator', 'editor'];

export type Owner = 'own' | 'other';

/** The objects a case can act on: each status, trashed after publication or as a draft, and password-protected events. */
export type Kind =
  'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash-was-publish' | 'trash-was-draft' | 'password';

export const POST_KINDS: readonly Kind[] = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash-was-publish',
  'trash-was-draft',
];
export const EVENT_KINDS: readonly Kind[] = [...POST_KINDS, 'password'];

export type Operation = 'update' | 'trash' | 'force';
export type By = 'id' | 'slug';
export type Method = 'PATCH' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  readonly method: Method;
  readonly by: By;
  readonly op: Operation;
}

/** Every write route of an item, by id and by slug: PATCH update, DELETE (trash), DELETE force=true. */
export const ITEM_ROUTES: readonly Route[] = (['id', 'slug'] as const).flatMap((by) => [
  { method: 'PATCH' as const, by, op: 'update' as const },
  { method: 'DELETE' as const, by, op: 'trash' as const },
  { method: 'DELETE' as const, by, op: 'force' as const },
]);

/** POST and PUT updates (the same partial update as PATCH, §1, §13), on a sample of kinds. */
export const SAMPLE_ROUTES: readonly Route[] = [
  { method: 'POST', by: 'id', op: 'update' },
  { method: 'PUT', by: 'slug', op: 'update' },
  { method: 'POST', by: 'slug', op: 'update' },
  { method: 'PUT', by: 'id', op: 'update' },
];
export const SAMPLE_KINDS: readonly Kind[] = ['publish', 'draft', 'trash-was-publish'];

export interface Resource {
  readonly path: '/events' | '/venues' | '/organizers';
  readonly singular: 'event' | 'venue' | 'organizer';
  /** The name field of create and update bodies. */
  readonly nameField: 'title' | 'venue' | 'organizer';
  readonly kinds: readonly Kind[];
  /** Fields a create needs besides the name. */
  readonly required: () => Record<string, unknown>;
}

export const EVENTS: Resource = {
  path: '/events',
  singular: 'event',
  nameField: 'title',
  kinds: EVENT_KINDS,
  required: () => ({ ...nextSlot(), timezone: 'UTC' }),
};
export const VENUES: Resource = {
  path: '/venues',
  singular: 'venue',
  nameField: 'venue',
  kinds: POST_KINDS,
  required: () => ({}),
};
export const ORGANIZERS: Resource = {
  path: '/organizers',
  singular: 'organizer',
  nameField: 'organizer',
  kinds: POST_KINDS,
  required: () => ({}),
};

export interface Expected {
  readonly status: number;
  readonly code?: string;
}

function denied(actor: Actor): Expected {
  return { status: actor === 'anonymous' ? 401 : 403, code: 'rest_forbidden' };
}

/** The status an item's edit rights are judged by: a trashed item's status before the trash (§18). */
function judgedStatus(kind: Kind): string {
  if (kind === 'trash-was-publish' || kind === 'password') return 'publish';
  if (kind === 'trash-was-draft') return 'draft';
  return kind;
}

function isTrashed(kind: Kind): boolean {
  return kind === 'trash-was-publish' || kind === 'trash-was-draft';
}

/**
 * §4: "edit / delete own posts": administrator, editor, author; contributor only while not
 * published (publish or future, docs/api.md); "edit / delete others' posts": administrator, editor.
 */
export function mayEdit(actor: Actor, owner: Owner, kind: Kind): boolean {
  if (EDITORS.includes(actor)) return true;
  if (owner !== 'own' || !CREATORS.includes(actor)) return false;
  if (PUBLISHERS.includes(actor)) return true;
  return !['publish', 'future'].includes(judgedStatus(kind));
}

/** The oracle of an item write (§4, §13, §17 force, §18 trash). */
export function expected(resource: Resource, actor: Actor, owner: Owner, kind: Kind, op: Operation): Expected {
  if (!mayEdit(actor, owner, kind)) return denied(actor);
  if (op === 'force' && !EDITORS.includes(actor)) return denied(actor);
  if (op === 'trash' && isTrashed(kind)) return { status: 410, code: `${resource.singular}-is-in-trash` };
  return { status: 200 };
}

/** The oracle of a create: contributors and up (§4, §7), with the status scaled by role. */
export function expectedCreate(actor: Actor, requested: string | undefined): Expected & { postStatus?: string } {
  if (!CREATORS.includes(actor)) return denied(actor);
  if (PUBLISHERS.includes(actor)) return { status: 201, postStatus: requested ?? 'publish' };
  if (requested === undefined) return { status: 201, postStatus: 'draft' };
  const scaled = ['publish', 'future', 'private'].includes(requested) ? 'pending' : requested;
  return { status: 201, postStatus: scaled };
}

/** The oracle of category and tag writes (§4 "manage categories" / "manage tags"). */
export function expectedTerm(taxonomy: 'categories' | 'tags', actor: Actor, created: boolean): Expected {
  const managers: readonly Actor[] =
    taxonomy === 'categories' ? ['administrator', 'editor', 'author'] : ['administrator', 'editor'];
  if (!managers.includes(actor)) return denied(actor);
  return { status: created ? 201 : 200 };
}

export interface ItemCase {
  readonly actor: Actor;
  readonly owner: Owner;
  readonly kind: Kind;
  readonly route: Route;
}

/** Owners a role can act on: its own posts only if it can create them (§4), always others'. */
export function ownersOf(actor: Actor): readonly Owner[] {
  return CREATORS.includes(actor) ? ['own', 'other'] : ['other'];
}

/** The cases of one resource for one role: every route on every kind, plus POST/PUT on a sample. */
export function itemCases(resource: Resource, actor: Actor): ItemCase[] {
  const cases: ItemCase[] = [];
  for (const owner of ownersOf(actor)) {
    for (const kind of resource.kinds) {
      for (const route of ITEM_ROUTES) cases.push({ actor, owner, kind, route });
      if (SAMPLE_KINDS.includes(kind)) for (const route of SAMPLE_ROUTES) cases.push({ actor, owner, kind, route });
    }
  }
  return cases;
}

export function label(resource: Resource, c: ItemCase): string {
  const flag = c.route.op === 'force' ? '?force=true' : '';
  return `${c.actor} ${c.route.method} ${resource.path}/${c.route.by === 'id' ? '{id}' : 'by-slug/{slug}'}${flag} on ${c.owner} ${c.kind}`;
}

// ---------------------------------------------------------------------------------------------
// Running the cases

let sequence = 0;
let tick = 0;

/** Moves the app's clock one second on, so any write stamps a new `modified` (seen by `fingerprint`). */
export function advanceClock(api: TestApi): void {
  tick += 1;
  api.now = new Date(DEFAULT_NOW.getTime() + tick * 1000);
}

export interface Item {
  readonly id: number;
  readonly slug: string;
  readonly kind: Kind;
}

const others = new WeakMap<TestApi, Promise<number>>();

/** The owner of "other's" items: an author (who could own items of every status) other than the caller. */
export function otherOwner(api: TestApi): Promise<number> {
  let id = others.get(api);
  if (!id) {
    id = api.otherUser('author', 'matrix-other-author').then((user) => user.id);
    others.set(api, id);
  }
  return id;
}

export async function ownerId(api: TestApi, actor: Actor, owner: Owner): Promise<number> {
  if (owner === 'other') return otherOwner(api);
  if (actor === 'anonymous') throw new Error('anonymous owns nothing');
  return (await api.user(actor)).id;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`setup: ${message}`);
}

/**
 * A new item of `kind` owned by `authorId`, made by an editor (who may set the author and any
 * status, §4): an explicit slug so that drafts can be addressed by slug; trashed kinds are
 * created in their former status and trashed by an editor.
 */
export async function makeItem(api: TestApi, resource: Resource, authorId: number, kind: Kind): Promise<Item> {
  sequence += 1;
  const status = isTrashed(kind) ? judgedStatus(kind) : kind === 'password' ? 'publish' : kind;
  const body: Record<string, unknown> = {
    ...resource.required(),
    [resource.nameField]: `Matrix ${resource.singular} ${sequence}`,
    slug: `matrix-${resource.singular}-${sequence}`,
    author: authorId,
    status,
  };
  if (kind === 'future') body.date = '2027-06-01 10:00:00';
  if (kind === 'password') body.password = 'matrix-secret';
  const created = await api.post(resource.path, body, { as: 'editor' });
  check(created.status === 201, `create ${kind}: ${created.status} ${created.text}`);
  check(created.json.status === status, `create ${kind}: status ${created.json.status}`);
  check(String(created.json.author) === String(authorId), `create ${kind}: author ${created.json.author}`);
  if (!isTrashed(kind)) return { id: created.json.id, slug: created.json.slug, kind };
  const trashed = await api.delete(`${resource.path}/${created.json.id}`, { as: 'editor' });
  check(trashed.status === 200 && trashed.json.status === 'trash', `trash ${kind}: ${trashed.text}`);
  return { id: trashed.json.id, slug: trashed.json.slug, kind };
}

/**
 * An editor's view of the item: its single read with context=edit, or, for a trashed event (which
 * nobody can read singly, §14), its entry in an editor's list of trashed events.
 */
export async function editorView(api: TestApi, resource: Resource, item: Item): Promise<unknown> {
  if (resource === EVENTS && isTrashed(item.kind)) {
    const res = await api.get('/events', {
      as: 'editor',
      query: { include: String(item.id), status: 'trash', context: 'edit' },
    });
    return { status: res.status, item: res.json?.events };
  }
  const res = await api.get(`${resource.path}/${item.id}`, { as: 'editor', query: { context: 'edit' } });
  return { status: res.status, item: res.json };
}

/**
 * What the whole store holds, by SQL: posts per type and status with their latest modification
 * and title lengths, terms per taxonomy, translations. With the clock moved on before a request,
 * any write it makes changes this.
 */
export async function fingerprint(api: TestApi): Promise<string> {
  const { rows } = await sql`
    select type as k, status as s, count(*) as n, max(modified_at) as m, max(id) as l,
      sum(length(title) + length(slug) + length(description) + length(password) + author_id) as t
    from posts group by type, status
    union all
    select 'term', taxonomy, count(*), 0, max(id), sum(length(name) + length(slug) + length(description) + parent_id)
    from terms group by taxonomy
    union all select 'post translations', '', count(*), 0, 0, 0 from post_translations
    union all select 'term translations', '', count(*), 0, 0, 0 from term_translations
    union all select 'event organizers', '', count(*), 0, 0, 0 from event_organizers
    union all select 'event terms', '', count(*), 0, 0, 0 from event_terms
    order by 1, 2`.execute(api.db);
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === 'number' || typeof value === 'bigint' ? String(value) : value,
  );
}

function outcome(res: TestResponse): string {
  return res.json?.code ? `${res.status} ${res.json.code}` : String(res.status);
}

function matches(res: TestResponse, want: Expected): boolean {
  return res.status === want.status && (want.code === undefined || res.json?.code === want.code);
}

function show(want: Expected): string {
  return want.code ? `${want.status} ${want.code}` : String(want.status);
}

/** Denied cases share one item per (resource, owner, kind), with its last editor view: a denial must leave it as it was. */
type Pool = Map<string, { item: Item; view: unknown }>;
const pools = new WeakMap<TestApi, Pool>();

function poolOf(api: TestApi): Pool {
  let pool = pools.get(api);
  if (!pool) {
    pool = new Map();
    pools.set(api, pool);
  }
  return pool;
}

/** Runs `work` over `items` with at most `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width)
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

/**
 * Runs the cases of one resource in order and returns the violations (empty when the implementation
 * agrees with the oracle). A case the oracle allows gets a fresh item (made beforehand, several at
 * a time); denied cases share one. Checked: the status and code; on a denial (and a 410) that the
 * item, as an editor reads it, and the whole store are unchanged; on success that the write did
 * what it should.
 */
export async function runItemCases(api: TestApi, resource: Resource, cases: readonly ItemCase[]): Promise<string[]> {
  // Users are made on first use: make them one at a time before creating items in parallel.
  for (const actor of ['editor', ...new Set(cases.map((c) => c.actor))] as const)
    if (actor !== 'anonymous') await api.user(actor);
  await otherOwner(api);
  const fresh = new Map<ItemCase, Item>();
  const allowed = cases.filter((c) => expected(resource, c.actor, c.owner, c.kind, c.route.op).status === 200);
  const made = await inBatches(allowed, 6, async (c) =>
    makeItem(api, resource, await ownerId(api, c.actor, c.owner), c.kind),
  );
  allowed.forEach((c, i) => fresh.set(c, made[i]));
  const violations: string[] = [];
  for (const c of cases) violations.push(...(await runItemCase(api, resource, c, fresh.get(c))));
  return violations;
}

async function runItemCase(
  api: TestApi,
  resource: Resource,
  c: ItemCase,
  freshItem: Item | undefined,
): Promise<string[]> {
  const want = expected(resource, c.actor, c.owner, c.kind, c.route.op);
  advanceClock(api);
  const pool = poolOf(api);
  const key = `${resource.path} ${await ownerId(api, c.actor, c.owner)} ${c.kind}`;
  let item = freshItem;
  let before: unknown;
  if (!item) {
    let entry = pool.get(key);
    if (!entry) {
      const made = await makeItem(api, resource, await ownerId(api, c.actor, c.owner), c.kind);
      entry = { item: made, view: await editorView(api, resource, made) };
      const { status, item: seen } = entry.view as { status: number; item: Json };
      check(status === 200 && (Array.isArray(seen) ? seen[0] : seen)?.id === made.id, `editor view of ${made.kind}`);
      pool.set(key, entry);
    }
    ({ item, view: before } = entry);
  }
  const storeBefore = await fingerprint(api);
  advanceClock(api);

  const target = `${resource.path}/${c.route.by === 'id' ? item.id : `by-slug/${encodeURIComponent(item.slug)}`}`;
  const newName = `Matrix renamed ${++sequence}`;
  const res =
    c.route.method === 'DELETE'
      ? await api.delete(target, { as: c.actor, query: c.route.op === 'force' ? { force: 'true' } : undefined })
      : await api.request(c.route.method, target, { [resource.nameField]: newName }, { as: c.actor });

  const problems: string[] = [];
  const name = label(resource, c);
  if (!matches(res, want))
    problems.push(`${name}: expected ${show(want)}, got ${outcome(res)} ${res.text.slice(0, 200)}`);
  const storeAfter = await fingerprint(api);

  if (want.status !== 200) {
    const after = await editorView(api, resource, item);
    if (JSON.stringify(after) !== JSON.stringify(before))
      problems.push(`${name}: the item changed on a ${want.status}`);
    if (storeAfter !== storeBefore) problems.push(`${name}: the store changed on a ${want.status}`);
    if (problems.length > 0) pool.delete(key);
    return problems;
  }
  if (res.status !== 200) return problems;
  if (res.json?.id !== item.id) problems.push(`${name}: the response names ${res.json?.id}, not ${item.id}`);
  if (storeAfter === storeBefore) problems.push(`${name}: a 200 write left the store unchanged`);
  if (c.route.op === 'update') {
    const view = await editorView(api, resource, item);
    const now = (view as { item: Json }).item;
    const stored = Array.isArray(now) ? now[0] : now;
    if (stored?.[resource.nameField] !== newName) problems.push(`${name}: the new name was not stored`);
    const status = isTrashed(c.kind) ? 'trash' : c.kind === 'password' ? 'publish' : c.kind;
    if (stored?.status !== status) problems.push(`${name}: an update without status changed it to ${stored?.status}`);
  } else if (c.route.op === 'trash') {
    if (res.json?.status !== 'trash') problems.push(`${name}: the trashed item has status ${res.json?.status}`);
  } else {
    const gone = await api.get(`${resource.path}/${item.id}`, { as: 'administrator' });
    if (gone.status !== 404) problems.push(`${name}: after force=true the item answers ${gone.status}`);
  }
  return problems;
}

/** Violations as an assertion message: how many cases disagree, then each problem (the first 40). */
export function report(violations: readonly string[]): string {
  const cases = new Set(violations.map((v) => v.slice(0, v.indexOf(': ')))).size;
  const shown = violations.slice(0, 40).join('\n');
  return `${cases} case(s) disagree with the oracle (${violations.length} problem(s)):\n${shown}${
    violations.length > 40 ? `\n… and ${violations.length - 40} more` : ''
  }`;
}

/** The matrix of one resource's item routes: an `it` per role, named with its number of cases, on every dialect. */
export async function describeItemMatrix(resource: Resource): Promise<void> {
  const groups = ACTORS.map((actor) => ({ actor, cases: itemCases(resource, actor) }));
  const total = groups.reduce((sum, group) => sum + group.cases.length, 0);
  for (const dialect of await testDialects()) {
    describe(`permission matrix: ${resource.path.slice(1)}, ${total} cases [${dialect}]`, () => {
      const t = useTestApp(dialect);
      for (const { actor, cases } of groups) {
        it(`${actor}: ${cases.length} cases agree with the §4 oracle`, async () => {
          const violations = await runItemCases(t.api, resource, cases);
          assert.equal(violations.length, 0, report(violations));
        });
      }
    });
  }
}

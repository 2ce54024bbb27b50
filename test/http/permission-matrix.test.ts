import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';
import {
  ACTORS,
  EVENTS,
  ORGANIZERS,
  VENUES,
  advanceClock,
  expectedCreate,
  expectedTerm,
  fingerprint,
  makeItem,
  otherOwner,
  report,
  type Actor,
  type Expected,
  type Resource,
} from '../helpers/permission-matrix.js';

// Issue 23, deliverable 8: the permission matrix of creates, of categories and tags, and of the
// order "input validated before permissions" (API.md §4, §7, §13). The item routes of events,
// venues and organizers are in permission-matrix-{events,venues,organizers}.test.ts; the oracle
// and the runner in test/helpers/permission-matrix.ts.

const RESOURCES: readonly Resource[] = [EVENTS, VENUES, ORGANIZERS];
/** Requested statuses of a create: none, and each the caller might ask for (§4 status scaling). */
const REQUESTED = [undefined, 'publish', 'draft', 'pending', 'private'] as const;
const TAXONOMIES = ['categories', 'tags'] as const;
const TERM_WRITES = ['POST create', 'PATCH', 'POST', 'PUT', 'DELETE'] as const;

let sequence = 0;

function outcome(res: TestResponse): string {
  return res.json?.code ? `${res.status} ${res.json.code}` : String(res.status);
}

function agrees(res: TestResponse, want: Expected): boolean {
  return res.status === want.status && (want.code === undefined || res.json?.code === want.code);
}

function wanted(want: Expected): string {
  return want.code ? `${want.status} ${want.code}` : String(want.status);
}

/** Sends `request` after moving the clock on, and checks that a non-2xx left the store as it was. */
async function unchangedUnlessOk(
  api: TestApi,
  name: string,
  want: Expected,
  request: () => Promise<TestResponse>,
  problems: string[],
): Promise<TestResponse> {
  const before = await fingerprint(api);
  advanceClock(api);
  const res = await request();
  if (!agrees(res, want))
    problems.push(`${name}: expected ${wanted(want)}, got ${outcome(res)} ${res.text.slice(0, 200)}`);
  const after = await fingerprint(api);
  if (want.status >= 400 && after !== before) problems.push(`${name}: the store changed on a ${want.status}`);
  if (want.status < 400 && res.status < 400 && after === before) problems.push(`${name}: the write changed nothing`);
  return res;
}

const createCases = RESOURCES.flatMap((resource) =>
  ACTORS.flatMap((actor) => REQUESTED.map((requested) => ({ resource, actor, requested }))),
);

async function runCreate(
  api: TestApi,
  c: { resource: Resource; actor: Actor; requested: string | undefined },
  problems: string[],
): Promise<void> {
  sequence += 1;
  const want = expectedCreate(c.actor, c.requested);
  const name = `${c.actor} POST ${c.resource.path} status=${c.requested ?? '(none)'}`;
  const body = {
    ...c.resource.required(),
    [c.resource.nameField]: `Matrix created ${sequence}`,
    ...(c.requested ? { status: c.requested } : {}),
  };
  const res = await unchangedUnlessOk(
    api,
    name,
    want,
    () => api.post(c.resource.path, body, { as: c.actor }),
    problems,
  );
  if (res.status !== 201 || want.status !== 201) return;
  if (res.json.status !== want.postStatus)
    problems.push(`${name}: status ${res.json.status}, expected ${want.postStatus}`);
  if (c.actor !== 'anonymous' && String(res.json.author) !== String((await api.user(c.actor)).id))
    problems.push(`${name}: author ${res.json.author} is not the caller`);
}

const termCases = TAXONOMIES.flatMap((taxonomy) =>
  ACTORS.flatMap((actor) => TERM_WRITES.map((write) => ({ taxonomy, actor, write }))),
);

async function runTerm(
  api: TestApi,
  c: { taxonomy: 'categories' | 'tags'; actor: Actor; write: (typeof TERM_WRITES)[number] },
  problems: string[],
): Promise<void> {
  sequence += 1;
  const want = expectedTerm(c.taxonomy, c.actor, c.write === 'POST create');
  const name = `${c.actor} ${c.write} /${c.taxonomy}`;
  if (c.write === 'POST create') {
    await unchangedUnlessOk(
      api,
      name,
      want,
      () => api.post(`/${c.taxonomy}`, { name: `Matrix term ${sequence}` }, { as: c.actor }),
      problems,
    );
    return;
  }
  const made = await api.post(`/${c.taxonomy}`, { name: `Matrix term ${sequence}` }, { as: 'administrator' });
  assert.equal(made.status, 201, made.text);
  const path = `/${c.taxonomy}/${made.json.id}`;
  const read = () => api.get(path, { as: 'editor' });
  const before = await read();
  const renamed = `Matrix renamed term ${sequence}`;
  const res = await unchangedUnlessOk(
    api,
    name,
    want,
    () =>
      c.write === 'DELETE'
        ? api.delete(path, { as: c.actor })
        : api.request(c.write, path, { name: renamed }, { as: c.actor }),
    problems,
  );
  const after = await read();
  if (want.status !== 200) {
    if (after.text !== before.text) problems.push(`${name}: the term changed on a ${want.status}`);
  } else if (res.status === 200) {
    if (c.write === 'DELETE' && after.status !== 404)
      problems.push(`${name}: the deleted term answers ${after.status}`);
    if (c.write !== 'DELETE' && after.json?.name !== renamed) problems.push(`${name}: the new name was not stored`);
  }
}

/**
 * §4 "Input is validated before permissions (TEC order): bad input is 400 even when anonymous": bad
 * writes by callers who would be denied are 400, by id and by slug, and change nothing.
 */
const VALIDATION_ACTORS = ['anonymous', 'subscriber', 'contributor'] as const;
const BAD_ITEM_WRITES = [
  { method: 'PATCH', by: 'id', body: { status: 'bogus' }, want: { status: 400, code: 'rest_invalid_param' } },
  { method: 'PATCH', by: 'slug', body: { status: 'bogus' }, want: { status: 400, code: 'rest_invalid_param' } },
  { method: 'DELETE', by: 'id', query: { force: 'maybe' }, want: { status: 400, code: 'rest_invalid_param' } },
  { method: 'DELETE', by: 'slug', query: { force: 'maybe' }, want: { status: 400, code: 'rest_invalid_param' } },
  { method: 'POST', by: 'create', body: {}, want: { status: 400, code: 'rest_missing_callback_param' } },
] as const;
const validationCases = RESOURCES.flatMap((resource) =>
  VALIDATION_ACTORS.flatMap((actor) => BAD_ITEM_WRITES.map((write) => ({ resource, actor, write }))),
);
const BAD_TERM_WRITES = [
  { method: 'POST', body: {}, want: { status: 400, code: 'rest_missing_callback_param' } },
  { method: 'PATCH', body: { name: '' }, want: { status: 400, code: 'rest_invalid_param' } },
] as const;
const termValidationCases = TAXONOMIES.flatMap((taxonomy) =>
  VALIDATION_ACTORS.flatMap((actor) => BAD_TERM_WRITES.map((write) => ({ taxonomy, actor, write }))),
);

/**
 * `status` and `author` sent on a write (§4, §18, docs/api.md "Roles and permissions"): publishers
 * get the status they ask for, contributors `pending` instead of publish/future/private; only
 * editors and administrators may name another user as author.
 */
const CREATOR_ACTORS = ['administrator', 'editor', 'author', 'contributor'] as const;
const FIELD_WRITES = [
  { field: 'status', value: 'publish' },
  { field: 'status', value: 'private' },
  { field: 'status', value: 'pending' },
  { field: 'status', value: 'trash' },
  { field: 'author', value: 'other' },
] as const;
const fieldCases = [
  ...CREATOR_ACTORS.flatMap((actor) => FIELD_WRITES.map((write) => ({ actor, write, create: false }))),
  ...CREATOR_ACTORS.map((actor) => ({ actor, write: FIELD_WRITES[4], create: true })),
];

/** The oracle of a write sending `status` or `author` on the caller's own draft (or a create naming another author). */
function expectedField(actor: Actor, write: (typeof FIELD_WRITES)[number]): Expected & { postStatus?: string } {
  if (write.field === 'author')
    return actor === 'administrator' || actor === 'editor' ? { status: 200 } : { status: 403, code: 'rest_forbidden' };
  const publisher = actor !== 'contributor';
  return {
    status: 200,
    postStatus: publisher || !['publish', 'private'].includes(write.value) ? write.value : 'pending',
  };
}

for (const dialect of await testDialects()) {
  describe(`permission matrix: creates, terms, status and author, validation first [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it(`creates: ${createCases.length} cases (3 resources × 6 callers × 5 requested statuses) agree with the §4 oracle`, async () => {
      const problems: string[] = [];
      for (const c of createCases) await runCreate(t.api, c, problems);
      assert.equal(problems.length, 0, report(problems));
    });

    it(`categories and tags: ${termCases.length} cases (create, PATCH, POST, PUT, DELETE × 6 callers) agree with the §4 oracle`, async () => {
      const problems: string[] = [];
      for (const c of termCases) await runTerm(t.api, c, problems);
      assert.equal(problems.length, 0, report(problems));
    });

    it(`status and author on writes: ${fieldCases.length} cases agree with the §4 oracle`, async () => {
      const problems: string[] = [];
      const other = await otherOwner(t.api);
      for (const { actor, write, create } of fieldCases) {
        const want = expectedField(actor, write);
        const value = write.field === 'author' ? other : write.value;
        const me = (await t.api.user(actor)).id;
        if (create) {
          const name = `${actor} POST /events with author=another user`;
          const res = await unchangedUnlessOk(
            t.api,
            name,
            { status: want.status === 200 ? 201 : want.status, code: want.code },
            () =>
              t.api.post(
                '/events',
                { ...EVENTS.required(), title: `Matrix ${++sequence}`, author: other },
                { as: actor },
              ),
            problems,
          );
          if (res.status === 201 && String(res.json.author) !== String(other)) problems.push(`${name}: author not set`);
          continue;
        }
        const item = await makeItem(t.api, EVENTS, me, 'draft');
        const name = `${actor} PATCH own draft event ${write.field}=${write.field === 'author' ? 'another user' : value}`;
        const res = await unchangedUnlessOk(
          t.api,
          name,
          want,
          () => t.api.patch(`/events/${item.id}`, { [write.field]: value }, { as: actor }),
          problems,
        );
        if (res.status !== 200) continue;
        if (want.postStatus !== undefined && res.json.status !== want.postStatus)
          problems.push(`${name}: status ${res.json.status}, expected ${want.postStatus}`);
        if (write.field === 'author' && String(res.json.author) !== String(other))
          problems.push(`${name}: author not set`);
      }
      assert.equal(problems.length, 0, report(problems));
    });

    it(`bad input before permissions: ${validationCases.length + termValidationCases.length} cases are 400 and change nothing`, async () => {
      const problems: string[] = [];
      const other = await otherOwner(t.api);
      for (const { resource, actor, write } of validationCases) {
        const item = await makeItem(t.api, resource, other, 'publish');
        const target =
          write.by === 'create'
            ? resource.path
            : `${resource.path}/${write.by === 'id' ? item.id : `by-slug/${item.slug}`}`;
        const name = `${actor} ${write.method} ${target} (bad input)`;
        await unchangedUnlessOk(
          t.api,
          name,
          write.want,
          () =>
            t.api.request(write.method, target, 'body' in write ? write.body : undefined, {
              as: actor,
              query: 'query' in write ? write.query : undefined,
            }),
          problems,
        );
      }
      for (const { taxonomy, actor, write } of termValidationCases) {
        const term = await t.api.post(`/${taxonomy}`, { name: `Matrix bad ${++sequence}` }, { as: 'administrator' });
        const target = write.method === 'POST' ? `/${taxonomy}` : `/${taxonomy}/${term.json.id}`;
        await unchangedUnlessOk(
          t.api,
          `${actor} ${write.method} ${target} (bad input)`,
          write.want,
          () => t.api.request(write.method, target, write.body, { as: actor }),
          problems,
        );
      }
      assert.equal(problems.length, 0, report(problems));
    });
  });
}

import { randomBytes } from 'node:crypto';
import type { Samples } from './dataset.js';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  write: boolean;
  next(): BenchRequest;
  /** Reads what the requests need from the running server, before the scenario runs. */
  prepare?(origin: string): Promise<void>;
  /** A status that counts as success besides 2xx (`conditional` expects its 304s). */
  expected?: number;
  /** Runs the stale-read checker alongside (bench/run.ts): a write scenario whose reads must see its writes. */
  checksStaleness?: boolean;
}

/** Events whose ETags `conditional` sends back: enough to spread over the dataset, few to read first. */
const CONDITIONAL_SAMPLE = 200;

/**
 * `conditional` (issue 25): single reads sending the ETag the client already holds, so each is a
 * 304 without a body. Compared with `single`, it shows what a revalidating client costs.
 */
function conditionalScenario(samples: Samples): Scenario {
  const tags: { path: string; etag: string }[] = [];
  return {
    name: 'conditional',
    write: false,
    expected: 304,
    async prepare(origin) {
      tags.length = 0;
      for (const id of samples.eventIds.slice(0, CONDITIONAL_SAMPLE)) {
        const path = `${NS}/events/${id}`;
        const etag = (await fetch(`${origin}${path}`)).headers.get('etag');
        if (etag) tags.push({ path, etag });
      }
      if (tags.length === 0) throw new Error('conditional: no event answered with an ETag');
    },
    next: () => {
      const { path, etag } = pick(tags);
      return { method: 'GET', path, headers: { 'if-none-match': etag } };
    },
  };
}

const NS = '/calendar/events/v1';
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const page = (max: number) => 1 + Math.floor(Math.random() * max);
let counter = 0;
// Titles differ between runs too: on a kept database a title of an earlier run would make every
// create look for a free slug (title-2, title-3, …), which is not what `create` measures.
const run = randomBytes(3).toString('hex');

function json(auth: string): Record<string, string> {
  return { authorization: auth, 'content-type': 'application/json' };
}

/** `POST /events` of a new published event (a distinct title each time), as the editor `auth`. */
function createRequest(samples: Samples, auth: string): BenchRequest {
  counter += 1;
  const day = 1 + (counter % 300);
  const start = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
  const body = {
    title: `Bench event ${run} ${counter}`,
    description: '<p>Created by the benchmark.</p>',
    start_date: `${start} 18:00:00`,
    end_date: `${start} 20:00:00`,
    status: 'publish',
    categories: [pick(samples.categorySlugs)],
  };
  return { method: 'POST', path: `${NS}/events`, headers: json(auth), body: JSON.stringify(body) };
}

/** `PATCH /events/{id}` of a sample event's title, as the editor `auth`. */
function updateRequest(samples: Samples, auth: string): BenchRequest {
  counter += 1;
  return {
    method: 'PATCH',
    path: `${NS}/events/${pick(samples.eventIds)}`,
    headers: json(auth),
    body: JSON.stringify({ title: `Updated by the benchmark ${counter}` }),
  };
}

/** Share of `editorial`'s requests that are editors' saves (half updates, half creates). */
const EDITORIAL_WRITES = 0.1;

/**
 * `editorial` (issue 29): the editors (`samples.editorAuths`) saving events while the public
 * reads. Each write is by one editor picked at random, half title updates of a sample event, half
 * new events; the reads are anonymous, spread evenly over the list, single events, a word search
 * and the website's upcoming list (HTML).
 */
function editorialScenario(samples: Samples): Scenario {
  const publicReads: (() => string)[] = [
    () => `${NS}/events?page=${page(20)}`,
    () => `${NS}/events/${pick(samples.eventIds)}`,
    () => `${NS}/events?search=${pick(samples.words)}`,
    () => `/events/?page=${page(20)}`,
  ];
  return {
    name: 'editorial',
    write: true,
    checksStaleness: true,
    next: () => {
      if (Math.random() >= EDITORIAL_WRITES) return { method: 'GET', path: pick(publicReads)() };
      const editor = pick(samples.editorAuths);
      return Math.random() < 0.5 ? updateRequest(samples, editor) : createRequest(samples, editor);
    },
  };
}

/** The scenarios of the benchmark issue; each rotates through many distinct requests. */
export function scenarios(samples: Samples): Scenario[] {
  const read = (name: string, next: () => string, headers?: Record<string, string>): Scenario => ({
    name,
    write: false,
    next: () => ({ method: 'GET', path: next(), headers }),
  });
  const list: Scenario[] = [
    { name: 'baseline', write: false, next: () => ({ method: 'GET', path: '/health' }) },
    read('list', () => `${NS}/events?page=${page(20)}`),
    read('list50', () => `${NS}/events?per_page=50&page=${page(10)}`),
    read('filtered', () => {
      const [start, end] = pick(samples.windows);
      return `${NS}/events?categories=${pick(samples.categorySlugs)}&search=${pick(samples.words)}&start_date=${start}&end_date=${end}`;
    }),
    // A category's iCalendar feed over three weeks: about 200 events at 100,000 (issue 24).
    read('ical', () => {
      const [start] = pick(samples.windows);
      const end = new Date(Date.parse(`${start}T00:00:00Z`) + 21 * 86_400_000).toISOString().slice(0, 10);
      return `/ical/events.ics?categories=${pick(samples.categorySlugs)}&start_date=${start}&end_date=${end}`;
    }),
    // The website (issue 27): a subcategory's month view (about 300 events at 100,000) and the
    // upcoming list, alternately.
    read('pages', () => {
      if (Math.random() < 0.5) return `/events/?page=${page(20)}`;
      const month = pick(samples.windows)[0].slice(0, 7);
      const leaves = samples.categorySlugs.filter((slug) => /-(one|two|three)$/.test(slug));
      return `/events/month/${month}/?categories=${pick(leaves.length > 0 ? leaves : samples.categorySlugs)}`;
    }),
    read('single', () => `${NS}/events/${pick(samples.eventIds)}`),
    conditionalScenario(samples),
    read('slug', () => `${NS}/events/by-slug/${pick(samples.slugs)}`),
    read('venues', () => `${NS}/venues?page=${page(20)}`),
    read('auth-list', () => `${NS}/events?page=${page(20)}`, { authorization: samples.editorAuth }),
    { name: 'create', write: true, next: () => createRequest(samples, samples.editorAuth) },
    { name: 'update', write: true, next: () => updateRequest(samples, samples.editorAuth) },
  ];
  // `mixed` keeps the JSON reads it was measured with before the `ical`, `conditional` and `pages` scenarios existed.
  const reads = list.filter((s) => !s.write && !['baseline', 'ical', 'conditional', 'pages'].includes(s.name));
  const writes = list.filter((s) => s.write);
  // `mixed-heavy` (issue 29): the same requests with four times the writes.
  const mixed = (name: string, writeShare: number): Scenario => ({
    name,
    write: true,
    checksStaleness: true,
    next: () => (Math.random() < writeShare ? pick(writes) : pick(reads)).next(),
  });
  list.push(mixed('mixed', 0.05), mixed('mixed-heavy', 0.2), editorialScenario(samples));
  return list;
}

import assert from 'node:assert/strict';
import type { TestApi, TestResponse, Who } from './app.js';

/** Bodies of the TEC live transcript's POST /venues and POST /organizers (tec-live-transcript.md §2). */
export const TRANSCRIPT_VENUE = {
  venue: 'Transcript Hall',
  description: 'A venue made for the transcript.',
  address: '1 Main Street',
  city: 'Springfield',
  country: 'United States',
  state: 'IL',
  zip: '62701',
  phone: '+1 555 0100',
  website: 'https://example.org/hall',
};

export const TRANSCRIPT_ORGANIZER = {
  organizer: 'Transcript Org',
  description: 'Organizer made for the transcript.',
  email: 'org@example.org',
  phone: '+1 555 0199',
  website: 'https://example.org/org',
};

/** Query parameters of a list request. */
export type Query = Record<string, string | number | boolean | (string | number)[] | undefined>;

let sequence = 0;

/** Successive start times inside the default window, one hour apart: creation order is start order. */
export function nextSlot(): { start_date: string; end_date: string } {
  sequence += 1;
  const start = Date.parse('2026-12-01T00:00:00Z') + sequence * 3_600_000;
  const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  return { start_date: fmt(start), end_date: fmt(start + 1_800_000) };
}

/** Totals in the body and in the X-TEC-* and X-WP-* headers (API.md §9). */
export function assertTotals(res: TestResponse, total: number, pages: number): void {
  assert.equal(res.json.total, total, 'total');
  assert.equal(res.json.total_pages, pages, 'total_pages');
  assert.equal(res.headers['x-tec-total'], String(total));
  assert.equal(res.headers['x-tec-totalpages'], String(pages));
  assert.equal(res.headers['x-wp-total'], String(total));
  assert.equal(res.headers['x-wp-totalpages'], String(pages));
}

/** GETs a list (`/events`, `/venues`, …) and asserts 200; `query` is an object or an already encoded query string. */
export async function list(
  api: TestApi,
  path: string,
  query: Query | string = {},
  as: Who = 'anonymous',
): Promise<TestResponse> {
  const res =
    typeof query === 'string' ? await api.get(`${path}?${query}`, { as }) : await api.get(path, { query, as });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** The ids of a list response's items (its one array: `events`, `venues`, `categories`, …), in order. */
export function ids(res: TestResponse): number[] {
  const items = Object.values(res.json ?? {}).find(Array.isArray);
  assert.ok(items, `not a list response: ${res.text}`);
  return items.map((item: { id: number }) => item.id);
}

/** list(), then ids(). */
export async function listIds(
  api: TestApi,
  path: string,
  query: Query | string = {},
  as: Who = 'anonymous',
): Promise<number[]> {
  return ids(await list(api, path, query, as));
}

/** Ids in ascending order, for comparing sets. */
export function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

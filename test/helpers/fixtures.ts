import assert from 'node:assert/strict';
import type { TestResponse } from './app.js';

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

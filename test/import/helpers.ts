import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { NS, type TestApi, type TestResponse, type Who } from '../helpers/app.js';

/** A fixture file of test/import/fixtures, as sent (CRLF, folded lines). */
export const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

export interface ImportOptions {
  as?: Who;
  query?: Record<string, string>;
  /** `text/calendar` (the default: the text is the body), `json` or `form` (the text as `ics`). */
  body?: 'calendar' | 'json' | 'form';
  /** Extra body parameters (JSON and form bodies). */
  params?: Record<string, unknown>;
}

/** POST /import/ics as `as` (an editor by default). */
export async function importIcs(api: TestApi, text: string | Buffer | undefined, options: ImportOptions = {}) {
  const headers: Record<string, string> = {};
  const who = options.as ?? 'editor';
  if (typeof who === 'object') headers.authorization = who.authorization;
  else if (who !== 'anonymous') headers.authorization = (await api.user(who)).header;
  let payload: string | Buffer | undefined;
  const kind = options.body ?? 'calendar';
  if (kind === 'calendar') {
    headers['content-type'] = 'text/calendar; charset=utf-8';
    payload = text;
  } else {
    const params = { ...options.params, ...(text !== undefined ? { ics: String(text) } : {}) };
    headers['content-type'] = kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    payload =
      kind === 'json'
        ? JSON.stringify(params)
        : new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  }
  const response = await api.app.inject({
    method: 'POST',
    url: `${NS}/import/ics`,
    headers,
    payload,
    query: options.query,
  });
  const result: TestResponse = {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    json: response.body === '' ? undefined : JSON.parse(response.body),
  };
  return result;
}

/** Asserts a 200 and returns the result body. */
export async function imported(api: TestApi, text: string, options: ImportOptions = {}): Promise<TestResponse['json']> {
  const res = await importIcs(api, text, options);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** The event with this UID, as an administrator reads it (any status). */
export async function eventByUid(api: TestApi, uid: string): Promise<TestResponse['json']> {
  const row = await api.db.selectFrom('events').select('post_id').where('ical_uid', '=', uid).executeTakeFirst();
  assert.ok(row, `an event with UID ${uid}`);
  const res = await api.get(`/events/${row.post_id}`, { as: 'administrator' });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** Everything an import could change, to compare before and after. */
export async function snapshot(api: TestApi): Promise<unknown> {
  const db = api.db;
  return {
    posts: await db
      .selectFrom('posts')
      .select(['id', 'type', 'status', 'title', 'slug', 'modified_at', 'description'])
      .orderBy('id')
      .execute(),
    events: await db
      .selectFrom('events')
      .select([
        'post_id',
        'start_utc',
        'end_utc',
        'timezone',
        'venue_id',
        'ical_uid',
        'ical_sequence',
        'ical_import_stamp',
      ])
      .orderBy('post_id')
      .execute(),
    terms: await db.selectFrom('terms').select(['id', 'name', 'count']).orderBy('id').execute(),
    links: await db
      .selectFrom('event_terms')
      .select(['event_id', 'term_id'])
      .orderBy('event_id')
      .orderBy('term_id')
      .execute(),
  };
}

/** A minimal calendar of the given VEVENT bodies (lines without BEGIN/END:VEVENT), CRLF. */
export function calendar(...events: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN'];
  for (const event of events) lines.push('BEGIN:VEVENT', ...event, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** VEVENT lines of a one-hour event at `start` (UTC basic form) with this UID, SEQUENCE and LAST-MODIFIED. */
export function vevent(
  uid: string,
  options: { start?: string; summary?: string; sequence?: number; modified?: string; extra?: string[] } = {},
): string[] {
  const start = options.start ?? '20270301T100000Z';
  const hour = Number(start.slice(9, 11)) + 1;
  return [
    `UID:${uid}`,
    'DTSTAMP:20261101T000000Z',
    `DTSTART:${start}`,
    `DTEND:${start.slice(0, 9)}${String(hour).padStart(2, '0')}${start.slice(11)}`,
    `SUMMARY:${options.summary ?? `Event ${uid}`}`,
    ...(options.sequence !== undefined ? [`SEQUENCE:${options.sequence}`] : []),
    ...(options.modified !== undefined ? [`LAST-MODIFIED:${options.modified}`] : []),
    ...(options.extra ?? []),
  ];
}

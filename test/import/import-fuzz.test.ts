import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { useTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { importIcs, snapshot } from './helpers.js';

/** Property names and values that real files use, mixed with noise, so that most texts get past the first checks. */
const name = fc.constantFrom(
  'DTSTART',
  'DTEND',
  'DURATION',
  'UID',
  'SUMMARY',
  'RRULE',
  'RECURRENCE-ID',
  'EXDATE',
  'LOCATION',
  'GEO',
  'ORGANIZER',
  'CATEGORIES',
  'STATUS',
  'SEQUENCE',
  'LAST-MODIFIED',
  'URL',
  'X-ALT-DESC',
  'X-WR-TIMEZONE',
  'TZID',
  'DESCRIPTION',
);
const params = fc.constantFrom(
  '',
  ';VALUE=DATE',
  ';TZID=Europe/Paris',
  ';TZID="W. Europe Standard Time"',
  ';TZID=Nowhere',
  ';CN=A',
  ';FMTTYPE=text/html',
  ';X=1',
);
const value = fc.oneof(
  fc.constantFrom(
    '20270301T100000Z',
    '20270301T100000',
    '20270301',
    '20271301T100000',
    'FREQ=WEEKLY;COUNT=3',
    'FREQ=NEVER',
    'PT1H',
    'P1D',
    '-PT5M',
    'CANCELLED',
    '12',
    '-1',
    '1.5;2.5',
    'x;y',
    'mailto:a@b.c',
    'https://e.example/',
    'A\\, B\\; C\\n',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const property = fc.tuple(name, params, value).map(([n, p, v]) => `${n}${p}:${v}`);
/** A VEVENT that is valid at first (UID from a few, so keys repeat; a valid DTSTART) plus random properties. */
const vevent = fc
  .tuple(
    fc.constantFrom('a@x', 'b@x', 'c@x', 'd@x'),
    fc.constantFrom(
      '20270301T100000Z',
      ';TZID=Europe/Paris:20270301T100000',
      ';VALUE=DATE:20270301',
      ':20270301T100000',
    ),
    fc.array(property, { maxLength: 5 }),
  )
  .map(([uid, start, extra]) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTART${start.startsWith(';') || start.startsWith(':') ? start : `:${start}`}`,
    'SUMMARY:Fuzzed',
    ...extra,
    'END:VEVENT',
  ]);
/** Now and then something broken: a random line, an unclosed component. */
const noise = fc.oneof(
  property.map((line) => [line]),
  fc.string({ maxLength: 20 }).map((line) => [line]),
  fc.constantFrom(['BEGIN:VALARM'], ['END:VEVENT'], ['BEGIN:VTIMEZONE', 'TZID:Nowhere', 'END:VTIMEZONE']),
);
const text = fc
  .tuple(
    fc.array(fc.oneof({ weight: 6, arbitrary: vevent }, { weight: 1, arbitrary: noise }), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.constantFrom('\r\n', '\n'),
  )
  .map(([parts, eol]) => `${['BEGIN:VCALENDAR', 'VERSION:2.0', ...parts.flat(), 'END:VCALENDAR'].join(eol)}${eol}`);

for (const dialect of await testDialects()) {
  describe(`POST /import/ics never fails on any text [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('every text is imported (200) or refused as rest_invalid_ics (400, nothing changed); never a 500', async () => {
      const seen = { imported: 0, created: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(text, async (ics) => {
          const before = await snapshot(t.api);
          const res = await importIcs(t.api, ics);
          assert.ok(res.status === 200 || res.status === 400, `${res.status} ${res.text}\n${ics}`);
          if (res.status === 200) {
            seen.imported += 1;
            seen.created += res.json.created.length;
          } else seen.refused += 1;
          if (res.status === 400) {
            assert.equal(res.json.code, 'rest_invalid_ics', res.text);
            assert.deepEqual(await snapshot(t.api), before);
          }
        }),
        { numRuns: dialect === 'sqlite' ? 300 : 100, seed: 24 },
      );
      // The texts reach every stage: refused ones, imports, and imports that created events.
      assert.ok(seen.refused > 0 && seen.imported > 0 && seen.created > 0, JSON.stringify(seen));
    });
  });
}

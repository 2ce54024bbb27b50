import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Temporal } from 'temporal-polyfill';
import { expandSeries } from '../../src/domain/recurrence/expand.js';
import { parseRecurrence } from '../../src/domain/recurrence/lines.js';

/**
 * The expansion (rrule-temporal over wall-clock time, placed in the zone by Temporal) checked
 * against an independent implementation: python-dateutil's rrule with the standard library's
 * zoneinfo (test/tools/dateutil_expand.py; Debian's python3-dateutil, which .ci/run installs).
 * Rules are generated from a fixed seed, in zones whose clocks change (some at midnight, some by
 * half an hour, some whose rules changed), with starts on and around the changes.
 */

const SCRIPT = fileURLToPath(new URL('../tools/dateutil_expand.py', import.meta.url));

/**
 * A Python that has dateutil: the one on PATH (it may be a version manager's) or Debian's, where
 * .ci/run installs python3-dateutil. Without one the check is skipped with a visible message,
 * except in CI, where it fails.
 */
const PYTHON = ['python3', '/usr/bin/python3'].find(
  (python) => spawnSync(python, ['-c', 'import dateutil.rrule']).status === 0,
);
if (!PYTHON) {
  if (process.env.CI || process.env.REQUIRE_POSTGRES === '1')
    throw new Error('python3 with dateutil is required here (Debian: apt-get install python3-dateutil)');
  process.stderr.write(
    '\n*** python3-dateutil not found: the dateutil cross-check is SKIPPED on this machine. ***\n\n',
  );
}
const CASES = 240;

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Sydney',
  'Pacific/Auckland',
  'America/Santiago',
  'America/Havana',
  'Australia/Lord_Howe',
  'Europe/London',
  'America/Sao_Paulo',
  'Africa/Casablanca',
];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** A small deterministic generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)];
  const subset = <T>(items: readonly T[], min: number) => {
    const chosen = items.filter(() => next() < 0.35);
    return chosen.length >= min ? chosen : [pick(items)];
  };
  return { next, int, pick, subset };
}

interface Case {
  zone: string;
  dtstart: string;
  lines: string[];
  /** For the Python side: the rule without COUNT and UNTIL, which it applies itself. */
  rule: string;
  count?: number;
  until?: number;
  horizon: number;
  rdates: string[];
  exdates: string[];
}

const basic = (wall: Temporal.PlainDateTime) => wall.toString().replace(/[-:]/g, '').slice(0, 15);

function generate(index: number): Case {
  const r = random(20260026 + index);
  const zone = r.pick(ZONES);
  // Around the usual change months, at times that fall in gaps and folds (00:00–03:30) or not.
  const month = r.pick([3, 4, 9, 10, 11, r.int(1, 12)]);
  const day = r.int(1, 28);
  const hour = r.pick([0, 1, 2, 2, 3, 12, 19, r.int(0, 23)]);
  const minute = r.pick([0, 30, 0, 45]);
  const wall = Temporal.PlainDateTime.from({ year: r.int(2024, 2027), month, day, hour, minute });
  const freq = r.pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
  const parts = [`FREQ=${freq}`];
  const interval = r.pick([1, 1, 2, 3]);
  if (interval > 1) parts.push(`INTERVAL=${interval}`);
  if (freq === 'DAILY' && r.next() < 0.25) parts.push(`BYHOUR=${r.pick(['1,2', '2,3', '0,12', '1'])}`);
  if (freq === 'WEEKLY' && r.next() < 0.6) parts.push(`BYDAY=${r.subset(DAYS, 1).join(',')}`);
  if (freq === 'MONTHLY') {
    const kind = r.int(0, 2);
    if (kind === 0) parts.push(`BYMONTHDAY=${r.pick([1, 15, 28, 31, -1])}`);
    if (kind === 1) parts.push(`BYDAY=${r.pick(['1', '2', '-1', '3'])}${r.pick(DAYS)}`);
    if (kind === 2) parts.push(`BYDAY=${r.subset(['MO', 'TU', 'WE', 'TH', 'FR'], 1).join(',')}`, 'BYSETPOS=-1');
  }
  if (freq === 'YEARLY' && r.next() < 0.5) {
    parts.push(`BYMONTH=${r.pick([3, 4, 10, 11])}`, `BYDAY=${r.pick(['1', '-1', '2'])}SU`);
  }
  const rule = parts.join(';');
  const start = wall.toZonedDateTime(zone, { disambiguation: 'compatible' });
  const horizon = Math.floor(start.add({ months: r.int(6, 30) }).epochMilliseconds / 1000);
  const bound = r.int(0, 2);
  const count = bound === 0 ? r.int(1, 60) : undefined;
  const until =
    bound === 1
      ? Math.floor(start.add({ days: r.int(20, 500), hours: r.int(0, 23) }).epochMilliseconds / 1000)
      : undefined;
  const untilText =
    until !== undefined
      ? `;UNTIL=${basic(
          Temporal.Instant.fromEpochMilliseconds(until * 1000)
            .toZonedDateTimeISO('UTC')
            .toPlainDateTime(),
        )}Z`
      : '';
  const shifted = (days: number, hours = 0) => wall.add({ days, hours });
  const rdates = r.next() < 0.3 ? [shifted(r.int(1, 40), r.int(0, 5))] : [];
  const exdates = r.next() < 0.3 ? [shifted(7 * r.int(1, 8))] : [];
  const lines = [
    `RRULE:${rule}${count !== undefined ? `;COUNT=${count}` : ''}${untilText}`,
    ...rdates.map((d) => `RDATE;TZID=${zone}:${basic(d)}`),
    ...exdates.map((d) => `EXDATE;TZID=${zone}:${basic(d)}`),
  ];
  return {
    zone,
    dtstart: wall.toString(),
    lines,
    rule,
    count,
    until,
    horizon,
    rdates: rdates.map(String),
    exdates: exdates.map(String),
  };
}

function ours(c: Case): number[] {
  const startUtc = Math.floor(
    Temporal.PlainDateTime.from(c.dtstart).toZonedDateTime(c.zone, { disambiguation: 'compatible' }).epochMilliseconds /
      1000,
  );
  const times = { start_utc: startUtc, end_utc: startUtc + 3600, timezone: c.zone, all_day: false };
  return expandSeries(parseRecurrence(c.lines, false), times, c.horizon).map((o) => o.start);
}

function theirs(cases: readonly Case[]): number[][] {
  const input = cases.map((c) => ({
    zone: c.zone,
    dtstart: c.dtstart,
    rule: `RRULE:${c.rule}`,
    count: c.count,
    until: c.until,
    horizon: c.horizon,
    rdates: c.rdates,
    exdates: c.exdates,
  }));
  return JSON.parse(
    execFileSync(PYTHON ?? 'python3', [SCRIPT], { input: JSON.stringify(input), encoding: 'utf8' }),
  ) as number[][];
}

const iso = (seconds: number[]) => seconds.map((s) => new Date(s * 1000).toISOString());

describe('recurrence expansion agrees with python-dateutil', { skip: PYTHON === undefined }, () => {
  it(`${CASES} generated rules in zones with DST changes give identical occurrence lists`, () => {
    const cases = Array.from({ length: CASES }, (_, i) => generate(i));
    const expected = theirs(cases);
    let occurrences = 0;
    let acrossChanges = 0;
    cases.forEach((c, i) => {
      const actual = ours(c);
      assert.deepEqual(iso(actual), iso(expected[i]), `case ${i}: ${c.zone} ${c.dtstart} ${c.lines.join(' | ')}`);
      occurrences += actual.length;
      const offsets = new Set(
        actual.map((s) => Temporal.Instant.fromEpochMilliseconds(s * 1000).toZonedDateTimeISO(c.zone).offset),
      );
      if (offsets.size > 1) acrossChanges++;
    });
    // The cases are not vacuous: many occurrences, most series crossing an offset change.
    assert.ok(occurrences > 5_000, `${occurrences} occurrences`);
    assert.ok(acrossChanges > CASES / 3, `${acrossChanges} series cross a change of offset`);
  });
});

import { DateTime } from 'luxon';
import { lineText, type ContentLine } from './ics.lines.js';

/**
 * A series' `recurrence` lines from a VEVENT's RRULE, RDATE and EXDATE (dates already rewritten to
 * UTC, an IANA TZID or VALUE=DATE): RDATE and EXDATE lines with the same parameters are merged into
 * one line, so that the 20-line limit of API.md §20.1 counts kinds, not dates (§20.4).
 */
export function recurrenceLinesOf(lines: readonly ContentLine[]): string[] {
  const merged = new Map<string, string[]>();
  const rules: string[] = [];
  for (const line of lines) {
    if (line.name === 'RRULE') rules.push(lineText(line));
    else {
      const head = lineText({ ...line, value: '' });
      merged.set(head, [...(merged.get(head) ?? []), ...line.value.split(',').map((v) => v.trim())]);
    }
  }
  return [...rules, ...[...merged].map(([head, values]) => `${head}${[...new Set(values)].join(',')}`)];
}

/**
 * A RECURRENCE-ID (rewritten like DTSTART) as the `recurrence_id` of the occurrence it names
 * (API.md §20.2): UTC basic `20270105T180000Z`, or `YYYYMMDD` for a date.
 */
export function recurrenceIdOf(line: ContentLine): string {
  const value = line.value.trim();
  if (line.params.VALUE?.toUpperCase() === 'DATE') return value.slice(0, 8);
  if (value.endsWith('Z')) return value;
  return DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss", { zone: line.params.TZID ?? 'UTC' })
    .toUTC()
    .toFormat("yyyyMMdd'T'HHmmss'Z'");
}

import { parseHttpUrl } from '../../domain/params.js';
import type { ImportedEvent } from './ics.read.js';
import type { ImportTarget } from './import.repository.js';

/** A VEVENT left out, and why (API.md §19.3). */
export interface Skipped {
  uid: string | null;
  reason: string;
}

/** The winning copy of each (UID, RECURRENCE-ID) in the file, and what is skipped before any lookup (API.md §19.3). */
export function selectWinners(events: ImportedEvent[], skipped: Skipped[]): ImportedEvent[] {
  const winners = new Map<string, ImportedEvent>();
  for (const event of events) {
    if (event.uid === null) {
      skipped.push({ uid: null, reason: 'no UID' });
      continue;
    }
    const key = `${event.uid}\n${event.recurrenceId ?? ''}`;
    const other = winners.get(key);
    // The higher SEQUENCE wins, then the later copy in the file.
    if (other && other.sequence > event.sequence) skipped.push({ uid: event.uid, reason: 'duplicate' });
    else {
      if (other) skipped.push({ uid: other.uid, reason: 'duplicate' });
      winners.set(key, event);
    }
  }
  const kept: ImportedEvent[] = [];
  for (const event of [...winners.values()].sort((a, b) => a.index - b.index)) {
    // Series and their overrides wait for recurring events (issue 26, API.md §20.4).
    if (event.recurring || event.recurrenceId !== null)
      skipped.push({ uid: event.uid, reason: 'recurrence not supported' });
    else if (event.title === null) skipped.push({ uid: event.uid, reason: 'no SUMMARY' });
    else kept.push(event);
  }
  return kept;
}

/** Whether the file's copy replaces the stored event: a higher SEQUENCE, or the same with a later stamp. */
export function isNewer(event: ImportedEvent, target: ImportTarget): boolean {
  if (event.sequence !== target.ical_sequence) return event.sequence > target.ical_sequence;
  return event.stamp !== null && event.stamp > target.stamp;
}

/** The event's `website`: the URL, unless it is a page of this service (then left as it is). */
export function websiteOf(event: ImportedEvent, publicUrl: string): string | undefined {
  if (event.url === null) return '';
  if (event.url === publicUrl || event.url.startsWith(`${publicUrl}/`)) return undefined;
  return parseHttpUrl(event.url) ?? '';
}

import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Ids a write is asked to give what it creates (`import:tec --keep-ids` and copy mode, API.md §24). The importer
 * writes through the API in-process, so the ids travel with the async context of its own request:
 * no request field or header that another client could send, and every rule of the API still
 * applies to the write. Without a plan, the databases' sequences choose, as always.
 */
export interface PlannedIds {
  /** The post type (`event`, `venue`, `organizer`) or taxonomy (`category`, `tag`) the plan is for. */
  readonly type: string;
  readonly id?: number;
  /** A series' occurrences: the id of each, by `recurrence_id`. */
  readonly occurrences?: ReadonlyMap<string, number>;
  /** A new event's iCalendar UID (copy mode keeps the source's, API.md §24). */
  readonly icalUid?: string;
}

const planned = new AsyncLocalStorage<PlannedIds>();

export function withPlannedIds<T>(plan: PlannedIds | undefined, write: () => Promise<T>): Promise<T> {
  return plan === undefined ? write() : planned.run(plan, write);
}

/**
 * The id planned for a new post or term of this type. Not used up: a write retried after a
 * rolled-back attempt (the next free slug) inserts it again.
 */
export function plannedId(type: string): number | undefined {
  const plan = planned.getStore();
  return plan?.type === type ? plan.id : undefined;
}

export function plannedIcalUid(): string | undefined {
  const plan = planned.getStore();
  return plan?.type === 'event' ? plan.icalUid : undefined;
}

export function plannedOccurrenceId(recurrenceId: string): number | undefined {
  return planned.getStore()?.occurrences?.get(recurrenceId);
}

/** What an event's write does to term counts (published events per term, API.md §12). */

export interface CountState {
  published: boolean;
  termIds: number[];
}

/** Per-term change of the published-event count between two states of one event. */
export function countDeltas(before: CountState, after: CountState): Map<number, number> {
  const deltas = new Map<number, number>();
  if (before.published) for (const id of before.termIds) deltas.set(id, (deltas.get(id) ?? 0) - 1);
  if (after.published) for (const id of after.termIds) deltas.set(id, (deltas.get(id) ?? 0) + 1);
  return deltas;
}

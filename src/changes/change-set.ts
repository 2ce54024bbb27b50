/** What a write names as changed, and what a cached entry names as depended on: `event:12`, `term:3`. */
export type ChangeKind = 'event' | 'term' | 'venue' | 'organizer';

export function changeKey(kind: ChangeKind, id: number): string {
  return `${kind}:${id}`;
}

/**
 * What one committed write changed. A write names the items it changed when it knows them; a
 * change set that names nothing means that anything may have changed (every cache entry is then
 * out of date, whatever it depends on).
 */
export class ChangeSet {
  private readonly named = new Set<string>();
  private readonly eventIds = new Set<number>();

  add(kind: ChangeKind, ...ids: number[]): void {
    for (const id of ids) {
      this.named.add(changeKey(kind, id));
      if (kind === 'event') this.eventIds.add(id);
    }
  }

  /** The keys named, or undefined when the set names nothing (anything may have changed). */
  get keys(): readonly string[] | undefined {
    return this.named.size > 0 ? [...this.named] : undefined;
  }

  /** The events named. */
  get events(): ReadonlySet<number> {
    return this.eventIds;
  }
}

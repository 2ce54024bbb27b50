/**
 * What a write names as changed, and what a cached entry names as depended on: `event:12`, `term:3`.
 * `term` is named whenever a term's representation changes, its count included; `taxonomy` only
 * when the term itself was written (its slugs, its parent, its existence), which is all that
 * resolving a term filter reads.
 */
export type ChangeKind = 'event' | 'term' | 'venue' | 'organizer' | 'taxonomy';

export function changeKey(kind: ChangeKind, id: number): string {
  return `${kind}:${id}`;
}

/** The kinds of items the change feed and webhooks name (API.md §21.1, §22). */
export const ITEM_TYPES = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
export const ITEM_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

/** Who could read a post: its status and author (posts.rules.ts canReadPost). Terms are public. */
export interface ReadState {
  readonly status: string;
  readonly author_id: number;
}

/**
 * One change of an item, as the change feed lists it. `before` is the state before a change of an
 * existing item (null for a creation; undefined when the write did not change who may read it).
 */
export interface ItemChange {
  readonly type: ItemType;
  readonly id: number;
  readonly action: ItemAction;
  readonly before: ReadState | null | undefined;
}

/** An event as lists select it (listing/matches.ts): what decides which lists and counts it is in. */
export interface ListedState {
  readonly status: string;
  readonly author_id: number;
  readonly start_key: number;
  readonly end_key: number;
  readonly hidden: boolean;
  readonly series_id: number | null;
  readonly parent_id: number;
  readonly featured: boolean;
  readonly venue_id: number | null;
  readonly organizer_ids: readonly number[];
  readonly term_ids: readonly number[];
  readonly protected: boolean;
  /** Its title, excerpt and description in every language, lower-cased: where searched words may be. */
  readonly text: string;
}

/** An event as lists selected it before a write and after (null: not there). */
export interface EventMove {
  readonly id: number;
  readonly before: ListedState | null;
  readonly after: ListedState | null;
}

/**
 * What one committed write changed. A write names the items it changed when it knows them; a
 * change set that names nothing means that anything may have changed (every cache entry is then
 * out of date, whatever it depends on). Independently, it lists the item changes the change feed
 * and webhooks report (`created`, `updated`, `deleted`): recording those names no cache key.
 */
export class ChangeSet {
  private readonly named = new Set<string>();
  private readonly eventIds = new Set<number>();
  private readonly itemChanges = new Map<string, ItemChange>();
  private readonly eventMoves = new Map<number, { before: ListedState | null; after: ListedState | null }>();

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

  /** Records an event's listed state before the write (the first one recorded) and after it (the latest). */
  moved(id: number, before: ListedState | null, after: ListedState | null): void {
    const earlier = this.eventMoves.get(id);
    this.eventMoves.set(id, { before: earlier ? earlier.before : before, after });
  }

  /**
   * How the write moved events in and out of lists; undefined when it may have changed lists in
   * other ways: it named nothing, it wrote an event without saying how it moved, or it changed or
   * deleted a term, venue or organizer (term filters widen to children; deletions unlink events).
   */
  get moves(): readonly EventMove[] | undefined {
    if (this.named.size === 0) return undefined;
    for (const id of this.eventIds) if (!this.eventMoves.has(id)) return undefined;
    for (const change of this.itemChanges.values()) {
      if (change.type === 'event' ? !this.eventMoves.has(change.id) : change.action !== 'created') return undefined;
    }
    return [...this.eventMoves].map(([id, move]) => ({ id, ...move }));
  }

  created(type: ItemType, id: number): void {
    this.record({ type, id, action: 'created', before: null });
    this.nameItem(type, id);
  }

  /** A term, venue or organizer written is named too, so that what embeds or lists it is not reused past it. */
  private nameItem(type: ItemType, id: number): void {
    if (type === 'event') return;
    const isTerm = type === 'category' || type === 'tag';
    this.add(isTerm ? 'term' : type, id);
    if (isTerm) this.add('taxonomy', id);
  }

  /** `before`: the item's read state before the write, when the write may have changed it. */
  updated(type: ItemType, id: number, before?: ReadState): void {
    this.record({
      type,
      id,
      action: 'updated',
      before: before && { status: before.status, author_id: before.author_id },
    });
    this.nameItem(type, id);
  }

  deleted(type: ItemType, id: number, before: ReadState): void {
    this.record({ type, id, action: 'deleted', before: { status: before.status, author_id: before.author_id } });
    this.nameItem(type, id);
  }

  /**
   * One write is one change per item: a creation stays a creation whatever else the write did to
   * it, a deletion wins over an update, and the state before is the first one recorded.
   */
  private record(change: ItemChange): void {
    const key = `${change.type}:${change.id}`;
    const earlier = this.itemChanges.get(key);
    if (!earlier) {
      this.itemChanges.set(key, change);
      return;
    }
    if (earlier.action === 'created') {
      if (change.action === 'deleted') this.itemChanges.delete(key);
      return;
    }
    const action = change.action === 'deleted' ? 'deleted' : earlier.action;
    this.itemChanges.set(key, { ...earlier, action, before: earlier.before ?? change.before });
  }

  /** The item changes recorded, in the order first recorded. */
  get items(): readonly ItemChange[] {
    return [...this.itemChanges.values()];
  }
}

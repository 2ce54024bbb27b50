import type { Transaction } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientConflict } from '../db/errors.js';
import type { Database, Db } from '../db/schema.js';
import { appendChanges, prepareChanges, type LoggedChange } from './change-log.js';
import { ChangeSet } from './change-set.js';
import type { DataVersion } from './data-version.js';

/** Told of every committed write, after the data version has moved past it. */
export type ChangeListener = (changes: ChangeSet, logged: readonly LoggedChange[]) => void;

/** Runs inside a write's transaction once its work is done, with the changes it logged (the webhook outbox). */
export type CommittingHook = (trx: Transaction<Database>, logged: readonly LoggedChange[]) => Promise<void>;

/** The change set of the write running in each open transaction (changeSetOf). */
const openWrites = new WeakMap<object, ChangeSet>();

/**
 * The change set of the write that runs in `trx`: for code that writes inside another write's
 * transaction without being handed its change set (a venue created inline by an event write).
 */
export function changeSetOf(trx: object): ChangeSet | undefined {
  return openWrites.get(trx);
}

/** What `Writes.mark` takes note of. */
export interface WriteMark {
  readonly committed: number;
  readonly quiet: boolean;
}

export type WriteWork<T> = (trx: Transaction<Database>, changes: ChangeSet) => Promise<T>;

/**
 * Runs of a write that PostgreSQL aborted for a deadlock or serialization failure, at most. Each
 * run waits for other writers' locks, so a deadlock needs two writers taking the same locks in
 * opposite orders (two events naming the same two new organizers in opposite orders): one retry
 * nearly always succeeds, and the bound only stops a pathological loop.
 */
const ATTEMPTS = 8;

/**
 * The one way the service writes: a transaction whose change set is published once it has
 * committed. The data version is bumped first (so no cache serves what the write replaced: a
 * read that started before the bump stamps what it read with the older version), then every
 * listener hears of the change set. Before the commit, in the transaction, the revisions behind
 * ETags are written, the committing hooks run (the webhook outbox), and the change feed's rows are
 * appended last (change-log.ts). A write that fails publishes nothing and logs nothing.
 */
export class Writes {
  private readonly listeners: ChangeListener[] = [];
  private readonly committing: CommittingHook[] = [];
  /** Writes that reached their commit, and those of them whose change set is not yet published. */
  private committed = 0;
  private unpublished = 0;

  constructor(
    private readonly db: Db,
    private readonly version: DataVersion,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  onCommitted(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  onCommitting(hook: CommittingHook): void {
    this.committing.push(hook);
  }

  /**
   * Taken before a read and checked after it (`settledSince`): whether the read saw exactly the
   * writes published under the data version read before it. A read stamped with a version may see
   * a write that committed but was not published yet; a kept count adjusted by that write's moves
   * would then count it twice (listing/kept-counts.ts).
   */
  mark(): WriteMark {
    return { committed: this.committed, quiet: this.unpublished === 0 };
  }

  settledSince(mark: WriteMark): boolean {
    return mark.quiet && this.unpublished === 0 && this.committed === mark.committed;
  }

  /**
   * `work` may run more than once (after a deadlock or serialization failure, see ATTEMPTS), each
   * time in a new transaction with a new change set: it must read what it depends on through `trx`.
   */
  async transaction<T>(work: WriteWork<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const changes = new ChangeSet();
      let result: T;
      let logged: readonly LoggedChange[] = [];
      let committing = false;
      try {
        result = await this.db.transaction().execute(async (trx) => {
          openWrites.set(trx, changes);
          const value = await work(trx, changes);
          // In the same transaction: never a change without its feed entries and deliveries (API.md §22).
          const prepared = await prepareChanges(trx, changes, this.clock().getTime());
          logged = prepared.changes;
          for (const hook of this.committing) await hook(trx, logged);
          await appendChanges(trx, prepared);
          committing = true;
          this.committed += 1;
          this.unpublished += 1;
          return value;
        });
      } catch (error) {
        if (committing) this.unpublished -= 1;
        if (!isTransientConflict(error) || attempt >= ATTEMPTS) throw error;
        // Jittered, growing pauses so that the writers that collided do not collide again in step.
        await sleep(Math.random() * 5 * attempt);
        continue;
      }
      try {
        await this.version.bump(changes.keys, changes.moves);
      } finally {
        this.unpublished -= 1;
      }
      for (const listener of this.listeners) listener(changes, logged);
      return result;
    }
  }
}

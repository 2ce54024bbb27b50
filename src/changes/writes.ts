import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import { ChangeSet } from './change-set.js';
import type { DataVersion } from './data-version.js';

/** Told of every committed write, after the data version has moved past it. */
export type ChangeListener = (changes: ChangeSet) => void;

export type WriteWork<T> = (trx: Transaction<Database>, changes: ChangeSet) => Promise<T>;

/**
 * The one way the service writes: a transaction whose change set is published once it has
 * committed. The data version is bumped first (so no cache serves what the write replaced: a
 * read that started before the bump stamps what it read with the older version), then every
 * listener hears of the change set. A write that fails publishes nothing.
 */
export class Writes {
  private readonly listeners: ChangeListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly version: DataVersion,
  ) {}

  onCommitted(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  async transaction<T>(work: WriteWork<T>): Promise<T> {
    const changes = new ChangeSet();
    const result = await this.db.transaction().execute((trx) => work(trx, changes));
    await this.version.bump(changes.keys);
    for (const listener of this.listeners) listener(changes);
    return result;
  }
}

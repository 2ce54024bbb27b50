import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { changeKey } from '../../src/changes/change-set.js';
import {
  ChangeJournal,
  coalesced,
  dataVersionOf,
  postgresDataVersion,
  type DataVersion,
} from '../../src/changes/data-version.js';
import { APPLICATION_NAME } from '../../src/db/direct.js';
import { connect, type DatabaseHandle, type Dialect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';

/** A read whose completion the test controls; each call records the value the store had when it started. */
function controlledReads() {
  let store = 0;
  const pending: (() => void)[] = [];
  const read = () =>
    new Promise<string>((resolve) => {
      const seen = String(store);
      pending.push(() => resolve(seen));
    });
  return { read, pending, write: () => (store += 1) };
}

describe('coalesced data-version reads', () => {
  it('callers that ask while a read is under way share the next read, which starts after they asked', async () => {
    const reads = controlledReads();
    const current = coalesced(reads.read);
    const first = current();
    reads.write();
    const second = current();
    const third = current();
    assert.equal(reads.pending.length, 1, 'the later callers wait for the running read to finish');
    reads.pending[0]();
    assert.equal(await first, '0');
    await new Promise((r) => setImmediate(r));
    assert.equal(reads.pending.length, 2, 'one new read for both waiting callers');
    reads.pending[1]();
    assert.equal(await second, '1', 'the write made before asking is seen');
    assert.equal(await third, '1');
  });

  it('a caller with no read under way starts one at once', async () => {
    const reads = controlledReads();
    const current = coalesced(reads.read);
    const value = current();
    assert.equal(reads.pending.length, 1);
    reads.pending[0]();
    assert.equal(await value, '0');
  });
});

/** Two connections to one fresh, migrated database, each with its data version: this process's and another's. */
async function withTwoProcesses(
  dialect: Dialect,
  test: (ours: DataVersion, other: DataVersion, mine: DatabaseHandle, theirs: DatabaseHandle) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase(dialect);
  const mine = connect(database.url);
  const theirs = connect(database.url);
  try {
    await migrateToLatest(mine.db, mine.dialect);
    await test(dataVersionOf(mine), dataVersionOf(theirs), mine, theirs);
  } finally {
    await theirs.close();
    await mine.close();
    await database.drop();
  }
}

describe('change journal', () => {
  it('keeps the latest sequence of a key when bumps are recorded out of order (concurrent PostgreSQL bumps)', () => {
    const journal = new ChangeJournal();
    journal.record(5, ['event:1']);
    journal.record(4, ['event:1']);
    assert.equal(journal.unchangedAfter(4, ['event:1']), false, 'the change at 5 is not forgotten');
    assert.equal(journal.unchangedAfter(5, ['event:1']), true);
  });

  it('a bump that names nothing changed everything up to it, whatever order it is recorded in', () => {
    const journal = new ChangeJournal();
    journal.record(7, ['term:3']);
    journal.record(6, undefined);
    assert.equal(journal.unchangedAfter(5, ['venue:9']), false);
    assert.equal(journal.unchangedAfter(6, ['term:3']), false, 'the named change at 7 still counts');
    assert.equal(journal.unchangedAfter(7, ['term:3', 'venue:9']), true);
  });
});

for (const dialect of await testDialects()) {
  describe(`data version: changes by this process or another [${dialect}]`, () => {
    it('only this process bumped → local; another connection committed → not local', async () => {
      await withTwoProcesses(dialect, async (ours, other, mine, theirs) => {
        const start = await ours.current();
        await mine.db.insertInto('settings').values({ key: 'mine', value: '1' }).execute();
        await ours.bump();
        const afterOwn = await ours.current();
        assert.notEqual(afterOwn, start);
        assert.equal(ours.localSince(start, afterOwn), true);
        await theirs.db.insertInto('settings').values({ key: 'theirs', value: '1' }).execute();
        await other.bump();
        const afterTheirs = await ours.current();
        assert.notEqual(afterTheirs, afterOwn);
        assert.equal(ours.localSince(afterOwn, afterTheirs), false);
        assert.equal(ours.localSince(start, afterTheirs), false);
      });
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`data version: what changed since a version [${dialect}]`, () => {
    it('names only what this process said it changed; a write that names nothing, or another process, changed anything', async () => {
      await withTwoProcesses(dialect, async (ours, other, _mine, theirs) => {
        const [event1, event2, term] = [changeKey('event', 1), changeKey('event', 2), changeKey('term', 1)];
        const start = await ours.current();
        await ours.bump([event1, term]);
        const afterFirst = await ours.current();
        assert.equal(ours.unchangedSince(start, afterFirst, [event2]), true);
        assert.equal(ours.unchangedSince(start, afterFirst, [event2, term]), false);
        assert.equal(ours.unchangedSince(start, afterFirst, [event1]), false);
        await ours.bump([event2]);
        const afterSecond = await ours.current();
        assert.equal(
          ours.unchangedSince(afterFirst, afterSecond, [event1, term]),
          true,
          'only changes after `from` count',
        );
        assert.equal(ours.unchangedSince(start, afterSecond, [event1]), false, 'nor are earlier ones forgotten');
        await ours.bump();
        const afterUnnamed = await ours.current();
        assert.equal(ours.unchangedSince(afterSecond, afterUnnamed, [changeKey('venue', 9)]), false);
        assert.equal(ours.unchangedSince(afterUnnamed, afterUnnamed, [event1]), true);
        await theirs.db.insertInto('settings').values({ key: 'theirs', value: '1' }).execute();
        await other.bump([event1]);
        const afterTheirs = await ours.current();
        assert.equal(ours.unchangedSince(afterUnnamed, afterTheirs, [event2]), false);
      });
    });
  });
}

for (const dialect of (await testDialects()).filter((name) => name === 'postgres')) {
  describe(`data version: its own connection [${dialect}]`, () => {
    it('is read on a connection of its own; when that connection dies, through the pool, never stale', async () => {
      const database = await createTestDatabase(dialect);
      const handle = connect(database.url);
      try {
        await migrateToLatest(handle.db, handle.dialect);
        const version = postgresDataVersion(handle.db, handle.direct);
        const before = await version.current();
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME} AND datname = current_database()`.execute(
          handle.db,
        );
        assert.equal(rows[0].n, 1, 'the read went through its own connection');
        await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME} AND datname = current_database()`.execute(
          handle.db,
        );
        await version.bump();
        const after = await version.current();
        assert.equal(Number(after), Number(before) + 1, 'read through the pool once its own connection is gone');
      } finally {
        await handle.close();
        await database.drop();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lockUntilCommit } from '../../src/db/locks.js';
import { useTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

if ((await testDialects()).includes('postgres')) {
  describe('the write helper [postgres]', () => {
    const t = useTestApp('postgres');

    it('runs a write again when PostgreSQL aborts it for a deadlock: both writes commit, no error', async () => {
      const { writes } = t.api.app.calendar;
      let arrived = 0;
      let bothHoldOne!: () => void;
      const holding = new Promise<void>((resolve) => (bothHoldOne = resolve));
      const runs = [0, 0];
      // Each takes one lock, waits until the other holds its own, then asks for the other's: a deadlock.
      const write = (i: number, first: string, second: string) =>
        writes.transaction(async (trx) => {
          runs[i] += 1;
          await lockUntilCommit(trx, first);
          if (++arrived === 2) bothHoldOne();
          await holding;
          await lockUntilCommit(trx, second);
          return i;
        });
      assert.deepEqual(
        await Promise.all([write(0, 'retry-test|a', 'retry-test|b'), write(1, 'retry-test|b', 'retry-test|a')]),
        [0, 1],
      );
      assert.equal(runs[0] + runs[1], 3, 'the write PostgreSQL aborted ran once more');
    });

    it('does not run a write again for other errors', async () => {
      let runs = 0;
      await assert.rejects(
        t.api.app.calendar.writes.transaction(async () => {
          runs += 1;
          throw Object.assign(new Error('duplicate'), { code: '23505' });
        }),
        /duplicate/,
      );
      assert.equal(runs, 1);
    });
  });
}

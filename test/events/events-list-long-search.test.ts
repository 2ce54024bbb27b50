import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { insertEvent } from '../helpers/factories.js';
import { refreshSearchDocument } from '../../src/modules/events/events.repository.js';

// Of a search matching many events only the first pages are kept between requests
// (listing/accelerated.ts): any page beyond them, and the totals, must still be exact. The many events
// also span many of the blocks in which memory narrows searches (search/candidates.ts).

const MATCHING = 620;
const FIRST = Date.UTC(2027, 0, 1) / 1000;

for (const dialect of await testDialects()) {
  describe(`GET /events search matching more events than are kept [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const ids: number[] = [];

    before(async () => {
      for (let i = 0; i < MATCHING; i++) {
        const id = await insertEvent(t.api.db, { start: FIRST + i * 3600 });
        await refreshSearchDocument(t.api.db, id);
        ids.push(id);
      }
      await t.api.app.calendar.events.prepare();
    });

    const page = async (n: number) => {
      const res = await t.api.get('/events', {
        query: { search: 'factory', start_date: '2027-01-01', end_date: '2027-12-31', per_page: 50, page: n },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.total, MATCHING);
      assert.equal(res.headers['x-wp-totalpages'], String(Math.ceil(MATCHING / 50)));
      return res.json.events.map((e: { id: number }) => e.id);
    };

    it('every page, first or far beyond the kept ones, in list order, read again from the cache', async () => {
      for (const n of [1, 2, 13, 1, 11, 13, 10])
        assert.deepEqual(await page(n), ids.slice((n - 1) * 50, n * 50), `page ${n}`);
      const beyond = await t.api.get('/events', {
        query: { search: 'factory', start_date: '2027-01-01', end_date: '2027-12-31', per_page: 50, page: 14 },
      });
      assert.equal(beyond.status, 404);
    });

    it('windows that begin and end anywhere among the events give exactly the events inside them', async () => {
      // Events start hourly and last two hours; memory holds them 32 to a block, so these windows
      // begin and end on, just before and just after block edges.
      const at = (hour: number, seconds = 0) =>
        new Date((FIRST + hour * 3600 + seconds) * 1000).toISOString().slice(0, 19) + 'Z';
      const windows = [
        [0, 31],
        [1, 32],
        [31, 32],
        [32, 32],
        [29, 95],
        [64, 100],
        [590, 619],
        [0, 0],
        [33, 63],
        [30, 62],
      ];
      for (const [first, last] of windows) {
        const byBothEnds = { start_date: at(first), end_date: at(last + 2) };
        const byStartsOnly = { starts_after: at(first, -1), starts_before: at(last, 1) };
        for (const bounds of [byBothEnds, byStartsOnly]) {
          const res = await t.api.get('/events', {
            query: { search: 'factory', ...bounds, strict_dates: true, per_page: 50 },
          });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.json.total, last - first + 1, `${first}-${last} ${JSON.stringify(bounds)}`);
          assert.deepEqual(
            res.json.events.map((e: { id: number }) => e.id),
            ids.slice(first, Math.min(last + 1, first + 50)),
            `${first}-${last}`,
          );
        }
      }
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seedCalendar } from '../../src/modules/seed/seed.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

for (const dialect of await testDialects()) {
  describe(`seeded all-day events [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('span 00:00:00 to 23:59:59 of one day in their own zone, whatever the zone', async () => {
      await seedCalendar(t.api.db, t.api.config, { events: 600, venues: 5, organizers: 5, seed: 7 });
      const rows = await t.api.db
        .selectFrom('events')
        .select(['post_id', 'timezone'])
        .where('all_day', '=', 1)
        .execute();
      assert.ok(
        rows.some((row) => row.timezone !== 'UTC'),
        'the seed has all-day events outside UTC',
      );
      for (const row of rows) {
        const res = await t.api.get(`/events/${row.post_id}`, { as: 'administrator' });
        assert.equal(res.status, 200);
        const { start_date: start, end_date: end, timezone } = res.json;
        assert.equal(start.slice(11), '00:00:00', `${row.post_id} ${timezone} ${start}`);
        assert.equal(end.slice(11), '23:59:59', `${row.post_id} ${timezone} ${end}`);
        assert.equal(start.slice(0, 10), end.slice(0, 10), `${row.post_id} ${timezone}`);
      }
    });
  });
}

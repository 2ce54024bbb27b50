import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';

for (const dialect of await testDialects()) {
  describe(`all-day events follow a change of SITE_TIMEZONE [${dialect}]`, () => {
    it('an all-day event stays on its day after the site zone changes between starts', async () => {
      const database = await createTestDatabase(dialect);
      after(() => database.drop());
      const now = () => new Date('2026-11-21T08:37:48Z');
      const start = (zone: string) =>
        buildApp(loadConfig({ DATABASE_URL: database.url, SITE_TIMEZONE: zone, LOG_LEVEL: 'silent' }), {
          logger: false,
          clock: now,
        });
      const first = await start('UTC');
      const { password } = await createUser(first.calendar.db, 'editor', 'editor', 1);
      const auth = { authorization: `Basic ${Buffer.from(`editor:${password}`).toString('base64')}` };
      const created = await first.inject({
        method: 'POST',
        url: '/calendar/events/v1/events',
        headers: auth,
        payload: {
          title: 'Holiday',
          all_day: true,
          start_date: '2026-12-25',
          end_date: '2026-12-25',
          timezone: 'Asia/Tokyo',
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      await first.close();
      const second = await start('America/Los_Angeles');
      try {
        const onTheDay = await second.inject({
          url: '/calendar/events/v1/events?start_date=2026-12-25&end_date=2026-12-25',
        });
        assert.deepEqual(
          JSON.parse(onTheDay.body).events.map((e: { title: string }) => e.title),
          ['Holiday'],
        );
        const dayBefore = await second.inject({
          url: '/calendar/events/v1/events?start_date=2026-12-24&end_date=2026-12-24',
        });
        assert.equal(JSON.parse(dayBefore.body).total, 0);
      } finally {
        await second.close();
      }
    });
  });
}

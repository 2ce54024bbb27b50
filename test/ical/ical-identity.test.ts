import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { insertEvent } from '../helpers/factories.js';
import { assignIcalUids } from '../../src/modules/ical/ical.maintenance.js';

const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@127\.0\.0\.1$/;

for (const dialect of await testDialects()) {
  describe(`events' iCalendar identity (API.md §19.2) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('events without a UID (older than migration 0012) get one at start-up, once, and keep it', async () => {
      const id = await insertEvent(t.api.db);
      await t.api.db.updateTable('events').set({ ical_uid: null }).where('post_id', '=', id).execute();
      const { writes, config } = t.api.app.calendar;
      await assignIcalUids(t.api.db, writes, config);
      const first = (await t.api.get(`/events/${id}`)).json.ical_uid;
      assert.match(first, UID);
      await assignIcalUids(t.api.db, writes, config);
      assert.equal((await t.api.get(`/events/${id}`)).json.ical_uid, first);
    });

    it('ical_uid is read-only: a write sending one changes nothing', async () => {
      const created = await t.api.post(
        '/events',
        {
          title: 'Own UID?',
          start_date: '2026-12-01 10:00',
          end_date: '2026-12-01 11:00',
          ical_uid: 'mine@example.org',
        },
        { as: 'administrator' },
      );
      assert.match(created.json.ical_uid, UID);
      const updated = await t.api.patch(
        `/events/${created.json.id}`,
        { ical_uid: 'mine@example.org' },
        { as: 'administrator' },
      );
      assert.equal(updated.json.ical_uid, created.json.ical_uid);
    });
  });
}

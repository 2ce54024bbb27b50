import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { createTermId } from '../helpers/factories.js';

const ORIGIN = 'http://127.0.0.1:8080';
const EVENT = { title: 'Gig', start_date: '2027-03-01 20:00:00', end_date: '2027-03-01 22:00:00' };

for (const dialect of await testDialects()) {
  describe(`issue 23 contract fixes [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it("item urls keep the request's language, as a parameter the pages read (API.md §15)", async () => {
      const tag = await createTermId(t.api, 'tags', { name: 'Loud' });
      const event = await t.api.post(
        '/events',
        { ...EVENT, venue: { venue: 'Cellar' }, organizer: [{ organizer: 'Band' }], tags: [tag] },
        { as: 'editor' },
      );
      const id = event.json.id;
      assert.equal(event.json.url, `${ORIGIN}/event/gig/`);
      for (const [path, query] of [
        [`/fr/calendar/events/v1/events/${id}`, {}],
        [`/events/${id}`, { i18n_language: 'fr' }],
      ] as const) {
        const res = await t.api.get(path, { query });
        assert.equal(res.json.url, `${ORIGIN}/event/gig/?i18n_language=fr`, path);
        assert.equal(res.json.json_ld.url, `${ORIGIN}/event/gig/?i18n_language=fr`);
        assert.equal(res.json.venue.url, `${ORIGIN}/venue/cellar/?i18n_language=fr`);
        assert.equal(res.json.organizer[0].url, `${ORIGIN}/organizer/band/?i18n_language=fr`);

        // Identifiers never carry the language.
        assert.equal(res.json.global_id, `127.0.0.1?id=${id}`);
      }
      const term = await t.api.get(`/tags/${tag}`, { query: { i18n_language: 'fr' } });
      assert.equal(term.json.url, `${ORIGIN}/tag/loud/?i18n_language=fr`);
      const draft = await t.api.post('/venues', { venue: 'Hidden', status: 'draft' }, { as: 'editor' });
      const french = await t.api.get(`/venues/${draft.json.id}`, { as: 'editor', query: { i18n_language: 'fr' } });
      assert.equal(french.json.url, `${ORIGIN}/?post_type=tribe_venue&p=${draft.json.id}&i18n_language=fr`);
      const page = await t.api.request('GET', '/event/gig/?i18n_language=fr', undefined, { raw: true });
      assert.equal(page.status, 200);
      assert.equal(page.headers['content-language'], 'fr');
    });

    it('json_ld offers name the currency of the cost symbol, not always USD', async () => {
      const cases: [unknown, string | undefined][] = [
        ['€15 – €25', 'EUR'],
        ['£8', 'GBP'],
        ['10', 'USD'],
        ['$10', 'USD'],
        ['20 CHF', 'CHF'],
        ['15 EUR', 'EUR'],
        ['100 kr', undefined],
      ];
      for (const [cost, currency] of cases) {
        const created = await t.api.post('/events', { ...EVENT, cost }, { as: 'editor' });
        const single = await t.api.get(`/events/${created.json.id}`);
        assert.equal(single.json.json_ld.offers.priceCurrency, currency, String(cost));
      }
    });
  });
}

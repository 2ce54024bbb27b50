import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

const ORIGIN = 'http://127.0.0.1:8080';
const pathOf = (url: string) => url.slice(ORIGIN.length);

for (const dialect of await testDialects()) {
  describe(`public pages behind every url [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('the url of an event, its venue, organizer, category and tag answers with an HTML page of the item', async () => {
      const parent = await t.api.post('/categories', { name: 'Music' }, { as: 'editor' });
      const category = await t.api.post('/categories', { name: 'Jazz', parent: parent.json.id }, { as: 'editor' });
      const tag = await t.api.post('/tags', { name: 'Late night' }, { as: 'editor' });
      const event = await t.api.post(
        '/events',
        {
          // Tags are stripped on write (API.md §18); a lone `<` stays text, which the page must escape.
          title: 'Night 1 < 2 & "Day"',
          description: 'A long evening.',
          start_date: '2026-12-21 18:00:00',
          end_date: '2026-12-21 23:00:00',
          venue: { venue: 'Blue Room', city: 'Springfield' },
          organizer: [{ organizer: 'Night Org' }],
          categories: [category.json.id],
          tags: [tag.json.id],
        },
        { as: 'editor' },
      );
      assert.equal(event.status, 201, event.text);
      const categoryUrl = (await t.api.get(`/categories/${category.json.id}`)).json.url;
      assert.equal(categoryUrl, `${ORIGIN}/events/category/music/jazz/`);
      const urls = [
        event.json.url,
        event.json.venue.url,
        event.json.organizer[0].url,
        categoryUrl,
        (await t.api.get(`/tags/${tag.json.id}`)).json.url,
      ];
      for (const url of urls) {
        const res = await t.api.request('GET', pathOf(url), undefined, { raw: true });
        assert.equal(res.status, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.ok(res.text.startsWith('<!DOCTYPE html>'), url);
      }
      const page = await t.api.request('GET', pathOf(event.json.url), undefined, { raw: true });
      assert.ok(page.text.includes('<h1>Night 1 &lt; 2 &amp; &quot;Day&quot;</h1>'));
      assert.ok(page.text.includes('<p>A long evening.</p>'));
      assert.ok(page.text.includes('Blue Room'));
      assert.ok(page.text.includes(`href="${ORIGIN}/calendar/events/v1/events/${event.json.id}"`));
      const categoryPage = await t.api.request('GET', pathOf(categoryUrl), undefined, { raw: true });
      assert.ok(categoryPage.text.includes('Night 1 &lt; 2'), 'the category page lists its events');
    });

    it("a series' page lists its upcoming dates, paged, each linking to its occurrence's page", async () => {
      const series = await t.api.post(
        '/events',
        {
          title: 'Lunchtime recital',
          start_date: '2027-03-01 12:30:00',
          end_date: '2027-03-01 13:15:00',
          timezone: 'Europe/Paris',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=12'],
        },
        { as: 'editor' },
      );
      assert.equal(series.status, 201, series.text);
      const occurrences = (await t.api.get(`/events/${series.json.id}/occurrences`, { query: { per_page: 50 } })).json
        .events as { id: number; url: string }[];
      assert.equal(occurrences.length, 12);
      await t.api.delete(`/events/${occurrences[1].id}`, { as: 'editor' });
      const linked = (html: string) =>
        occurrences.filter((o) => html.includes(`href="${pathOf(o.url)}"`)).map((o) => occurrences.indexOf(o));
      const first = await t.api.request('GET', pathOf(series.json.url), undefined, { raw: true });
      assert.equal(first.status, 200);
      assert.match(first.text, /<section class="series-dates">/);
      assert.deepEqual(
        linked(first.text),
        [0, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        'the first ten dates, without the trashed one',
      );
      const second = await t.api.request('GET', `${pathOf(series.json.url)}?page=2`, undefined, { raw: true });
      assert.deepEqual(linked(second.text), [11]);
      const occurrencePage = await t.api.request('GET', pathOf(occurrences[3].url), undefined, { raw: true });
      assert.equal(occurrencePage.status, 200);
      assert.doesNotMatch(occurrencePage.text, /series-dates/, "an occurrence's page is about its own date");
    });

    it("unpublished items and unknown slugs are a 404 page, not someone else's draft", async () => {
      const draft = await t.api.post(
        '/events',
        { title: 'Secret plan', start_date: '2026-12-22 10:00', end_date: '2026-12-22 11:00', status: 'draft' },
        { as: 'editor' },
      );
      assert.equal(draft.json.url, `${ORIGIN}/?post_type=tribe_events&p=${draft.json.id}`);
      const res = await t.api.request('GET', pathOf(draft.json.url), undefined, { raw: true });
      assert.equal(res.status, 404);
      assert.ok(!res.text.includes('Secret plan'));
      assert.equal((await t.api.request('GET', '/event/no-such-event/', undefined, { raw: true })).status, 404);
      assert.equal((await t.api.request('GET', '/tag/no-such-tag/', undefined, { raw: true })).status, 404);
      assert.equal((await t.api.request('GET', '/?post_type=unknown&p=1', undefined, { raw: true })).status, 404);
    });
  });
}

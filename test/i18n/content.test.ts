import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

const FR = '/fr/calendar/events/v1';

for (const dialect of await testDialects()) {
  describe(`multilingual content [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('an English event gets a French title; fr falls back to English for the description, de to English everywhere', async () => {
      const created = await t.api.post(
        '/events',
        {
          title: 'Evening concert',
          description: 'Music all night.',
          excerpt: 'Night music',
          start_date: '2026-12-21 18:00',
          end_date: '2026-12-21 20:00',
        },
        { as: 'editor' },
      );
      assert.equal(created.status, 201, created.text);
      const id = created.json.id;
      const patched = await t.api.patch(`${FR}/events/${id}`, { title: 'Concert du soir' }, { as: 'editor' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.title, 'Concert du soir');
      assert.equal(patched.headers['content-language'], 'fr');

      const fr = await t.api.get(`/events/${id}`, { query: { i18n_language: 'fr' } });
      assert.equal(fr.json.title, 'Concert du soir');
      assert.equal(fr.json.description, '<p>Music all night.</p>');
      assert.equal(fr.headers['content-language'], 'fr');
      assert.equal(fr.json.rest_url, `http://127.0.0.1:8080/calendar/events/v1/events/${id}?i18n_language=fr`);
      const de = await t.api.get(`/events/${id}`, { query: { i18n_language: 'de' } });
      assert.equal(de.json.title, 'Evening concert');
      assert.equal(de.headers['content-language'], 'de');
      const en = await t.api.get(`/events/${id}`);
      assert.equal(en.json.title, 'Evening concert');
      assert.equal(en.headers['content-language'], 'en');
      const pathForm = await t.api.get(`${FR}/events/${id}`);
      assert.equal(pathForm.json.title, 'Concert du soir');
      assert.equal(pathForm.json.rest_url, `http://127.0.0.1:8080/fr/calendar/events/v1/events/${id}`);
    });

    it('search finds an event by its French word only in French', async () => {
      const created = await t.api.post(
        '/events',
        { title: 'Fireworks show', start_date: '2026-12-31 22:00', end_date: '2026-12-31 23:59' },
        { as: 'editor' },
      );
      await t.api.patch(`${FR}/events/${created.json.id}`, { title: "Feu d'artifice" }, { as: 'editor' });
      const ids = async (query: Record<string, string>) =>
        (await t.api.get('/events', { query })).json.events.map((e: { id: number }) => e.id);
      assert.deepEqual(await ids({ search: 'artifice', i18n_language: 'fr' }), [created.json.id]);
      assert.deepEqual(await ids({ search: 'artifice' }), []);
      assert.deepEqual(await ids({ search: 'artifice', i18n_language: 'de' }), []);
      assert.deepEqual(
        await ids({ search: 'fireworks', i18n_language: 'de' }),
        [created.json.id],
        'de falls back to English',
      );
      assert.deepEqual(await ids({ search: 'fireworks', i18n_language: 'fr' }), [], 'fr has its own title');
    });

    it('an unknown event in German gives the German message with the same code', async () => {
      const res = await t.api.get('/events/999999', { query: { i18n_language: 'de' } });
      assert.equal(res.status, 404);
      assert.equal(res.json.code, 'rest-event-not-found');
      assert.notEqual(res.json.message, 'Event with ID 999999 does not exist.');
      assert.ok(res.json.message.includes('999999'));
      assert.equal(res.headers['content-language'], 'de');
    });

    it('creating in another language makes it the original, used as the last fallback', async () => {
      const created = await t.api.post(
        `${FR}/categories`,
        { name: 'Spectacle vivant', description: 'Théâtre et danse' },
        { as: 'editor' },
      );
      assert.equal(created.status, 201, created.text);
      const en = await t.api.get(`/categories/${created.json.id}`);
      assert.equal(en.json.name, 'Spectacle vivant');
      const translated = await t.api.patch(
        `/categories/${created.json.id}`,
        { name: 'Performing arts' },
        { as: 'editor' },
      );
      assert.equal(translated.json.name, 'Performing arts');
      assert.equal((await t.api.get(`${FR}/categories/${created.json.id}`)).json.name, 'Spectacle vivant');
      assert.equal(
        (await t.api.get(`/categories/${created.json.id}`, { query: { i18n_language: 'es' } })).json.name,
        'Performing arts',
      );
    });

    it('term names, slugs and search follow the request language, with fallback', async () => {
      const category = await t.api.post('/categories', { name: 'Concerts' }, { as: 'editor' });
      const french = await t.api.patch(
        `${FR}/categories/${category.json.id}`,
        { name: 'Spectacles musicaux' },
        { as: 'editor' },
      );
      assert.equal(french.json.slug, 'spectacles-musicaux');
      // Emitted URLs keep the request's language (API.md §15); pages read it as a parameter.
      assert.equal(french.json.url, 'http://127.0.0.1:8080/events/category/spectacles-musicaux/?i18n_language=fr');
      const event = await t.api.post(
        '/events',
        { title: 'Gig', start_date: '2026-12-10 20:00', end_date: '2026-12-10 22:00', categories: [category.json.id] },
        { as: 'editor' },
      );
      const inFrench = await t.api.get(`${FR}/events`, { query: { categories: 'spectacles-musicaux' } });
      assert.deepEqual(
        inFrench.json.events.map((e: { id: number }) => e.id),
        [event.json.id],
      );
      assert.equal(inFrench.json.events[0].categories[0].name, 'Spectacles musicaux');
      assert.equal((await t.api.get('/events', { query: { categories: 'spectacles-musicaux' } })).status, 400);
      assert.equal(
        (await t.api.get(`${FR}/events`, { query: { categories: 'concerts' } })).json.total,
        1,
        'the original slug still works',
      );
      assert.equal((await t.api.get(`${FR}/categories`, { query: { slug: 'spectacles-musicaux' } })).json.total, 1);
      assert.equal((await t.api.get(`${FR}/categories`, { query: { search: 'musicaux' } })).json.total, 1);
      assert.equal((await t.api.get('/categories', { query: { search: 'musicaux' } })).json.total, 0);
    });

    it('embedded venues, organizers and terms follow the request language', async () => {
      const venue = await t.api.post('/venues', { venue: 'Town hall', description: 'Big hall' }, { as: 'editor' });
      await t.api.patch(`${FR}/venues/${venue.json.id}`, { venue: 'Hôtel de ville' }, { as: 'editor' });
      const organizer = await t.api.post('/organizers', { organizer: 'City council' }, { as: 'editor' });
      await t.api.patch(
        `/nl/calendar/events/v1/organizers/${organizer.json.id}`,
        { organizer: 'Gemeenteraad' },
        { as: 'editor' },
      );
      const event = await t.api.post(
        '/events',
        {
          title: 'Meeting',
          start_date: '2026-12-11 20:00',
          end_date: '2026-12-11 22:00',
          venue: venue.json.id,
          organizer: [organizer.json.id],
        },
        { as: 'editor' },
      );
      const fr = await t.api.get(`${FR}/events/${event.json.id}`);
      assert.equal(fr.json.venue.venue, 'Hôtel de ville');
      assert.equal(fr.json.venue.description, '<p>Big hall</p>');
      assert.equal(fr.json.organizer[0].organizer, 'City council');
      const nl = await t.api.get(`/events/${event.json.id}`, { query: { i18n_language: 'nl' } });
      assert.equal(nl.json.organizer[0].organizer, 'Gemeenteraad');
      assert.equal(nl.json.venue.venue, 'Town hall');
      const venues = await t.api.get(`${FR}/venues`, { query: { search: 'ville' } });
      assert.deepEqual(
        venues.json.venues.map((v: { id: number }) => v.id),
        [venue.json.id],
      );
    });

    it('the Free cost label is translated', async () => {
      const event = await t.api.post(
        '/events',
        { title: 'Open day', start_date: '2026-12-12 10:00', end_date: '2026-12-12 16:00', cost: '0' },
        { as: 'editor' },
      );
      assert.equal(event.json.cost, 'Free');
      assert.equal((await t.api.get(`${FR}/events/${event.json.id}`)).json.cost, 'Gratuit');
      assert.equal(
        (await t.api.get(`/events/${event.json.id}`, { query: { i18n_language: 'de' } })).json.cost,
        'Kostenlos',
      );
    });

    it('context=edit adds the translations and languages of the item for those who may edit it', async () => {
      const event = await t.api.post(
        '/events',
        { title: 'Hint', description: 'Desc', start_date: '2026-12-13 10:00', end_date: '2026-12-13 11:00' },
        { as: 'editor' },
      );
      await t.api.patch(`${FR}/events/${event.json.id}`, { title: 'Indice' }, { as: 'editor' });
      const res = await t.api.get(`/events/${event.json.id}`, { query: { context: 'edit' }, as: 'editor' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.languages, ['en', 'fr']);
      assert.deepEqual(res.json.translations, {
        en: { title: 'Hint', description: 'Desc', excerpt: '' },
        fr: { title: 'Indice' },
      });
      const keys = Object.keys(res.json);
      assert.deepEqual(keys.slice(-3), ['json_ld', 'translations', 'languages']);
      assert.equal((await t.api.get(`/events/${event.json.id}`, { query: { context: 'edit' } })).status, 401);
      assert.equal(
        (await t.api.get(`/events/${event.json.id}`, { query: { context: 'edit' }, as: 'subscriber' })).status,
        403,
      );
      assert.equal((await t.api.get(`/events/${event.json.id}`)).json.translations, undefined);
      const tag = await t.api.post('/tags', { name: 'Outdoor' }, { as: 'editor' });
      await t.api.patch(`/de/calendar/events/v1/tags/${tag.json.id}`, { name: 'Draußen' }, { as: 'editor' });
      const tagHint = await t.api.get(`/tags/${tag.json.id}`, { query: { context: 'edit' }, as: 'editor' });
      assert.deepEqual(tagHint.json.translations.de, { name: 'Draußen', slug: 'draussen' });
      assert.equal((await t.api.get(`/tags/${tag.json.id}`, { query: { context: 'bogus' } })).status, 400);
    });
  });
}

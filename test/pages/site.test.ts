import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestResponse } from '../helpers/app.js';
import { htmlProblems } from '../helpers/html.js';
import { apiPost, seedSite, type SiteFixture } from '../helpers/site-fixtures.js';
import { CONTENT_SECURITY_POLICY } from '../../src/modules/site/errors.js';
import { LANGUAGES } from '../../src/i18n/languages.js';

const ORIGIN = 'http://127.0.0.1:8080';

/** A page's markup with whitespace runs as one space and none before `>`: assertions need not follow line breaks. */
const flat = (text: string) => text.replace(/\s+/g, ' ').replace(/ >/g, '>');
const NOW = DateTime.fromJSDate(DEFAULT_NOW, { zone: 'utc' });
const MONTH = NOW.toFormat('yyyy-MM');

for (const dialect of await testDialects()) {
  describe(`the public website [${dialect}]`, () => {
    // Two events a page, so that the fixture's few upcoming events need pagination.
    const t = useTestApp(dialect, { env: { DEFAULT_PER_PAGE: '2' } });
    let fixture: SiteFixture;
    const page = async (path: string, headers: Record<string, string> = {}): Promise<TestResponse> => {
      const res = await t.api.request('GET', path, undefined, { raw: true, headers });
      return { ...res, text: flat(res.text) };
    };
    const ready = async () => {
      fixture ??= await seedSite(t.api.app, NOW);
      return fixture;
    };

    it('every page type is valid HTML with the security headers of §23.1', async () => {
      const { concert } = await ready();
      const paths = [
        '/events/',
        '/events/?page=2',
        `/events/month/${MONTH}/`,
        '/events/week/',
        `/events/day/${concert.day}/`,
        `/event/${concert.slug}/`,
        '/venue/riverside-hall/',
        '/organizer/springfield-arts-council/',
        '/events/category/music/',
        '/tag/free-entry/',
        '/de/events/month/',
        '/no/such/page/',
        '/events/?categories=no-such-category',
        '/admin/login',
      ];
      for (const path of paths) {
        const res = await page(path);
        assert.ok([200, 400, 404].includes(res.status), `${path}: ${res.status}`);
        assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/, path);
        assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY, path);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
        assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin', path);
        assert.equal(res.headers['strict-transport-security'], undefined, 'no HSTS on http');
        const raw = await t.api.request('GET', path, undefined, { raw: true });
        assert.deepEqual(await htmlProblems(raw.text), [], path);
        // Public pages run no script at all; the editor loads its one file (an enhancement).
        const allowed = path.startsWith('/admin/')
          ? res.text.replace('<script src="/assets/editor.js" defer></script>', '')
          : res.text;
        assert.doesNotMatch(allowed, /<script(?! type="application\/ld\+json")/, `${path}: no script but JSON-LD`);
        assert.doesNotMatch(res.text, /\sstyle=|\son[a-z]+=/i, `${path}: no inline style or handlers`);
      }
    });

    it('an event page shows dates in its zone, venue with map link, organizers, terms, cost, website, JSON-LD and add-to-calendar links', async () => {
      const { concert } = await ready();
      const res = await page(`/event/${concert.slug}/`);
      assert.equal(res.status, 200);
      assert.match(res.text, /<h1>Autumn Jazz Night<\/h1>/);
      assert.match(res.text, /<time datetime="2026-11-12T19:00:00Z">Thu, Nov 12, 2026, 7:00\s?PM<\/time>/);
      assert.match(res.text, /href="\/venue\/riverside-hall\/"/);
      assert.match(res.text, /12 River Street, Springfield, United States/);
      assert.match(
        res.text,
        /href="https:\/\/www\.openstreetmap\.org\/\?mlat=39\.7817&amp;mlon=-89\.6501#map=16\/39\.7817\/-89\.6501"/,
      );
      assert.match(res.text, /href="\/organizer\/springfield-arts-council\/"/);
      assert.match(res.text, /href="\/events\/category\/music\/"/);
      assert.match(res.text, /href="\/tag\/free-entry\/"/);
      assert.match(res.text, /\$15/);
      assert.match(res.text, /href="https:\/\/example\.org\/jazz"/);
      const api = await t.api.get(`/events/${concert.id}`);
      const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.text)?.[1] ?? '';
      assert.deepEqual(JSON.parse(jsonLd), api.json.json_ld);
      assert.ok(res.text.includes(`<link rel="alternate" type="text/calendar" href="${api.json.ical_url}">`));
      assert.ok(res.text.includes(`href="${api.json.ical_url}"`));
      const google = /href="(https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE[^"]*)"/.exec(
        res.text,
      )?.[1];
      const params = new URL((google ?? '').replace(/&amp;/g, '&')).searchParams;
      assert.equal(params.get('text'), 'Autumn Jazz Night');
      assert.equal(params.get('dates'), '20261112T190000Z/20261112T220000Z');
      assert.equal(params.get('details'), `${ORIGIN}/event/${concert.slug}/`);
      assert.equal(params.get('location'), 'Riverside Hall, 12 River Street, Springfield, United States');
    });

    it('all-day and multi-day events: dates only, on every day they cover, Google dates with an exclusive end', async () => {
      await ready();
      const month = await page(`/events/month/${MONTH}/`);
      for (const day of ['20', '21', '22']) assert.ok(month.text.includes(`<time datetime="2026-11-${day}">`), day);
      const days = month.text.split('<td').filter((cell) => cell.includes('Craft Fair'));
      assert.equal(days.length, 3, 'the fair is on each of its three days');
      const fair = await page('/event/craft-fair/');
      assert.match(
        fair.text,
        /<time datetime="2026-11-20">Friday, November 20, 2026<\/time> – <time datetime="2026-11-22">Sunday, November 22, 2026<\/time>/,
      );
      assert.match(fair.text, /dates=20261120%2F20261123/);
    });

    it('the month view is a table with weekday header cells; days link to the day view, which links to the event', async () => {
      const { concert } = await ready();
      const month = await page(`/events/month/${MONTH}/`);
      assert.match(month.text, /<table class="month">/);
      assert.equal((month.text.match(/<th scope="col">/g) ?? []).length, 7);
      assert.ok(month.text.includes(`href="/events/day/${concert.day}/"`));
      assert.match(month.text, /\+1 more/, 'a busy day links to the rest');
      const day = await page(`/events/day/${concert.day}/`);
      for (const title of ['Street Food Market', 'Folk Session', 'Autumn Jazz Night', 'Open Mic'])
        assert.ok(day.text.includes(title), title);
      assert.ok(day.text.includes(`href="/event/${concert.slug}/"`));
      assert.match(month.text, /rel="prev" href="\/events\/month\/2026-10\/"/);
      assert.match(month.text, /rel="next" href="\/events\/month\/2026-12\/"/);
    });

    it('filters make shareable URLs, bad values are a 400 page naming the parameter, a page past the end a 404', async () => {
      const { music } = await ready();
      const filtered = await page(`/events/month/${MONTH}/?categories=${music.slug}`);
      assert.ok(filtered.text.includes('Autumn Jazz Night'));
      assert.ok(!filtered.text.includes('Hamlet in the Park'));
      assert.match(filtered.text, /<option value="music" selected>Music<\/option>/);
      assert.match(filtered.text, /href="\/events\/day\/2026-11-12\/\?categories=music"/, 'links keep the filter');
      const form = await page(`/events/month/${MONTH}/?search=&categories=music&tags=`);
      assert.equal(form.status, 200, 'the empty fields of a submitted filter form are no filters');
      const search = await page('/events/?search=winter');
      assert.ok(search.text.includes('Winter Concert'));
      assert.ok(!search.text.includes('Film Night'));
      assert.ok(!(await page('/events/')).text.includes('Hamlet in the Park'), 'the list shows events not yet ended');
      const bad = await page('/events/?categories=nope');
      assert.equal(bad.status, 400);
      assert.match(bad.text, /categories/);
      assert.equal((await page('/events/?venue=abc')).status, 400);
      assert.equal((await page('/events/?page=99')).status, 404);
      assert.equal((await page('/events/month/2026-13/')).status, 404);
      assert.equal((await page('/events/day/2026-02-30/')).status, 404);
      const list = await page('/events/');
      assert.match(list.text, /webcal:\/\/127\.0\.0\.1:8080\/ical\/events\.ics/);
      assert.match(
        list.text,
        /https:\/\/calendar\.google\.com\/calendar\/render\?cid=webcal%3A%2F%2F127\.0\.0\.1%3A8080%2Fical%2Fevents\.ics/,
      );
      assert.match(
        list.text,
        /<link rel="alternate" type="text\/calendar" href="http:\/\/127\.0\.0\.1:8080\/ical\/events\.ics">/,
      );
      assert.match(list.text, /rel="next" href="\/events\/\?page=2"/);
      const second = await page('/events/?page=2');
      assert.match(second.text, /rel="prev" href="\/events\/"/);
      assert.match(second.text, /Page 2 of 2/);
      const feed = await page('/events/?ical=1');
      assert.match(String(feed.headers['content-type']), /^text\/calendar/);
    });

    it('pages come in the 12 languages with a switcher and hreflang alternates', async () => {
      await ready();
      const german = await page('/de/events/month/');
      assert.equal(german.status, 200);
      assert.match(german.text, /<html lang="de">/);
      assert.equal(german.headers['content-language'], 'de');
      assert.match(german.text, /November 2026/);
      assert.match(german.text, />Monat</);
      for (const lang of LANGUAGES)
        assert.ok(
          german.text.includes(
            `hreflang="${lang === 'pt-br' ? 'pt-BR' : lang}" href="${ORIGIN}/${lang}/events/month/"`,
          ),
          lang,
        );
      assert.ok(german.text.includes(`<link rel="alternate" hreflang="x-default" href="${ORIGIN}/events/month/">`));
      assert.match(german.text, /href="\/de\/events\/week\/"/, 'links keep the language');
      const param = await page('/events/?i18n_language=fr');
      assert.match(param.text, /<html lang="fr">/);
      assert.match(param.text, /Évènements à venir/);
      const brazil = await page('/pt-br/events/');
      assert.match(brazil.text, /<html lang="pt-BR">/);
    });

    it('stored text is escaped everywhere and JSON-LD cannot close its element', async () => {
      const { editor } = await ready();
      const tricky = await apiPost(t.api.app, editor, '/events', {
        title: 'Tom & Jerry "quoted" <3 ></p>',
        description: '<p onclick="alert(1)">Hi<script>alert(1)</script></p>',
        start_date: '2026-11-25 10:00',
        end_date: '2026-11-25 11:00',
        status: 'publish',
      });
      const res = await page(`/event/${tricky.slug}/`);
      assert.equal(res.status, 200);
      const stored = (await t.api.get(`/events/${tricky.id}`)).json.title as string;
      assert.ok(stored.includes('<3'), stored);
      assert.ok(res.text.includes('Tom &amp; Jerry &quot;quoted&quot; &lt;3'), res.text);
      assert.ok(!res.text.includes('alert(1)</script>'));
      assert.ok(!res.text.includes('onclick'));
      const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.text)?.[1] ?? '';
      assert.ok(jsonLd.includes('\\u003c3'), jsonLd);
      assert.ok(!jsonLd.includes('<'));
      assert.deepEqual(
        await htmlProblems((await t.api.request('GET', `/event/${tricky.slug}/`, undefined, { raw: true })).text),
        [],
      );
    });

    it('only published content is public: drafts are a 404 page, a protected event shows title, dates and a notice', async () => {
      const { editor } = await ready();
      const draft = await apiPost(t.api.app, editor, '/events', {
        title: 'Secret rehearsal',
        start_date: '2026-11-26 10:00',
        end_date: '2026-11-26 11:00',
        status: 'draft',
        slug: 'secret-rehearsal',
      });
      const hidden = await page(`/?post_type=tribe_events&p=${draft.id}`);
      assert.equal(hidden.status, 404);
      assert.ok(!hidden.text.includes('Secret rehearsal'));
      const month = await page(`/events/month/${MONTH}/`);
      assert.ok(!month.text.includes('Secret rehearsal'));
      const locked = await apiPost(t.api.app, editor, '/events', {
        title: 'Members only',
        description: 'The secret agenda',
        start_date: '2026-11-27 10:00',
        end_date: '2026-11-27 11:00',
        status: 'publish',
        password: 'pw',
      });
      const res = await page(`/event/${locked.slug}/`);
      assert.equal(res.status, 200);
      assert.match(res.text, /Members only/);
      assert.match(res.text, /password protected/);
      assert.ok(!res.text.includes('The secret agenda'));
      assert.ok(!res.text.includes('application/ld+json'));
      assert.ok(!res.text.includes('.ics'));
    });

    it('`/` goes to the upcoming events in its language; TEC URLs redirect; unknown paths are the HTML 404, API paths stay JSON', async () => {
      await ready();
      assert.equal((await page('/')).headers.location, '/events/');
      assert.equal((await page('/sv/')).headers.location, '/sv/events/');
      const list = await page('/events/list/?categories=music');
      assert.equal(list.status, 301);
      assert.equal(list.headers.location, '/events/?categories=music');
      assert.equal((await page('/events/today/')).headers.location, '/events/day/');
      assert.equal((await page('/events/2026-11-12/')).headers.location, '/events/day/2026-11-12/');
      const missing = await page('/fi/nothing/here/');
      assert.equal(missing.status, 404);
      assert.match(missing.text, /<html lang="fi">/);
      assert.match(missing.text, /Sivua ei löytynyt/);
      const api = await page('/calendar/events/v1/nothing');
      assert.equal(api.json.code, 'rest_no_route');
      assert.equal((await page('/ical/nothing')).json.code, 'rest_no_route');
    });

    it('occurrences of a recurring series are on their days and have their own pages', async () => {
      const { editor } = await ready();
      const series = await apiPost(t.api.app, editor, '/events', {
        title: 'Weekly Yoga',
        start_date: '2026-11-02 08:00',
        end_date: '2026-11-02 09:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
        status: 'publish',
      });
      const month = await page(`/events/month/${MONTH}/`);
      for (const day of ['02', '09', '16', '23'])
        assert.ok(month.text.includes(`href="/event/${series.slug}/2026-11-${day}/"`), day);
      const occurrence = await page(`/event/${series.slug}/2026-11-16/`);
      assert.equal(occurrence.status, 200);
      assert.match(occurrence.text, /<time datetime="2026-11-16T08:00:00Z">/);
      assert.equal((await page(`/event/${series.slug}/2026-11-17/`)).status, 404);
      assert.equal((await page(`/event/${series.slug}/not-a-date/`)).status, 404);
      const own = await page(`/event/${series.slug}/`);
      assert.match(own.text, /<section class="series-dates">/, "the series' page lists its dates");
      assert.deepEqual(await htmlProblems(own.text), [], "the series' page");
    });

    it('credentials do not change public pages', async () => {
      const { editor } = await ready();
      await apiPost(t.api.app, editor, '/events', {
        title: 'Editors draft',
        start_date: '2026-11-23 10:00',
        end_date: '2026-11-23 11:00',
        status: 'draft',
      });
      const asEditor = await page(`/events/month/${MONTH}/`, { authorization: editor.header });
      assert.ok(!asEditor.text.includes('Editors draft'));
    });
  });
}

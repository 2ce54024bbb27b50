import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { testDialects } from '../helpers/databases.js';
import { NS, useTestApp } from '../helpers/app.js';
import { htmlProblems } from '../helpers/html.js';
import {
  createAppPassword,
  createUser,
  revokeAppPassword,
  listAppPasswords,
} from '../../src/modules/users/users.service.js';

/** A browser's share of the editor: cookies kept between requests, forms posted with their token. */
class EditorClient {
  private cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string | string[]>) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const payload = form
      ? new URLSearchParams(
          Object.entries(form).flatMap(([name, value]) =>
            Array.isArray(value) ? value.map((v) => [`${name}[]`, v]) : [[name, value]],
          ),
        ).toString()
      : undefined;
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload,
    });
    const set = response.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The `_csrf` value of the first form on a page. */
  static token(body: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(body);
    if (!match) throw new Error('no CSRF token on the page');
    return match[1];
  }

  async signIn(login: string, password: string, next = '') {
    const form = await this.request('GET', `/admin/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    return this.request('POST', '/admin/login', { _csrf: EditorClient.token(form.body), login, password, next });
  }

  has(name: string) {
    return this.cookies.has(name);
  }
}

for (const dialect of await testDialects()) {
  describe(`the editor at /admin/ [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const user = async (login: string, role: string) => createUser(t.api.db, login, role, 1_700_000_000);

    it('sends visitors to sign in, refuses wrong passwords and foreign `next`, and signs in and out', async () => {
      const { password } = await user('ed', 'editor');
      const client = new EditorClient(t.api.app);
      const anonymous = await client.request('GET', '/admin/events/?status=draft');
      assert.equal(anonymous.statusCode, 303);
      assert.equal(
        anonymous.headers.location,
        `/admin/login?next=${encodeURIComponent('/admin/events/?status=draft')}`,
      );

      const wrong = await client.signIn('ed', 'not-the-password');
      assert.equal(wrong.statusCode, 401);
      assert.match(wrong.body, /The provided password is an invalid application password\./);
      assert.equal(client.has('calendar_session'), false);
      const unknown = await client.signIn('nobody', password);
      assert.equal(unknown.statusCode, 401);

      const foreign = await client.signIn('ed', password, 'https://evil.example/admin/');
      assert.equal(foreign.statusCode, 303);
      assert.equal(foreign.headers.location, '/admin/');
      for (const next of ['//evil.example/admin/', '/admin/../../x\\y', '/\\evil.example']) {
        const again = await new EditorClient(t.api.app).signIn('ed', password, next);
        assert.equal(again.headers.location, '/admin/', next);
      }
      const back = await new EditorClient(t.api.app).signIn('ed', password, '/admin/venues/');
      assert.equal(back.headers.location, '/admin/venues/');
      const cookie = String(foreign.headers['set-cookie']);
      assert.match(cookie, /calendar_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\//);

      const dashboard = await client.request('GET', '/admin/');
      assert.equal(dashboard.statusCode, 200);
      assert.equal(dashboard.headers['cache-control'], 'no-store');
      assert.match(String(dashboard.headers['content-security-policy']), /script-src 'self'/);
      const noToken = await client.request('POST', '/admin/logout', { _csrf: 'wrong' });
      assert.equal(noToken.statusCode, 403);
      assert.equal((await client.request('GET', '/admin/')).statusCode, 200, 'a refused sign-out changes nothing');
      const out = await client.request('POST', '/admin/logout', { _csrf: EditorClient.token(dashboard.body) });
      assert.equal(out.statusCode, 303);
      assert.equal((await client.request('GET', '/admin/')).statusCode, 303);
    });

    it('a sign-in POST without the pre-session token is refused', async () => {
      const { password } = await user('ed2', 'editor');
      const client = new EditorClient(t.api.app);
      await client.request('GET', '/admin/login');
      const res = await client.request('POST', '/admin/login', { _csrf: 'forged', login: 'ed2', password });
      assert.equal(res.statusCode, 403);
      assert.equal(client.has('calendar_session'), false);
    });

    it('creates an event with a new venue through the API, shows API field errors by their fields, and changes nothing on bad input', async () => {
      const { password } = await user('ed3', 'editor');
      const client = new EditorClient(t.api.app);
      await client.signIn('ed3', password);
      const form = await client.request('GET', '/admin/events/new');
      assert.equal(form.statusCode, 200);
      const csrf = EditorClient.token(form.body);
      const bad = await client.request('POST', '/admin/events/new', {
        _csrf: csrf,
        title: 'Broken <dates>',
        start_date: '2026-12-12T20:00',
        end_date: 'not a date',
        timezone: 'Europe/Paris',
        status: 'publish',
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /id="field-end_date"[^>]*aria-invalid="true" aria-describedby="field-end_date-error"/);
      assert.match(bad.body, /<p class="field-error" id="field-end_date-error">/);
      assert.match(bad.body, /value="Broken &lt;dates&gt;"/, 'the values entered come back, escaped');
      const before = await t.api.get('/events', { as: 'editor', query: { search: 'Broken' } });
      assert.equal(before.json.total, 0);

      const created = await client.request('POST', '/admin/events/new', {
        _csrf: csrf,
        title: 'Harbour Lights',
        start_date: '2026-12-12T20:00',
        end_date: '2026-12-12T22:30',
        timezone: 'Europe/Paris',
        new_venue: 'Harbour Stage',
        cost: '12',
        status: 'publish',
      });
      assert.equal(created.statusCode, 303, created.body);
      const id = Number(/\/admin\/events\/(\d+)\//.exec(String(created.headers.location))?.[1]);
      const event = await t.api.get(`/events/${id}`);
      assert.equal(event.status, 200);
      assert.equal(event.json.title, 'Harbour Lights');
      assert.equal(event.json.start_date, '2026-12-12 20:00:00');
      assert.equal(event.json.timezone, 'Europe/Paris');
      assert.equal(event.json.venue.venue, 'Harbour Stage');
      assert.equal(event.json.cost, '$12');
      const page = await t.api.request('GET', `/event/${event.json.slug}/`, undefined, { raw: true });
      assert.equal(page.status, 200);
      assert.match(page.text, /Harbour Stage/);

      const edit = await client.request('GET', `/admin/events/${id}/`);
      assert.match(edit.body, /value="2026-12-12T20:00"/);
      const renamed = await client.request('POST', `/admin/events/${id}/`, {
        _csrf: csrf,
        title: 'Harbour Lights (renamed)',
        start_date: '2026-12-12T20:00',
        end_date: '2026-12-12T22:30',
        timezone: 'Europe/Paris',
        venue: String(event.json.venue.id),
        status: 'publish',
      });
      assert.equal(renamed.statusCode, 303);
      assert.equal((await t.api.get(`/events/${id}`)).json.title, 'Harbour Lights (renamed)');
    });

    it('creates a recurring series from its lines, shows a wrong line by the field, and edits an occurrence', async () => {
      const { password } = await user('ed-series', 'editor');
      const client = new EditorClient(t.api.app);
      await client.signIn('ed-series', password);
      const csrf = EditorClient.token((await client.request('GET', '/admin/events/new')).body);
      const fields = {
        _csrf: csrf,
        title: 'Tuesday choir',
        start_date: '2027-03-02T19:00',
        end_date: '2027-03-02T21:00',
        timezone: 'Europe/Paris',
        status: 'publish',
      };
      const wrong = await client.request('POST', '/admin/events/new', {
        ...fields,
        recurrence: 'RRULE:FREQ=SOMETIMES',
      });
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.body, /id="field-recurrence"[^>]*aria-invalid="true"/);
      assert.match(wrong.body, /<p class="field-error" id="field-recurrence-error">[^<]*line 1/);
      assert.equal((await t.api.get('/events', { query: { search: 'Tuesday choir' } })).json.total, 0);

      const lines = 'RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE;TZID=Europe/Paris:20270309T190000';
      const created = await client.request('POST', '/admin/events/new', { ...fields, recurrence: lines });
      assert.equal(created.statusCode, 303, created.body);
      const id = Number(/\/admin\/events\/(\d+)\//.exec(String(created.headers.location))?.[1]);
      const series = await t.api.get(`/events/${id}`);
      assert.deepEqual(series.json.recurrence, [
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'EXDATE;TZID=Europe/Paris:20270309T190000',
      ]);
      const occurrences = await t.api.get(`/events/${id}/occurrences`);
      assert.deepEqual(
        occurrences.json.events.map((e: { start_date: string }) => e.start_date),
        ['2027-03-02 19:00:00', '2027-03-16 19:00:00', '2027-03-23 19:00:00'],
      );
      const edit = await client.request('GET', `/admin/events/${id}/`);
      assert.match(edit.body, /RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE;TZID=Europe\/Paris:20270309T190000<\/textarea>/);

      // An occurrence's form has no lines of its own: saving it leaves the series as it was.
      const occurrence = occurrences.json.events[1];
      const moved = await client.request('POST', `/admin/events/${occurrence.id}/`, {
        ...fields,
        title: 'Tuesday choir (guest conductor)',
        start_date: '2027-03-16T19:00',
        end_date: '2027-03-16T21:00',
        recurrence: '',
      });
      assert.equal(moved.statusCode, 303, moved.body);
      assert.equal((await t.api.get(`/events/${occurrence.id}`)).json.title, 'Tuesday choir (guest conductor)');
      assert.equal((await t.api.get(`/events/${id}/occurrences`)).json.total, 3);
    });

    it("a contributor's event stays pending, others' events are not offered, and a publish request is scaled down", async () => {
      const { password } = await user('con', 'contributor');
      const other = await t.api.post(
        '/events',
        { title: 'Not yours', start_date: '2026-12-20 10:00', end_date: '2026-12-20 11:00', status: 'draft' },
        { as: 'editor' },
      );
      const client = new EditorClient(t.api.app);
      await client.signIn('con', password);
      const form = await client.request('GET', '/admin/events/new');
      assert.doesNotMatch(form.body, /<option value="publish"/, 'a contributor is not offered publish');
      const created = await client.request('POST', '/admin/events/new', {
        _csrf: EditorClient.token(form.body),
        title: 'My gig',
        start_date: '2026-12-21T18:00',
        end_date: '2026-12-21T20:00',
        timezone: 'UTC',
        status: 'publish',
      });
      assert.equal(created.statusCode, 303);
      const id = Number(/\/admin\/events\/(\d+)\//.exec(String(created.headers.location))?.[1]);
      assert.equal((await t.api.get(`/events/${id}`, { as: 'editor' })).json.status, 'pending');
      assert.equal((await t.api.get(`/events/${id}`)).status, 403, 'not public');
      const list = await client.request('GET', '/admin/events/');
      assert.match(list.body, /My gig/);
      assert.doesNotMatch(list.body, /Not yours/);
      assert.equal((await client.request('GET', `/admin/events/${other.json.id}/`)).statusCode, 403);
      assert.equal((await client.request('GET', '/admin/tags/new')).statusCode, 403);
      const tag = await client.request('POST', '/admin/tags/new', {
        _csrf: EditorClient.token(form.body),
        name: 'sneaky',
      });
      assert.equal(tag.statusCode, 403);
      assert.equal((await t.api.get('/tags', { query: { hide_empty: 0, search: 'sneaky' } })).json.total, 0);
    });

    it('translations are edited beside the original and stored for their language only', async () => {
      const { password } = await user('tr', 'editor');
      const venue = await t.api.post('/venues', { venue: 'Town Hall', description: 'The old hall' }, { as: 'editor' });
      const client = new EditorClient(t.api.app);
      await client.signIn('tr', password);
      const form = await client.request('GET', `/admin/venues/${venue.json.id}/?lang=fr`);
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /class="readonly">Town Hall</, 'the original is shown read-only');
      assert.doesNotMatch(form.body, /name="city"/, 'only translatable fields');
      const saved = await client.request('POST', `/admin/venues/${venue.json.id}/?lang=fr`, {
        _csrf: EditorClient.token(form.body),
        venue: 'Hôtel de ville',
        description: 'La vieille salle',
      });
      assert.equal(saved.statusCode, 303);
      const french = await t.api.get(`/venues/${venue.json.id}`, { query: { i18n_language: 'fr' } });
      assert.equal(french.json.venue, 'Hôtel de ville');
      assert.equal((await t.api.get(`/venues/${venue.json.id}`)).json.venue, 'Town Hall');
    });

    it('revoking the application password ends the sessions opened with it', async () => {
      const { password } = await user('rev', 'editor');
      const second = await createAppPassword(t.api.db, 'rev', 'second', 1_700_000_000);
      const client = new EditorClient(t.api.app);
      await client.signIn('rev', password);
      const other = new EditorClient(t.api.app);
      await other.signIn('rev', second);
      assert.equal((await client.request('GET', '/admin/')).statusCode, 200);
      const [initial] = await listAppPasswords(t.api.db, 'rev');
      await revokeAppPassword(t.api.db, 'rev', initial.id);
      assert.equal((await client.request('GET', '/admin/')).statusCode, 303);
      assert.equal((await other.request('GET', '/admin/')).statusCode, 200, 'the other password keeps its session');
    });

    it("the pickers' lookup answers JSON for the signed-in user with the API's visibility", async () => {
      const { password } = await user('look', 'contributor');
      await t.api.post('/venues', { venue: 'Lookup Hall', status: 'publish' }, { as: 'editor' });
      await t.api.post('/venues', { venue: 'Lookup Draft', status: 'draft' }, { as: 'editor' });
      const anonymous = await new EditorClient(t.api.app).request('GET', '/admin/lookup/venues?search=Lookup');
      assert.equal(anonymous.statusCode, 401);
      const client = new EditorClient(t.api.app);
      await client.signIn('look', password);
      const res = await client.request('GET', '/admin/lookup/venues?search=Lookup');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      const names = (JSON.parse(res.body) as { items: { name: string }[] }).items.map((item) => item.name);
      assert.deepEqual(names, ['Lookup Hall'], "a contributor does not see others' drafts");
      const form = await client.request('GET', '/admin/events/new');
      assert.match(form.body, /<select id="field-venue" name="venue" data-lookup="venues"/);
      assert.match(form.body, /<script src="\/assets\/editor\.js" defer><\/script>/);
    });

    it('every editor screen is valid HTML (lists, forms, forms with errors, translations, confirmations)', async () => {
      const { password } = await user('valid', 'editor');
      const venue = await t.api.post('/venues', { venue: 'Valid Hall' }, { as: 'editor' });
      const category = await t.api.post('/categories', { name: 'Valid' }, { as: 'editor' });
      const client = new EditorClient(t.api.app);
      await client.signIn('valid', password);
      const form = await client.request('GET', '/admin/events/new');
      const bad = await client.request('POST', '/admin/events/new', {
        _csrf: EditorClient.token(form.body),
        title: '',
        start_date: 'soon',
      });
      assert.equal(bad.statusCode, 400);
      const screens: [string, string][] = [['POST /admin/events/new (errors)', bad.body]];
      for (const path of [
        '/admin/',
        '/admin/events/?status=draft&search=x',
        '/admin/venues/',
        '/admin/organizers/',
        '/admin/categories/',
        '/admin/tags/',
        '/admin/events/new',
        '/admin/venues/new',
        '/admin/categories/new',
        `/admin/venues/${venue.json.id}/`,
        `/admin/venues/${venue.json.id}/?lang=de`,
        `/admin/venues/${venue.json.id}/delete`,
        `/admin/categories/${category.json.id}/`,
      ]) {
        const res = await client.request('GET', path);
        assert.equal(res.statusCode, 200, path);
        screens.push([path, res.body]);
      }
      for (const [name, body] of screens) assert.deepEqual(await htmlProblems(body), [], name);
    });

    it('a session ends after 12 hours unused and 7 days after sign-in', async () => {
      const { password } = await user('idle', 'editor');
      const start = t.api.now;
      try {
        const client = new EditorClient(t.api.app);
        await client.signIn('idle', password);
        t.api.now = new Date(start.getTime() + 11 * 3600_000);
        assert.equal((await client.request('GET', '/admin/')).statusCode, 200, 'used within 12 hours');
        t.api.now = new Date(start.getTime() + 22 * 3600_000);
        assert.equal((await client.request('GET', '/admin/')).statusCode, 200, '11 hours after the last use');
        t.api.now = new Date(start.getTime() + 34 * 3600_001);
        assert.equal((await client.request('GET', '/admin/')).statusCode, 303, 'over 12 hours unused');

        const busy = new EditorClient(t.api.app);
        t.api.now = start;
        await busy.signIn('idle', password);
        for (let hours = 10; hours < 7 * 24; hours += 10) {
          t.api.now = new Date(start.getTime() + hours * 3600_000);
          assert.equal((await busy.request('GET', '/admin/')).statusCode, 200, `${hours} h`);
        }
        t.api.now = new Date(start.getTime() + 7 * 24 * 3600_000);
        assert.equal((await busy.request('GET', '/admin/')).statusCode, 303, 'seven days after sign-in');
      } finally {
        t.api.now = start;
      }
    });

    it('the editor cookie never authenticates the REST API', async () => {
      const { password } = await user('api', 'editor');
      const client = new EditorClient(t.api.app);
      const signedIn = await client.signIn('api', password);
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
      const res = await t.api.app.inject({
        method: 'POST',
        url: `${NS}/tags`,
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'cookie-made' }),
      });
      assert.equal(res.statusCode, 401);
      const forged = await t.api.app.inject({
        method: 'GET',
        url: `${NS}/events`,
        headers: { authorization: `CalendarEditor ${'a'.repeat(43)}` },
      });
      assert.equal(forged.statusCode, 401);
    });
  });
}

describe('the editor behind https', () => {
  const t = useTestApp('sqlite', { env: { PUBLIC_URL: 'https://calendar.example' } });

  it('marks its cookies Secure and every HTML response carries HSTS', async () => {
    const { password } = await createUser(t.api.db, 'secure', 'editor', 1_700_000_000);
    const client = new EditorClient(t.api.app);
    const form = await client.request('GET', '/admin/login');
    assert.match(
      String(form.headers['set-cookie']),
      /calendar_presession=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Secure/,
    );
    assert.equal(form.headers['strict-transport-security'], 'max-age=31536000');
    const signedIn = await client.signIn('secure', password);
    assert.match(
      String(signedIn.headers['set-cookie']),
      /calendar_session=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Secure/,
    );
    const page = await t.api.request('GET', '/events/', undefined, { raw: true });
    assert.equal(page.headers['strict-transport-security'], 'max-age=31536000');
  });
});

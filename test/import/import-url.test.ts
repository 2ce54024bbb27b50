import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { ResolveHost } from '../../src/modules/import/ics.fetch.js';
import { DEFAULT_NOW, TestApi } from '../helpers/app.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';
import { fixture, importIcs, snapshot } from './helpers.js';

/** A real local HTTP server for import URLs: a calendar, redirects, errors; it records what it was asked. */
async function calendarServer(): Promise<{
  server: Server;
  port: number;
  seen: { url: string; headers: IncomingHttpHeaders }[];
}> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    seen.push({ url, headers: request.headers });
    const hops = /^\/hops\/(\d+)$/.exec(url);
    if (url === '/google.ics') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      response.end(fixture('google-export.ics'));
    } else if (hops) {
      const left = Number(hops[1]);
      response.writeHead(302, { location: left > 0 ? `/hops/${left - 1}` : '/google.ics' });
      response.end();
    } else if (url === '/plain.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('just some text\n');
    } else if (url === '/to-ftp') {
      response.writeHead(301, { location: 'ftp://files.example/cal.ics' });
      response.end();
    } else if (url === '/huge.ics') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      // More than 10 MB, streamed without a Content-Length.
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 11; i++) response.write(chunk);
      response.end();
    } else {
      response.writeHead(404);
      response.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

/** The app on a fresh database with its import resolver and private-address switch set by the test. */
function useImportApp(dialect: 'sqlite' | 'postgres', allowPrivate: boolean, resolveHost: ResolveHost) {
  let database: TestDatabase | undefined;
  let api: TestApi | undefined;
  before(async () => {
    database = await createTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: database.url,
      PUBLIC_URL: 'http://127.0.0.1:8080',
      LOG_LEVEL: 'silent',
      IMPORT_ALLOW_PRIVATE_URLS: String(allowPrivate),
    });
    const app = await buildApp(config, { clock: () => DEFAULT_NOW, logger: false, resolveHost });
    api = new TestApi(app, config, dialect);
  });
  after(async () => {
    await api?.app.close();
    await database?.drop();
  });
  return {
    get api() {
      if (!api) throw new Error('app not started');
      return api;
    },
  };
}

const byUrl = (api: TestApi, url: string, as: 'editor' | 'anonymous' = 'editor') =>
  importIcs(api, undefined, { as, body: 'json', params: { url } });

/** Names the tests resolve: no public address is reachable from here, so each maps to a chosen one. */
const resolver: ResolveHost = async (hostname) => {
  const table: Record<string, string> = {
    'calendar.example': '127.0.0.1',
    'intranet.example': '10.1.2.3',
    'router.example': '192.168.1.1',
    'metadata.example': '169.254.169.254',
    'mapped.example': '::ffff:127.0.0.1',
    'ula.example': 'fd00::1',
  };
  const address = table[hostname];
  if (address === undefined) throw new Error(`ENOTFOUND ${hostname}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

for (const dialect of await testDialects()) {
  describe(`POST /import/ics with url: the private-address guard (API.md §19.3) [${dialect}]`, () => {
    const t = useImportApp(dialect, false, resolver);
    let local: Awaited<ReturnType<typeof calendarServer>>;
    before(async () => {
      local = await calendarServer();
    });
    after(() => local.server.close());

    it('loopback, private, link-local, IPv4-mapped and unique-local addresses are refused before any connection', async () => {
      const before = await snapshot(t.api);
      for (const url of [
        `http://127.0.0.1:${local.port}/google.ics`,
        `http://[::1]:${local.port}/google.ics`,
        `http://calendar.example:${local.port}/google.ics`,
        'http://intranet.example/cal.ics',
        'https://router.example/cal.ics',
        'http://metadata.example/latest/meta-data/',
        `http://mapped.example:${local.port}/google.ics`,
        'http://ula.example/cal.ics',
        `webcal://calendar.example:${local.port}/google.ics`,
      ]) {
        const res = await byUrl(t.api, url);
        assert.equal(res.status, 400, `${url}: ${res.text}`);
        assert.equal(res.json.code, 'rest_import_url_forbidden', url);
      }
      assert.deepEqual(local.seen, [], 'the local server was never reached');
      assert.deepEqual(await snapshot(t.api), before);
    });

    it('a name that does not resolve is a network failure', async () => {
      const res = await byUrl(t.api, 'https://nowhere.example/cal.ics');
      assert.equal(res.json.code, 'rest_import_fetch_failed');
      assert.deepEqual(res.json.data, { status: 400, reason: 'network', http_status: null });
    });
  });

  describe(`POST /import/ics with url: fetching (IMPORT_ALLOW_PRIVATE_URLS=true) [${dialect}]`, () => {
    const t = useImportApp(dialect, true, resolver);
    let local: Awaited<ReturnType<typeof calendarServer>>;
    before(async () => {
      local = await calendarServer();
    });
    after(() => local.server.close());

    it('imports from the URL, connecting to the checked address with the URL’s host name', async () => {
      const res = await byUrl(t.api, `http://calendar.example:${local.port}/google.ics`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.created.length, 5);
      assert.equal(local.seen.at(-1)?.headers.host, `calendar.example:${local.port}`);
    });

    it('follows up to 3 redirects, not 4', async () => {
      const three = await byUrl(t.api, `http://127.0.0.1:${local.port}/hops/2`);
      assert.equal(three.status, 200, three.text);
      assert.equal(three.json.unchanged.length, 5);
      const four = await byUrl(t.api, `http://127.0.0.1:${local.port}/hops/3`);
      assert.equal(four.json.code, 'rest_import_fetch_failed');
      assert.deepEqual(four.json.data, { status: 400, reason: 'http_status', http_status: 302 });
    });

    it('a redirect to another scheme is refused; non-2xx and over 10 MB fail with their reasons', async () => {
      assert.equal(
        (await byUrl(t.api, `http://127.0.0.1:${local.port}/to-ftp`)).json.code,
        'rest_import_url_forbidden',
      );
      const missing = await byUrl(t.api, `http://127.0.0.1:${local.port}/missing.ics`);
      assert.deepEqual(missing.json.data, { status: 400, reason: 'http_status', http_status: 404 });
      const huge = await byUrl(t.api, `http://127.0.0.1:${local.port}/huge.ics`);
      assert.deepEqual(huge.json.data, { status: 400, reason: 'too_large', http_status: 200 });
    });

    it('a fetched file that is not iCalendar is rest_invalid_ics; callers who may not import are never fetched for', async () => {
      const count = local.seen.length;
      assert.equal((await byUrl(t.api, `http://127.0.0.1:${local.port}/google.ics`, 'anonymous')).status, 401);
      assert.equal(local.seen.length, count);
      const plain = await byUrl(t.api, `http://127.0.0.1:${local.port}/plain.txt`);
      assert.equal(plain.json.code, 'rest_invalid_ics');
      assert.equal(plain.json.data.line, 1);
    });
  });
}

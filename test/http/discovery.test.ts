import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

const NS = 'calendar/events/v1';

for (const dialect of await testDialects()) {
  describe(`namespace index and /doc [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('GET the namespace (with or without trailing slash) returns the WordPress-style index', async () => {
      for (const path of [`/${NS}`, `/${NS}/`]) {
        const res = await t.api.get(path);
        assert.equal(res.status, 200, path);
        assert.equal(res.json.namespace, NS);
        assert.deepEqual(Object.keys(res.json.routes).slice(0, 2), [`/${NS}`, `/${NS}/doc`]);
        assert.deepEqual(res.json._links, { self: [{ href: `http://127.0.0.1:8080/${NS}` }] });
      }
      const french = await t.api.get(`/fr/${NS}`);
      assert.deepEqual(french.json._links, { self: [{ href: `http://127.0.0.1:8080/fr/${NS}` }] });
    });

    it('path arguments appear in every endpoint of their route, required (API.md §16)', async () => {
      const { routes } = (await t.api.get(`/${NS}`)).json;
      for (const [pattern, route] of Object.entries<{
        endpoints: { methods: string[]; args: Record<string, { required?: boolean }> }[];
      }>(routes)) {
        for (const name of ['id', 'slug'].filter((n) => pattern.includes(`(?P<${n}>`))) {
          for (const endpoint of route.endpoints) {
            // By-slug updates also take a body `slug` (the new slug), documented as that optional argument.
            const renames = name === 'slug' && endpoint.methods.includes('POST');
            assert.equal(endpoint.args[name]?.required, !renames, `${pattern} ${name}`);
          }
        }
      }
      const item = routes[`/${NS}/events/(?P<id>\\d+)`].endpoints[0].args;
      assert.deepEqual(item.id, { description: 'The item id', type: 'integer', required: true });
      assert.equal(Object.keys(item)[0], 'id');
    });

    it('index routes are keyed by pattern, with methods, endpoint args and self links', async () => {
      const { routes } = (await t.api.get(`/${NS}`)).json;
      const item = routes[`/${NS}/categories/(?P<id>\\d+)`];
      assert.deepEqual(item.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.equal(item._links, undefined);
      assert.deepEqual(
        item.endpoints.map((e: { methods: string[] }) => e.methods),
        [['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']],
      );
      const list = routes[`/${NS}/categories`];
      assert.deepEqual(list._links, { self: [{ href: `http://127.0.0.1:8080/${NS}/categories` }] });
      const args = list.endpoints[0].args;
      assert.deepEqual(args.page, {
        default: 1,
        description: 'The archive page to return',
        type: 'integer',
        required: false,
      });
      assert.equal(args.per_page.default, 10);
      assert.deepEqual(args.order.enum, ['asc', 'desc']);
      assert.equal(args.hide_empty.default, true);
      assert.equal(args.hide_empty.type, 'boolean');
      assert.deepEqual(args.include.items, { type: ['integer', 'string'] });
      assert.deepEqual(args.i18n_language.enum, [...LANGUAGES]);
      const create = list.endpoints[1].args;
      assert.equal(create.name.required, true);
      assert.equal(create.description.required, false);
    });

    it('every endpoint of the index documents i18n_language', async () => {
      const { routes } = (await t.api.get(`/${NS}`)).json;
      for (const [pattern, route] of Object.entries<{ endpoints: { args: Record<string, { enum?: string[] }> }[] }>(
        routes,
      )) {
        for (const endpoint of route.endpoints)
          assert.deepEqual(endpoint.args.i18n_language?.enum, [...LANGUAGES], pattern);
      }
    });

    it('GET /doc is an OpenAPI 3.1 document that a validator accepts', async () => {
      const res = await t.api.get(`/${NS}/doc`);
      assert.equal(res.status, 200);
      assert.equal(res.json.openapi, '3.1.0');
      const result = await new Validator().validate(res.json);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
      // As TEC's: `servers` names the namespace and paths are relative to it.
      assert.deepEqual(res.json.servers, [{ url: `http://127.0.0.1:8080/${NS}` }]);
      assert.deepEqual(Object.keys(res.json.paths).slice(0, 3), ['/', '/doc', '/events']);
      for (const name of ['Error', 'Term']) assert.ok(res.json.components.schemas[name], name);
      assert.deepEqual(Object.keys(res.json.components.securitySchemes).sort(), ['basicAuth', 'bearerAuth']);
    });

    it('/doc lists every route and method, each with the i18n_language enum', async () => {
      const doc = (await t.api.get(`/${NS}/doc`)).json;
      const index = (await t.api.get(`/${NS}`)).json;
      const documented = Object.keys(doc.paths).length;
      assert.equal(documented, Object.keys(index.routes).length);
      let operations = 0;
      for (const [path, item] of Object.entries<
        Record<string, { parameters?: { name: string; in: string; schema: { enum?: string[] } }[] }>
      >(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          operations += 1;
          const language = operation.parameters?.find((p) => p.name === 'i18n_language');
          assert.deepEqual(language?.schema.enum, [...LANGUAGES], `${method} ${path}`);
        }
      }
      assert.ok(operations >= 14);
      assert.ok(doc.paths['/categories/{id}'].patch);
      assert.ok(doc.paths['/tags'].post.requestBody);
    });

    it('every /doc operation has its own operationId, one per method (docs/api.md "Operation ids")', async () => {
      const doc = (await t.api.get(`/${NS}/doc`)).json;
      const ids = new Map<string, string>();
      for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          const { operationId } = operation;
          assert.ok(typeof operationId === 'string', `${where} has no operationId`);
          assert.match(operationId, /^[a-z][A-Za-z]+$/, where);
          assert.equal(ids.get(operationId), undefined, `${where} repeats the operationId of ${ids.get(operationId)}`);
          ids.set(operationId, where);
        }
      }
      // Clients generate code from these names: they must stay as documented.
      const expected: Record<string, string> = {
        getNamespaceIndex: 'GET /',
        getOpenApiDocument: 'GET /doc',
        listEvents: 'GET /events',
        listEventOccurrences: 'GET /events/{id}/occurrences',
        getEventOccurrenceByDate: 'GET /events/by-slug/{slug}/{date}',
        deleteEventOccurrenceByDateAndRank: 'DELETE /events/by-slug/{slug}/{date}/{n}',
        createEvent: 'POST /events',
        getEventById: 'GET /events/{id}',
        updateEventById: 'POST /events/{id}',
        replaceEventById: 'PUT /events/{id}',
        patchEventById: 'PATCH /events/{id}',
        deleteEventBySlug: 'DELETE /events/by-slug/{slug}',
        getVenueBySlug: 'GET /venues/by-slug/{slug}',
        createOrganizer: 'POST /organizers',
        listCategories: 'GET /categories',
        patchTagById: 'PATCH /tags/{id}',
        deleteCategoryById: 'DELETE /categories/{id}',
        listChanges: 'GET /changes',
        pingWebhook: 'POST /webhooks/{id}/ping',
        getWebhookDelivery: 'GET /webhooks/{id}/deliveries/{delivery_id}',
        importIcs: 'POST /import/ics',
      };
      for (const [id, where] of Object.entries(expected)) assert.equal(ids.get(id), where, id);
      assert.equal(ids.size, 76);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { loadConfig } from '../../src/config.js';
import { ApiError } from '../../src/errors.js';
import { arg, mergeSources, parseArgs, required, withDefault, type ParseContext } from '../../src/http/args.js';
import { renderError } from '../../src/http/error-handler.js';
import { formatDb } from '../../src/domain/dates.js';
import { zoneOf } from '../../src/domain/timezones.js';

const now = DateTime.fromISO('2026-11-21T08:37:48Z');
const ctx: ParseContext = { now, siteZone: zoneOf('UTC'), caller: null, config: loadConfig({}) };

/** Declared in an order that is not alphabetical, so declaration order is observable. */
const spec = {
  title: required(arg.string({ description: 'Title' })),
  start_date: required(arg.date({ description: 'Start' })),
  per_page: withDefault(arg.positiveInt({ description: 'Page size' }), () => 10, 10),
  page: arg.positiveInt({ description: 'Page' }),
  featured: arg.boolean({ description: 'Featured' }),
  count: arg.integer({ description: 'Count' }),
};

/** Runs `fn`, asserting it throws an ApiError, and returns it. */
function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an ApiError to be thrown');
}

describe('parseArgs', () => {
  it('returns the parsed values of valid parameters', () => {
    const args = parseArgs(
      spec,
      { title: ' Jazz ', start_date: '2026-12-21 18:00', page: '2', featured: 'yes', count: '-3' },
      ctx,
    );
    assert.equal(args.title, 'Jazz');
    assert.equal(formatDb(args.start_date), '2026-12-21 18:00:00');
    assert.equal(args.page, 2);
    assert.equal(args.featured, true);
    assert.equal(args.count, -3);
    assert.equal(args.per_page, 10);
  });

  it("reads date parameters in the context's site zone", () => {
    const paris: ParseContext = { ...ctx, siteZone: zoneOf('Europe/Paris') };
    const args = parseArgs(spec, { title: 'x', start_date: '2026-12-21 18:00' }, paris);
    assert.equal(formatDb(args.start_date.setZone('UTC')), '2026-12-21 17:00:00');
  });

  it("reads relative dates against the context's now", () => {
    const args = parseArgs(spec, { title: 'x', start_date: 'tomorrow' }, ctx);
    assert.equal(formatDb(args.start_date), '2026-11-22 00:00:00');
  });

  it('ignores parameters that the spec does not declare', () => {
    const args = parseArgs(spec, { title: 'x', start_date: 'now', unknown: 'whatever' }, ctx);
    assert.equal(Object.hasOwn(args, 'unknown'), false);
  });

  it('leaves absent optional parameters without a default out', () => {
    const args = parseArgs(spec, { title: 'x', start_date: 'now' }, ctx);
    assert.equal(args.page, undefined);
    assert.equal(args.featured, undefined);
    assert.equal(Object.hasOwn(args, 'page'), false);
  });

  it('reports all missing required parameters together, in declaration order', () => {
    const error = apiErrorOf(() => parseArgs(spec, {}, ctx));
    assert.equal(error.code, 'rest_missing_callback_param');
    assert.equal(error.status, 400);
    assert.deepEqual(error.options.missing, ['title', 'start_date']);
  });

  it('reports only the required parameters that are missing', () => {
    const error = apiErrorOf(() => parseArgs(spec, { title: 'x' }, ctx));
    assert.equal(error.code, 'rest_missing_callback_param');
    assert.deepEqual(error.options.missing, ['start_date']);
  });

  it('counts null for a required parameter as missing', () => {
    const error = apiErrorOf(() => parseArgs(spec, { title: null, start_date: 'now' }, ctx));
    assert.equal(error.code, 'rest_missing_callback_param');
    assert.deepEqual(error.options.missing, ['title']);
  });

  it('reports missing parameters before invalid ones', () => {
    const error = apiErrorOf(() => parseArgs(spec, { start_date: 'not-a-date', page: '0', featured: 'maybe' }, ctx));
    assert.equal(error.code, 'rest_missing_callback_param');
    assert.deepEqual(error.options.missing, ['title']);
    assert.equal(error.options.invalid, undefined);
  });

  it('treats an empty required string as invalid, not missing', () => {
    const error = apiErrorOf(() => parseArgs(spec, { title: '', start_date: 'now' }, ctx));
    assert.equal(error.code, 'rest_invalid_param');
    assert.ok(error.options.invalid);
    assert.deepEqual([...error.options.invalid.keys()], ['title']);
  });

  it('collects every invalid parameter, in declaration order, with its problem', () => {
    // The bag lists them in another order than the spec.
    const bag = { featured: 'maybe', count: '1.5', page: '0', start_date: 'not-a-date', title: '   ' };
    const error = apiErrorOf(() => parseArgs(spec, bag, ctx));
    assert.equal(error.code, 'rest_invalid_param');
    assert.equal(error.status, 400);
    const invalid = error.options.invalid;
    assert.ok(invalid);
    assert.deepEqual([...invalid.keys()], ['title', 'start_date', 'page', 'featured', 'count']);
    assert.deepEqual(invalid.get('title'), { message: 'must_be_non_empty', vars: { param: 'title' }, code: undefined });
    assert.deepEqual(invalid.get('page'), {
      message: 'must_be_positive_int',
      vars: { param: 'page' },
      code: undefined,
    });
    assert.deepEqual(invalid.get('featured'), {
      message: 'not_of_type',
      vars: { param: 'featured', type: 'boolean' },
      code: 'rest_invalid_type',
    });
    assert.deepEqual(invalid.get('count'), {
      message: 'not_of_type',
      vars: { param: 'count', type: 'integer' },
      code: 'rest_invalid_type',
    });
  });

  it('applies a default when the parameter is absent', () => {
    const args = parseArgs(spec, { title: 'x', start_date: 'now' }, ctx);
    assert.equal(args.per_page, 10);
  });

  it('does not apply the default when the parameter is present', () => {
    const args = parseArgs(spec, { title: 'x', start_date: 'now', per_page: '25' }, ctx);
    assert.equal(args.per_page, 25);
  });

  it('reports a present but invalid parameter instead of falling back to its default', () => {
    const error = apiErrorOf(() => parseArgs(spec, { title: 'x', start_date: 'now', per_page: '0' }, ctx));
    assert.equal(error.code, 'rest_invalid_param');
    assert.ok(error.options.invalid);
    assert.deepEqual([...error.options.invalid.keys()], ['per_page']);
  });

  it('computes a default from the parse context', () => {
    const dated = {
      since: withDefault(arg.date({ description: 'Since' }), (c) => c.now.setZone(c.siteZone).startOf('day')),
    };
    const args = parseArgs(dated, {}, ctx);
    assert.equal(formatDb(args.since), '2026-11-21 00:00:00');
  });

  it('records the documented default in the schema only', () => {
    assert.equal(spec.per_page.schema.default, 10);
    assert.equal(spec.page.schema.default, undefined);
    assert.equal(spec.title.required, true);
    assert.equal(spec.per_page.required, false);
  });
});

describe('mergeSources', () => {
  it('lets body parameters win over query parameters', () => {
    assert.deepEqual(mergeSources({ a: 'q', b: 'q' }, { b: 'body', c: 'body' }), { a: 'q', b: 'body', c: 'body' });
  });

  it('ignores a body that is an array or not an object', () => {
    assert.deepEqual(mergeSources({ a: '1' }, ['x']), { a: '1' });
    assert.deepEqual(mergeSources({ a: '1' }, 'text'), { a: '1' });
  });
});

describe('renderError for parameter errors (API.md §5)', () => {
  it('renders rest_invalid_param with data.params and an empty details array when no problem has a code', () => {
    const error = apiErrorOf(() => parseArgs(spec, { title: '', start_date: 'now', page: '0' }, ctx));
    assert.deepEqual(renderError(error, 'en'), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): title, page',
      data: {
        status: 400,
        params: { title: 'title must be a non-empty string.', page: 'page must be a positive integer.' },
        details: [],
      },
    });
  });

  it('lists the problems that have a code in data.details as {name: {code, message}}', () => {
    const error = apiErrorOf(() =>
      parseArgs(spec, { title: 'x', start_date: 'now', page: '0', featured: 'maybe' }, ctx),
    );
    assert.deepEqual(renderError(error, 'en'), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page, featured',
      data: {
        status: 400,
        params: { page: 'page must be a positive integer.', featured: 'featured is not of type boolean.' },
        details: { featured: { code: 'rest_invalid_type', message: 'featured is not of type boolean.' } },
      },
    });
  });

  it('renders rest_missing_callback_param with the names in the message and data.params as an array', () => {
    const error = apiErrorOf(() => parseArgs(spec, {}, ctx));
    assert.deepEqual(renderError(error, 'en'), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date',
      data: { status: 400, params: ['title', 'start_date'] },
    });
  });

  it('translates the missing-parameter message into French and keeps the code', () => {
    const error = apiErrorOf(() => parseArgs(spec, {}, ctx));
    const en = renderError(error, 'en');
    const fr = renderError(error, 'fr');
    assert.equal(fr.code, 'rest_missing_callback_param');
    assert.equal(fr.message, 'Paramètre(s) manquant(s) : title, start_date');
    assert.notEqual(fr.message, en.message);
    assert.deepEqual(fr.data, { status: 400, params: ['title', 'start_date'] });
  });

  it('translates the invalid-parameter message and reasons into French and keeps the codes', () => {
    const error = apiErrorOf(() =>
      parseArgs(spec, { title: 'x', start_date: 'now', page: '0', featured: 'maybe' }, ctx),
    );
    const fr = renderError(error, 'fr');
    assert.deepEqual(fr, {
      code: 'rest_invalid_param',
      message: 'Paramètre(s) non valide(s) : page, featured',
      data: {
        status: 400,
        params: { page: 'page doit être un entier positif.', featured: "featured n'est pas de type boolean." },
        details: { featured: { code: 'rest_invalid_type', message: "featured n'est pas de type boolean." } },
      },
    });
    assert.notEqual(fr.message, renderError(error, 'en').message);
  });
});

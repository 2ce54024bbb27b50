import { Type, type TSchema } from '@sinclair/typebox';
import { FixedOffsetZone, type DateTime, type Zone } from 'luxon';
import type { Caller } from '../auth/caller.js';
import type { Config } from '../config.js';
import { ApiError, invalidParams, type ParamProblem } from '../errors.js';
import type { MessageKey } from '../i18n/messages/en.js';
import type { MessageVars } from '../i18n/translate.js';
import { dateProblem, parseDateInput } from '../domain/dates.js';
import { plainText } from '../domain/html.js';
import * as p from '../domain/params.js';
import { normaliseTimezone } from '../domain/timezones.js';

/**
 * What a parser may consult besides the raw value; of the configuration, only the settings that
 * arguments default to or are capped by (`per_page`).
 */
export interface ParseContext {
  readonly now: DateTime;
  readonly siteZone: Zone;
  readonly caller: Caller | null;
  readonly config: Pick<Config, 'defaultPerPage' | 'maxPerPage'>;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problem: ParamProblem };

/**
 * One request parameter: its wire schema (type, description, default, enum, items: what the
 * namespace index and /doc show), whether it is required, and the parser that validates and
 * converts it. One definition drives validation, the handler's types and both documents.
 */
export interface ArgSpec<T, Always extends boolean = boolean> {
  readonly schema: TSchema;
  readonly required: boolean;
  readonly always: Always;
  readonly defaultValue?: (ctx: ParseContext) => T;
  parse(raw: unknown, name: string, ctx: ParseContext): ParseOutcome<T>;
}

export type ArgsSpec = Readonly<Record<string, ArgSpec<unknown>>>;

type ArgValue<A> = A extends ArgSpec<infer T, infer Always> ? (Always extends true ? T : T | undefined) : never;
export type ParsedArgs<S extends ArgsSpec> = { -readonly [K in keyof S]: ArgValue<S[K]> };

type AlwaysKeys<S extends ArgsSpec> = { [K in keyof S]: S[K] extends ArgSpec<unknown, true> ? K : never }[keyof S];

/**
 * What a service takes from parsed arguments, derived from their specs: arguments that always have
 * a value are required, the others optional (so callers other than the route may leave them out).
 */
export type ArgsInput<S extends ArgsSpec> = { -readonly [K in AlwaysKeys<S>]: ArgValue<S[K]> } & {
  -readonly [K in Exclude<keyof S, AlwaysKeys<S>>]?: ArgValue<S[K]>;
};

/** WordPress has no limit; 400 characters keeps every title's page and slug URLs servable (issue 23). */
export const MAX_TITLE_LENGTH = 400;

export const ok = <T>(value: T): ParseOutcome<T> => ({ ok: true, value });
export const fail = (message: MessageKey, vars?: MessageVars, code?: string): ParseOutcome<never> => ({
  ok: false,
  problem: { message, vars, code },
});

export const SEARCH_MAX_CHARS = 200;
export const SEARCH_MAX_WORDS = 20;

interface Common {
  description: string;
}

function build<T>(schema: TSchema, parse: ArgSpec<T>['parse'], required = false): ArgSpec<T, false> {
  return { schema, required, always: false, parse };
}

/** Adds a default: the argument is then always present for the handler. */
export function withDefault<T>(
  spec: ArgSpec<T>,
  defaultValue: (ctx: ParseContext) => T,
  documented?: unknown,
): ArgSpec<T, true> {
  const schema = documented === undefined ? spec.schema : { ...spec.schema, default: documented };
  return { ...spec, schema, always: true, defaultValue };
}

export function required<T>(spec: ArgSpec<T>): ArgSpec<T, true> {
  return { ...spec, required: true, always: true };
}

/** Wraps a parser with an extra check on its parsed value. */
export function refine<T, U>(
  spec: ArgSpec<T, false>,
  check: (value: T, name: string, ctx: ParseContext) => ParseOutcome<U>,
): ArgSpec<U, false> {
  return build<U>(spec.schema, (raw, name, ctx) => {
    const first = spec.parse(raw, name, ctx);
    return first.ok ? check(first.value, name, ctx) : first;
  });
}

export const arg = {
  integer: ({ description }: Common): ArgSpec<number, false> =>
    build(Type.Integer({ description }), (raw, name) => {
      const value = p.parseInteger(raw);
      return value === undefined
        ? fail('not_of_type', { param: name, type: 'integer' }, 'rest_invalid_type')
        : ok(value);
    }),

  positiveInt: ({ description }: Common): ArgSpec<number, false> =>
    build(Type.Integer({ description, minimum: 1 }), (raw, name) => {
      const value = p.parsePositiveInteger(raw);
      return value === undefined ? fail('must_be_positive_int', { param: name }) : ok(value);
    }),

  boolean: ({ description }: Common): ArgSpec<boolean, false> =>
    build(Type.Boolean({ description }), (raw, name) => {
      const value = p.parseBoolean(raw);
      return value === undefined
        ? fail('not_of_type', { param: name, type: 'boolean' }, 'rest_invalid_type')
        : ok(value);
    }),

  /** A non-empty string (API.md §6): `""` is a 400. */
  string: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description, minLength: 1 }), (raw, name) => {
      const value = p.parseNonEmptyString(raw);
      return value === undefined ? fail('must_be_non_empty', { param: name }) : ok(value);
    }),

  /**
   * A title or name (API.md §18): plain text, so tags are stripped on write as WordPress does for
   * authors without `unfiltered_html`; non-empty after that and at most MAX_TITLE_LENGTH characters.
   */
  title: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description, minLength: 1, maxLength: MAX_TITLE_LENGTH }), (raw, name) => {
      const value = p.parseNonEmptyString(typeof raw === 'string' ? plainText(raw) : raw);
      if (value === undefined) return fail('must_be_non_empty', { param: name });
      return [...value].length > MAX_TITLE_LENGTH
        ? fail('too_long', { param: name, max: MAX_TITLE_LENGTH })
        : ok(value);
    }),

  /**
   * A search string, bounded so that no search can make a request expensive (API.md §25.3): at
   * most SEARCH_MAX_CHARS characters and SEARCH_MAX_WORDS words.
   */
  search: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description, minLength: 1, maxLength: SEARCH_MAX_CHARS }), (raw, name) => {
      const value = p.parseNonEmptyString(raw);
      if (value === undefined) return fail('must_be_non_empty', { param: name });
      const words = value.split(/\s+/).filter((word) => word !== '').length;
      return [...value].length > SEARCH_MAX_CHARS || words > SEARCH_MAX_WORDS
        ? fail('search_too_long', { param: name, chars: SEARCH_MAX_CHARS, words: SEARCH_MAX_WORDS })
        : ok(value);
    }),

  /** A string that may be empty (clears the field); null counts as empty. */
  text: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description }), (raw, name) => {
      if (raw === null) return ok('');
      return typeof raw === 'string' ? ok(raw.trim()) : fail('not_of_type', { param: name, type: 'string' });
    }),

  enumOf: <const V extends string>(values: readonly V[], { description }: Common): ArgSpec<V, false> =>
    build(Type.String({ description, enum: [...values] }), (raw, name) => {
      const value = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      const match = values.find((v) => v === value);
      return match !== undefined ? ok(match) : fail('not_one_of', { param: name, values: values.join(', ') });
    }),

  /** A date in any form of API.md §6, read in the site zone. */
  date: ({ description }: Common): ArgSpec<DateTime, false> =>
    build(Type.String({ description }), (raw, _name, ctx) => {
      const value = parseDateInput(raw, ctx.siteZone, ctx.now);
      return value === null ? fail(dateProblem(raw, ctx.siteZone, ctx.now)) : ok(value);
    }),

  /** A date in any form of API.md §6, read as UTC (the `date_utc` parameters). */
  dateUtc: ({ description }: Common): ArgSpec<DateTime, false> =>
    build(Type.String({ description }), (raw, _name, ctx) => {
      const value = parseDateInput(raw, FixedOffsetZone.utcInstance, ctx.now);
      return value === null ? fail(dateProblem(raw, FixedOffsetZone.utcInstance, ctx.now)) : ok(value);
    }),

  /** A date kept raw: parsed later in a zone that another parameter decides (event writes). */
  dateText: ({ description }: Common): ArgSpec<string | number, false> =>
    build(Type.String({ description }), (raw, _name, ctx) => {
      if (typeof raw !== 'string' && typeof raw !== 'number') return fail('invalid_date');
      return parseDateInput(raw, ctx.siteZone, ctx.now) !== null
        ? ok(raw)
        : fail(dateProblem(raw, ctx.siteZone, ctx.now));
    }),

  timezone: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description }), (raw) => {
      const value = typeof raw === 'string' ? normaliseTimezone(raw) : null;
      return value === null ? fail('invalid_timezone', {}, 'invalid_timezone') : ok(value);
    }),

  url: ({ description }: Common): ArgSpec<string, false> =>
    build(Type.String({ description, format: 'uri' }), (raw, name) => {
      if (raw === '' || raw === null) return ok('');
      const value = p.parseHttpUrl(raw);
      return value === undefined ? fail('must_be_url', { param: name }) : ok(value);
    }),

  idList: ({ description }: Common): ArgSpec<number[], false> =>
    build(Type.Array(Type.Integer(), { description }), (raw, name) => {
      const value = p.parseIdList(raw);
      return value === undefined || value.length === 0 ? fail('must_be_id_list', { param: name }) : ok(value);
    }),

  /** Ids or slugs, e.g. `categories=concerts,12`. */
  idOrSlugList: ({ description }: Common): ArgSpec<string[], false> =>
    build(Type.Array(Type.Union([Type.Integer(), Type.String()]), { description }), (raw, name) => {
      const value = p.parseList(raw);
      return value === undefined || value.length === 0 ? fail('must_be_list', { param: name }) : ok(value);
    }),

  /**
   * A choice among `values` that ignores anything else (undefined) instead of refusing it: TEC
   * ignores `orderby` and `order`, and its clients send values it never knew (API.md §21).
   */
  lenientChoice: <const V extends string>(
    values: readonly V[],
    { description }: Common,
  ): ArgSpec<V | undefined, false> =>
    build(Type.String({ description, enum: [...values] }), (raw) => {
      const value = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      return ok(values.find((v) => v === value));
    }),

  number: ({ description }: Common): ArgSpec<number, false> =>
    build(Type.Number({ description }), (raw, name) => {
      const value = p.parseNumber(raw);
      return value === undefined
        ? fail('not_of_type', { param: name, type: 'number' }, 'rest_invalid_type')
        : ok(value);
    }),
};

/** The parameter bag of a request, merged with TEC's precedence: body over query string. */
export function mergeSources(query: unknown, body: unknown): Record<string, unknown> {
  const bag: Record<string, unknown> = {};
  if (query && typeof query === 'object') Object.assign(bag, query);
  if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(bag, body);
  return bag;
}

/** Whether a parameter value holds a NUL character in any string or key, however deeply nested. */
function holdsNul(value: unknown): boolean {
  // Iterative: a body is up to a megabyte of JSON, nested deeper than the call stack allows.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\0')) return true;
    } else if (Array.isArray(next)) {
      const items: unknown[] = next;
      pending.push(...items);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\0')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * The parameters, sent or not declared, holding a NUL character: no stored text may contain one
 * (PostgreSQL refuses them), so the whole request is refused (API.md §25.3).
 */
export function nulProblems(bag: Record<string, unknown>, problems: Map<string, ParamProblem>): void {
  for (const [name, value] of Object.entries(bag)) {
    if (name.includes('\0') || holdsNul(value)) problems.set(name, { message: 'contains_nul', vars: { param: name } });
  }
}

/**
 * Validates a request's parameters in TEC's order: every missing required one first
 * (rest_missing_callback_param), then every invalid one (rest_invalid_param), then defaults.
 */
export function parseArgs<S extends ArgsSpec>(spec: S, bag: Record<string, unknown>, ctx: ParseContext): ParsedArgs<S> {
  const missing = Object.keys(spec).filter(
    (name) => spec[name].required && (bag[name] === undefined || bag[name] === null),
  );
  if (missing.length > 0) throw new ApiError('rest_missing_callback_param', { missing });
  const parsed: Record<string, unknown> = {};
  const problems = new Map<string, ParamProblem>();
  for (const [name, definition] of Object.entries(spec)) {
    const raw = bag[name];
    if (raw === undefined) {
      if (definition.defaultValue) parsed[name] = definition.defaultValue(ctx);
      continue;
    }
    const outcome = definition.parse(raw, name, ctx);
    if (outcome.ok) parsed[name] = outcome.value;
    else problems.set(name, outcome.problem);
  }
  if (problems.size > 0) throw invalidParams(problems);
  return parsed as ParsedArgs<S>;
}

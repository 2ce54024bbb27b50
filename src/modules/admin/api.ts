import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../auth/caller.js';
import { NAMESPACE } from '../../http/urls.js';
import type { Language } from '../../i18n/languages.js';
import { isRecord } from '../../domain/params.js';
import { grantFor, withdrawGrant } from './grants.js';

/** A JSON object of an API answer; the editor reads the keys the contract (§8) names through `at`. */
export type Json = Readonly<Record<string, unknown>>;

/** The object at `value[...path]`, or an empty one. */
export function at(value: unknown, ...path: (string | number)[]): Json {
  let current: unknown = value;
  for (const key of path) current = isRecord(current) || Array.isArray(current) ? (current as Json)[key] : undefined;
  return isRecord(current) ? current : {};
}

/** A string or number as text; anything else is empty. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** The objects of a JSON array; anything else is empty. */
export function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export interface ApiAnswer {
  readonly status: number;
  readonly json: Json;
}

/**
 * One REST API request on behalf of the signed-in editor (grants.ts): the same route, validation,
 * permissions, change feed and webhooks as any API client, in the editor's language.
 */
export async function callApi(
  app: FastifyInstance,
  caller: Caller,
  lang: Language,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
): Promise<ApiAnswer> {
  const grant = grantFor(caller);
  const query: Record<string, string> = { i18n_language: lang };
  for (const [name, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== '') query[name] = String(value);
  try {
    const response = await app.inject({
      method,
      url: `/${NAMESPACE}/${path}`,
      query,
      headers: {
        authorization: `CalendarEditor ${grant}`,
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      payload: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const parsed: unknown = response.body === '' ? undefined : JSON.parse(response.body);
    return { status: response.statusCode, json: isRecord(parsed) ? parsed : {} };
  } finally {
    withdrawGrant(grant);
  }
}

/** The API's field problems of a 400 (API.md §5): each invalid or missing parameter with its message. */
export function fieldErrors(answer: ApiAnswer): Map<string, string> {
  const errors = new Map<string, string>();
  if (answer.status !== 400) return errors;
  const params = at(answer.json, 'data').params;
  if (Array.isArray(params)) {
    for (const name of params) errors.set(textOf(name), textOf(answer.json.message));
  } else if (isRecord(params)) {
    for (const [name, message] of Object.entries(params)) errors.set(name, textOf(message));
  }
  return errors;
}

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { NAMESPACE } from '../../http/urls.js';
import { withPlannedIds, type PlannedIds } from '../../db/planned-ids.js';
import { createAppPassword, listAppPasswords, revokeAppPassword } from '../users/users.service.js';
import { firstAdministrator, type ImportKind } from './records.repository.js';
import { SourceUnusable } from './source.js';
import { OCCURRENCE_STATUSES } from './overrides.js';

/** A write refused by this service's API: the reason is its message (with the parameters named). */
export class TargetRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Written {
  readonly id: number;
  readonly slug: string;
}

const PASSWORD_PREFIX = 'import:tec';
const STALE_AFTER_S = 86_400;

const language = (lang: string | undefined) => (lang ? { i18n_language: lang } : undefined);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `message (param: reason; …)` from the contract's error envelope (API.md §5). */
function reasonOf(status: number, body: unknown): string {
  if (!isRecord(body)) return `HTTP ${status}`;
  const message = typeof body.message === 'string' ? body.message : `HTTP ${status}`;
  const data = isRecord(body.data) ? body.data : {};
  const params = isRecord(data.params) ? data.params : undefined;
  if (!params) return message;
  const details = Object.entries(params).map(([name, reason]) => `${name}: ${String(reason)}`);
  return `${message} (${details.join('; ')})`;
}

/**
 * This service as the importer writes to it: through its own API, in-process (`inject`), as the
 * first administrator (API.md §24: "writes through the API's rules"). So every import gets the
 * validation, sanitising, slugs, term counts, change feed and caches of any other write. The
 * administrator's credential is an application password made for this run and revoked at its end.
 */
export class Target {
  private constructor(
    private readonly app: FastifyInstance,
    private readonly authorization: string,
    private readonly login: string,
    private readonly passwordName: string,
  ) {}

  static async open(app: FastifyInstance, now: number): Promise<Target> {
    const db = app.calendar.db;
    const admin = await firstAdministrator(db);
    // Fatal before anything is written: exit 2 (API.md §24).
    if (!admin)
      throw new SourceUnusable(
        'no administrator to import as: create one with `user:create <login> --role administrator`',
      );
    // A run killed before its end could not revoke its password: revoke those of runs over a day old.
    for (const row of await listAppPasswords(db, admin.login)) {
      if (row.name.startsWith(`${PASSWORD_PREFIX} `) && now - row.created_at > STALE_AFTER_S)
        await revokeAppPassword(db, admin.login, row.id);
    }
    const name = `${PASSWORD_PREFIX} ${randomBytes(4).toString('hex')}`;
    const password = await createAppPassword(db, admin.login, name, now);
    const authorization = `Basic ${Buffer.from(`${admin.login}:${password}`).toString('base64')}`;
    return new Target(app, authorization, admin.login, name);
  }

  get db() {
    return this.app.calendar.db;
  }

  get config() {
    return this.app.calendar.config;
  }

  /** Revokes this run's application password. */
  async close(): Promise<void> {
    const db = this.app.calendar.db;
    for (const row of await listAppPasswords(db, this.login)) {
      if (row.name === this.passwordName) await revokeAppPassword(db, this.login, row.id);
    }
  }

  private async send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ) {
    const response = await this.app.inject({
      method,
      url: `/${NAMESPACE}${path}`,
      headers: { authorization: this.authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : JSON.stringify(body),
      query,
    });
    let json: unknown;
    try {
      json = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, json };
  }

  private static written(status: number, json: unknown): Written {
    if (status >= 300 || !isRecord(json) || typeof json.id !== 'number')
      throw new TargetRefusal(status, reasonOf(status, json));
    return { id: json.id, slug: typeof json.slug === 'string' ? json.slug : '' };
  }

  /** With a plan, what the write creates takes the planned ids (`--keep-ids`). */
  async create(kind: ImportKind, body: Record<string, unknown>, lang?: string, plan?: PlannedIds): Promise<Written> {
    const { status, json } = await withPlannedIds(plan, () => this.send('POST', `/${kind}`, body, language(lang)));
    return Target.written(status, json);
  }

  async update(
    kind: ImportKind,
    id: number,
    body: Record<string, unknown>,
    lang?: string,
    plan?: PlannedIds,
  ): Promise<Written> {
    const { status, json } = await withPlannedIds(plan, () =>
      this.send('PATCH', `/${kind}/${id}`, body, language(lang)),
    );
    return Target.written(status, json);
  }

  /** Trashes the item, or deletes it for good. */
  async remove(kind: ImportKind, id: number, force: boolean): Promise<void> {
    const { status, json } = await this.send('DELETE', `/${kind}/${id}`, undefined, force ? { force: 'true' } : {});
    if (status !== 200) throw new TargetRefusal(status, reasonOf(status, json));
  }

  /** A local series' occurrences, every status, as editors read them. */
  async occurrences(seriesId: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; ; page++) {
      const query = { context: 'edit', status: OCCURRENCE_STATUSES, per_page: '50', page: String(page) };
      const { status, json } = await this.send('GET', `/events/${seriesId}/occurrences`, undefined, query);
      if (status !== 200 || !isRecord(json) || !Array.isArray(json.events))
        throw new TargetRefusal(status, reasonOf(status, json));
      items.push(...json.events.filter(isRecord));
      if (page >= Number(json.total_pages)) return items;
    }
  }

  /** Whether the local item still exists (it may have been deleted here since the last run). */
  async exists(kind: ImportKind, id: number): Promise<boolean> {
    const { status } = await this.send('GET', `/${kind}/${id}`, undefined);
    // A trashed event answers 403, a trashed venue 200: both exist.
    return status !== 404;
  }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../domain/params.js';
import { requestContext } from '../../http/context.js';
import type { Language } from '../../i18n/languages.js';
import { translate } from '../../i18n/translate.js';
import { html, type Html } from '../site/html.js';
import { at, callApi, fieldErrors, listOf, textOf, type ApiAnswer, type Json } from './api.js';
import { cookie, PRE_SESSION_COOKIE, readCookie, SESSION_COOKIE } from './cookies.js';
import { bodyOf, renderField, type Field, type FormState } from './forms.js';
import { isResourceKey, RESOURCES, type EditorScope, type Resource } from './resources.js';
import {
  MAX_AGE_SECONDS,
  newToken,
  preSessionCsrf,
  sameToken,
  sessionOf,
  signIn,
  signOut,
  type Session,
} from './sessions.js';
import { EditorLinks, languagePicker, messagePage, renderEditor } from './views.js';
import { isLanguage } from '../../i18n/languages.js';

declare module 'fastify' {
  interface FastifyRequest {
    editorSession: Session | null;
  }
}

type Form = Readonly<Record<string, unknown>>;

const FILTER_LABELS: Readonly<Record<string, string>> = {
  search: 'Search',
  categories: 'Categories (slugs or ids)',
  tags: 'Tags (slugs or ids)',
  start_date: 'From',
  end_date: 'Until',
};

const formOf = (request: FastifyRequest): Form => (isRecord(request.body) ? request.body : {});
const queryOf = (request: FastifyRequest): Form => (isRecord(request.query) ? request.query : {});
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * `next` after sign-in (API.md §23.2): only a path under /admin/ (with or without a language
 * prefix), never another origin: no scheme, no `//`, no backslash, no control characters.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^(\/[a-z]{2}(-[a-z]{2})?)?\/admin(\/[^\s\\]*)?$/.test(value) || value.includes('//')) return undefined;
  return value;
}

/**
 * The editor at /admin/ (API.md §23.2): sign-in with an application password, a server-side
 * session, CSRF tokens on every POST; every read and write goes through the REST API as the
 * signed-in user (api.ts), so the screens obey exactly the API's rules.
 */
export function registerEditorRoutes(app: FastifyInstance): void {
  const { config, db, clock } = app.calendar;
  const secure = config.publicUrl.startsWith('https:');
  const now = () => Math.floor(clock().getTime() / 1000);
  app.decorateRequest('editorSession', null);

  app.register(
    async (admin) => {
      // HTML screens, not API operations: kept out of the OpenAPI document (docs/api.md lists them).
      admin.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      admin.addHook('onSend', (_request, reply, payload, done) => {
        reply.header('Cache-Control', 'no-store');
        done(null, payload);
      });
      admin.addHook('preHandler', async (request) => {
        request.editorSession =
          (await sessionOf(db, readCookie(request.headers.cookie, SESSION_COOKIE), now())) ?? null;
      });

      const linksOf = (request: FastifyRequest) => {
        const ctx = requestContext(request);
        return new EditorLinks(ctx.language.source === 'path' ? `/${ctx.lang}` : '', ctx.lang);
      };
      const send = (reply: FastifyReply, body: string, status = 200) =>
        reply.code(status).type('text/html; charset=utf-8').send(body);
      const page = (request: FastifyRequest, title: string, body: Html, current?: Resource) => {
        const session = request.editorSession;
        return renderEditor({
          config,
          links: linksOf(request),
          title,
          body,
          current: current?.key,
          user: session ? { caller: session.caller, csrf: session.csrf } : undefined,
        });
      };
      const forbiddenPage = (request: FastifyRequest, reply: FastifyReply) =>
        send(
          reply,
          page(
            request,
            'Not allowed',
            messagePage('Not allowed', translate(linksOf(request).lang, 'rest_forbidden'), linksOf(request).to('/')),
          ),
          403,
        );
      const notFound = (request: FastifyRequest, reply: FastifyReply) =>
        send(reply, page(request, 'Not found', messagePage('Not found', text404, linksOf(request).to('/'))), 404);
      const text404 = 'This item does not exist.';

      /** The signed-in user, or a redirect to the sign-in form that comes back here (API.md §23.2). */
      const signedIn = (request: FastifyRequest, reply: FastifyReply): Session | undefined => {
        if (request.editorSession) return request.editorSession;
        const links = linksOf(request);
        void reply.redirect(`${links.to('/login')}?next=${encodeURIComponent(`${links.prefix}${request.url}`)}`, 303);
        return undefined;
      };
      /** POSTs carry the session's token; a missing or wrong one changes nothing (403). */
      const checked = (request: FastifyRequest, reply: FastifyReply): Session | undefined => {
        const session = signedIn(request, reply);
        if (!session) return undefined;
        if (!sameToken(session.csrf, formOf(request)._csrf)) {
          void forbiddenPage(request, reply);
          return undefined;
        }
        return session;
      };

      const loginForm = (request: FastifyRequest, csrf: string, next: string, error?: string) =>
        page(
          request,
          'Sign in',
          html`<section class="sign-in">
            <h1>Sign in</h1>
            <p class="hint">
              Use your login and one of your application passwords (<code>npm run cli -- app-password:create LOGIN</code
              >).
            </p>
            ${error ? html`<p class="form-error" role="alert" id="login-error">${error}</p>` : ''}
            <form method="post" action="${linksOf(request).to('/login')}" class="editor-form">
              <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${next}">
              <div class="form-row">
                <label for="login">Login</label
                ><input
                  id="login"
                  name="login"
                  type="text"
                  autocomplete="username"
                  required${error ? html` aria-describedby="login-error"` : ''}
               >
              </div>
              <div class="form-row">
                <label for="password">Application password</label
                ><input id="password" name="password" type="password" autocomplete="current-password" required>
              </div>
              <button type="submit">Sign in</button>
            </form>
          </section>`,
        );

      admin.get('/login', async (request, reply) => {
        let preSession = readCookie(request.headers.cookie, PRE_SESSION_COOKIE);
        if (!preSession || !/^[A-Za-z0-9_-]{43}$/.test(preSession)) {
          preSession = newToken();
          reply.header('Set-Cookie', cookie(PRE_SESSION_COOKIE, preSession, secure));
        }
        return send(reply, loginForm(request, preSessionCsrf(preSession), safeNext(queryOf(request).next) ?? ''));
      });

      admin.post('/login', async (request, reply) => {
        const form = formOf(request);
        const preSession = readCookie(request.headers.cookie, PRE_SESSION_COOKIE);
        if (!preSession || !sameToken(preSessionCsrf(preSession), form._csrf)) return forbiddenPage(request, reply);
        const result = await signIn(db, str(form.login), str(form.password), now());
        const next = safeNext(form.next);
        if (!result)
          return send(
            reply,
            loginForm(
              request,
              preSessionCsrf(preSession),
              next ?? '',
              translate(linksOf(request).lang, 'incorrect_password'),
            ),
            401,
          );
        reply.header('Set-Cookie', [
          cookie(SESSION_COOKIE, result.token, secure, MAX_AGE_SECONDS),
          cookie(PRE_SESSION_COOKIE, '', secure, 0),
        ]);
        return reply.redirect(next ?? linksOf(request).to('/'), 303);
      });

      admin.post('/logout', async (request, reply) => {
        const session = checked(request, reply);
        if (!session) return reply;
        await signOut(db, session);
        reply.header('Set-Cookie', cookie(SESSION_COOKIE, '', secure, 0));
        return reply.redirect(linksOf(request).to('/login'), 303);
      });

      const scopeOf = (request: FastifyRequest, session: Session, lang?: Language): EditorScope => ({
        app,
        caller: session.caller,
        lang: lang ?? linksOf(request).lang,
      });

      /** A list with filters (API.md §23.2), read through the API with §10 visibility. */
      const list = async (request: FastifyRequest, reply: FastifyReply, resource: Resource) => {
        const session = signedIn(request, reply);
        if (!session) return reply;
        const links = linksOf(request);
        const query = queryOf(request);
        const filters =
          resource.key === 'events' ? ['status', 'search', 'categories', 'tags', 'start_date', 'end_date'] : ['search'];
        const apiQuery: Record<string, string | number | undefined> = {
          per_page: 20,
          page: str(query.page) || undefined,
        };
        for (const name of filters) apiQuery[name] = str(query[name]) || undefined;
        if (resource.key === 'categories' || resource.key === 'tags') apiQuery.hide_empty = 0;
        const answer = await callApi(app, session.caller, links.lang, 'GET', resource.key, { query: apiQuery });
        const errors = fieldErrors(answer);
        const items = answer.status === 200 ? listOf(answer.json[resource.key]) : [];
        const filterForm = html`<form class="filters" method="get" action="${links.to(`/${resource.key}/`)}">
          ${filters.map((name) => {
            const field: Field =
              name === 'status'
                ? {
                    kind: 'select',
                    name,
                    label: 'Status',
                    options: ['', 'publish', 'draft', 'pending', 'private', 'future', 'trash'].map((value) => ({
                      value,
                      label: value || 'any',
                    })),
                  }
                : { kind: name.endsWith('_date') ? 'date' : 'text', name, label: FILTER_LABELS[name] ?? name };
            return renderField(field, { values: query, errors });
          })}
          <div class="filter-actions"><button type="submit">Filter</button></div>
        </form>`;
        const total = answer.status === 200 ? Number(answer.json.total ?? 0) : 0;
        const pages = answer.status === 200 ? Number(answer.json.total_pages ?? 1) : 1;
        const pageNo = Number(str(query.page) || 1);
        const own = Object.entries(query).filter(
          ([name, value]) => name !== 'page' && typeof value === 'string' && value !== '',
        ) as [string, string][];
        const pageLink = (n: number) =>
          `${links.to(`/${resource.key}/`)}?${new URLSearchParams([...own, ['page', String(n)]]).toString()}`;
        const body = html`<div class="editor-head">
            <h1>${resource.plural}</h1>
            ${resource.canCreate(session.caller) ? html`<a class="button" href="${links.to(`/${resource.key}/new`)}">New ${resource.singular}</a>` : ''}
          </div>
          ${filterForm}
          ${answer.status !== 200 && errors.size === 0 ? html`<p class="form-error">${str(answer.json?.message)}</p>` : ''}
          <table class="editor-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                ${resource.columns.map((column) => html`<th scope="col">${column.label}</th>`)}
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${items.map((item) => {
                const editable = resource.canEdit(session.caller, item);
                const name = str(item[resource.nameKey]) || '(no name)';
                return html`<tr>
                  <td>
                    ${editable ? html`<a href="${links.to(`/${resource.key}/${textOf(item.id)}/`)}">${name}</a>` : name}
                  </td>
                  ${resource.columns.map((column) => html`<td>${column.cell(item)}</td>`)}
                  <td class="row-actions">
                    ${editable ? html`<a href="${links.to(`/${resource.key}/${textOf(item.id)}/delete`)}">${resource.post ? 'Trash' : 'Delete'}</a>` : ''}
                  </td>
                </tr>`;
              })}
            </tbody>
          </table>
          ${items.length === 0 ? html`<p class="empty">Nothing here yet.</p>` : ''}
          <nav class="pagination" aria-label="Pages">
            ${pageNo > 1 ? html`<a href="${pageLink(pageNo - 1)}">← Previous</a>` : html`<span></span>`}<span
              class="page-count"
              >${total} · page ${pageNo} of ${Math.max(1, pages)}</span
            >${pageNo < pages ? html`<a href="${pageLink(pageNo + 1)}">Next →</a>` : html`<span></span>`}
          </nav>`;
        return send(reply, page(request, resource.plural, body, resource), answer.status === 200 ? 200 : 400);
      };

      /** The form of a new or stored item, with the values entered and the API's messages. */
      const formPage = async (
        request: FastifyRequest,
        session: Session,
        resource: Resource,
        target: { id?: number; translate?: Language; defaults?: Json; stored?: Json },
        state: FormState,
      ): Promise<string> => {
        const links = linksOf(request);
        const scope = scopeOf(request, session);
        let fields = await resource.fields(scope, target.stored);
        const path = target.id === undefined ? `/${resource.key}/new` : `/${resource.key}/${target.id}/`;
        let side: Html = html``;
        if (target.translate) {
          fields = fields.filter((field) => resource.translatable.includes(field.name));
          side = html`<aside class="original">
            <h2>${config.defaultLanguage} (original)</h2>
            ${fields.map(
              (field) =>
                html`<div class="form-row">
                  <span class="label">${field.label}</span>
                  <div class="readonly">${str(target.defaults?.[field.name])}</div>
                </div>`,
            )}
          </aside>`;
        }
        const heading = target.id === undefined ? `New ${resource.singular}` : `Edit ${resource.singular}`;
        const action = `${links.to(path)}${target.translate ? `?lang=${target.translate}` : ''}`;
        const body = html`<div class="editor-head">
            <h1>${heading}${target.translate ? ` (${target.translate})` : ''}</h1>
            ${target.id !== undefined ? html`<a class="secondary-link" href="${links.to(`/${resource.key}/${target.id}/delete`)}">${resource.post ? 'Move to trash' : 'Delete'}</a>` : ''}
          </div>
          ${target.id !== undefined ? languagePicker(links, path, target.translate, config.defaultLanguage) : ''}
          ${state.errors.size > 0 ? html`<p class="form-error" role="alert">Please correct the fields marked below.</p>` : ''}
          <div class="${target.translate ? 'side-by-side' : ''}">
            ${side}
            <form method="post" action="${action}" class="editor-form" novalidate>
              <input type="hidden" name="_csrf" value="${session.csrf}">
              ${fields.map((field) => renderField(field, state))}
              <div class="form-actions">
                <button type="submit">Save</button> <a href="${links.to(`/${resource.key}/`)}">Cancel</a>
              </div>
            </form>
          </div>`;
        return page(request, heading, body, resource);
      };

      const resourceOf = (request: FastifyRequest<{ Params: { type: string } }>) =>
        isResourceKey(request.params.type) ? RESOURCES[request.params.type] : undefined;
      const translationOf = (request: FastifyRequest): Language | undefined => {
        const lang = queryOf(request).lang;
        return isLanguage(lang) && lang !== config.defaultLanguage ? lang : undefined;
      };

      /** Reads an item to edit (`context=edit`): 404 / 403 pages as the API answers. */
      const readItem = async (
        request: FastifyRequest,
        reply: FastifyReply,
        session: Session,
        resource: Resource,
        id: number,
        lang: Language,
      ) => {
        const answer = await callApi(app, session.caller, lang, 'GET', `${resource.key}/${id}`, {
          query: { context: 'edit' },
        });
        if (answer.status === 404 || answer.status === 400) return void (await notFound(request, reply));
        if (answer.status !== 200 || !resource.canEdit(session.caller, answer.json))
          return void (await forbiddenPage(request, reply));
        return answer.json;
      };

      /**
       * Choices for the pickers' search box (public/editor.js): items matching `search` that the
       * signed-in user may see, read through the API (§10 visibility). JSON; 401 without a session.
       */
      admin.get<{ Params: { type: string } }>('/lookup/:type', async (request, reply) => {
        const session = request.editorSession;
        const resource = resourceOf(request);
        if (!session) return reply.code(401).send({ items: [] });
        if (!resource) return reply.code(404).send({ items: [] });
        const search = str(queryOf(request).search).trim();
        const query = {
          per_page: 20,
          ...(search !== '' ? { search } : {}),
          ...(resource.post ? {} : { hide_empty: 0 }),
        };
        const answer = await callApi(app, session.caller, linksOf(request).lang, 'GET', resource.key, { query });
        const items = answer.status === 200 ? listOf(answer.json[resource.key]) : [];
        return reply.send({
          items: items.map((item) => ({ id: textOf(item.id), name: textOf(item[resource.nameKey]) })),
        });
      });

      admin.get('/', async (request, reply) => list(request, reply, RESOURCES.events));
      admin.get<{ Params: { type: string } }>('/:type', async (request, reply) => {
        const resource = resourceOf(request);
        return resource ? list(request, reply, resource) : notFound(request, reply);
      });

      admin.get<{ Params: { type: string } }>('/:type/new', async (request, reply) => {
        const resource = resourceOf(request);
        if (!resource) return notFound(request, reply);
        const session = signedIn(request, reply);
        if (!session) return reply;
        if (!resource.canCreate(session.caller)) return forbiddenPage(request, reply);
        const defaults =
          resource.key === 'events' ? { timezone: config.siteTimezone, status: 'draft' } : { status: 'draft' };
        return send(reply, await formPage(request, session, resource, {}, { values: defaults, errors: new Map() }));
      });

      /** Saves a form through the API; a 400 shows the form again with each message by its field. */
      const save = async (
        request: FastifyRequest,
        reply: FastifyReply,
        session: Session,
        resource: Resource,
        id: number | undefined,
      ) => {
        const form = formOf(request);
        const lang = translationOf(request);
        const scope = scopeOf(request, session);
        const stored =
          id === undefined ? undefined : await readItem(request, reply, session, resource, id, linksOf(request).lang);
        if (reply.sent) return reply;
        let fields = await resource.fields(scope, stored);
        if (lang) fields = fields.filter((field) => resource.translatable.includes(field.name));
        const body = bodyOf(fields, form);
        resource.adjust?.(body, form, id === undefined);
        const answer: ApiAnswer = await callApi(
          app,
          session.caller,
          lang ?? linksOf(request).lang,
          'POST',
          id === undefined ? resource.key : `${resource.key}/${id}`,
          { body },
        );
        if (answer.status === 200 || answer.status === 201) {
          const saved = Number(answer.json.id);
          return reply.redirect(
            `${linksOf(request).to(`/${resource.key}/${saved}/`)}?saved=1${lang ? `&lang=${lang}` : ''}`,
            303,
          );
        }
        if (answer.status === 401 || answer.status === 403) return forbiddenPage(request, reply);
        if (answer.status === 404) return notFound(request, reply);
        const errors = fieldErrors(answer);
        if (errors.size === 0) errors.set('title', str(answer.json?.message));
        // An inline venue's problems are the venue's: show them by the new-venue field.
        if (errors.has('venue') && str(form.new_venue) !== '') errors.set('new_venue', errors.get('venue') ?? '');
        const defaults =
          lang && id !== undefined
            ? await readItem(request, reply, session, resource, id, config.defaultLanguage)
            : undefined;
        if (reply.sent) return reply;
        return send(
          reply,
          await formPage(
            request,
            session,
            resource,
            { id, translate: lang, defaults: defaults ? resource.valuesOf(defaults) : undefined, stored },
            { values: form, errors },
          ),
          400,
        );
      };

      admin.post<{ Params: { type: string } }>('/:type/new', async (request, reply) => {
        const resource = resourceOf(request);
        if (!resource) return notFound(request, reply);
        const session = checked(request, reply);
        if (!session) return reply;
        return save(request, reply, session, resource, undefined);
      });

      type ById = { Params: { type: string; id: string } };
      const idOf = (request: FastifyRequest<ById>) =>
        /^\d+$/.test(request.params.id) ? Number(request.params.id) : undefined;

      admin.get<ById>('/:type/:id', async (request, reply) => {
        const resource = resourceOf(request);
        const id = idOf(request);
        if (!resource || id === undefined) return notFound(request, reply);
        const session = signedIn(request, reply);
        if (!session) return reply;
        const lang = translationOf(request);
        const item = await readItem(request, reply, session, resource, id, lang ?? linksOf(request).lang);
        if (!item) return reply;
        let values = resource.valuesOf(item);
        let defaults: Json | undefined;
        if (lang) {
          const stored = at(item, 'translations', lang);
          defaults = resource.valuesOf(at(item, 'translations', config.defaultLanguage));
          values = Object.fromEntries(resource.translatable.map((name) => [name, str(stored[name])]));
        }
        const saved = queryOf(request).saved === '1' ? html`<p class="form-saved" role="status">Saved.</p>` : html``;
        const html_ = await formPage(
          request,
          session,
          resource,
          { id, translate: lang, defaults, stored: item },
          { values, errors: new Map() },
        );
        return send(reply, html_.replace('<div class="editor-head">', `${saved.text}<div class="editor-head">`));
      });

      admin.post<ById>('/:type/:id', async (request, reply) => {
        const resource = resourceOf(request);
        const id = idOf(request);
        if (!resource || id === undefined) return notFound(request, reply);
        const session = checked(request, reply);
        if (!session) return reply;
        return save(request, reply, session, resource, id);
      });

      admin.get<ById>('/:type/:id/delete', async (request, reply) => {
        const resource = resourceOf(request);
        const id = idOf(request);
        if (!resource || id === undefined) return notFound(request, reply);
        const session = signedIn(request, reply);
        if (!session) return reply;
        const item = await readItem(request, reply, session, resource, id, linksOf(request).lang);
        if (!item) return reply;
        const links = linksOf(request);
        const verb = resource.post ? 'Move to trash' : 'Delete permanently';
        return send(
          reply,
          page(
            request,
            verb,
            html`<section class="confirm">
              <h1>${verb}?</h1>
              <p><strong>${str(item[resource.nameKey])}</strong></p>
              <form method="post" action="${links.to(`/${resource.key}/${id}/delete`)}">
                <input type="hidden" name="_csrf" value="${session.csrf}"><button type="submit" class="danger">
                  ${verb}
                </button>
                <a href="${links.to(`/${resource.key}/${id}/`)}">Cancel</a>
              </form>
            </section>`,
            resource,
          ),
        );
      });

      admin.post<ById>('/:type/:id/delete', async (request, reply) => {
        const resource = resourceOf(request);
        const id = idOf(request);
        if (!resource || id === undefined) return notFound(request, reply);
        const session = checked(request, reply);
        if (!session) return reply;
        const answer = await callApi(app, session.caller, linksOf(request).lang, 'DELETE', `${resource.key}/${id}`);
        if (answer.status === 401 || answer.status === 403) return forbiddenPage(request, reply);
        if (answer.status === 404 || answer.status === 410) return notFound(request, reply);
        return reply.redirect(linksOf(request).to(`/${resource.key}/`), 303);
      });
    },
    { prefix: '/admin' },
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { errorLanguage } from '../../plugins/request-context.js';
import { html } from './html.js';
import { renderShell, SiteLinks } from './layout.js';
import { text } from './texts.js';

/**
 * The policy of every HTML response (API.md §23.1), word for word: no inline script, no eval;
 * JSON-LD is data, which `script-src` does not govern.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** The security headers of every HTML response, the editor's and the 404 page's included. */
export function registerHtmlHeaders(app: FastifyInstance, config: Config): void {
  const https = config.publicUrl.startsWith('https:');
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
      if (https) reply.header('Strict-Transport-Security', 'max-age=31536000');
    }
    done(null, payload);
  });
}

/** The real 404 page (API.md §23.1): HTML, status 404, in the request's language. */
export function htmlNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { config } = request.server.calendar;
  const lang = errorLanguage(request, config.defaultLanguage);
  const source = request.calendarContext?.language.source ?? (request.raw.calendarPathLanguage ? 'path' : 'default');
  const links = new SiteLinks(config, { lang, source }, { path: request.url.split('?')[0], query: [] });
  const body = renderShell({
    links,
    title: text(lang, 'not_found'),
    body: html`<section class="message-page">
      <p class="big">404</p>
      <h1>${text(lang, 'not_found')}</h1>
      <p>${text(lang, 'not_found_text')}</p>
      <p><a class="button" href="${links.to('/events/')}">${text(lang, 'back')}</a></p>
    </section>`,
  });
  return reply.code(404).type('text/html; charset=utf-8').send(body);
}

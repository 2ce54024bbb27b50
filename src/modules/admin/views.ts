import type { Caller } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import { html, type Html } from '../site/html.js';
import { localeOf, text } from '../site/texts.js';
import { RESOURCES, type ResourceKey } from './resources.js';

/** Links of the editor, keeping the language prefix the request came with. */
export class EditorLinks {
  constructor(
    readonly prefix: string,
    readonly lang: Language,
  ) {}

  to(path: string): string {
    return `${this.prefix}/admin${path}`;
  }
}

/** Trailing spaces left by template indentation, which validators report. */
const BLANK_LINES = /[ \t]+$/gm;

export interface EditorPage {
  readonly config: Config;
  readonly links: EditorLinks;
  readonly title: string;
  readonly body: Html;
  /** The signed-in user and the session's form token; none on the sign-in page. */
  readonly user?: { caller: Caller; csrf: string };
  readonly current?: ResourceKey;
}

/** The editor's document: the site's stylesheet, no script, the same security headers (API.md §23). */
export function renderEditor(page: EditorPage): string {
  const { links, user } = page;
  const nav = user
    ? html`<nav class="views" aria-label="Editor">
          <ul>
            ${Object.values(RESOURCES).map(
              (resource) =>
                html`<li>
                  <a
                    href="${links.to(`/${resource.key}/`)}"
                    ${resource.key === page.current ? html` aria-current="page"` : ''}
                    >${resource.plural}</a
                  >
                </li>`,
            )}
          </ul>
        </nav>
        <form class="sign-out" method="post" action="${links.to('/logout')}">
          <input type="hidden" name="_csrf" value="${user.csrf}"><span class="who"
            >${user.caller.login} (${user.caller.role})</span
          >
          <button type="submit" class="secondary">Sign out</button>
        </form>`
    : '';
  return html`<!DOCTYPE html>
    <html lang="${localeOf(links.lang)}">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>${page.title} – ${page.config.siteName} editor</title>
        <link rel="stylesheet" href="/assets/site.css">
        <link rel="stylesheet" href="/assets/theme.css">
    <script src="/assets/editor.js" defer></script>
      </head>
      <body class="editor">
        <a class="skip" href="#main">${text(links.lang, 'skip')}</a>
        <header class="site-header">
          <div class="wrap header-row">
            <a class="brand" href="${links.to('/')}"
              ><span>${page.config.siteName}</span> <span class="badge">editor</span></a
            >
            ${nav}
            <a class="view-site" href="${links.prefix}/events/">View site</a>
          </div>
        </header>
        <main id="main" class="wrap">${page.body}</main>
      </body>
    </html>
`.text.replace(BLANK_LINES, '');
}

export function languagePicker(
  links: EditorLinks,
  path: string,
  current: Language | undefined,
  defaultLanguage: Language,
): Html {
  return html`<nav class="translations" aria-label="Translations">
    <span>Translate:</span> ${LANGUAGES.filter((lang) => lang !== defaultLanguage).map(
      (lang) =>
        html`<a href="${links.to(path)}?lang=${lang}" ${lang === current ? html` aria-current="true"` : ''}
          >${lang}</a
        > `,
    )}${current ? html`<a href="${links.to(path)}">all fields</a>` : ''}
  </nav>`;
}

export function messagePage(title: string, message: string, back: string): Html {
  return html`<section class="message-page">
    <h1>${title}</h1>
    <p>${message}</p>
    <p><a class="button" href="${back}">Back</a></p>
  </section>`;
}

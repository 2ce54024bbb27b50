import type { Config } from '../../config.js';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import type { LanguageForm } from '../../http/urls.js';
import { html, type Html } from './html.js';
import { localeOf, text } from './texts.js';

/** A query as ordered pairs; empty values are left out of URLs. */
export type Pairs = readonly (readonly [string, string | number | undefined])[];

export function queryString(pairs: Pairs): string {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) if (value !== undefined && value !== '') params.append(name, String(value));
  const encoded = params.toString();
  return encoded === '' ? '' : `?${encoded}`;
}

/**
 * Links of the website in the request's language (API.md §23.1): a request that named its language
 * (path segment or `i18n_language`) keeps it as the `/{lang}/` prefix; the default language has none.
 */
export class SiteLinks {
  readonly prefix: string;

  constructor(
    readonly config: Config,
    readonly language: LanguageForm,
    /** This page's path (without language prefix) and its own query, for the language switcher. */
    readonly here: { path: string; query: Pairs },
  ) {
    this.prefix = language.source === 'default' ? '' : `/${language.lang}`;
  }

  get lang(): Language {
    return this.language.lang;
  }

  to(path: string, query: Pairs = []): string {
    return `${this.prefix}${path}${queryString(query)}`;
  }

  /** This page in another language (the switcher and hreflang alternates), absolute. */
  inLanguage(lang: Language | null): string {
    const prefix = lang === null ? '' : `/${lang}`;
    return `${this.config.publicUrl}${prefix}${this.here.path}${queryString(this.here.query)}`;
  }

  absolute(path: string, query: Pairs = []): string {
    return `${this.config.publicUrl}${this.to(path, query)}`;
  }
}

/** Trailing spaces left by template indentation, which validators report. */
const BLANK_LINES = /[ \t]+$/gm;

export interface PageShell {
  readonly links: SiteLinks;
  readonly title: string;
  readonly description?: string;
  /** Which main navigation entry is current. */
  readonly section?: 'list' | 'month' | 'week' | 'day';
  /** Extra elements in `<head>` (alternates, JSON-LD). */
  readonly head?: Html;
  readonly body: Html;
}

function languageSwitcher(links: SiteLinks): Html {
  const items = LANGUAGES.map(
    (lang) =>
      html`<li>
        <a
          href="${links.inLanguage(lang)}"
          hreflang="${localeOf(lang)}"
          lang="${localeOf(lang)}"
          ${lang === links.lang ? html` aria-current="true"` : ''}
          >${text(lang, 'language_name')}</a
        >
      </li>`,
  );
  return html`<details class="languages">
    <summary>${text(links.lang, 'language')}: ${text(links.lang, 'language_name')}</summary>
    <ul>
      ${items}
    </ul>
  </details>`;
}

function navigation(links: SiteLinks, section: PageShell['section']): Html {
  const lang = links.lang;
  const entries: [NonNullable<PageShell['section']>, string, string][] = [
    ['list', '/events/', text(lang, 'upcoming')],
    ['month', '/events/month/', text(lang, 'month')],
    ['week', '/events/week/', text(lang, 'week')],
    ['day', '/events/day/', text(lang, 'day')],
  ];
  return html`<nav class="views" aria-label="${text(lang, 'upcoming')}">
    <ul>
      ${entries.map(
        ([key, path, label]) =>
          html`<li><a href="${links.to(path)}" ${key === section ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}
    </ul>
  </nav>`;
}

/** The whole document around a page's body: valid HTML5, one stylesheet, no script (API.md §23.1). */
export function renderShell(shell: PageShell): string {
  const { links } = shell;
  const { config } = links;
  const lang = links.lang;
  const alternates = [
    ...LANGUAGES.map(
      (code) => html`<link rel="alternate" hreflang="${localeOf(code)}" href="${links.inLanguage(code)}">`,
    ),
    html`<link rel="alternate" hreflang="x-default" href="${links.inLanguage(null)}">`,
  ];
  const logo = config.siteLogoUrl ? html`<img src="${config.siteLogoUrl}" alt="" class="logo">` : '';
  return html`<!DOCTYPE html>
    <html lang="${localeOf(lang)}">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>${shell.title} – ${config.siteName}</title>
        ${shell.description ? html`<meta name="description" content="${shell.description}">` : ''}
        <link rel="stylesheet" href="/assets/site.css">
        <link rel="stylesheet" href="/assets/theme.css">
        ${alternates} ${shell.head ?? ''}
      </head>
      <body>
        <a class="skip" href="#main">${text(lang, 'skip')}</a>
        <header class="site-header">
          <div class="wrap header-row">
            <a class="brand" href="${links.to('/events/')}">${logo}<span>${config.siteName}</span></a>
            ${navigation(links, shell.section)} ${languageSwitcher(links)}
          </div>
        </header>
        <main id="main" class="wrap">${shell.body}</main>
        <footer class="site-footer">
          <div class="wrap"><p>${config.siteName}</p></div>
        </footer>
      </body>
    </html>
`.text.replace(BLANK_LINES, '');
}

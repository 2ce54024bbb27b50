import type { Language } from '../../i18n/languages.js';
import { translate } from '../../i18n/translate.js';
import { formatCost, readStoredCost } from '../events/events.cost.js';
import type { EventBundle } from '../events/events.present.js';
import type { EventRow } from '../events/events.repository.js';
import { occurrencePath } from '../../domain/recurrence/ids.js';
import type { TermRow } from '../terms/terms.repository.js';
import { eventWhen, timesWithinDay } from './format.js';
import { html, type Html } from './html.js';
import type { Pairs, SiteLinks } from './layout.js';
import { text } from './texts.js';

/** Pages of an item (API.md §8 `url` paths), in the page's language. */
export const paths = {
  event: (slug: string) => `/event/${encodeURIComponent(slug)}/`,
  venue: (slug: string) => `/venue/${encodeURIComponent(slug)}/`,
  organizer: (slug: string) => `/organizer/${encodeURIComponent(slug)}/`,
  // The category route reads the last segment; ancestors only make the URL longer.
  category: (slug: string) => `/events/category/${encodeURIComponent(slug)}/`,
  tag: (slug: string) => `/tag/${encodeURIComponent(slug)}/`,
};

/** An event's page: an occurrence of a series has its own, `/event/{series}/{date}/[{n}/]` (API.md §20.2, §23.1). */
export function eventPath(row: EventRow): string {
  if (row.series_slug && row.recurrence_id)
    return `/event/${encodeURIComponent(row.series_slug)}/${occurrencePath(row.recurrence_id, row.timezone, row.date_rank)}`;
  return paths.event(row.slug);
}

export function termLinks(links: SiteLinks, terms: readonly TermRow[], kind: 'category' | 'tag'): Html {
  return html`${terms.map(
    (term) => html`<li><a class="chip chip-${kind}" href="${links.to(paths[kind](term.slug))}">${term.name}</a></li>`,
  )}`;
}

/** One event in a list: when, what, where; a protected event shows its title and dates only (API.md §23.1). */
export function eventCard(links: SiteLinks, bundle: EventBundle, options: { withinDay?: boolean } = {}): Html {
  const { row, venue } = bundle;
  const lang = links.lang;
  const locked = row.password !== '';
  const when = options.withinDay ? timesWithinDay(row, lang) : eventWhen(row, lang);
  const image =
    !locked && row.image_url ? html`<img class="card-image" src="${row.image_url}" alt="" loading="lazy">` : '';
  return html`<article class="event-card${row.featured === 1 ? ' featured' : ''}">
    ${image}
    <div class="card-body">
      <p class="when">${when}</p>
      <h3 class="card-title"><a href="${links.to(eventPath(row))}">${row.title}</a></h3>
      ${!locked && venue ? html`<p class="where">${venue.title}${cityOf(venue.details)}</p>` : ''}
      ${!locked && costLabel(row, lang) !== '' ? html`<p class="cost">${costLabel(row, lang)}</p>` : ''}
      ${
        !locked && bundle.categories.length > 0
          ? html`<ul class="chips">
              ${termLinks(links, bundle.categories, 'category')}
            </ul>`
          : ''
      }
    </div>
  </article>`;
}

/** The formatted cost as the API gives it (`$10`, `Free`…), in the page's language. */
export function costLabel(row: EventRow, lang: Language): string {
  return formatCost(readStoredCost(row), translate(lang, 'cost_free')).cost;
}

function cityOf(details: Record<string, string | number | null>): string {
  const city = details.city;
  return typeof city === 'string' && city !== '' ? `, ${city}` : '';
}

/** Previous / next page links of a paged list, keeping its filters. */
export function pagination(links: SiteLinks, path: string, query: Pairs, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const lang = links.lang;
  const at = (n: number) => links.to(path, [...query, ['page', n > 1 ? n : undefined]]);
  return html`<nav class="pagination" aria-label="${text(lang, 'page_of', { page, pages })}">
    ${page > 1 ? html`<a rel="prev" href="${at(page - 1)}">← ${text(lang, 'previous')}</a>` : html`<span></span>`}
    <span class="page-count">${text(lang, 'page_of', { page, pages })}</span>
    ${page < pages ? html`<a rel="next" href="${at(page + 1)}">${text(lang, 'next')} →</a>` : html`<span></span>`}
  </nav>`;
}

export function noEvents(lang: Language): Html {
  return html`<p class="empty">${text(lang, 'no_events')}</p>`;
}

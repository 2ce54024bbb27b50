import { DateTime, Info } from 'luxon';
import type { Language } from '../../i18n/languages.js';
import type { EventBundle } from '../events/events.present.js';
import type { TermRow } from '../terms/terms.repository.js';
import { dayHeading, isoDay, localSpan, localTime } from './format.js';
import { html, type Html } from './html.js';
import type { Pairs, SiteLinks } from './layout.js';
import { eventCard, eventPath, noEvents, pagination } from './parts.js';
import { localeOf, text } from './texts.js';

export interface FilterChoices {
  readonly categories: readonly TermRow[];
  readonly tags: readonly TermRow[];
}

/** What a list page was asked for, as its links and forms repeat it (shareable URLs). */
export interface ListState {
  readonly links: SiteLinks;
  /** The page's own path, without language prefix or query. */
  readonly path: string;
  /** The filters in effect, as query pairs. */
  readonly filters: Pairs;
}

const valueOf = (filters: Pairs, name: string) => String(filters.find(([key]) => key === name)?.[1] ?? '');

function select(name: string, label: string, anyLabel: string, terms: readonly TermRow[], chosen: string): Html {
  if (terms.length === 0) return html``;
  return html`<label class="field"
    ><span>${label}</span
    ><select name="${name}">
      <option value="">${anyLabel}</option>
      ${terms.map((term) => html`<option value="${term.slug}" ${term.slug === chosen || String(term.id) === chosen ? html` selected` : ''}>${term.name}</option>`)}
    </select></label
  >`;
}

/** The filter form: a GET form, so every filtered view is a shareable URL and works without JavaScript. */
export function filterForm(state: ListState, choices: FilterChoices, extra: Pairs = []): Html {
  const { links, filters } = state;
  const lang = links.lang;
  const hidden = [...extra, ...filters.filter(([name]) => name === 'venue' || name === 'organizer')];
  const active = filters.length > 0;
  return html`<form class="filters" method="get" action="${links.to(state.path)}" role="search">
    <label class="field field-search"
      ><span>${text(lang, 'search')}</span><input type="search" name="search" value="${valueOf(filters, 'search')}"
   ></label>
    ${select('categories', text(lang, 'category'), text(lang, 'any_category'), choices.categories, valueOf(filters, 'categories'))}
    ${select('tags', text(lang, 'tag'), text(lang, 'any_tag'), choices.tags, valueOf(filters, 'tags'))}
    ${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value ?? ''}">`)}
    <div class="filter-actions">
      <button type="submit">${text(lang, 'filter')}</button>
      ${active ? html`<a class="clear" href="${links.to(state.path)}">${text(lang, 'clear')}</a>` : ''}
    </div>
  </form>`;
}

/** Subscribe links of a list view (API.md §23.1): webcal, Google and the page's own `?ical=1`. */
export function subscribeLinks(state: ListState, feedUrl: string, query: Pairs): Html {
  const lang = state.links.lang;
  const webcal = feedUrl.replace(/^https?:/, 'webcal:');
  const google = `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`;
  return html`<aside class="subscribe" aria-label="${text(lang, 'subscribe')}">
    <span>${text(lang, 'subscribe')}:</span>
    <a href="${webcal}">${text(lang, 'subscribe_webcal')}</a>
    <a href="${google}" rel="noopener">${text(lang, 'google_calendar')}</a>
    <a href="${state.links.to(state.path, [...query, ['ical', 1]])}">${text(lang, 'download_ics')}</a>
  </aside>`;
}

/** Events grouped by the local day of their start in their own zone (API.md §25.6), in list order. */
export function groupedByDay(state: ListState, bundles: readonly EventBundle[]): Html {
  const lang = state.links.lang;
  if (bundles.length === 0) return noEvents(lang);
  const groups = new Map<string, EventBundle[]>();
  for (const bundle of bundles) {
    const day = localSpan(bundle.row).first;
    groups.set(day, [...(groups.get(day) ?? []), bundle]);
  }
  return html`${[...groups].map(
    ([day, items]) =>
      html`<section class="day-group">
        <h2 class="day-heading">
          <a href="${state.links.to(`/events/day/${day}/`, state.filters)}"
            ><time datetime="${day}">${dayHeading(day, lang)}</time></a
          >
        </h2>
        <div class="cards">${items.map((bundle) => eventCard(state.links, bundle, { withinDay: true }))}</div>
      </section>`,
  )}`;
}

export function listBody(state: ListState, bundles: readonly EventBundle[], page: number, pages: number): Html {
  return html`${groupedByDay(state, bundles)}${pagination(state.links, state.path, state.filters, page, pages)}`;
}

/** Previous / today / next links of a period view, keeping the filters. */
export function periodNav(state: ListState, previous: string, next: string, todayPath: string, label: string): Html {
  const { links, filters } = state;
  const lang = links.lang;
  return html`<nav class="period-nav" aria-label="${label}">
    <a rel="prev" href="${links.to(previous, filters)}">← ${text(lang, 'previous')}</a>
    <a href="${links.to(todayPath, filters)}">${text(lang, 'today')}</a>
    <a rel="next" href="${links.to(next, filters)}">${text(lang, 'next')} →</a>
  </nav>`;
}

/** The events on each local day of [first, last] (a multi-day event is on every day it covers). */
export function eventsByDay(
  bundles: readonly EventBundle[],
  first: DateTime,
  last: DateTime,
): Map<string, EventBundle[]> {
  const days = new Map<string, EventBundle[]>();
  for (let day = first; day <= last; day = day.plus({ days: 1 })) days.set(isoDay(day), []);
  for (const bundle of bundles) {
    const span = localSpan(bundle.row);
    // ISO dates compare as strings.
    for (const [iso, items] of days) if (iso >= span.first && iso <= span.last) items.push(bundle);
  }
  return days;
}

const MONTH_CELL_EVENTS = 3;

/** The month grid (API.md §23.1): a `<table>` of weeks, Monday first, with weekday header cells. */
export function monthGrid(state: ListState, month: DateTime, bundles: readonly EventBundle[], today: string): Html {
  const { links } = state;
  const lang: Language = links.lang;
  const locale = localeOf(lang);
  const first = month.startOf('month').startOf('week');
  const last = month.endOf('month').endOf('week').startOf('day');
  const days = eventsByDay(bundles, first, last);
  const weekdays = Info.weekdays('short', { locale });
  const weekdayNames = Info.weekdays('long', { locale });
  const rows: Html[] = [];
  for (let week = first; week <= last; week = week.plus({ weeks: 1 })) {
    const cells: Html[] = [];
    for (let i = 0; i < 7; i++) {
      const day = week.plus({ days: i }).setLocale(locale);
      const iso = isoDay(day);
      const items = days.get(iso) ?? [];
      const outside = day.month !== month.month;
      const classes = [
        'day',
        outside ? 'outside' : '',
        iso === today ? 'today' : '',
        items.length === 0 ? 'no-events' : '',
      ]
        .filter((c) => c !== '')
        .join(' ');
      const shown = items.slice(0, MONTH_CELL_EVENTS);
      const more = items.length - shown.length;
      cells.push(
        html`<td class="${classes}">
          <a class="day-number" href="${links.to(`/events/day/${iso}/`, state.filters)}"
            ><time datetime="${iso}"
              ><span class="narrow-only">${dayHeading(iso, lang)}</span><span class="wide-only">${day.day}</span></time
            ></a
          >
          ${
            shown.length > 0
              ? html`<ul class="day-events">
                  ${shown.map(({ row }) => html`<li><a href="${links.to(eventPath(row))}">${row.all_day === 1 ? '' : html`<span class="time">${localTime(row.start_utc, row.timezone, lang)}</span> `}${row.title}</a></li>`)}
                </ul>`
              : ''
          }
          ${more > 0 ? html`<a class="more" href="${links.to(`/events/day/${iso}/`, state.filters)}">+${more} ${text(lang, 'more')}</a>` : ''}
        </td>`,
      );
    }
    rows.push(
      html`<tr>
        ${cells}
      </tr>`,
    );
  }
  return html`<table class="month">
    <caption class="visually-hidden">
      ${month.setLocale(locale).toLocaleString({ month: 'long', year: 'numeric' })}
    </caption>
    <thead>
      <tr>
        ${weekdays.map((name, i) => html`<th scope="col"><abbr title="${weekdayNames[i]}">${name}</abbr></th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** A week or a day: each day's events under its heading. */
export function dayLists(state: ListState, days: Map<string, EventBundle[]>, showEmpty: boolean): Html {
  const { links } = state;
  const lang = links.lang;
  const sections = [...days].map(([iso, items]) => {
    if (items.length === 0 && !showEmpty) return html``;
    return html`<section class="day-group">
      <h2 class="day-heading">
        <a href="${links.to(`/events/day/${iso}/`, state.filters)}"
          ><time datetime="${iso}">${dayHeading(iso, lang)}</time></a
        >
      </h2>
      ${items.length > 0 ? html`<div class="cards">${items.map((bundle) => eventCard(links, bundle, { withinDay: true }))}</div>` : noEvents(lang)}
    </section>`;
  });
  return html`${sections}`;
}

import type { Language } from '../../i18n/languages.js';
import type { EventBundle } from '../events/events.present.js';
import type { LinkedRow } from '../linked/linked.repository.js';
import { localSpan } from './format.js';
import { eventWhen } from './format.js';
import { html, jsonScript, trusted, type Html } from './html.js';
import type { SiteLinks } from './layout.js';
import { costLabel, paths, termLinks } from './parts.js';
import { text } from './texts.js';
import { DateTime } from 'luxon';
import { autoParagraph } from '../../domain/html.js';

const detail = (row: LinkedRow, name: string): string => {
  const value = row.details[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};

/** The venue's address on one line, as maps and calendars take it. */
export function venueAddress(venue: LinkedRow): string {
  const parts = [
    detail(venue, 'address'),
    detail(venue, 'city'),
    detail(venue, 'stateprovince'),
    detail(venue, 'zip'),
    detail(venue, 'country'),
  ];
  return parts.filter((part) => part !== '').join(', ');
}

/** Name and address: the LOCATION of add-to-calendar links. */
export function locationOf(venue: LinkedRow | undefined): string {
  if (!venue) return '';
  return [venue.title, venueAddress(venue)].filter((part) => part !== '').join(', ');
}

/** The OpenStreetMap link of a venue (API.md §23.1): by coordinates when known, else a search of its location. */
export function mapLink(venue: LinkedRow): string | undefined {
  const lat = detail(venue, 'geo_lat');
  const lng = detail(venue, 'geo_lng');
  if (lat !== '' && lng !== '')
    return `https://www.openstreetmap.org/?mlat=${encodeURIComponent(lat)}&mlon=${encodeURIComponent(lng)}#map=16/${encodeURIComponent(lat)}/${encodeURIComponent(lng)}`;
  if (venueAddress(venue) === '') return undefined;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(locationOf(venue))}`;
}

const utcStamp = (seconds: number) => DateTime.fromSeconds(seconds, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");

/**
 * Google Calendar's template link (API.md §23.1): UTC times, or local dates with an exclusive end
 * for all-day events.
 */
export function googleLink(bundle: EventBundle, eventUrl: string): string {
  const { row } = bundle;
  let dates: string;
  if (row.all_day === 1) {
    const span = localSpan(row);
    const end = DateTime.fromISO(span.last).plus({ days: 1 });
    dates = `${span.first.replace(/-/g, '')}/${end.toFormat('yyyyMMdd')}`;
  } else {
    dates = `${utcStamp(row.start_utc)}/${utcStamp(row.end_utc)}`;
  }
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: row.title,
    dates,
    details: eventUrl,
    location: locationOf(bundle.venue),
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

function fact(label: string, body: Html): Html {
  return html`<div class="fact">
    <dt>${label}</dt>
    <dd>${body}</dd>
  </div>`;
}

function venueFacts(links: SiteLinks, bundle: EventBundle, lang: Language): Html {
  const { venue, row } = bundle;
  if (!venue) return html``;
  const address = venueAddress(venue);
  const map = row.show_map_link === 1 ? mapLink(venue) : undefined;
  return fact(
    text(lang, 'venue'),
    html`<a href="${links.to(paths.venue(venue.slug))}">${venue.title}</a
      >${address !== '' ? html`<br><span class="address">${address}</span>` : ''}${map ? html`<br><a class="map-link" href="${map}" rel="noopener">${text(lang, 'map')}</a>` : ''}`,
  );
}

export interface EventPageData {
  readonly bundle: EventBundle;
  /** The event's absolute page URL (API.md §8 `url`). */
  readonly url: string;
  readonly icalUrl: string;
  /** The event's REST URL, advertised as its JSON alternate. */
  readonly restUrl: string;
  /** The API's `json_ld` for this event and language; none for a protected event. */
  readonly jsonLd: Record<string, unknown> | undefined;
}

/** The `<head>` extras of an event page: its JSON-LD and its iCalendar alternate. */
export function eventHead(data: EventPageData): Html {
  const json = html`<link rel="alternate" type="application/json" href="${data.restUrl}">`;
  if (!data.jsonLd) return json;
  return html`${json}
    <link rel="alternate" type="text/calendar" href="${data.icalUrl}">
    <script type="application/ld+json">
      ${jsonScript(data.jsonLd)}
    </script>`;
}

/** An event page (API.md §23.1); a password-protected event shows its title, dates and a notice only. */
export function eventBody(links: SiteLinks, data: EventPageData): Html {
  const { bundle } = data;
  const { row } = bundle;
  const lang = links.lang;
  const when = html`<p class="event-when">${eventWhen(row, lang)}</p>`;
  if (row.password !== '')
    return html`<article class="event-page">
      <h1>${row.title}</h1>
      ${when}
      <p class="notice">${text(lang, 'protected')}</p>
    </article>`;
  const cost = costLabel(row, lang);
  const website = row.website ?? '';
  const facts = [
    venueFacts(links, bundle, lang),
    bundle.organizers.length > 0
      ? fact(
          text(lang, 'organizers'),
          html`<ul class="plain">
            ${bundle.organizers.map((o) => html`<li><a href="${links.to(paths.organizer(o.slug))}">${o.title}</a></li>`)}
          </ul>`,
        )
      : '',
    cost !== '' ? fact(text(lang, 'cost'), html`${cost}`) : '',
    website !== ''
      ? fact(
          text(lang, 'website'),
          html`<a href="${website}" rel="noopener">${website.replace(/^https?:\/\//, '')}</a>`,
        )
      : '',
  ];
  const terms = [
    bundle.categories.length > 0
      ? html`<h2 class="visually-hidden">${text(lang, 'categories')}</h2><ul class="chips">
          ${termLinks(links, bundle.categories, 'category')}
        </ul>`
      : '',
    bundle.tags.length > 0
      ? html`<h2 class="visually-hidden">${text(lang, 'tags')}</h2><ul class="chips">
          ${termLinks(links, bundle.tags, 'tag')}
        </ul>`
      : '',
  ];
  return html`<article class="event-page">
    <header class="event-header">
      <h1>${row.title}</h1>
      ${when} ${terms}
    </header>
    ${row.image_url ? html`<img class="event-image" src="${row.image_url}" alt="">` : ''}
    <div class="event-layout">
      <div class="event-description">${trusted(autoParagraph(row.description))}</div>
      <aside class="event-aside">
        <dl class="facts">${facts}</dl>
        <div class="add-to-calendar">
          <h2>${text(lang, 'add_to_calendar')}</h2>
          <ul class="plain">
            <li><a href="${googleLink(bundle, data.url)}" rel="noopener">${text(lang, 'google_calendar')}</a></li>
            <li><a href="${data.icalUrl}">${text(lang, 'download_ics')}</a></li>
          </ul>
        </div>
      </aside>
    </div>
  </article>`;
}

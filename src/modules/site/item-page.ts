import type { LinkedKind } from '../linked/linked.kind.js';
import type { LinkedRow } from '../linked/linked.repository.js';
import { mapLink, venueAddress } from './event-page.js';
import { html, type Html } from './html.js';
import type { SiteLinks } from './layout.js';
import { text } from './texts.js';

const detail = (row: LinkedRow, name: string): string => {
  const value = row.details[name];
  return typeof value === 'string' ? value : '';
};

/** A venue's address, map, phone and website, or an organizer's phone, e-mail and website. */
export function itemDetails(links: SiteLinks, kind: LinkedKind, row: LinkedRow): Html {
  if (row.password !== '') return html``;
  const lang = links.lang;
  const facts: Html[] = [];
  if (kind.type === 'venue') {
    const address = venueAddress(row);
    if (address !== '') facts.push(html`<li class="address">${address}</li>`);
    const map = row.details.show_map_link === 0 ? undefined : mapLink(row);
    if (map) facts.push(html`<li><a class="map-link" href="${map}" rel="noopener">${text(lang, 'map')}</a></li>`);
  }
  const phone = detail(row, 'phone');
  if (phone !== '')
    facts.push(html`<li>${text(lang, 'phone')}: <a href="tel:${phone.replace(/[^\d+]/g, '')}">${phone}</a></li>`);
  const email = detail(row, 'email');
  if (email !== '') facts.push(html`<li>${text(lang, 'email')}: <a href="mailto:${email}">${email}</a></li>`);
  const website = detail(row, 'website');
  if (/^https?:\/\//i.test(website))
    facts.push(
      html`<li>
        ${text(lang, 'website')}: <a href="${website}" rel="noopener">${website.replace(/^https?:\/\//i, '')}</a>
      </li>`,
    );
  return facts.length > 0
    ? html`<ul class="item-facts">
        ${facts}
      </ul>`
    : html``;
}

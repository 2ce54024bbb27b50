/** Minimal HTML documents for the public `url` of every item (API.md §8), so links are never dead. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export interface PageContent {
  lang: string;
  title: string;
  /** The item's REST URL, advertised as the JSON alternate. */
  restUrl?: string;
  /** Plain-text lines under the title (dates, venue, address…). */
  facts: string[];
  /** Already sanitised HTML (stored descriptions). */
  bodyHtml: string;
  /** Links to related pages (events of a category, …). */
  links: { href: string; text: string }[];
}

export function renderPage(page: PageContent): string {
  const alternate = page.restUrl
    ? `<link rel="alternate" type="application/json" href="${escapeHtml(page.restUrl)}">`
    : '';
  const facts = page.facts
    .filter((f) => f !== '')
    .map((f) => `<p>${escapeHtml(f)}</p>`)
    .join('');
  const links =
    page.links.length > 0
      ? `<ul>${page.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`).join('')}</ul>`
      : '';
  return (
    `<!doctype html><html lang="${escapeHtml(page.lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.title)}</title>${alternate}</head>` +
    `<body><main><h1>${escapeHtml(page.title)}</h1>${facts}${page.bodyHtml}${links}</main></body></html>`
  );
}

export function notFoundPage(lang: string): string {
  return renderPage({
    lang,
    title: 'Not found',
    facts: ['This page does not exist or is not public.'],
    bodyHtml: '',
    links: [],
  });
}

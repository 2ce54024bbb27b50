/**
 * Escape-by-default HTML for the server-rendered pages (API.md §23): every value interpolated into
 * `html` is escaped unless it is already `Html` (a fragment made by `html` itself, or `trusted()`
 * for stored descriptions that were sanitised on write). Typed template functions instead of a
 * template engine: the compiler checks every value a page uses, and no template can forget to escape.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** HTML that is safe by construction: descriptions sanitised on write (domain/html.ts), JSON-LD encoded by jsonScript. */
export function trusted(text: string): Html {
  return new Html(text);
}

/**
 * JSON for a `<script type="application/ld+json">` element (API.md §23.1): `<` is written `\u003c`
 * so no stored text can close the element; `>` and `&` likewise for good measure.
 */
export function jsonScript(value: unknown): Html {
  return new Html(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

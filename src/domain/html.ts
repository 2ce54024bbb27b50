import sanitize from 'sanitize-html';

const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'cite',
  'code',
  'del',
  'div',
  'em',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'li',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];

const OPTIONS: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    '*': ['class', 'id', 'lang', 'dir'],
  },
  // No javascript:, data: or other schemes: links and images are http(s) or mailto only.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Stored HTML (descriptions, excerpts) keeps formatting but no script, style, handlers or unsafe URLs. */
export function sanitizeHtml(input: string): string {
  return sanitize(input, OPTIONS).trim();
}

/** Plain text of an HTML fragment (JSON-LD descriptions, HTML page summaries). */
export function htmlToText(input: string): string {
  return sanitize(input, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const ESCAPED: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * Plain text of a title or name (API.md §18): tags and comments dropped, entities read. Stripped
 * again until nothing changes, so an encoded tag (`&lt;b&gt;`) cannot come back as a real one.
 */
export function plainText(input: string): string {
  let text = input;
  for (;;) {
    const stripped = sanitize(text, { allowedTags: [], allowedAttributes: {} }).replace(
      /&(?:amp|lt|gt|quot|#39);/g,
      (entity) => ESCAPED[entity],
    );
    if (stripped === text) return text;
    text = stripped;
  }
}

const BLOCK = /<(p|div|ul|ol|li|h[1-6]|table|blockquote|pre|figure|hr)[\s>/]/i;

/**
 * Wraps plain-text paragraphs in `<p>` as TEC's content filter does (API.md §8): blank lines separate
 * paragraphs, single newlines become `<br />`. Text that already has block markup is left alone.
 */
export function autoParagraph(html: string): string {
  const text = html.trim();
  if (text === '' || BLOCK.test(text)) return text;
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${paragraph.trim().replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

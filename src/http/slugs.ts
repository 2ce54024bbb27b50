import slugify from '@sindresorhus/slugify';

/**
 * A URL slug from a title or name (API.md §3): lower-case, accents folded, runs of other characters
 * to `-`. Scripts without a Latin transliteration keep their letters rather than vanishing.
 */
export function toSlug(text: string): string {
  const latin = slugify(text, { customReplacements: [['&', ' ']], decamelize: false });
  if (latin !== '') return latin.slice(0, 190);
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190);
}

/** `base`, `base-2`, `base-3`… : the n-th candidate of the uniqueness rule. */
export function slugCandidate(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-${attempt}`;
}

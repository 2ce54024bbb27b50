import slugifyModule from 'slugify';

// slugify is CommonJS; its function is also exported as `default`, which is what the types describe.
const slugify = slugifyModule.default;

// WordPress drops symbols from slugs ("Rock & Roll" → rock-roll) where slugify would spell them out.
slugify.extend(Object.fromEntries([...'&<>|$%€£¥©®™∆∑∞♥₹₽₩₺₿'].map((symbol) => [symbol, ' '])));

/** WordPress's limit (API.md §18): longer slugs made page and by-slug URLs too long to serve. */
export const MAX_SLUG_LENGTH = 200;

/**
 * A URL slug from a title or name (API.md §3): lower-case, accents folded (slugify's character
 * map), quotes dropped, runs of other characters to `-`. Scripts without a Latin transliteration
 * keep their letters rather than vanishing.
 */
export function toSlug(text: string): string {
  const folded = slugify(text, { lower: true, remove: /['"‘’“”]/g, replacement: '-' });
  return folded
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/** `base`, `base-2`, `base-3`… : the n-th candidate of the uniqueness rule, shortened to stay within the limit. */
export function slugCandidate(base: string, attempt: number): string {
  if (attempt <= 1) return base;
  const suffix = `-${attempt}`;
  return `${base.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
}

/**
 * What every candidate of `base` shares with every base whose candidates could be the same slug:
 * `base` without its trailing `-n` groups (`foo`, `foo-2` and `foo-2-3` all give `foo`). Writers
 * that look for a free slug serialise on it (posts.writes.ts uniqueSlug).
 */
export function slugStem(base: string): string {
  return base.replace(/(-\d+)+$/, '');
}

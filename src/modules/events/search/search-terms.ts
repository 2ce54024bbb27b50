import type { SearchTerms } from '../listing/listing.repository.js';

/**
 * WordPress search terms (API.md §10): words and "quoted phrases" must all occur; `-word` must not.
 * Lower-cased for case-insensitive matching.
 */
export function parseSearchTerms(search: string): SearchTerms {
  const terms: SearchTerms = { include: [], exclude: [] };
  for (const match of search.matchAll(/"([^"]*)"|(\S+)/g)) {
    const phrase = match[1] !== undefined ? match[1].trim() : undefined;
    const word = match[2];
    if (phrase !== undefined) {
      if (phrase !== '') terms.include.push(phrase.toLowerCase());
    } else if (word.length > 1 && word.startsWith('-')) {
      terms.exclude.push(word.slice(1).toLowerCase());
    } else {
      terms.include.push(word.toLowerCase());
    }
  }
  return terms;
}

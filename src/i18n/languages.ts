/** The content languages of API.md §15, in the order the contract lists them. */
export const LANGUAGES = ['nl', 'en', 'fi', 'fr', 'de', 'hu', 'it', 'pl', 'pt-br', 'ro', 'es', 'sv'] as const;

export type Language = (typeof LANGUAGES)[number];

const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && LANGUAGE_SET.has(value);
}

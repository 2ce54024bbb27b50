import { sql, type RawBuilder } from 'kysely';
import type { Language } from '../i18n/languages.js';

/**
 * The value of a translatable column in the request language (API.md §15): the item's own text when
 * the request is in its original language, else the request language's translation, then the
 * default language's, then the original. `tr_req` / `tr_def` are the two joined translation rows.
 */
export function translatedColumn(
  table: string,
  column: string,
  lang: Language,
  defaultLang: Language,
): RawBuilder<string> {
  const base = sql.ref(`${table}.${column}`);
  const original = sql.ref(`${table}.lang`);
  return sql<string>`(CASE WHEN ${original} = ${lang} THEN ${base} ELSE COALESCE(${sql.ref(`tr_req.${column}`)}, CASE WHEN ${original} = ${defaultLang} THEN ${base} ELSE ${sql.ref(`tr_def.${column}`)} END, ${base}) END)`;
}

/** `%text%` for LIKE, with the wildcard characters of `text` escaped (used with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive matching is done on keys lower-cased in JavaScript, identical on both dialects. */
export function searchKey(text: string): string {
  return text.toLowerCase();
}

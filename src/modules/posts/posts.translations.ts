import { Type } from '@sinclair/typebox';
import type { Executor } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { arg, withDefault } from '../../http/args.js';

/**
 * The translation-status hint for editing clients (an extension of the contract, API.md §15 and
 * issue "multilingual content"): with `context=edit`, single reads add the item's text per language.
 */
export const TranslationsSchema = {
  translations: Type.Optional(
    Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description: 'context=edit only: translatable fields per language',
    }),
  ),
  languages: Type.Optional(
    Type.Array(Type.String(), { description: 'context=edit only: languages the item has text in, original first' }),
  ),
};

export const contextArg = withDefault(
  arg.enumOf(['view', 'edit'] as const, {
    description: 'edit (for users who may edit the item): add the translations and languages of the item',
  }),
  () => 'view' as const,
  'view',
);

export interface TranslationHint {
  translations: Record<string, Record<string, string>>;
  languages: string[];
}

function hint(
  original: { lang: string; fields: Record<string, string> },
  rows: { lang: string; fields: Record<string, string | null> }[],
): TranslationHint {
  const translations: Record<string, Record<string, string>> = { [original.lang]: original.fields };
  for (const row of rows) {
    const present = Object.fromEntries(
      Object.entries(row.fields).filter((entry): entry is [string, string] => entry[1] !== null),
    );
    if (Object.keys(present).length > 0) translations[row.lang] = present;
  }
  return { translations, languages: Object.keys(translations) };
}

/** Text of a post per language; `names` maps stored columns to the representation's field names. */
export async function postTranslations(
  db: Executor,
  postId: number,
  names: { title: string; description: string; excerpt?: string },
): Promise<TranslationHint> {
  const post = await db
    .selectFrom('posts')
    .select(['lang', 'title', 'description', 'excerpt'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('post_translations')
    .selectAll()
    .where('post_id', '=', postId)
    .orderBy('lang')
    .execute();
  const pick = <T>(source: { title: T; description: T; excerpt: T }) => ({
    [names.title]: source.title,
    [names.description]: source.description,
    ...(names.excerpt ? { [names.excerpt]: source.excerpt } : {}),
  });
  return hint(
    { lang: post.lang, fields: pick(post) },
    rows.map((row) => ({ lang: row.lang, fields: pick(row) })),
  );
}

export async function termTranslations(db: Executor, termId: number): Promise<TranslationHint> {
  const term = await db
    .selectFrom('terms')
    .select(['lang', 'name', 'slug', 'description'])
    .where('id', '=', termId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('term_translations')
    .selectAll()
    .where('term_id', '=', termId)
    .orderBy('lang')
    .execute();
  return hint(
    { lang: term.lang, fields: { name: term.name, slug: term.slug, description: term.description } },
    rows.map((row) => ({ lang: row.lang, fields: { name: row.name, slug: row.slug, description: row.description } })),
  );
}

/** `context=edit` needs the right to edit the item: 401 anonymous, 403 otherwise (WordPress's rule). */
export function requireEditContext(allowed: boolean, authenticated: boolean): void {
  if (!allowed) throw forbidden(authenticated);
}

import { Type, type Static } from '@sinclair/typebox';
import { arg, fail, ok, refine, required, withDefault } from '../../http/args.js';
import { contextArg, TranslationsSchema } from '../posts/posts.translations.js';

export const termReadArgs = { context: contextArg };

const TermUrls = Type.Object({
  self: Type.String({ format: 'uri' }),
  collection: Type.String({ format: 'uri' }),
  up: Type.Optional(Type.String({ format: 'uri' })),
});

/** A category or tag on its own routes (API.md §8 "Term standalone"); tags have no `parent`. */
export const TermSchema = Type.Object(
  {
    id: Type.Integer(),
    count: Type.Integer({ description: 'Published events with this term' }),
    description: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    taxonomy: Type.String({ enum: ['tribe_events_cat', 'post_tag'] }),
    parent: Type.Optional(Type.Integer()),
    meta: Type.Array(Type.Never(), { maxItems: 0 }),
    url: Type.String({ format: 'uri', description: 'Public archive page of the term' }),
    urls: TermUrls,
    ...TranslationsSchema,
  },
  { $id: 'Term', description: 'An event category or tag' },
);
export type Term = Static<typeof TermSchema>;

/** A term embedded in an event (API.md §8, TEC's WP_Term shape with `id` last but one). */
export const EmbeddedTermSchema = Type.Object(
  {
    name: Type.String(),
    slug: Type.String(),
    term_group: Type.Integer(),
    term_taxonomy_id: Type.Integer(),
    taxonomy: Type.String({ enum: ['tribe_events_cat', 'post_tag'] }),
    description: Type.String(),
    parent: Type.Integer(),
    count: Type.Integer(),
    filter: Type.Literal('raw'),
    id: Type.Integer(),
    urls: TermUrls,
  },
  { $id: 'EmbeddedTerm', description: 'A category or tag as embedded in an event' },
);
export type EmbeddedTerm = Static<typeof EmbeddedTermSchema>;

export function termListSchema(key: 'categories' | 'tags') {
  return Type.Object({
    rest_url: Type.String({ format: 'uri' }),
    total: Type.Integer(),
    total_pages: Type.Integer(),
    [key]: Type.Array(Type.Ref(TermSchema)),
    next_rest_url: Type.Optional(Type.String({ format: 'uri' })),
    previous_rest_url: Type.Optional(Type.String({ format: 'uri' })),
  });
}

export const TERM_ORDERBY = ['id', 'name', 'slug', 'count', 'description', 'term_group', 'include'] as const;
export type TermOrderBy = (typeof TERM_ORDERBY)[number];

const nonNegativeInt = refine(
  arg.integer({ description: 'Limit result set to direct children of this term (0: top level)' }),
  (value) => (value >= 0 ? ok(value) : fail('invalid_parameter')),
);

export const pageArg = withDefault(arg.positiveInt({ description: 'The archive page to return' }), () => 1, 1);

export function perPageArg(description: string) {
  return withDefault(
    refine(arg.positiveInt({ description }), (value, _name, ctx) => ok(Math.min(value, ctx.config.maxPerPage))),
    (ctx) => ctx.config.defaultPerPage,
  );
}

function listArgs(plural: string) {
  return {
    page: pageArg,
    per_page: perPageArg(`The number of ${plural} to return on each page`),
    search: arg.search({ description: 'Limit results to those whose name or slug contains this string' }),
    exclude: arg.idOrSlugList({ description: 'Ensure result set exclude specific IDs' }),
    include: arg.idOrSlugList({ description: 'Limit result set to specific IDs' }),
    order: withDefault(
      arg.enumOf(['asc', 'desc'], { description: 'Order sort attribute ascending or descending' }),
      () => 'asc' as const,
      'asc',
    ),
    orderby: withDefault(
      arg.enumOf(TERM_ORDERBY, { description: 'Sort collection by term attribute' }),
      () => 'name' as const,
      'name',
    ),
    hide_empty: withDefault(
      arg.boolean({ description: 'Whether to hide terms not assigned to any published event' }),
      () => true,
      true,
    ),
    modified_after: arg.date({ description: 'Terms last changed at or after this instant' }),
    modified_before: arg.date({ description: 'Terms last changed before this instant' }),
  };
}

const postFilterArgs = {
  post: arg.positiveInt({ description: 'Limit result set to terms assigned to a specific event' }),
  event: arg.positiveInt({
    description: 'Limit result set to terms assigned to a specific event (an alias of "post" that wins over it)',
  }),
  slug: arg.string({ description: 'Limit result set to terms with a specific slug' }),
};

export const categoryListArgs = { ...listArgs('event categories'), parent: nonNegativeInt, ...postFilterArgs };
export const tagListArgs = { ...listArgs('event tags'), ...postFilterArgs };

function writeArgs(label: string) {
  return {
    name: arg.title({ description: `The event ${label} name` }),
    description: arg.text({ description: `The event ${label} description (HTML)` }),
    slug: arg.string({ description: `The event ${label} slug` }),
  };
}

const parentArg = arg.integer({ description: 'The parent category id (0: none)' });

export const categoryCreateArgs = {
  ...writeArgs('category'),
  name: required(writeArgs('category').name),
  parent: parentArg,
};
export const categoryUpdateArgs = { ...writeArgs('category'), parent: parentArg };
export const tagCreateArgs = { ...writeArgs('tag'), name: required(writeArgs('tag').name) };
export const tagUpdateArgs = writeArgs('tag');

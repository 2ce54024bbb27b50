import { Type } from '@sinclair/typebox';
import { arg, withDefault, type ArgsInput } from '../../http/args.js';
import { ImageSchema } from '../images/images.js';
import { pageArg, perPageArg } from '../terms/terms.schemas.js';
import { authorArg, imageArg, statusArg, statusListArg } from '../posts/posts.args.js';

/** `json_ld` objects (schema.org) are open-ended. */
export const JsonLdSchema = Type.Object(
  {},
  { additionalProperties: true, description: 'schema.org JSON-LD (single reads only)' },
);

/** The head of a venue or organizer object (tec-api.md §5.2, §5.3): empty values are omitted. */
export function postHeadFields(name: 'venue' | 'organizer') {
  const text = Type.Optional(Type.String());
  return {
    id: Type.Integer(),
    author: text,
    status: Type.String(),
    date: Type.String(),
    date_utc: Type.String(),
    modified: Type.String(),
    modified_utc: Type.String(),
    url: Type.String({ format: 'uri' }),
    [name]: text,
    description: text,
    excerpt: text,
    slug: text,
    image: Type.Optional(Type.Ref(ImageSchema)),
  };
}

export const GlobalIdFields = {
  global_id: Type.String(),
  global_id_lineage: Type.Array(Type.String()),
};

type Label = 'venue' | 'organizer';

/**
 * Post fields shared by venue and organizer writes (TEC create args, API.md §13), in TEC's order:
 * each kind puts its name argument (`venue` / `organizer`, see nameArg) between `head` and `tail`.
 */
export function postWriteArgs(label: Label) {
  return {
    head: {
      author: authorArg,
      date: arg.date({ description: `The ${label} publication date (site time zone)` }),
      date_utc: arg.dateUtc({ description: `The ${label} publication date (UTC)` }),
    },
    tail: {
      description: arg.text({ description: `The ${label} description (HTML)` }),
      excerpt: arg.text({ description: `The ${label} excerpt (HTML)` }),
      slug: arg.string({ description: `The ${label} slug` }),
      status: statusArg(`The ${label} post status`),
      image: imageArg,
    },
  };
}

export const nameArg = (label: Label) => arg.title({ description: `The ${label} name` });

type PostWriteParts = ReturnType<typeof postWriteArgs>;

/** The text, status and image of a write, as the service takes them. */
export function postTextInput(args: ArgsInput<PostWriteParts['tail']>) {
  const { description, excerpt, slug, status, image } = args;
  return { description, excerpt, slug, status, image };
}

/** The text plus author and dates: what a venue or organizer route write takes (inline creates in event writes do not). */
export function postWriteInput(args: ArgsInput<PostWriteParts['head'] & PostWriteParts['tail']>) {
  const { author, date, date_utc } = args;
  return { ...postTextInput(args), author, date, date_utc };
}

export type LinkedListArgs = ReturnType<typeof listArgs>;

export function listArgs(plural: 'venues' | 'organizers') {
  return {
    page: pageArg,
    per_page: perPageArg(`The number of ${plural} to return on each page`),
    search: arg.search({
      description: `${plural[0].toUpperCase()}${plural.slice(1)} with a field containing every word of this string`,
    }),
    event: arg.positiveInt({ description: `${plural[0].toUpperCase()}${plural.slice(1)} linked to this event` }),
    has_events: arg.boolean({
      description: `${plural[0].toUpperCase()}${plural.slice(1)} with (true) or without (false) linked events`,
    }),
    only_with_upcoming: withDefault(
      arg.boolean({ description: `Only ${plural} linked to an upcoming event` }),
      () => false,
      false,
    ),
    status: statusListArg(`The ${plural.slice(0, -1)} post statuses (CSV)`),
    modified_after: arg.date({
      description: `${plural[0].toUpperCase()}${plural.slice(1)} last modified at or after this instant`,
    }),
    modified_before: arg.date({
      description: `${plural[0].toUpperCase()}${plural.slice(1)} last modified before this instant`,
    }),
  };
}

export const deleteArgs = {
  force: withDefault(
    arg.boolean({ description: 'Delete permanently instead of moving to the trash (editors and administrators)' }),
    () => false,
    false,
  ),
};

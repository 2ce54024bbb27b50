import { Type } from '@sinclair/typebox';
import { arg } from '../../http/args.js';
import { ImageSchema } from '../images/images.js';
import { emailArg } from '../posts/posts.args.js';
import { TranslationsSchema } from '../posts/posts.translations.js';
import { createArgs, commonWriteArgs, GlobalIdFields, JsonLdSchema, listArgs } from '../linked/linked.schemas.js';

const text = Type.Optional(Type.String());

/** An organizer (API.md §8, tec-api.md §5.3): empty values are omitted. */
export const OrganizerSchema = Type.Object(
  {
    id: Type.Integer(),
    author: text,
    status: Type.String(),
    date: Type.String(),
    date_utc: Type.String(),
    modified: Type.String(),
    modified_utc: Type.String(),
    url: Type.String({ format: 'uri' }),
    organizer: text,
    description: text,
    excerpt: text,
    slug: text,
    image: Type.Optional(Type.Ref(ImageSchema)),
    phone: text,
    website: text,
    email: text,
    json_ld: Type.Optional(JsonLdSchema),
    ...GlobalIdFields,
    ...TranslationsSchema,
  },
  { $id: 'Organizer', description: 'An organizer' },
);

export const organizerListSchema = Type.Object({
  organizers: Type.Array(Type.Ref(OrganizerSchema)),
  rest_url: Type.String({ format: 'uri' }),
  next_rest_url: Type.Optional(Type.String({ format: 'uri' })),
  previous_rest_url: Type.Optional(Type.String({ format: 'uri' })),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

const organizerFields = {
  phone: arg.text({ description: 'The organizer phone number' }),
  website: arg.url({ description: 'The organizer website' }),
  email: emailArg,
};

export const organizerCreateArgs = createArgs('organizer', organizerFields);
export const organizerUpdateArgs = { ...commonWriteArgs('organizer'), ...organizerFields };
export const organizerListArgs = listArgs('organizers');

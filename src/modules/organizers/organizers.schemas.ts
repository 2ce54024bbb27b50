import { Type } from '@sinclair/typebox';
import { arg, required } from '../../http/args.js';
import { postListSchema } from '../../http/schemas.js';
import { emailArg } from '../posts/posts.args.js';
import { TranslationsSchema } from '../posts/posts.translations.js';
import {
  GlobalIdFields,
  JsonLdSchema,
  listArgs,
  nameArg,
  postHeadFields,
  postWriteArgs,
} from '../linked/linked.schemas.js';

const text = Type.Optional(Type.String());

/** An organizer (API.md §8, tec-api.md §5.3): empty values are omitted. */
export const OrganizerSchema = Type.Object(
  {
    ...postHeadFields('organizer'),
    phone: text,
    website: text,
    email: text,
    json_ld: Type.Optional(JsonLdSchema),
    ...GlobalIdFields,
    ...TranslationsSchema,
  },
  { $id: 'Organizer', description: 'An organizer' },
);

export const organizerListSchema = postListSchema('organizers', OrganizerSchema);

export const organizerFields = {
  phone: arg.text({ description: 'The organizer phone number' }),
  website: arg.url({ description: 'The organizer website' }),
  email: emailArg,
};

const { head, tail } = postWriteArgs('organizer');
export const organizerCreateArgs = { ...head, organizer: required(nameArg('organizer')), ...tail, ...organizerFields };
export const organizerUpdateArgs = { ...head, organizer: nameArg('organizer'), ...tail, ...organizerFields };
export const organizerListArgs = listArgs('organizers');

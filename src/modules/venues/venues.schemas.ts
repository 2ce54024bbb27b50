import { Type } from '@sinclair/typebox';
import { arg, required } from '../../http/args.js';
import { postListSchema } from '../../http/schemas.js';
import { coordinateArg } from '../posts/posts.args.js';
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

/** A venue (API.md §8, tec-api.md §5.2): empty values are omitted, show_map flags always present. */
export const VenueSchema = Type.Object(
  {
    ...postHeadFields('venue'),
    address: text,
    city: text,
    country: text,
    province: text,
    state: text,
    zip: text,
    phone: text,
    website: text,
    stateprovince: text,
    geo_lat: Type.Optional(Type.Number()),
    geo_lng: Type.Optional(Type.Number()),
    json_ld: Type.Optional(JsonLdSchema),
    show_map: Type.Union([Type.Boolean(), Type.Null()]),
    show_map_link: Type.Union([Type.Boolean(), Type.Null()]),
    ...GlobalIdFields,
    ...TranslationsSchema,
  },
  { $id: 'Venue', description: 'A venue' },
);

export const venueListSchema = postListSchema('venues', VenueSchema);

export const venueFields = {
  show_map: arg.boolean({ description: 'Whether events at the venue show a map' }),
  show_map_link: arg.boolean({ description: 'Whether events at the venue show a map link' }),
  address: arg.text({ description: 'The venue address' }),
  city: arg.text({ description: 'The venue city' }),
  country: arg.text({ description: 'The venue country' }),
  province: arg.text({ description: 'The venue province' }),
  state: arg.text({ description: 'The venue state' }),
  zip: arg.text({ description: 'The venue ZIP code' }),
  phone: arg.text({ description: 'The venue phone number' }),
  stateprovince: arg.text({ description: 'The venue state and province' }),
  website: arg.url({ description: 'The venue website URL' }),
  geo_lat: coordinateArg('The venue latitude (-90 to 90)', 90),
  geo_lng: coordinateArg('The venue longitude (-180 to 180)', 180),
};

const { head, tail } = postWriteArgs('venue');
export const venueCreateArgs = { ...head, venue: required(nameArg('venue')), ...tail, ...venueFields };
export const venueUpdateArgs = { ...head, venue: nameArg('venue'), ...tail, ...venueFields };
export const venueListArgs = listArgs('venues');

import { Type, type TSchema } from '@sinclair/typebox';
import { arg, fail, MAX_TITLE_LENGTH, ok, refine, required, withDefault, type ArgSpec } from '../../http/args.js';
import { plainText } from '../../domain/html.js';
import { parseList } from '../../domain/params.js';
import { EmptyArray, postListSchema } from '../../http/schemas.js';
import { ImageSchema } from '../images/images.js';
import { JsonLdSchema } from '../linked/linked.schemas.js';
import { OrganizerSchema } from '../organizers/organizers.schemas.js';
import { authorArg, coordinateArg, imageArg, statusArg, statusListArg } from '../posts/posts.args.js';
import { contextArg, TranslationsSchema } from '../posts/posts.translations.js';
import { EmbeddedTermSchema, pageArg, perPageArg } from '../terms/terms.schemas.js';
import { VenueSchema } from '../venues/venues.schemas.js';
import { parseCostInput } from './events.cost.js';

export const DateDetailsSchema = Type.Object(
  {
    year: Type.String(),
    month: Type.String(),
    day: Type.String(),
    hour: Type.String(),
    minutes: Type.String(),
    seconds: Type.String(),
  },
  { $id: 'DateDetails', description: 'Zero-padded parts of a date' },
);

export const CostDetailsSchema = Type.Object(
  {
    currency_symbol: Type.String(),
    currency_code: Type.String(),
    currency_position: Type.String(),
    values: Type.Array(Type.String()),
  },
  { $id: 'CostDetails', description: 'Currency and numeric values of a cost' },
);

const nullableBoolean = Type.Union([Type.Boolean(), Type.Null()]);
const details = Type.Ref(DateDetailsSchema);

/** An event (API.md §8, tec-api.md §5.1): every key always present, `json_ld` on single reads. */
export const EventSchema = Type.Object(
  {
    id: Type.Integer(),
    global_id: Type.String(),
    global_id_lineage: Type.Array(Type.String()),
    author: Type.String(),
    status: Type.String(),
    date: Type.String(),
    date_utc: Type.String(),
    modified: Type.String(),
    modified_utc: Type.String(),
    url: Type.String({ format: 'uri' }),
    rest_url: Type.String({ format: 'uri' }),
    title: Type.String(),
    description: Type.String(),
    excerpt: Type.String(),
    slug: Type.String(),
    image: Type.Union([Type.Ref(ImageSchema), Type.Literal(false)]),
    all_day: nullableBoolean,
    start_date: Type.String(),
    start_date_details: details,
    end_date: Type.String(),
    end_date_details: details,
    utc_start_date: Type.String(),
    utc_start_date_details: details,
    utc_end_date: Type.String(),
    utc_end_date_details: details,
    timezone: Type.String(),
    timezone_abbr: Type.String(),
    cost: Type.String(),
    cost_details: Type.Ref(CostDetailsSchema),
    website: Type.String(),
    show_map: nullableBoolean,
    show_map_link: nullableBoolean,
    hide_from_listings: nullableBoolean,
    sticky: nullableBoolean,
    featured: nullableBoolean,
    categories: Type.Array(Type.Ref(EmbeddedTermSchema)),
    tags: Type.Array(Type.Ref(EmbeddedTermSchema)),
    venue: Type.Union([Type.Ref(VenueSchema), EmptyArray]),
    organizer: Type.Array(Type.Ref(OrganizerSchema)),
    custom_fields: EmptyArray,
    ical_uid: Type.String({ description: 'The iCalendar UID: stable, the same in every language (read-only)' }),
    ical_url: Type.String({ format: 'uri', description: 'The event as an iCalendar file' }),
    is_recurring: Type.Boolean({ description: 'Whether the event is a recurring series or one of its occurrences' }),
    series_id: Type.Union([Type.Integer(), Type.Null()], { description: "An occurrence's series id" }),
    recurrence_id: Type.Union([Type.String(), Type.Null()], {
      description: "An occurrence's original start: UTC 20270105T180000Z, or YYYYMMDD for all-day series",
    }),
    recurrence: Type.Array(Type.String(), { description: "A series' RRULE, RDATE and EXDATE lines" }),
    occurrences_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: "The REST URL of a series' occurrences",
    }),
    password: Type.Optional(Type.String({ description: 'context=edit only: the event password (empty: none)' })),
    json_ld: Type.Optional(JsonLdSchema),
    ...TranslationsSchema,
  },
  { $id: 'Event', description: 'An event' },
);

export const eventListSchema = postListSchema('events', EventSchema);

function passThrough(schema: TSchema, accepts: (raw: unknown) => boolean): ArgSpec<unknown, false> {
  return {
    schema,
    required: false,
    always: false,
    parse: (raw) => (accepts(raw) ? ok(raw) : fail('invalid_parameter')),
  };
}

const isScalar = (raw: unknown) => typeof raw === 'string' || typeof raw === 'number';
const isObject = (raw: unknown) => raw !== null && typeof raw === 'object' && !Array.isArray(raw);

/** Term references on writes: ids, slugs or names, as an array or a CSV string; empty means none. */
function termRefsArg(description: string): ArgSpec<string[], false> {
  return {
    schema: Type.Array(Type.Union([Type.Integer(), Type.String()]), { description }),
    required: false,
    always: false,
    parse: (raw, name) => {
      if (raw === null || raw === '') return ok([]);
      // A name may create a term: plain text, as the term's own `name` argument (API.md §18).
      const items = parseList(raw)
        ?.map((item) => plainText(item).trim())
        .filter((item) => item !== '');
      if (items === undefined) return fail('must_be_list', { param: name });
      return items.some((item) => [...item].length > MAX_TITLE_LENGTH)
        ? fail('too_long', { param: name, max: MAX_TITLE_LENGTH })
        : ok(items);
    },
  };
}

const costArg: ArgSpec<ReturnType<typeof parseCostInput> & object, false> = {
  schema: Type.Union([Type.String(), Type.Number(), Type.Array(Type.Union([Type.String(), Type.Number()]))], {
    description: 'The event cost: a value, a range such as "10 - 20", or a list of values',
  }),
  required: false,
  always: false,
  parse: (raw) => {
    const cost = raw === null ? parseCostInput('') : parseCostInput(raw);
    return cost === undefined ? fail('invalid_parameter') : ok(cost);
  },
};

/**
 * `recurrence` (API.md §20.1): lines as an array, repeated `recurrence[]=`, or one string with one
 * line per row (never split on commas: EXDATE values are comma-separated). Empty means none.
 */
const recurrenceArg: ArgSpec<string[], false> = {
  schema: Type.Array(Type.String(), {
    description: 'RRULE, RDATE and EXDATE lines (RFC 5545); null, [] or "" removes the recurrence',
  }),
  required: false,
  always: false,
  parse: (raw) => {
    if (raw === null || raw === '') return ok([]);
    const items = typeof raw === 'string' ? raw.split(/\r?\n/) : Array.isArray(raw) ? raw : undefined;
    if (!items || items.some((line) => typeof line !== 'string')) return fail('invalid_parameter');
    return ok((items as string[]).map((line) => line.trim()).filter((line) => line !== ''));
  },
};

function eventWriteArgs() {
  return {
    author: authorArg,
    date: arg.date({ description: 'The event publication date (site time zone)' }),
    date_utc: arg.dateUtc({ description: 'The event publication date (UTC)' }),
    title: arg.title({ description: 'The event title' }),
    description: arg.text({ description: 'The event description (HTML)' }),
    slug: arg.string({ description: 'The event slug' }),
    excerpt: arg.text({ description: 'The event excerpt (HTML)' }),
    status: statusArg('The event post status'),
    timezone: arg.timezone({ description: 'The event time zone: an IANA name, UTC or UTC±N' }),
    all_day: arg.boolean({ description: 'Whether the event lasts whole days' }),
    start_date: arg.dateText({
      description: 'The event start date and time (any form of docs/api.md, "Dates and time zones")',
    }),
    end_date: arg.dateText({
      description: 'The event end date and time (any form of docs/api.md, "Dates and time zones")',
    }),
    image: imageArg,
    cost: costArg,
    website: arg.url({ description: 'The event website URL' }),
    show_map: arg.boolean({ description: 'Whether the event shows a map' }),
    show_map_link: arg.boolean({ description: 'Whether the event shows a map link' }),
    hide_from_listings: arg.boolean({ description: 'Whether the event is hidden from lists' }),
    sticky: arg.boolean({ description: 'Whether the event is sticky' }),
    featured: arg.boolean({ description: 'Whether the event is featured' }),
    categories: termRefsArg('The event categories: ids, slugs or (to create them) names'),
    tags: termRefsArg('The event tags: ids, slugs or (to create them) names'),
    venue: passThrough(
      Type.Union([Type.Integer(), Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description: 'A venue id, {"id": n}, an inline venue object, or null/0/"" to unlink',
      }),
      (raw) => raw === null || isScalar(raw) || isObject(raw) || Array.isArray(raw),
    ),
    organizer: passThrough(
      Type.Array(Type.Union([Type.Integer(), Type.Object({}, { additionalProperties: true })]), {
        description: 'Organizer ids and/or inline organizer objects, in order',
      }),
      (raw) => raw === null || isScalar(raw) || isObject(raw) || Array.isArray(raw),
    ),
    password: arg.text({ description: 'The event password (empty: none)' }),
    recurrence: recurrenceArg,
    post_parent: refine(arg.integer({ description: 'The parent event id (0: none)' }), (value) =>
      value >= 0 ? ok(value) : fail('invalid_parameter'),
    ),
  };
}

const writeArgs = eventWriteArgs();
export const eventCreateArgs = {
  ...writeArgs,
  title: required(writeArgs.title),
  start_date: required(writeArgs.start_date),
  end_date: required(writeArgs.end_date),
};
export const eventUpdateArgs = {
  ...writeArgs,
  scope: arg.enumOf(['this', 'following', 'all'], {
    description: 'On an occurrence: edit this one (default), this and the following ones, or the whole series',
  }),
};

export const eventReadArgs = {
  password: arg.string({ description: 'The event password, to read a protected event' }),
  context: contextArg,
};

export const eventDeleteArgs = {
  force: withDefault(
    arg.boolean({ description: 'Delete permanently instead of moving to the trash (editors and administrators)' }),
    () => false,
    false,
  ),
};

const ticketedArg = refine(
  arg.boolean({ description: 'Filter events with or without tickets (no ticketing: only false is accepted)' }),
  (value) => (value ? fail('event_tickets_not_active', {}, 'event-tickets-not-active') : ok(false)),
);

export const eventListArgs = {
  page: pageArg,
  per_page: perPageArg('The number of events to return on each page'),
  start_date: arg.date({ description: 'Events that start on or after this date' }),
  end_date: arg.date({ description: 'Events that end on or before this date' }),
  starts_before: arg.date({ description: 'Events that start before this date' }),
  starts_after: arg.date({ description: 'Events that start after this date' }),
  ends_before: arg.date({ description: 'Events that end before this date' }),
  ends_after: arg.date({ description: 'Events that end after this date' }),
  strict_dates: withDefault(
    arg.boolean({ description: 'Use the exact times of the date bounds instead of whole days' }),
    () => false,
    false,
  ),
  search: arg.search({
    description: 'Events whose title, excerpt or description contain every word ("quoted phrases", -excluded)',
  }),
  categories: arg.idOrSlugList({
    description: 'Events in any of these categories (slugs or ids; subcategories included)',
  }),
  tags: arg.idOrSlugList({ description: 'Events with any of these tags (slugs or ids)' }),
  venue: arg.idList({ description: 'Events at any of these venue ids' }),
  organizer: arg.idList({ description: 'Events with any of these organizer ids' }),
  featured: arg.boolean({ description: 'Featured (true) or not featured (false) events' }),
  status: statusListArg('The event post statuses (CSV)'),
  geoloc: arg.boolean({ description: 'Events whose venue has coordinates' }),
  geoloc_lat: coordinateArg('Latitude of the centre of a geographic search (with geoloc_lng)', 90),
  geoloc_lng: coordinateArg('Longitude of the centre of a geographic search (with geoloc_lat)', 180),
  geoloc_radius: refine(arg.number({ description: 'Radius of the geographic search in km (default 25)' }), (value) =>
    value > 0 ? ok(value) : fail('invalid_parameter'),
  ),
  include: arg.idList({ description: 'Only these event ids, in this order; date filters are ignored' }),
  post_parent: arg.positiveInt({ description: 'Events whose parent is this event' }),
  ticketed: ticketedArg,
  expand: withDefault(
    arg.boolean({
      description:
        'true: occurrences of recurring series are listed one by one (never the series); false: each series once, at its first matching occurrence',
    }),
    () => true,
    true,
  ),
  password: arg.string({ description: 'Unlocks the protected fields of events with this password' }),
  modified_after: arg.date({ description: 'Events last modified at or after this instant (no day rounding)' }),
  modified_before: arg.date({ description: 'Events last modified before this instant (no day rounding)' }),
  orderby: arg.lenientChoice(['start', 'modified'], {
    description: 'Order by start (default) or by last modification, then id; other values are ignored',
  }),
  order: arg.lenientChoice(['asc', 'desc'], {
    description: 'Ascending (default) or descending, with a recognised orderby; other values are ignored',
  }),
  context: arg.enumOf(['view', 'edit'] as const, {
    description:
      'edit (editors and administrators): list events hidden from listings too, each with its password and translations',
  }),
};

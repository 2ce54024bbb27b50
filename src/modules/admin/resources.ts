import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../auth/caller.js';
import { callerCan } from '../../auth/caller.js';
import type { Language } from '../../i18n/languages.js';
import { canEditPost } from '../posts/posts.rules.js';
import { at, callApi, listOf, textOf, type Json } from './api.js';
import { toDatetimeLocal, type Field, type Option } from './forms.js';
import { SERIES_ONLY_FIELDS } from '../events/series/series.service.js';

export type ResourceKey = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

export interface EditorScope {
  readonly app: FastifyInstance;
  readonly caller: Caller;
  readonly lang: Language;
}

/** How the editor shows and writes one kind of item; every rule itself is the API's. */
export interface Resource {
  readonly key: ResourceKey;
  readonly singular: string;
  readonly plural: string;
  /** The JSON key of the item's name. */
  readonly nameKey: string;
  /** Form fields stored per language (API.md §15). */
  readonly translatable: readonly string[];
  /** Posts go to the trash; terms are deleted. */
  readonly post: boolean;
  /** The form's fields, for a new item or for `stored` (as read with `context=edit`). */
  fields(scope: EditorScope, stored?: Json): Promise<Field[]>;
  /** Form values of a stored item (`context=edit`). */
  valuesOf(item: Json): Record<string, unknown>;
  /** The API body of a submitted form, from the fields' values. */
  adjust?(body: Record<string, unknown>, form: Readonly<Record<string, unknown>>, creating: boolean): void;
  canCreate(caller: Caller): boolean;
  canEdit(caller: Caller, item: Json): boolean;
  /** Table cells after the name, for the list. */
  columns: readonly { label: string; cell(item: Json): string }[];
}

/** The §4 rule of one post, as the API applies it: the stored author and status. */
const editablePost = (caller: Caller, item: Json) =>
  canEditPost(caller, {
    author_id: Number(item.author),
    status: String(item.status),
    status_before_trash: null,
  });

/** Status choices follow the role (API.md §23.2): contributors may only save drafts and submit for review. */
function statusOptions(caller: Caller): Option[] {
  const statuses = callerCan(caller, 'publish_posts')
    ? ['publish', 'draft', 'pending', 'private']
    : ['draft', 'pending'];
  return statuses.map((status) => ({ value: status, label: status }));
}

async function options(scope: EditorScope, path: string, nameKey: string, listKey: string): Promise<Option[]> {
  const query = path === 'categories' || path === 'tags' ? { per_page: 100, hide_empty: 0 } : { per_page: 50 };
  const answer = await callApi(scope.app, scope.caller, scope.lang, 'GET', path, { query });
  const items = answer.status === 200 ? listOf(answer.json[listKey]) : [];
  return items.map((item) => ({ value: textOf(item.id), label: textOf(item[nameKey]) }));
}

const TIMEZONES: readonly Option[] = [
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC'),
].map((zone) => ({ value: zone, label: zone }));

const ids = (list: unknown): string[] => listOf(list).map((item) => textOf(item.id));

const text = textOf;

/** The stored description as the editor's textarea shows it: the API wraps plain paragraphs in `<p>`. */
const editable = (value: unknown) => text(value).trim();

/** The formatted cost (`$10`), which the API reads back the same way; a free event's as `0`, not its label. */
function costText(item: Json): string {
  const values = at(item, 'cost_details').values;
  const numbers = Array.isArray(values) ? values.map(textOf) : [];
  return numbers.length === 1 && numbers[0] === '0' ? '0' : textOf(item.cost);
}

const SERIES_ONLY = new Set<string>(SERIES_ONLY_FIELDS);

const EVENTS: Resource = {
  key: 'events',
  singular: 'event',
  plural: 'Events',
  nameKey: 'title',
  translatable: ['title', 'description', 'excerpt'],
  post: true,
  async fields(scope, stored) {
    const [venues, organizers, categories, tags] = await Promise.all([
      options(scope, 'venues', 'venue', 'venues'),
      options(scope, 'organizers', 'organizer', 'organizers'),
      options(scope, 'categories', 'name', 'categories'),
      options(scope, 'tags', 'name', 'tags'),
    ]);
    const fields: Field[] = [
      { kind: 'text', name: 'title', label: 'Title', required: true },
      { kind: 'textarea', name: 'description', label: 'Description' },
      { kind: 'textarea', name: 'excerpt', label: 'Excerpt' },
      { kind: 'datetime', name: 'start_date', label: 'Starts', required: true },
      { kind: 'datetime', name: 'end_date', label: 'Ends', required: true },
      { kind: 'checkbox', name: 'all_day', label: 'All day' },
      { kind: 'select', name: 'timezone', label: 'Time zone', options: TIMEZONES },
      {
        kind: 'textarea',
        name: 'recurrence',
        label: 'Repeats',
        hint: 'A recurring series, one line per row: RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10, EXDATE;TZID=Europe/Paris:20270105T190000, RDATE:…. Empty for a single event; on a series, empty keeps its lines.',
      },
      {
        kind: 'select',
        name: 'venue',
        label: 'Venue',
        options: [{ value: '', label: '— none —' }, ...venues],
        lookup: 'venues',
      },
      { kind: 'text', name: 'new_venue', label: 'Or a new venue', hint: 'Name of a venue to create with the event' },
      { kind: 'multiselect', name: 'organizer', label: 'Organizers', options: organizers, lookup: 'organizers' },
      { kind: 'checkboxes', name: 'categories', label: 'Categories', options: categories },
      { kind: 'checkboxes', name: 'tags', label: 'Tags', options: tags },
      { kind: 'text', name: 'cost', label: 'Cost', hint: 'e.g. 10, 5 – 15, Free' },
      { kind: 'url', name: 'website', label: 'Website' },
      { kind: 'url', name: 'image', label: 'Image URL' },
      { kind: 'checkbox', name: 'featured', label: 'Featured' },
      { kind: 'select', name: 'status', label: 'Status', options: statusOptions(scope.caller) },
    ];
    // An occurrence's zone and lines are its series' (API.md §20.3): its form leaves them out.
    return typeof stored?.series_id === 'number' ? fields.filter((field) => !SERIES_ONLY.has(field.name)) : fields;
  },
  valuesOf(item) {
    return {
      title: item.title,
      description: editable(item.description),
      excerpt: editable(item.excerpt),
      start_date: toDatetimeLocal(item.start_date),
      end_date: toDatetimeLocal(item.end_date),
      all_day: item.all_day === true,
      timezone: item.timezone,
      recurrence: Array.isArray(item.recurrence) ? item.recurrence.map(textOf).join('\n') : '',
      venue: textOf(at(item, 'venue').id),
      organizer: ids(item.organizer),
      categories: ids(item.categories),
      tags: ids(item.tags),
      cost: costText(item),
      website: item.website,
      image: textOf(at(item, 'image').url),
      featured: item.featured === true,
      status: item.status,
    };
  },
  adjust(body, form, creating) {
    const created = text(form.new_venue).trim();
    delete body.new_venue;
    if (created !== '') body.venue = { venue: created };
    else if (body.venue === '') {
      if (creating) delete body.venue;
      else body.venue = null;
    }
    if (body.image === '') delete body.image;
    // A series keeps its lines unless new ones are entered.
    if (text(body.recurrence).trim() === '') delete body.recurrence;
  },
  canCreate: (caller) => callerCan(caller, 'create_posts'),
  canEdit: editablePost,
  columns: [
    { label: 'Starts', cell: (item) => text(item.start_date).slice(0, 16) },
    { label: 'Venue', cell: (item) => textOf(at(item, 'venue').venue) },
    { label: 'Status', cell: (item) => text(item.status) },
  ],
};

function linkedResource(key: 'venues' | 'organizers', name: 'venue' | 'organizer', details: Field[]): Resource {
  return {
    key,
    singular: name,
    plural: key === 'venues' ? 'Venues' : 'Organizers',
    nameKey: name,
    translatable: [name, 'description'],
    post: true,
    async fields(scope) {
      return [
        { kind: 'text', name, label: 'Name', required: true },
        { kind: 'textarea', name: 'description', label: 'Description' },
        ...details,
        { kind: 'select', name: 'status', label: 'Status', options: statusOptions(scope.caller) },
      ];
    },
    valuesOf(item) {
      const values: Record<string, unknown> = {
        [name]: item[name],
        description: editable(item.description),
        status: item.status,
      };
      for (const field of details) values[field.name] = item[field.name] ?? '';
      return values;
    },
    canCreate: (caller) => callerCan(caller, 'create_posts'),
    canEdit: editablePost,
    columns: [
      { label: key === 'venues' ? 'City' : 'E-mail', cell: (item) => text(key === 'venues' ? item.city : item.email) },
      { label: 'Status', cell: (item) => text(item.status) },
    ],
  };
}

const VENUES = linkedResource('venues', 'venue', [
  { kind: 'text', name: 'address', label: 'Address' },
  { kind: 'text', name: 'city', label: 'City' },
  { kind: 'text', name: 'stateprovince', label: 'State or province' },
  { kind: 'text', name: 'zip', label: 'Postal code' },
  { kind: 'text', name: 'country', label: 'Country' },
  { kind: 'text', name: 'phone', label: 'Phone' },
  { kind: 'url', name: 'website', label: 'Website' },
]);

const ORGANIZERS = linkedResource('organizers', 'organizer', [
  { kind: 'text', name: 'phone', label: 'Phone' },
  { kind: 'email', name: 'email', label: 'E-mail' },
  { kind: 'url', name: 'website', label: 'Website' },
]);

function termResource(key: 'categories' | 'tags'): Resource {
  const hierarchical = key === 'categories';
  return {
    key,
    singular: hierarchical ? 'category' : 'tag',
    plural: hierarchical ? 'Categories' : 'Tags',
    nameKey: 'name',
    translatable: ['name', 'description'],
    post: false,
    async fields(scope) {
      const fields: Field[] = [
        { kind: 'text', name: 'name', label: 'Name', required: true },
        { kind: 'text', name: 'slug', label: 'Slug' },
        { kind: 'textarea', name: 'description', label: 'Description' },
      ];
      if (hierarchical) {
        const parents = await options(scope, 'categories', 'name', 'categories');
        fields.push({
          kind: 'select',
          name: 'parent',
          label: 'Parent',
          options: [{ value: '0', label: '— none —' }, ...parents],
        });
      }
      return fields;
    },
    valuesOf(item) {
      return {
        name: item.name,
        slug: item.slug,
        description: text(item.description),
        ...(hierarchical ? { parent: textOf(item.parent) || '0' } : {}),
      };
    },
    canCreate: (caller) => callerCan(caller, hierarchical ? 'manage_categories' : 'manage_tags'),
    canEdit: (caller) => callerCan(caller, hierarchical ? 'manage_categories' : 'manage_tags'),
    columns: [
      { label: 'Slug', cell: (item) => text(item.slug) },
      { label: 'Events', cell: (item) => textOf(item.count) || '0' },
    ],
  };
}

export const RESOURCES: Readonly<Record<ResourceKey, Resource>> = {
  events: EVENTS,
  venues: VENUES,
  organizers: ORGANIZERS,
  categories: termResource('categories'),
  tags: termResource('tags'),
};

export function isResourceKey(value: string): value is ResourceKey {
  return Object.hasOwn(RESOURCES, value);
}

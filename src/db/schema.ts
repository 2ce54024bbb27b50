import type { Generated, Kysely, Transaction } from 'kysely';

/** Row shapes of the tables created by the migrations. Instants are Unix seconds (UTC). */
export interface UsersTable {
  id: Generated<number>;
  login: string;
  role: string;
  created_at: number;
}

export interface AppPasswordsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  hash: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface TermsTable {
  id: Generated<number>;
  taxonomy: string;
  name: string;
  /** Lower-cased name: the key of the "same name under the same parent" rule (term_exists). */
  name_key: string;
  slug: string;
  description: Generated<string>;
  parent_id: Generated<number>;
  /** The language the term was created in (its original, API.md §15). */
  lang: string;
  /** Published events linked to the term (API.md §12), maintained on every event write. */
  count: Generated<number>;
  created_at: number;
  /** Moves on every committed change of the term, its count included (migration 0014: ETags). */
  revision: Generated<number>;
  changed_at: number | null;
  /** The term's last change of its own (the `modified_after` filter, API.md §21). */
  modified_at: number | null;
}

export interface TermTranslationsTable {
  term_id: number;
  lang: string;
  name: string | null;
  name_key: string | null;
  slug: string | null;
  description: string | null;
}

export interface PostsTable {
  id: Generated<number>;
  type: string;
  author_id: Generated<number>;
  status: string;
  slug: Generated<string>;
  title: Generated<string>;
  description: Generated<string>;
  excerpt: Generated<string>;
  password: Generated<string>;
  lang: string;
  parent_id: Generated<number>;
  image_id: number | null;
  published_at: number;
  modified_at: number;
  /** The status a trashed post had before (migration 0011); null when not in the trash. */
  status_before_trash: string | null;
  /** Moves on every committed change of the post (migration 0014: ETags and Last-Modified). */
  revision: Generated<number>;
  changed_at: number | null;
}

export interface PostTranslationsTable {
  post_id: number;
  lang: string;
  title: string | null;
  description: string | null;
  excerpt: string | null;
}

export interface EventsTable {
  post_id: number;
  start_utc: number;
  end_utc: number;
  /** Sort and filter keys: the UTC instants, or for all-day events the site-zone instants of their local days. */
  start_key: number;
  end_key: number;
  timezone: string;
  all_day: Generated<number>;
  cost: Generated<string>;
  currency_symbol: Generated<string>;
  currency_code: Generated<string>;
  currency_position: Generated<string>;
  website: string | null;
  show_map: Generated<number>;
  show_map_link: Generated<number>;
  hide_from_listings: Generated<number>;
  sticky: Generated<number>;
  featured: Generated<number>;
  venue_id: number | null;
  /** Copies of the post's status and author, kept in sync by the events service (migration 0004). */
  status: Generated<string>;
  author_id: Generated<number>;
  /** The event's iCalendar UID (migration 0012); null only until the start-up after it was written around the service. */
  ical_uid: string | null;
  /** iCalendar SEQUENCE: bumped by the writes API.md §19.1 names. */
  ical_sequence: Generated<number>;
  /** Creation instant (iCalendar CREATED); null only for events older than migration 0012 without a post. */
  created_at: number | null;
  /** A series' `recurrence` lines as a JSON array (migration 0016); null on other events. */
  recurrence: string | null;
  /** A series: the instant up to which its occurrences exist (the horizon at its last expansion). */
  materialised_until: number | null;
  /** A series: recurrence ids of occurrences deleted for good one by one (JSON array), kept excluded. */
  excluded: string | null;
  /** An occurrence: its series' id and original start (`recurrence_id`, API.md §20.2). */
  series_id: number | null;
  recurrence_id: string | null;
  /** An occurrence: the field groups it overrides (`|title|venue|`), null when it follows its series. */
  overrides: string | null;
  /** The imported file's LAST-MODIFIED (else DTSTAMP) at the event's last import (migration 0013); null if never imported. */
  ical_import_stamp: number | null;
}

export interface VenuesTable {
  post_id: number;
  address: Generated<string>;
  city: Generated<string>;
  country: Generated<string>;
  province: Generated<string>;
  state: Generated<string>;
  zip: Generated<string>;
  phone: Generated<string>;
  website: Generated<string>;
  stateprovince: Generated<string>;
  show_map: Generated<number>;
  show_map_link: Generated<number>;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizersTable {
  post_id: number;
  phone: Generated<string>;
  website: Generated<string>;
  email: Generated<string>;
}

export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: Generated<number>;
}

export interface EventTermsTable {
  event_id: number;
  term_id: number;
  position: Generated<number>;
}

export interface ImagesTable {
  id: Generated<number>;
  url: string;
  extension: Generated<string>;
  width: number | null;
  height: number | null;
  filesize: number | null;
  author_id: Generated<number>;
  created_at: number;
}

export interface SearchDocumentsTable {
  post_id: number;
  body: string;
  /** 1 when the body alone answers a search word (migration 0007). */
  exact: Generated<number>;
}

/** The change feed (API.md §21.1, migration 0014): one row per committed change of an item. */
export interface ChangesTable {
  seq: number;
  item_type: string;
  item_id: number;
  action: string;
  changed_at_ms: number;
  before_status: string | null;
  before_author: number | null;
  after_status: string | null;
  after_author: number | null;
}

export interface SyncStateTable {
  id: number;
  /** The number of the last change committed. */
  position: number;
  /** Changes when the database is restored: change-feed tokens of another epoch are refused. */
  epoch: string;
}

/** Webhook subscriptions (API.md §22, migration 0015). */
export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  /** JSON array of event patterns (`event.created`, `venue.*`, `*`). */
  events: string;
  active: number;
  /** `whsec_…`: the signing key. A secret: never logged, shown once. */
  secret: string;
  created_at: number;
}

/** Webhook deliveries: the outbox and its log (migration 0015). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  msg_id: string;
  type: string;
  body: string;
  status: string;
  /** JSON array of `{at, response_code, duration_ms, error}`. */
  attempts: Generated<string>;
  next_attempt_ms: number | null;
  lease_until_ms: number | null;
  created_ms: number;
  last_attempt_ms: number | null;
  schedule_base: Generated<number>;
}

/** What `import:tec` wrote, per source item (migration 0019). */
export interface ImportRecordsTable {
  source: string;
  kind: string;
  source_id: number;
  /** Null while the item's first write is under way. */
  local_id: number | null;
  fingerprint: string;
  imported_at: number;
}

/** Editor sessions (migration 0018, API.md §23.2). */
export interface EditorSessionsTable {
  token_hash: string;
  app_password_id: number;
  csrf: string;
  created_at: number;
  seen_at: number;
}

export interface Database {
  users: UsersTable;
  app_passwords: AppPasswordsTable;
  settings: SettingsTable;
  terms: TermsTable;
  term_translations: TermTranslationsTable;
  posts: PostsTable;
  post_translations: PostTranslationsTable;
  events: EventsTable;
  venues: VenuesTable;
  organizers: OrganizersTable;
  event_organizers: EventOrganizersTable;
  event_terms: EventTermsTable;
  images: ImagesTable;
  search_documents: SearchDocumentsTable;
  changes: ChangesTable;
  sync_state: SyncStateTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  import_records: ImportRecordsTable;
  editor_sessions: EditorSessionsTable;
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

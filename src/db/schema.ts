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
  description: string;
  parent_id: number;
  /** The language the term was created in (its original, API.md §15). */
  lang: string;
  /** Published events linked to the term (API.md §12), maintained on every event write. */
  count: number;
  created_at: number;
}

export interface TermTranslationsTable {
  term_id: number;
  lang: string;
  name: string | null;
  name_key: string | null;
  description: string | null;
}

export interface PostsTable {
  id: Generated<number>;
  type: string;
  author_id: number;
  status: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  password: string;
  lang: string;
  parent_id: number;
  image_id: number | null;
  published_at: number;
  modified_at: number;
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
  all_day: number;
  cost: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  website: string | null;
  show_map: number;
  show_map_link: number;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  venue_id: number | null;
}

export interface VenuesTable {
  post_id: number;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizersTable {
  post_id: number;
  phone: string;
  website: string;
  email: string;
}

export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: number;
}

export interface EventTermsTable {
  event_id: number;
  term_id: number;
  position: number;
}

export interface ImagesTable {
  id: Generated<number>;
  url: string;
  extension: string;
  width: number | null;
  height: number | null;
  filesize: number | null;
  author_id: number;
  created_at: number;
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
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

import { inspect } from 'node:util';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './connect.js';
import * as initial from './migrations/0001_initial.js';
import * as distance from './migrations/0002_distance_function.js';
import * as termSlugs from './migrations/0003_translated_term_slugs.js';
import * as listing from './migrations/0004_event_listing_columns.js';
import * as cacheState from './migrations/0005_cache_state.js';
import * as search from './migrations/0006_search_documents.js';
import * as exactSearch from './migrations/0007_exact_search_documents.js';
import * as inexactIndex from './migrations/0008_inexact_search_documents_index.js';
import * as credentialChanges from './migrations/0009_credential_changes_bump_version.js';
import * as searchMerges from './migrations/0010_search_index_merges_by_sixteen.js';
import * as statusBeforeTrash from './migrations/0011_status_before_trash.js';
import * as icalIdentity from './migrations/0012_event_ical_identity.js';
import * as importStamp from './migrations/0013_event_import_stamp.js';
import * as changeFeed from './migrations/0014_change_feed.js';
import * as webhooks from './migrations/0015_webhooks.js';
import * as recurringEvents from './migrations/0016_recurring_events.js';
import * as editorSessions from './migrations/0018_editor_sessions.js';
import * as importRecords from './migrations/0019_import_records.js';
import * as feedIndexes from './migrations/0020_feed_indexes.js';
import * as seriesIndex from './migrations/0021_series_index.js';
import * as listingWithSeries from './migrations/0022_listing_indexes_with_series.js';
import * as eventDuration from './migrations/0023_event_duration_index.js';
import * as listingStatistics from './migrations/0024_listing_index_statistics.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Numbered, dialect-neutral migration steps, applied in order (DESIGN rule 8). */
const STEPS: Record<string, DialectMigration> = {
  '0001_initial': initial,
  '0002_distance_function': distance,
  '0003_translated_term_slugs': termSlugs,
  '0004_event_listing_columns': listing,
  '0005_cache_state': cacheState,
  '0006_search_documents': search,
  '0007_exact_search_documents': exactSearch,
  '0008_inexact_search_documents_index': inexactIndex,
  '0009_credential_changes_bump_version': credentialChanges,
  '0010_search_index_merges_by_sixteen': searchMerges,
  '0011_status_before_trash': statusBeforeTrash,
  '0012_event_ical_identity': icalIdentity,
  '0013_event_import_stamp': importStamp,
  '0014_change_feed': changeFeed,
  '0015_webhooks': webhooks,
  '0016_recurring_events': recurringEvents,
  '0018_editor_sessions': editorSessions,
  '0019_import_records': importRecords,
  '0020_feed_indexes': feedIndexes,
  '0021_series_index': seriesIndex,
  '0022_listing_indexes_with_series': listingWithSeries,
  '0023_event_duration_index': eventDuration,
  '0024_listing_index_statistics': listingStatistics,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const [name, step] of Object.entries(STEPS)) {
      migrations[name] = { up: (db) => step.up(db, this.dialect) };
    }
    return migrations;
  }
}

/** Brings the schema up to date; returns the names of the steps it applied. */
export async function migrateToLatest<DB>(db: Kysely<DB>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(typeof error === 'string' ? error : inspect(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

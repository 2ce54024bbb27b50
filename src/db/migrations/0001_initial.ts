import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

type AnyDb = Kysely<unknown>;

/** The auto-increment primary key, spelled per dialect. */
function idColumn(dialect: Dialect) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity();
}

const idType = (dialect: Dialect) => (dialect === 'sqlite' ? 'integer' : 'bigint');

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);
  const notNullEmpty = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo('');
  const flag = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(0);

  await db.schema
    .createTable('users')
    .addColumn('id', idType(dialect), id)
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_passwords')
    .addColumn('id', idType(dialect), id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('terms')
    .addColumn('id', idType(dialect), id)
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text', notNullEmpty)
    .addColumn('parent_id', 'bigint', flag)
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', flag)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The database, not the service, guarantees uniqueness under concurrent writers.
  await db.schema.createIndex('terms_slug').unique().on('terms').columns(['taxonomy', 'slug']).execute();
  await db.schema
    .createIndex('terms_name')
    .unique()
    .on('terms')
    .columns(['taxonomy', 'parent_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('term_translations')
    .addColumn('term_id', 'bigint', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('name_key', 'text')
    .addColumn('description', 'text')
    .addPrimaryKeyConstraint('term_translations_pk', ['term_id', 'lang'])
    .execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', idType(dialect), id)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('author_id', 'bigint', flag)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', notNullEmpty)
    .addColumn('title', 'text', notNullEmpty)
    .addColumn('description', 'text', notNullEmpty)
    .addColumn('excerpt', 'text', notNullEmpty)
    .addColumn('password', 'text', notNullEmpty)
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'bigint', flag)
    .addColumn('image_id', 'bigint')
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('posts_slug')
    .unique()
    .on('posts')
    .columns(['type', 'slug'])
    .where(sql.ref('slug'), '<>', '')
    .execute();
  await db.schema.createIndex('posts_type_status').on('posts').columns(['type', 'status', 'published_at']).execute();

  await db.schema
    .createTable('post_translations')
    .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('excerpt', 'text')
    .addPrimaryKeyConstraint('post_translations_pk', ['post_id', 'lang'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('start_utc', 'bigint', (c) => c.notNull())
    .addColumn('end_utc', 'bigint', (c) => c.notNull())
    .addColumn('start_key', 'bigint', (c) => c.notNull())
    .addColumn('end_key', 'bigint', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('all_day', 'smallint', flag)
    .addColumn('cost', 'text', notNullEmpty)
    .addColumn('currency_symbol', 'text', notNullEmpty)
    .addColumn('currency_code', 'text', notNullEmpty)
    .addColumn('currency_position', 'text', notNullEmpty)
    .addColumn('website', 'text')
    .addColumn('show_map', 'smallint', flag)
    .addColumn('show_map_link', 'smallint', flag)
    .addColumn('hide_from_listings', 'smallint', flag)
    .addColumn('sticky', 'smallint', flag)
    .addColumn('featured', 'smallint', flag)
    .addColumn('venue_id', 'bigint')
    .execute();
  await db.schema.createIndex('events_start').on('events').columns(['start_key', 'post_id']).execute();
  await db.schema.createIndex('events_end').on('events').column('end_key').execute();
  await db.schema.createIndex('events_venue').on('events').column('venue_id').execute();

  await db.schema
    .createTable('venues')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('address', 'text', notNullEmpty)
    .addColumn('city', 'text', notNullEmpty)
    .addColumn('country', 'text', notNullEmpty)
    .addColumn('province', 'text', notNullEmpty)
    .addColumn('state', 'text', notNullEmpty)
    .addColumn('zip', 'text', notNullEmpty)
    .addColumn('phone', 'text', notNullEmpty)
    .addColumn('website', 'text', notNullEmpty)
    .addColumn('stateprovince', 'text', notNullEmpty)
    .addColumn('show_map', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('show_map_link', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('geo_lat', 'double precision')
    .addColumn('geo_lng', 'double precision')
    .execute();

  await db.schema
    .createTable('organizers')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('phone', 'text', notNullEmpty)
    .addColumn('website', 'text', notNullEmpty)
    .addColumn('email', 'text', notNullEmpty)
    .execute();

  await db.schema
    .createTable('event_organizers')
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('organizer_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'integer', flag)
    .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
    .execute();
  await db.schema
    .createIndex('event_organizers_organizer')
    .on('event_organizers')
    .columns(['organizer_id', 'event_id'])
    .execute();

  await db.schema
    .createTable('event_terms')
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('term_id', 'bigint', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('position', 'integer', flag)
    .addPrimaryKeyConstraint('event_terms_pk', ['event_id', 'term_id'])
    .execute();
  await db.schema.createIndex('event_terms_term').on('event_terms').columns(['term_id', 'event_id']).execute();

  await db.schema
    .createTable('images')
    .addColumn('id', idType(dialect), id)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('extension', 'text', notNullEmpty)
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('filesize', 'bigint')
    .addColumn('author_id', 'bigint', flag)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('images_url').on('images').column('url').execute();
}

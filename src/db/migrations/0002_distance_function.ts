import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * `calendar_distance_km(lat1, lng1, lat2, lng2)`: great-circle distance (haversine, Earth radius
 * 6371 km) for the `geoloc_*` filters. PostgreSQL gets it as an SQL function; SQLite registers the
 * same function on every connection (db/connect.ts), so queries are identical on both.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    CREATE OR REPLACE FUNCTION calendar_distance_km(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
    RETURNS double precision LANGUAGE sql IMMUTABLE STRICT AS $$
      SELECT 2 * 6371 * asin(sqrt(
        power(sin(radians(lat2 - lat1) / 2), 2) +
        cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2)
      ))
    $$`.execute(db);
}

import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** One item a representation is made from: the item itself, or something it embeds. */
export interface SourceRow {
  /** `self`, `venue`, `organizer` or `term`. */
  role: string;
  id: number;
  revision: number;
  /** Unix seconds of its last change. */
  changed_at: number;
  status: string;
  author_id: number;
  position: number;
}

const postColumns = sql`p.id, p.revision, COALESCE(p.changed_at, p.modified_at) AS changed_at, p.status, p.author_id`;
const termColumns = sql`t.id, t.revision, COALESCE(t.changed_at, t.created_at) AS changed_at, 'publish' AS status, 0 AS author_id`;

/**
 * An event and what it embeds (venue, organizers, terms), with their revisions, and an occurrence's
 * series (its slug and its other occurrences make the occurrence's URL); empty when it does not exist.
 */
export async function eventSources(db: Executor, id: number): Promise<SourceRow[]> {
  const { rows } = await sql<SourceRow>`
    SELECT 'self' AS role, ${postColumns}, 0 AS position FROM posts p WHERE p.id = ${id}
    UNION ALL SELECT 'series' AS role, ${postColumns}, 0 AS position
      FROM events e JOIN posts p ON p.id = e.series_id WHERE e.post_id = ${id}
    UNION ALL SELECT 'venue' AS role, ${postColumns}, 0 AS position
      FROM events e JOIN posts p ON p.id = e.venue_id WHERE e.post_id = ${id}
    UNION ALL SELECT 'organizer' AS role, ${postColumns}, eo.position
      FROM event_organizers eo JOIN posts p ON p.id = eo.organizer_id WHERE eo.event_id = ${id}
    UNION ALL SELECT 'term' AS role, ${termColumns}, et.position
      FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ${id}`.execute(db);
  return rows.map(numeric);
}

/** A venue or organizer: its own revision (it embeds nothing). */
export async function postSource(db: Executor, id: number): Promise<SourceRow | undefined> {
  const { rows } =
    await sql<SourceRow>`SELECT 'self' AS role, ${postColumns}, 0 AS position FROM posts p WHERE p.id = ${id}`.execute(
      db,
    );
  return rows.map(numeric)[0];
}

/** A term: its own revision (moved by its count and by its ancestors' changes too). */
export async function termSource(db: Executor, id: number): Promise<SourceRow | undefined> {
  const { rows } =
    await sql<SourceRow>`SELECT 'self' AS role, ${termColumns}, 0 AS position FROM terms t WHERE t.id = ${id}`.execute(
      db,
    );
  return rows.map(numeric)[0];
}

/** PostgreSQL returns bigint columns of a raw query as numbers (db/connect.ts) but counts and literals vary. */
function numeric(row: SourceRow): SourceRow {
  return {
    ...row,
    id: Number(row.id),
    revision: Number(row.revision),
    changed_at: Number(row.changed_at),
    author_id: Number(row.author_id),
    position: Number(row.position),
  };
}

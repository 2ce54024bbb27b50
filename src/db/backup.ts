import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { randomUUID } from 'node:crypto';

/** What `backup` says on PostgreSQL, which it leaves to PostgreSQL's own tool (API.md §25.5). */
export function postgresBackupAdvice(file: string): string {
  return (
    'backup copies SQLite databases only. On PostgreSQL, take a consistent dump with pg_dump ' +
    `(not run here): pg_dump --format=custom "$DATABASE_URL" -f ${JSON.stringify(file)}`
  );
}

/**
 * Copies a SQLite database with SQLite's online backup while servers keep writing to it (API.md
 * §25.5). After a first step of 100 pages, each step copies every remaining page: a step reads one
 * snapshot (WAL lets writers go on meanwhile), and a write between two steps makes SQLite start
 * the copy again, so few large steps finish where many small ones could restart for ever.
 *
 * The copy is written beside `target`, must pass `PRAGMA integrity_check`, and only then replaces
 * `target` (which, without `force`, must not exist): a failed backup never destroys an older one.
 */
export async function backupSqlite(
  source: SQLite.Database,
  target: string,
  force: boolean,
): Promise<{ path: string; bytes: number }> {
  const path = resolve(target);
  if (existsSync(path) && !force) throw new Error(`${path} exists; add --force to overwrite it`);
  const partial = `${path}.partial`;
  const removePartial = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  };
  removePartial();
  try {
    await source.backup(partial, { progress: ({ remainingPages }) => remainingPages });
    const copy = new SQLite(partial);
    try {
      // A restored copy is another history: change-feed tokens issued before must be refused (API.md §25.5).
      copy.prepare('UPDATE sync_state SET epoch = ? WHERE id = 1').run(randomUUID());
      const result: unknown = copy.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new Error(`the copy failed PRAGMA integrity_check: ${String(result)}`);
    } finally {
      // The last connection to close checkpoints the copy's WAL into it and removes -wal and -shm.
      copy.close();
    }
    // A WAL left beside an older file by that name would be read as part of the new copy.
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    renameSync(partial, path);
  } catch (error) {
    removePartial();
    throw error;
  }
  return { path, bytes: statSync(path).size };
}

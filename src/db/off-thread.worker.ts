/**
 * The off-thread reader's worker (off-thread.ts): its own read-only connection to the same SQLite
 * file. Reading never moves `PRAGMA data_version` of the server's connection, so caches stay valid.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type SQLite from 'better-sqlite3';
import type { OffThreadReply, OffThreadRequest, OffThreadSetup } from './off-thread.js';

const port = parentPort;
if (!port) throw new Error('off-thread.worker.ts runs only as a worker thread');
const { path } = workerData as OffThreadSetup;
const db = new Database(path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// A word is read once per data version, its index pages once per read: SQLite's default page
// cache only added to the process's memory (docs/performance-log.md, "Off-thread reads").
db.pragma('cache_size = -2000');
const statements = new Map<string, SQLite.Statement<unknown[], number>>();

function idsOf(request: OffThreadRequest): Int32Array<ArrayBuffer> {
  let statement = statements.get(request.sql);
  if (!statement) {
    statement = db.prepare<unknown[], number>(request.sql).pluck();
    statements.set(request.sql, statement);
  }
  return Int32Array.from(statement.all(...request.parameters));
}

port.on('message', (request: OffThreadRequest) => {
  try {
    const ids = idsOf(request);
    port.postMessage({ id: request.id, ids } satisfies OffThreadReply, [ids.buffer]);
  } catch (error) {
    port.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies OffThreadReply);
  }
});

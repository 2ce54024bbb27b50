import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker: its own read-only connection to the same SQLite file. Plain CommonJS evaluated as
 * is, so that neither the TypeScript loader nor the production bundle needs a second entry point.
 * Reading never moves `PRAGMA data_version` of the server's connection, so caches stay valid.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// A word is read once per data version, its index pages once per read: SQLite's default 16 MB
// page cache only added to the process's memory (bench at a million events, scenarios filtered,
// single, update and mixed: peak RSS 394 / 395 / 399 → 383 / 388 MB).
db.pragma('cache_size = -2000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql).pluck();
      statements.set(sql, statement);
    }
    const ids = Int32Array.from(statement.all(...parameters));
    parentPort.postMessage({ id, ids }, [ids.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
`;

const MAX_CRASHES = 3;

interface Pending {
  resolve: (ids: Int32Array) => void;
  reject: (error: Error) => void;
}

/**
 * Runs long read-only SQLite queries of one integer column on a worker thread. better-sqlite3
 * runs queries on the calling thread: a common search word at a million events matches for
 * ~100 ms (FTS5 trigram phrase), during which the server would answer nothing.
 */
export class OffThreadReader {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private crashes = 0;
  private closed = false;

  constructor(private readonly path: string) {}

  /** False once workers have died a few times (they could not start, say): callers read on their own connection. */
  get available(): boolean {
    return !this.closed && this.crashes < MAX_CRASHES;
  }

  ids(sql: string, parameters: readonly unknown[]): Promise<Int32Array> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.path, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
    worker.unref();
    worker.on('message', ({ id, ids, error }: { id: number; ids?: Int32Array; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined || !ids) waiting?.reject(new Error(`off-thread read failed: ${error}`));
      else waiting?.resolve(ids);
    });
    // A worker that dies fails what it was asked; the next read starts a new one.
    const failAll = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (!this.closed) this.crashes += 1;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`off-thread reader exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

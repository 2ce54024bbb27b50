import { Worker } from 'node:worker_threads';

/** What the server asks of the worker (off-thread.worker.ts), and what it answers. */
export interface OffThreadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}
export type OffThreadReply = { id: number; ids: Int32Array } | { id: number; error: string };
export interface OffThreadSetup {
  path: string;
}

/**
 * The worker module beside this one: TypeScript under the TypeScript loader (tests, `npm start`),
 * JavaScript in a production build, which builds it as an entry point of its own.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './off-thread.worker.ts' : './off-thread.worker.mjs', import.meta.url);

/**
 * The worker as Node starts it: from source, a line that registers the TypeScript loader in the
 * worker first (on Node 20 a worker does not get the loader of `--import tsx`: tsx issue #354).
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  if (!FROM_SOURCE) return { entry: WORKER_URL, eval: false };
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return { entry, eval: true };
}

const MAX_CRASHES = 3;

interface Pending {
  resolve: (ids: Int32Array) => void;
  reject: (error: Error) => void;
}

/**
 * Runs long read-only SQLite queries of one integer column on a worker thread. better-sqlite3
 * runs queries on the calling thread: a common search word at a million events matches for
 * long enough (FTS5 trigram phrase; docs/performance-log.md) that the server would answer nothing meanwhile.
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
      const request: OffThreadRequest = { id, sql, parameters };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const setup: OffThreadSetup = { path: this.path };
    const { entry, eval: isSource } = workerEntry();
    const worker = new Worker(entry, { eval: isSource, workerData: setup });
    worker.unref();
    worker.on('message', (reply: OffThreadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('ids' in reply) waiting?.resolve(reply.ids);
      else waiting?.reject(new Error(`off-thread read failed: ${reply.error}`));
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

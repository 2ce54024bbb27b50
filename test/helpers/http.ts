import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Dialect } from '../../src/db/connect.js';
import { DEFAULT_NOW } from './app.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent: fetch() would decompress them. */
  body: Buffer;
}

/** Listens on a free port of 127.0.0.1, through the app's own server (and the response cache's front). */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A GET over a real connection, its body left as sent. */
export function rawGet(origin: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The real app on a fresh database of `dialect`, listening, for the enclosing describe block: the
 * response cache's front answers hits only on a real connection (app.inject goes around it).
 */
export function useListeningApp(
  dialect: Dialect,
  env: Record<string, string> = {},
): { readonly app: FastifyInstance; readonly origin: string } {
  let database: TestDatabase | undefined;
  let app: FastifyInstance | undefined;
  let origin = '';
  before(async () => {
    database = await createTestDatabase(dialect);
    const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...env });
    app = await buildApp(config, { clock: () => DEFAULT_NOW, logger: false });
    origin = await listen(app);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });
  return {
    get app() {
      if (!app) throw new Error('app not started');
      return app;
    },
    get origin() {
      return origin;
    },
  };
}

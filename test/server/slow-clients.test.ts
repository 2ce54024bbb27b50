import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { startServer, type RunningServer } from '../../bench/server.js';

// API.md §25.3, against a real server process: headers within 10 s, the whole request within 30 s,
// idle keep-alive connections closed after 5 s; trickling clients do not hold up others.

const TRICKLERS = 200;
const open = new Set<Socket>();

/** Opens a connection to `origin` that sends `prefix`, then one more byte of `rest` per second. */
function trickle(origin: string, prefix: string, rest: string): { socket: Socket; closed: Promise<number> } {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  open.add(socket);
  const opened = Date.now();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < rest.length && socket.writable) socket.write(rest[sent++]);
  }, 1_000);
  socket.on('connect', () => socket.write(prefix));
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      open.delete(socket);
      resolve((Date.now() - opened) / 1_000);
    }),
  );
  return { socket, closed };
}

describe('slow clients (real server)', { concurrency: true }, () => {
  let database: TestDatabase;
  let server: RunningServer;

  before(async () => {
    database = await createTestDatabase('sqlite');
    server = await startServer(database.url, { cache: true });
  });
  after(async () => {
    // A server that failed to cut them off must not keep the run waiting.
    for (const socket of open) socket.destroy();
    await server.stop();
    await database.drop();
  });

  it(
    'trickled headers are cut off after ~10 s, and a normal request meanwhile is answered at once',
    { timeout: 40_000 },
    async () => {
      const endless = 'X-Slow: ' + 'a'.repeat(60);
      const tricklers = Array.from({ length: TRICKLERS }, () =>
        trickle(server.origin, 'GET /health HTTP/1.1\r\nHost: x\r\n', endless),
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const res = await fetch(`${server.origin}/calendar/events/v1/events`, { signal: AbortSignal.timeout(1_000) });
      assert.equal(res.status, 200);
      const closedAfter = await Promise.all(tricklers.map((t) => t.closed));
      const latest = Math.max(...closedAfter);
      assert.ok(latest <= 12, `the last trickling connection closed after ${latest.toFixed(1)} s`);
      assert.ok(Math.min(...closedAfter) >= 9, 'no connection is cut before the headers timeout');
    },
  );

  it('a trickled body is cut off after ~30 s', { timeout: 40_000 }, async () => {
    const body = JSON.stringify({ title: 'x'.repeat(200) });
    const slow = trickle(
      server.origin,
      `POST /calendar/events/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    const closedAfter = await slow.closed;
    assert.ok(closedAfter >= 29 && closedAfter <= 32, `closed after ${closedAfter.toFixed(1)} s`);
  });

  it('an idle keep-alive connection is closed after ~5 s', { timeout: 40_000 }, async () => {
    const idle = trickle(server.origin, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', '');
    const closedAfter = await idle.closed;
    assert.ok(closedAfter >= 4.5 && closedAfter <= 7, `closed after ${closedAfter.toFixed(1)} s`);
  });
});

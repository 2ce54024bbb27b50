import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../bench/server.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';
import { Receiver } from '../helpers/receiver.js';

const AUTH = { authorization: `Basic ${Buffer.from('admin:bench-admin-password').toString('base64')}` };
const ENV = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };

async function call(server: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.origin}/calendar/events/v1${path}`, {
    method,
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Waits until `done()` or the deadline; returns whether it was done. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return done();
}

const distinctIds = (receiver: Receiver) => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

for (const dialect of await testDialects()) {
  describe(`webhook durability across processes [${dialect}]`, () => {
    it('a server killed (SIGKILL) right after acknowledging writes delivers every change after a restart, none twice', async () => {
      const database = await createTestDatabase(dialect);
      after(() => database.drop());
      // The receiver's port, kept free while the first server runs: its deliveries cannot be sent.
      const probe = await new Receiver().start();
      const port = Number(new URL(probe.url).port);
      const url = probe.url;
      await probe.stop();
      const first = await startServer(database.url, { cache: true, extraEnv: ENV });
      let second: RunningServer | undefined;
      const receiver = new Receiver();
      try {
        const hook = await call(first, 'POST', '/webhooks', { url });
        assert.equal(hook.status, 201);
        const acknowledged: number[] = [];
        for (let i = 0; i < 12; i++) {
          const res = await call(first, 'POST', '/tags', { name: `Durable ${i}` });
          assert.equal(res.status, 201);
          acknowledged.push(Number(res.json.id));
        }
        first.process.kill('SIGKILL');
        await new Promise((resolve) => first.process.once('exit', resolve));
        await receiver.start(port);
        second = await startServer(database.url, { cache: true, extraEnv: ENV });
        assert.ok(
          await until(() => distinctIds(receiver).size >= 12, 45_000),
          `${distinctIds(receiver).size} of 12 delivered`,
        );
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const ids = receiver.payloads
          .map((p: { data: { id: number } }) => p.data.id)
          .sort((a: number, b: number) => a - b);
        assert.deepEqual(
          ids,
          [...acknowledged].sort((a, b) => a - b),
          'every acknowledged change, each once',
        );
        assert.equal(
          receiver.received.length,
          distinctIds(receiver).size,
          'no message twice to a receiver that answered 2xx',
        );
        const log = await call(second, 'GET', `/webhooks/${Number(hook.json.id)}/deliveries?per_page=50`);
        const statuses = (log.json.deliveries as { status: string }[]).map((d) => d.status);
        assert.deepEqual(new Set(statuses), new Set(['succeeded']));
      } finally {
        if (first.process.exitCode === null && first.process.signalCode === null) first.process.kill('SIGKILL');
        await second?.stop();
        await receiver.stop();
      }
    });

    if (dialect === 'postgres') {
      it('two server processes on one database deliver each change once', async () => {
        const database = await createTestDatabase(dialect);
        after(() => database.drop());
        const receiver = await new Receiver().start();
        const servers = [
          await startServer(database.url, { cache: true, extraEnv: ENV }),
          await startServer(database.url, { cache: true, extraEnv: ENV }),
        ];
        try {
          assert.equal((await call(servers[0], 'POST', '/webhooks', { url: receiver.url })).status, 201);
          const writes = await Promise.all(
            Array.from({ length: 24 }, (_, i) => call(servers[i % 2], 'POST', '/tags', { name: `Shared ${i}` })),
          );
          assert.ok(writes.every((w) => w.status === 201));
          assert.ok(await until(() => distinctIds(receiver).size >= 24, 30_000), `${distinctIds(receiver).size} of 24`);
          // Long enough for a second worker to send anything twice.
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          assert.equal(receiver.received.length, 24);
          assert.equal(distinctIds(receiver).size, 24);
        } finally {
          for (const server of servers) await server.stop();
          await receiver.stop();
        }
      });
    }
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';

const EVENT = { title: 'Hooked concert', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 21:00:00' };
const admin = { as: 'administrator' as const };
const SECONDS = 1000;

async function subscribe(api: TestApi, url: string, body: Record<string, unknown> = {}) {
  const res = await api.post('/webhooks', { url, ...body }, admin);
  assert.equal(res.status, 201, res.text);
  return res.json as { id: number; secret: string };
}

/** Checks a request's signature with the standardwebhooks package: by `verify` when signed now, else by recomputing it. */
function assertSigned(secret: string, received: Receiver['received'][number], signedNow: boolean): void {
  const wh = new Webhook(secret);
  const headers = received.headers as Record<string, string>;
  if (signedNow) {
    assert.deepEqual(wh.verify(received.body, headers), JSON.parse(received.body));
    return;
  }
  const timestamp = new Date(Number(headers['webhook-timestamp']) * 1000);
  assert.equal(headers['webhook-signature'], wh.sign(headers['webhook-id'], timestamp, received.body));
}

const runDue = (api: TestApi) => api.app.calendar.webhookWorker.runDue();

for (const dialect of await testDialects()) {
  describe(`webhooks: subscriptions [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER: 'off' } });

    it('administrators only; the secret is shown once and may not be sent', async () => {
      for (const [as, status] of [
        ['anonymous', 401],
        ['editor', 403],
      ] as const) {
        assert.equal((await t.api.get('/webhooks', { as })).status, status);
        assert.equal((await t.api.post('/webhooks', { url: 'http://127.0.0.1:9/x' }, { as })).status, status);
      }
      const created = await t.api.post('/webhooks', { url: 'http://127.0.0.1:9/x', events: 'event.created' }, admin);
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.json), [
        'id',
        'url',
        'events',
        'active',
        'secret',
        'created',
        'last_delivery',
      ]);
      assert.match(created.json.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(created.json.secret.slice(6), 'base64').length, 32);
      assert.deepEqual(created.json.events, ['event.created']);
      assert.equal(created.json.active, true);
      assert.equal(created.json.last_delivery, null);
      const read = await t.api.get(`/webhooks/${created.json.id}`, admin);
      assert.equal(read.json.secret, undefined);
      assert.ok(!read.text.includes(created.json.secret));
      const list = await t.api.get('/webhooks', admin);
      assert.equal(list.json.total, 1);
      assert.equal(list.headers['x-wp-total'], '1');
      assert.ok(!list.text.includes(created.json.secret));
      const withSecret = await t.api.post('/webhooks', { url: 'http://127.0.0.1:9/x', secret: 'whsec_AAAA' }, admin);
      assert.equal(withSecret.status, 400);
      assert.deepEqual(Object.keys(withSecret.json.data.params), ['secret']);
    });

    it('validates url and events, updates partially, deletes for good', async () => {
      for (const body of [
        {},
        { url: 'ftp://127.0.0.1/x' },
        { url: 'not a url' },
        { url: `http://127.0.0.1/${'x'.repeat(2100)}` },
        { url: 'http://127.0.0.1:9/x', events: [] },
        { url: 'http://127.0.0.1:9/x', events: ['event.moved'] },
        { url: 'http://127.0.0.1:9/x', active: 'maybe' },
      ]) {
        const res = await t.api.post('/webhooks', body, admin);
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      const { id } = await subscribe(t.api, 'http://127.0.0.1:9/a', { events: ['venue.*', 'tag.deleted'] });
      const patched = await t.api.patch(`/webhooks/${id}`, { active: false }, admin);
      assert.equal(patched.status, 200);
      assert.deepEqual(
        [patched.json.active, patched.json.events, patched.json.url],
        [false, ['venue.*', 'tag.deleted'], 'http://127.0.0.1:9/a'],
      );
      const deleted = await t.api.delete(`/webhooks/${id}`, admin);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.json.id, id);
      const gone = await t.api.get(`/webhooks/${id}`, admin);
      assert.equal(gone.status, 404);
      assert.equal(gone.json.code, 'rest_webhook_invalid_id');
      assert.equal((await t.api.get(`/webhooks/${id}/deliveries/1`, admin)).json.code, 'rest_webhook_invalid_id');
    });
  });

  describe(`webhooks: deliveries [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER: 'off' } });
    const receivers: Receiver[] = [];
    const receiver = async () => {
      const r = await new Receiver().start();
      receivers.push(r);
      return r;
    };
    after(async () => {
      for (const r of receivers) await r.stop();
    });
    before(() => {
      // Signed "now": standardwebhooks checks the timestamp against the real clock.
      t.api.now = new Date();
    });

    it('a change is POSTed signed (verified by standardwebhooks) with the thin payload and logged', async () => {
      const r = await receiver();
      const hook = await subscribe(t.api, r.url);
      const event = await t.api.post('/events', EVENT, admin);
      assert.equal(await runDue(t.api), 1);
      assert.equal(r.received.length, 1);
      assertSigned(hook.secret, r.received[0], true);
      const headers = r.received[0].headers;
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(headers['user-agent'], 'calendar-events-service (+http://127.0.0.1:8080)');
      assert.match(String(headers['webhook-id']), /^msg_/);
      assert.deepEqual(JSON.parse(r.received[0].body), {
        type: 'event.created',
        timestamp: new Date(Math.floor(t.api.now.getTime())).toISOString(),
        data: {
          id: event.json.id,
          type: 'event',
          rest_url: `http://127.0.0.1:8080/calendar/events/v1/events/${event.json.id}`,
        },
      });
      const log = await t.api.get(`/webhooks/${hook.id}/deliveries`, admin);
      assert.equal(log.status, 200);
      assert.equal(log.json.total, 1);
      const [delivery] = log.json.deliveries;
      assert.deepEqual(Object.keys(delivery), [
        'id',
        'webhook_id',
        'msg_id',
        'type',
        'status',
        'attempts',
        'next_attempt',
        'created',
      ]);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.msg_id, headers['webhook-id']);
      assert.equal(delivery.attempts.length, 1);
      assert.equal(delivery.attempts[0].response_code, 200);
      assert.equal(delivery.next_attempt, null);
      const one = await t.api.get(`/webhooks/${hook.id}/deliveries/${delivery.id}`, admin);
      assert.deepEqual(one.json, delivery);
      const read = await t.api.get(`/webhooks/${hook.id}`, admin);
      assert.equal(read.json.last_delivery.id, delivery.id);
      assert.equal(read.json.last_delivery.response_code, 200);
      await t.api.delete(`/webhooks/${hook.id}`, admin);
    });

    it('one delivery per change and matching active webhook; none for a denied or failed write', async () => {
      const all = await receiver();
      const venues = await receiver();
      const deletions = await receiver();
      const inactive = await receiver();
      const hooks = [
        await subscribe(t.api, all.url),
        await subscribe(t.api, venues.url, { events: 'venue.*' }),
        await subscribe(t.api, deletions.url, { events: ['event.deleted', 'tag.deleted'] }),
        await subscribe(t.api, inactive.url, { active: false }),
      ];
      const event = await t.api.post('/events', { ...EVENT, venue: { venue: 'Hook Hall' }, tags: ['hooked'] }, admin);
      assert.equal(event.status, 201);
      assert.equal((await t.api.post('/events', EVENT, { as: 'subscriber' })).status, 403);
      const stale = { ...admin, headers: { 'if-match': '"stale"' } };
      assert.equal((await t.api.patch(`/events/${event.json.id}`, { title: 'x' }, stale)).status, 412);
      assert.equal((await t.api.delete(`/events/${event.json.id}`, { ...admin, query: { force: true } })).status, 200);
      await runDue(t.api);
      const types = (r: Receiver) =>
        r.payloads.map((p: { type: string; data: { id: number } }) => `${p.type} ${p.data.id}`).sort();
      assert.deepEqual(types(all), [
        `event.created ${event.json.id}`,
        `event.deleted ${event.json.id}`,
        `tag.created ${event.json.tags[0].id}`,
        `venue.created ${event.json.venue.id}`,
      ]);
      assert.deepEqual(types(venues), [`venue.created ${event.json.venue.id}`]);
      assert.deepEqual(types(deletions), [`event.deleted ${event.json.id}`]);
      assert.deepEqual(types(inactive), []);
      all.received.forEach((received) => assertSigned(hooks[0].secret, received, true));
      const ids = new Set(all.received.map((received) => received.headers['webhook-id']));
      assert.equal(ids.size, 4, 'one message id per change and webhook');
      for (const hook of hooks) await t.api.delete(`/webhooks/${hook.id}`, admin);
    });

    it('ping answers with its delivery and is never retried', async () => {
      const r = await receiver();
      const hook = await subscribe(t.api, r.url);
      const ok = await t.api.post(`/webhooks/${hook.id}/ping`, {}, admin);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.json.type, 'webhook.ping');
      assert.equal(ok.json.status, 'succeeded');
      assert.equal(r.payloads[0].type, 'webhook.ping');
      assertSigned(hook.secret, r.received[0], true);
      r.answers = [{ status: 500 }];
      const failed = await t.api.post(`/webhooks/${hook.id}/ping`, {}, admin);
      assert.equal(failed.json.status, 'failed');
      assert.equal(failed.json.attempts[0].response_code, 500);
      assert.equal(await runDue(t.api), 0);
      assert.equal((await t.api.post('/webhooks/999999/ping', {}, admin)).status, 404);
      await t.api.delete(`/webhooks/${hook.id}`, admin);
    });
  });

  describe(`webhooks: retries on an injected clock [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER: 'off' } });
    const r = new Receiver();
    before(async () => {
      await r.start();
    });
    after(async () => r.stop());

    it('a receiver failing for a while gets the delivery after it recovers, on the backoff schedule, same webhook-id', async () => {
      const start = t.api.now;
      const hook = await subscribe(t.api, r.url);
      r.answers = [
        { status: 500 },
        { status: 503 },
        { status: 302, headers: { location: 'http://127.0.0.1:9/' } },
        { status: 200 },
      ];
      r.received.length = 0;
      await t.api.post('/tags', { name: 'Retried tag' }, admin);
      const at = (ms: number) => {
        t.api.now = new Date(start.getTime() + ms);
      };
      const deliveries = async () => (await t.api.get(`/webhooks/${hook.id}/deliveries`, admin)).json.deliveries;
      assert.equal(await runDue(t.api), 1);
      let [delivery] = await deliveries();
      assert.equal(delivery.status, 'pending');
      const metrics = await t.api.get('/metrics', { raw: true });
      assert.match(metrics.text, /^webhook_deliveries_pending 1$/m);
      const next = (d: { next_attempt: string }) =>
        Date.parse(`${d.next_attempt.replace(' ', 'T')}Z`) - start.getTime();
      // 5 s ± 10 %, at whole seconds.
      assert.ok(next(delivery) >= 4 * SECONDS && next(delivery) <= 6 * SECONDS, delivery.next_attempt);
      at(4 * SECONDS);
      assert.equal(await runDue(t.api), 0, 'not before its time');
      at(6 * SECONDS);
      assert.equal(await runDue(t.api), 1);
      [delivery] = await deliveries();
      assert.ok(next(delivery) >= 6 * SECONDS + 270 * SECONDS && next(delivery) <= 6 * SECONDS + 331 * SECONDS);
      at(6 * SECONDS + 331 * SECONDS);
      assert.equal(await runDue(t.api), 1, 'a redirect is not followed: a failure');
      [delivery] = await deliveries();
      const third = 6 * SECONDS + 331 * SECONDS;
      assert.ok(next(delivery) >= third + 1620 * SECONDS && next(delivery) <= third + 1981 * SECONDS);
      at(third + 1981 * SECONDS);
      assert.equal(await runDue(t.api), 1);
      [delivery] = await deliveries();
      assert.equal(delivery.status, 'succeeded');
      assert.deepEqual(
        delivery.attempts.map((a: { response_code: number }) => a.response_code),
        [500, 503, 302, 200],
      );
      assert.equal(r.received.length, 4);
      assert.equal(new Set(r.received.map((x) => x.headers['webhook-id'])).size, 1);
      assert.equal(new Set(r.received.map((x) => x.body)).size, 1, 'the same bytes every time');
      for (const received of r.received) assertSigned(hook.secret, received, false);
      const stamps = r.received.map((x) => Number(x.headers['webhook-timestamp']));
      assert.deepEqual(
        stamps,
        [...stamps].sort((a, b) => a - b),
        "each attempt's own timestamp",
      );
      t.api.now = start;
      await t.api.delete(`/webhooks/${hook.id}`, admin);
    });

    it('after ten failures over about three days the delivery fails; redeliver restarts the schedule', async () => {
      const start = t.api.now;
      const hook = await subscribe(t.api, r.url);
      r.answers = [{ status: 500 }];
      await t.api.post('/tags', { name: 'Doomed tag' }, admin);
      let elapsed = 0;
      for (let i = 0; i < 10; i++) {
        assert.equal(await runDue(t.api), 1, `attempt ${i + 1}`);
        const [delivery] = (await t.api.get(`/webhooks/${hook.id}/deliveries`, admin)).json.deliveries;
        if (i < 9) {
          assert.equal(delivery.status, 'pending');
          elapsed = Date.parse(`${delivery.next_attempt.replace(' ', 'T')}Z`) - start.getTime() + SECONDS;
          t.api.now = new Date(start.getTime() + elapsed);
        } else assert.equal(delivery.status, 'failed');
      }
      assert.ok(elapsed > 2.5 * 86_400_000 && elapsed < 3.5 * 86_400_000, `${elapsed / 86_400_000} days`);
      const [failed] = (await t.api.get(`/webhooks/${hook.id}/deliveries`, { ...admin, query: { status: 'failed' } }))
        .json.deliveries;
      r.answers = [{ status: 204 }];
      const again = await t.api.post(`/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`, {}, admin);
      assert.equal(again.status, 202);
      assert.equal(again.json.status, 'pending');
      assert.equal(await runDue(t.api), 1);
      const done = (await t.api.get(`/webhooks/${hook.id}/deliveries/${failed.id}`, admin)).json;
      assert.equal(done.status, 'succeeded');
      assert.equal(done.attempts.length, 11);
      assert.equal(
        (await t.api.post(`/webhooks/${hook.id}/deliveries/999999/redeliver`, {}, admin)).json.code,
        'rest_webhook_delivery_invalid_id',
      );
      t.api.now = start;
      await t.api.delete(`/webhooks/${hook.id}`, admin);
    });

    it('a 410 fails the delivery, deactivates the webhook and cancels its pending deliveries', async () => {
      const hook = await subscribe(t.api, r.url);
      r.answers = [{ status: 410 }];
      r.received.length = 0;
      await t.api.post('/tags', { name: 'Gone one' }, admin);
      await t.api.post('/tags', { name: 'Gone two' }, admin);
      await runDue(t.api);
      const read = await t.api.get(`/webhooks/${hook.id}`, admin);
      assert.equal(read.json.active, false);
      const statuses = (await t.api.get(`/webhooks/${hook.id}/deliveries`, admin)).json.deliveries.map(
        (d: { status: string }) => d.status,
      );
      assert.ok(statuses.includes('failed'));
      assert.ok(
        statuses.every((s: string) => s === 'failed' || s === 'cancelled'),
        statuses.join(),
      );
      await t.api.post('/tags', { name: 'Gone three' }, admin);
      assert.equal(await runDue(t.api), 0, 'an inactive webhook gets no new deliveries');
      await t.api.delete(`/webhooks/${hook.id}`, admin);
    });
  });

  describe(`webhooks: private addresses [${dialect}]`, () => {
    const addresses = new Map([
      ['intranet.example', ['10.0.0.5']],
      ['mapped.example', ['::ffff:127.0.0.1']],
      ['public.example', ['93.184.216.34']],
    ]);
    const t = useTestApp(dialect, {
      env: { WEBHOOK_WORKER: 'off' },
      resolveHost: async (host) =>
        (addresses.get(host) ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    });

    it('targets resolving to private, loopback or unknown addresses are refused unless configured', async () => {
      for (const url of [
        'http://intranet.example/hook',
        'http://mapped.example/hook',
        'http://127.0.0.1:8080/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest',
        'http://nowhere.example/hook',
      ]) {
        const res = await t.api.post('/webhooks', { url }, admin);
        assert.equal(res.status, 400, url);
        assert.equal(res.json.data.details.url.code, 'rest_webhook_url_forbidden', url);
      }
      assert.equal((await t.api.post('/webhooks', { url: 'http://intranet.example/' }, { as: 'editor' })).status, 403);
      const ok = await subscribe(t.api, 'http://public.example/hook');
      // The address is checked again at every attempt: now it points inside.
      addresses.set('public.example', ['192.168.1.10']);
      await t.api.post('/tags', { name: 'Rebound' }, admin);
      assert.equal(await runDue(t.api), 1);
      const [delivery] = (await t.api.get(`/webhooks/${ok.id}/deliveries`, admin)).json.deliveries;
      assert.equal(delivery.attempts[0].error, 'address refused');
      assert.equal(delivery.attempts[0].response_code, null);
    });
  });
}

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/errors.js';
import { fetchCalendar, importUrl, isForbiddenAddress } from '../../src/modules/import/ics.fetch.js';

describe('import URL guard (API.md §19.3)', () => {
  it('refuses loopback, private, link-local, unique-local, unspecified, multicast, broadcast and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'not an address',
    ])
      assert.equal(isForbiddenAddress(address), true, address);
  });

  it('allows public addresses', () => {
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '192.169.0.1',
      '93.184.216.34',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      assert.equal(isForbiddenAddress(address), false, address);
  });

  it('reads webcal as https and keeps other schemes for the check', () => {
    assert.equal(importUrl('webcal://cal.example/a.ics')?.href, 'https://cal.example/a.ics');
    assert.equal(importUrl('WEBCAL://cal.example/a.ics')?.protocol, 'https:');
    assert.equal(importUrl('ftp://cal.example/a.ics')?.protocol, 'ftp:');
    assert.equal(importUrl('not a url'), null);
  });

  it('gives up after the time limit with reason timeout', async () => {
    const server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      await assert.rejects(
        fetchCalendar(new URL(`http://127.0.0.1:${port}/slow.ics`), {
          allowPrivate: true,
          resolve: async () => [],
          timeoutMs: 200,
          maxBytes: 1000,
          maxRedirects: 3,
        }),
        (error: unknown) =>
          error instanceof ApiError &&
          error.code === 'rest_import_fetch_failed' &&
          error.options.data?.reason === 'timeout',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardedLookup, isForbiddenAddress } from '../../src/modules/migration/addresses.js';

describe('addresses an import may not reach (API.md §19.3, §24)', () => {
  it('refuses loopback, private, link-local, unique-local, unspecified, multicast and broadcast', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      assert.equal(isForbiddenAddress(address), true, address);
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])
      assert.equal(isForbiddenAddress(address), false, address);
  });

  it('a name resolving to a forbidden address is refused by the lookup the connection uses', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('localhost', {}, (failure) => resolve(failure)),
    );
    assert.match(String(error?.message), /IMPORT_ALLOW_PRIVATE_URLS/);
  });
});

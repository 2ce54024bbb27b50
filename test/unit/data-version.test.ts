import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalesced } from '../../src/cache/data-version.js';

/** A read whose completion the test controls; each call records the value the store had when it started. */
function controlledReads() {
  let store = 0;
  const pending: (() => void)[] = [];
  const read = () =>
    new Promise<string>((resolve) => {
      const seen = String(store);
      pending.push(() => resolve(seen));
    });
  return { read, pending, write: () => (store += 1) };
}

describe('coalesced data-version reads', () => {
  it('callers that ask while a read is under way share the next read, which starts after they asked', async () => {
    const reads = controlledReads();
    const current = coalesced(reads.read);
    const first = current();
    reads.write();
    const second = current();
    const third = current();
    assert.equal(reads.pending.length, 1, 'the later callers wait for the running read to finish');
    reads.pending[0]();
    assert.equal(await first, '0');
    await new Promise((r) => setImmediate(r));
    assert.equal(reads.pending.length, 2, 'one new read for both waiting callers');
    reads.pending[1]();
    assert.equal(await second, '1', 'the write made before asking is seen');
    assert.equal(await third, '1');
  });

  it('a caller with no read under way starts one at once', async () => {
    const reads = controlledReads();
    const current = coalesced(reads.read);
    const value = current();
    assert.equal(reads.pending.length, 1);
    reads.pending[0]();
    assert.equal(await value, '0');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrequencyAdmission } from '../../src/cache/admission.js';
import { VersionedCache } from '../../src/cache/lru.js';

/** Asks for `key` `times` times; returns the count of the last request. */
function ask(admission: FrequencyAdmission, key: string, times: number): number {
  let asked = 0;
  for (let i = 0; i < times; i++) asked = admission.record(key);
  return asked;
}

describe('response cache admission', () => {
  it('keeps a response from the second time it is asked for while there is room', () => {
    const admission = new FrequencyAdmission(100, 1_000);
    const cache = new VersionedCache<string>(2, 1_000, (value) => value.length);
    assert.equal(admission.admits(cache, 'a', 10, 'v1', ask(admission, 'a', 1)), false);
    assert.equal(admission.admits(cache, 'a', 10, 'v1', ask(admission, 'a', 1)), true);
  });

  it('replaces a current entry only with a response asked for more often', () => {
    const admission = new FrequencyAdmission(100, 1_000);
    const cache = new VersionedCache<string>(2, 1_000, (value) => value.length);
    for (const key of ['a', 'b']) {
      ask(admission, key, 3);
      cache.set(key, 'v1', key);
    }
    assert.equal(
      admission.admits(cache, 'c', 1, 'v1', ask(admission, 'c', 2)),
      false,
      'a is asked for more often than c',
    );
    assert.equal(admission.admits(cache, 'c', 1, 'v1', ask(admission, 'c', 1)), false, 'as often: the kept one stays');
    assert.equal(admission.admits(cache, 'c', 1, 'v1', ask(admission, 'c', 1)), true, 'more often');
  });

  it('lets any response asked for twice replace a stale entry, or a stale entry under its own key', () => {
    const admission = new FrequencyAdmission(100, 1_000);
    const cache = new VersionedCache<string>(1, 1_000, (value) => value.length);
    ask(admission, 'a', 5);
    cache.set('a', 'v1', 'a');
    assert.equal(admission.admits(cache, 'b', 1, 'v1', ask(admission, 'b', 2)), false);
    assert.equal(admission.admits(cache, 'b', 1, 'v2', ask(admission, 'b', 1)), true, 'the kept entry is stale at v2');
    assert.equal(admission.admits(cache, 'a', 1, 'v2', ask(admission, 'a', 1)), true, 'its own key');
  });

  it('halves the counts every period, so that what was asked for often long ago gives way', () => {
    const admission = new FrequencyAdmission(100, 10);
    const cache = new VersionedCache<string>(1, 1_000, (value) => value.length);
    ask(admission, 'old', 8);
    cache.set('old', 'v1', 'old');
    ask(admission, 'other', 12); // two periods later: old counts as 8 / 4 = 2
    assert.equal(admission.admits(cache, 'new', 1, 'v1', ask(admission, 'new', 2)), false, 'as often as old now');
    assert.equal(admission.admits(cache, 'new', 1, 'v1', ask(admission, 'new', 1)), true);
  });
});

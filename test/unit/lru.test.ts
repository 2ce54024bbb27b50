import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache, VersionedCache } from '../../src/cache/lru.js';

describe('LruCache', () => {
  it('keeps at most its number of entries, dropping the oldest unread one', () => {
    const cache = new LruCache<string>(3, 1_000);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    cache.get('a');
    cache.set('d', 'd');
    assert.equal(cache.size, 3);
    assert.equal(cache.get('b'), undefined);
    assert.deepEqual(['a', 'c', 'd'].map((key) => cache.get(key)), ['a', 'c', 'd']);
  });

  it('gives a read entry one more round only', () => {
    const cache = new LruCache<string>(2, 1_000);
    cache.set('a', 'a');
    cache.set('b', 'b');
    cache.get('a');
    cache.set('c', 'c'); // b goes; a moves behind c, unmarked
    cache.set('d', 'd'); // c goes
    assert.deepEqual([cache.get('b'), cache.get('c')], [undefined, undefined]);
    cache.set('e', 'e'); // a has not been read since its second chance: it goes
    assert.equal(cache.get('a'), undefined);
    assert.deepEqual([cache.get('d'), cache.get('e')], ['d', 'e']);
  });

  it('bounds the total size of its values and refuses a value larger than all of it', () => {
    const cache = new LruCache<string>(100, 10, (value) => value.length);
    cache.set('a', '12345');
    cache.set('b', '12345');
    cache.set('c', '123');
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('b'), '12345');
    cache.set('huge', '12345678901');
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.get('c'), '123');
  });

  it('replaces a value under the same key and counts its new size', () => {
    const cache = new LruCache<string>(100, 10, (value) => value.length);
    cache.set('a', '1234567890');
    cache.set('a', '1');
    cache.set('b', '123456789');
    assert.equal(cache.get('a'), '1');
    assert.equal(cache.get('b'), '123456789');
  });
});

describe('VersionedCache', () => {
  it('answers only for the version a value was stored under', () => {
    const cache = new VersionedCache<number>(10, 10);
    cache.set('k', 'v1', 1);
    assert.equal(cache.get('k', 'v1'), 1);
    assert.equal(cache.get('k', 'v2'), undefined);
  });
});

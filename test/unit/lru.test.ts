import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache, VersionedCache } from '../../src/cache/lru.js';

describe('LruCache', () => {
  it('keeps at most its number of entries, dropping the least recently used one', () => {
    const cache = new LruCache<string>(3, 1_000);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    cache.get('a');
    cache.set('d', 'd');
    assert.equal(cache.size, 3);
    assert.equal(cache.get('b'), undefined);
    assert.deepEqual(
      ['a', 'c', 'd'].map((key) => cache.get(key)),
      ['a', 'c', 'd'],
    );
  });

  it('counts a read as a use, and drops entries in the order of their last use', () => {
    const cache = new LruCache<string>(2, 1_000);
    cache.set('a', 'a');
    cache.set('b', 'b');
    cache.get('a');
    cache.set('c', 'c'); // b was used last before a
    assert.equal(cache.get('b'), undefined);
    cache.set('d', 'd'); // a was used before c
    assert.equal(cache.get('a'), undefined);
    assert.deepEqual([cache.get('c'), cache.get('d')], ['c', 'd']);
  });

  it('stays within its bounds through many more insertions than it holds', () => {
    const cache = new LruCache<string>(1_000, 5_000, (value) => value.length);
    for (let i = 0; i < 100_000; i++) cache.set(`k${i}`, 'x'.repeat(1 + (i % 9)));
    assert.ok(cache.size <= 1_000);
    const kept = Array.from({ length: 100_000 }, (_, i) => cache.get(`k${i}`)).filter((value) => value !== undefined);
    assert.equal(kept.length, cache.size);
    assert.ok(kept.reduce((sum, value) => sum + value.length, 0) <= 5_000);
    assert.equal(cache.get('k99999'), 'x'.repeat(1 + (99_999 % 9)));
  });

  it('names the entry an insertion would evict first, by count or by size, without counting a use', () => {
    const cache = new LruCache<string>(2, 10, (value) => value.length);
    cache.set('a', '1234');
    assert.equal(cache.evictedBy(4), undefined, 'room for it');
    cache.set('b', '12');
    assert.equal(cache.evictedBy(1), 'a', 'two entries: full by count');
    assert.equal(cache.peek('a'), '1234');
    assert.equal(cache.evictedBy(1), 'a', 'peeking is not a use');
    cache.get('a');
    assert.equal(cache.evictedBy(1), 'b');
    const bySize = new LruCache<string>(10, 10, (value) => value.length);
    bySize.set('a', '12345678');
    assert.equal(bySize.evictedBy(2), undefined);
    assert.equal(bySize.evictedBy(3), 'a', 'full by size');
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
    cache.set('c', '12345678901');
    assert.equal(cache.get('c'), undefined);
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

  it('answers for an older version its check accepts, then for the new version without asking again', () => {
    const cache = new VersionedCache<number>(10, 10);
    cache.set('k', 'v1', 1);
    const asked: string[] = [];
    assert.equal(
      cache.get('k', 'v2', (storedUnder) => (asked.push(storedUnder), false)),
      undefined,
    );
    assert.equal(
      cache.get('k', 'v2', (storedUnder) => (asked.push(storedUnder), true)),
      1,
    );
    assert.equal(
      cache.get('k', 'v2', () => false),
      1,
    );
    assert.equal(cache.get('k', 'v3'), undefined);
    assert.deepEqual(asked, ['v1', 'v1']);
  });

  it('computes a missing value once for concurrent callers of one key and version, and keeps it', async () => {
    const cache = new VersionedCache<number>(10, 10);
    let runs = 0;
    const compute = async () => {
      const run = ++runs;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return run;
    };
    assert.deepEqual(
      await Promise.all([
        cache.computed('k', 'v1', compute),
        cache.computed('k', 'v1', compute),
        cache.computed('k', 'v1', compute),
      ]),
      [1, 1, 1],
    );
    assert.equal(await cache.computed('k', 'v1', compute), 1);
    assert.deepEqual(
      await Promise.all([cache.computed('k', 'v2', compute), cache.computed('other', 'v2', compute)]),
      [2, 3],
    );
    assert.equal(runs, 3);
  });

  it('shares a failed computation with the callers waiting for it, and computes again afterwards', async () => {
    const cache = new VersionedCache<number>(10, 10);
    let runs = 0;
    const failing = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('database gone');
    };
    const results = await Promise.allSettled([cache.computed('k', 'v1', failing), cache.computed('k', 'v1', failing)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(runs, 1);
    assert.equal(await cache.computed('k', 'v1', async () => 7), 7);
  });
});

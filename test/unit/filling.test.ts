import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Filling } from '../../src/modules/events/search/candidates.js';

describe('typed arrays filled to a count read before (snapshot builds)', () => {
  it('keeps the array made for the count when exactly that many values come', () => {
    const made = new Int32Array(3);
    const filling = new Filling(made);
    for (const value of [7, 8, 9]) filling.push(value);
    assert.equal(filling.filled(), made);
    assert.deepEqual([...made], [7, 8, 9]);
  });

  it('grows, keeping every value in order, when more values come than were counted', () => {
    const filling = new Filling(new Float64Array(2));
    const values = Array.from({ length: 3000 }, (_, i) => i * 1.5);
    for (const value of values) filling.push(value);
    const filled = filling.filled();
    assert.ok(filled instanceof Float64Array);
    assert.deepEqual([...filled], values);
  });

  it('is cut to the values given when fewer came', () => {
    const filling = new Filling(new Int32Array(5));
    filling.push(1);
    filling.push(2);
    assert.deepEqual([...filling.filled()], [1, 2]);
    assert.equal(new Filling(new Int32Array(4)).filled().length, 0);
  });

  it('widens 16-bit integers to 32 bits, keeping the values so far and the capacity', () => {
    const narrow = new Filling(new Uint16Array(3));
    narrow.push(65_535);
    const wide = narrow.widened();
    wide.push(70_000);
    wide.push(3);
    const filled = wide.filled();
    assert.ok(filled instanceof Int32Array);
    assert.deepEqual([...filled], [65_535, 70_000, 3]);
    const float = new Filling(new Float64Array(1));
    assert.equal(float.widened(), float, 'wide enough already');
  });
});

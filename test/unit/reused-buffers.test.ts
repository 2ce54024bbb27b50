import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { concatForResponse } from '../../src/http/reused-buffers.js';

const response = () => new EventEmitter() as unknown as ServerResponse;
const filled = (byte: number, size = 40_000) => Buffer.alloc(size, byte);

describe('concatForResponse', () => {
  it('concatenates the chunks in order', () => {
    const body = concatForResponse([filled(1, 10_000), filled(2, 20_000), Buffer.from('end')], response());
    assert.equal(body.length, 30_003);
    assert.deepEqual([body[0], body[9_999], body[10_000], body[29_999]], [1, 1, 2, 2]);
    assert.equal(body.subarray(30_000).toString(), 'end');
  });

  it('never hands out a buffer whose response has not finished, and reuses it once it has', () => {
    const first = response();
    const a = concatForResponse([filled(1)], first);
    const b = concatForResponse([filled(2)], response());
    assert.ok(
      a.every((byte) => byte === 1),
      'the first body is untouched by the second',
    );
    assert.notEqual(a.buffer, b.buffer);
    first.emit('finish');
    const c = concatForResponse([filled(3)], response());
    assert.equal(c.buffer, a.buffer, 'the finished response’s buffer serves the next body');
  });

  it('allocates small bodies afresh', () => {
    const first = response();
    const small = concatForResponse([filled(1, 100)], first);
    first.emit('finish');
    const next = concatForResponse([filled(2, 100)], response());
    assert.ok(next.buffer !== small.buffer || next.byteOffset !== small.byteOffset);
    assert.ok(small.every((byte) => byte === 1));
  });
});

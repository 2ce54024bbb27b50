import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etagOfItems } from '../../src/plugins/etags.js';

const b = (text: string) => Buffer.from(text);
const HEAD = b('{"events":[');
const TAIL = b('],"total":2}');

describe('list ETags from item digests', () => {
  it('depend on the bytes only, not on how an item is split into parts', () => {
    const whole = etagOfItems(HEAD, [[b('{"id":1}')], [b('{"id":2}')]], TAIL);
    const split = etagOfItems(
      HEAD,
      [
        [b('{"id"'), b(':1}')],
        [b('{"id":'), b('2'), b('}')],
      ],
      TAIL,
    );
    assert.equal(split, whole);
    assert.match(whole, /^"[A-Za-z0-9_-]{27}"$/);
  });

  it('differ when any item, the order, the head or the tail differs', () => {
    const one = [b('{"id":1}')];
    const two = [b('{"id":2}')];
    const tags = [
      etagOfItems(HEAD, [one, two], TAIL),
      etagOfItems(HEAD, [two, one], TAIL),
      etagOfItems(HEAD, [one, [b('{"id":3}')]], TAIL),
      etagOfItems(HEAD, [one], TAIL),
      etagOfItems(b('{"venues":['), [one, two], TAIL),
      etagOfItems(HEAD, [one, two], b('],"total":3}')),
      // The same bytes moved from an item to the head: another body.
      etagOfItems(b('{"events":[{"id":1}'), [two], TAIL),
    ];
    assert.equal(new Set(tags).size, tags.length);
  });
});

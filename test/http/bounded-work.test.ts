import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { before, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { createEventId, createOrganizerId, createVenueId } from '../helpers/factories.js';

// API.md §25.3: `search` is at most 200 characters and 20 words on every list, and no search blocks
// the event loop for more than 100 ms (measured inside the process that serves, as a concurrent
// /health would feel it).

const LISTS = ['/events', '/venues', '/organizers', '/categories', '/tags'];
const WORDS = ['harbour', 'concert', 'gallery', 'theatre', 'festival', 'market', 'lecture', 'dance', 'opera', 'cinema'];

/** A search of exactly 20 words and at most 200 characters, each word a near miss of stored text. */
function maximalSearch(): string {
  const words = Array.from({ length: 20 }, (_, i) => `${WORDS[i % WORDS.length]}${i}`);
  const search = words.join(' ');
  assert.ok(search.length <= 200 && search.split(' ').length === 20);
  return search;
}

for (const dialect of await testDialects()) {
  describe(`bounded work per request [${dialect}]`, () => {
    const t = useTestApp(dialect);

    before(async () => {
      for (let i = 0; i < 150; i++) {
        const word = WORDS[i % WORDS.length];
        const venue = await createVenueId(t.api, { venue: `${word} hall ${i}`, address: `${i} ${word} street` });
        const organizer = await createOrganizerId(t.api, { organizer: `${word} society ${i}` });
        await createEventId(t.api, {
          title: `${word} night ${i}`,
          description: `<p>${WORDS.join(' ')} ${i}</p>`,
          venue,
          organizer: [organizer],
        });
      }
    });

    it('a search of more than 200 characters or 20 words is 400 rest_invalid_param on every list', async () => {
      const tooLong = 'a'.repeat(201);
      const tooManyWords = Array.from({ length: 21 }, (_, i) => `w${i}`).join(' ');
      for (const path of LISTS) {
        for (const search of [tooLong, tooManyWords]) {
          const res = await t.api.get(path, { query: { search } });
          assert.equal(res.status, 400, `${path} ${res.text}`);
          assert.equal(res.json.code, 'rest_invalid_param');
          assert.match(res.json.data.params.search, /200.*20/);
        }
        const atLimit = await t.api.get(path, { query: { search: 'b'.repeat(200) } });
        assert.equal(atLimit.status, 200, `${path} ${atLimit.text}`);
      }
    });

    it('a maximal search blocks the event loop for less than 100 ms', async () => {
      const search = maximalSearch();
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      try {
        for (const path of LISTS) {
          for (const who of ['anonymous', 'editor'] as const) {
            const res = await t.api.get(path, { query: { search, per_page: 50 }, as: who });
            assert.equal(res.status, 200, `${path} ${res.text}`);
            // The monitor samples on a timer: let it fire, so that a blocked stretch is recorded.
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      } finally {
        delay.disable();
      }
      const worstMs = delay.max / 1e6;
      assert.ok(worstMs < 100, `the event loop was blocked for ${worstMs.toFixed(1)} ms`);
    });
  });
}

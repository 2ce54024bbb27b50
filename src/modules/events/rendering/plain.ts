import { ownBuffer } from '../../../cache/entries.js';
import type { EventsState } from '../events.state.js';
import { isLocked, readBundles, serializeEvent, type EventRendering } from './rendering.js';

/** Every event presented and serialised afresh on every request: the reference for the fragments. */
export const plainRendering = (state: EventsState): EventRendering => ({
  async render(ctx, ids, options, knownRows = []) {
    const bundles = new Map((await readBundles(state, ctx, ids, knownRows)).map((bundle) => [bundle.row.id, bundle]));
    return ids.flatMap((id) => {
      const bundle = bundles.get(id);
      if (!bundle) return [];
      const blanked = isLocked(ctx, bundle.row, options.password);
      return [[ownBuffer(serializeEvent(state.config, ctx, bundle, { jsonLd: options.jsonLd && !blanked, blanked }))]];
    });
  },
});

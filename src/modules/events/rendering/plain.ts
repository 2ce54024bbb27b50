import { ownBuffer } from '../../../cache/entries.js';
import { bundleValidator } from '../../sync/validators.js';
import type { EventsState } from '../events.state.js';
import { isLocked, readBundles, serializeEvent, type EventRendering } from './rendering.js';

/** Every event presented and serialised afresh on every request: the reference for the fragments. */
export const plainRendering = (state: EventsState): EventRendering => ({
  async render(ctx, ids, password, from) {
    if (from) from.unknown = true;
    const bundles = new Map((await readBundles(state, ctx, ids)).map((bundle) => [bundle.row.id, bundle]));
    return ids.flatMap((id) => {
      const bundle = bundles.get(id);
      if (!bundle) return [];
      const blanked = isLocked(ctx, bundle.row, password);
      return [[ownBuffer(serializeEvent(state.config, ctx, bundle, { jsonLd: false, blanked }))]];
    });
  },
  async single(ctx, id, password, knownRows = [], from) {
    if (from) from.unknown = true;
    const [bundle] = await readBundles(state, ctx, [id], knownRows);
    if (!bundle) return undefined;
    const blanked = isLocked(ctx, bundle.row, password);
    return {
      json: ownBuffer(serializeEvent(state.config, ctx, bundle, { jsonLd: !blanked, blanked })),
      validator: bundleValidator(state.config, ctx.caller, bundle, 'view'),
    };
  },
});

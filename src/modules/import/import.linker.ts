import type { ChangeSet } from '../../changes/change-set.js';
import type { Executor } from '../../db/schema.js';
import type { RequestContext } from '../../http/context.js';
import * as relations from '../events/events.relations.js';
import type { EventsState } from '../events/events.state.js';
import { locationOf } from '../ical/ical.render.js';
import { ORGANIZER_KIND, VENUE_KIND } from '../linked/linked.kind.js';
import { findLinkedMany } from '../linked/linked.repository.js';
import { createLinked, languages } from '../linked/linked.service.js';
import { CATEGORIES } from '../terms/taxonomies.js';
import { findOrCreateTermByName } from '../terms/terms.service.js';
import type { ImportedEvent } from './ics.read.js';
import * as repo from './import.repository.js';

/**
 * Venues, organizers and categories matched or created during one import, each looked up once
 * per value, inside the import's transaction (so two VEVENTs at one new place share one venue).
 */
export class Linker {
  private readonly venues = new Map<string, number>();
  private readonly organizers = new Map<string, number>();
  private readonly categories = new Map<string, number>();

  constructor(
    private readonly state: EventsState,
    private readonly ctx: RequestContext,
    private readonly trx: Executor,
    private readonly changes: ChangeSet,
  ) {}

  /**
   * LOCATION (API.md §19.3): a venue whose exported LOCATION is the value; else one named the
   * whole value or its text before the first comma; else a new one (that text, the rest as address).
   */
  async venue(location: string, geo: ImportedEvent['geo']): Promise<number | undefined> {
    const key = location.toLowerCase();
    const known = this.venues.get(key);
    if (known !== undefined) return known;
    const parts = location.split(',');
    const prefixes = parts.map((_, i) =>
      parts
        .slice(0, i + 1)
        .join(',')
        .trim(),
    );
    const candidates = await repo.postIdsTitled(this.trx, 'venue', [...prefixes].reverse());
    const rows = await findLinkedMany(this.trx, VENUE_KIND, candidates, languages(this.state, this.ctx));
    const exported = candidates.find((id) => {
      const row = rows.get(id);
      return row !== undefined && locationOf(row) === location;
    });
    const named = exported ?? (await repo.postIdsTitled(this.trx, 'venue', [location, prefixes[0]]))[0];
    const id = named ?? (await this.createVenue(prefixes[0], parts.slice(1).join(',').trim(), geo));
    if (id !== undefined) this.venues.set(key, id);
    return id;
  }

  private async createVenue(name: string, address: string, geo: ImportedEvent['geo']): Promise<number | undefined> {
    const input = relations.inlineInput(this.ctx, VENUE_KIND, {
      venue: name,
      ...(address !== '' ? { address } : {}),
      ...(geo ? { geo_lat: geo.lat, geo_lng: geo.lng } : {}),
    });
    if (!input) return undefined;
    const id = await createLinked(this.state.linked, this.ctx, VENUE_KIND, input, this.trx);
    this.changes.add('venue', id);
    return id;
  }

  /** ORGANIZER (API.md §19.3): one with that email, else one named the CN, else a new one. */
  async organizer(organizer: NonNullable<ImportedEvent['organizer']>): Promise<number | undefined> {
    const key = `${organizer.email ?? ''}\n${organizer.name ?? ''}`.toLowerCase();
    const known = this.organizers.get(key);
    if (known !== undefined) return known;
    let id = organizer.email !== null ? await repo.organizerIdByEmail(this.trx, organizer.email) : undefined;
    if (id === undefined && organizer.name !== null)
      id = (await repo.postIdsTitled(this.trx, 'organizer', [organizer.name]))[0];
    if (id === undefined) {
      const input = relations.inlineInput(this.ctx, ORGANIZER_KIND, {
        organizer: organizer.name ?? organizer.email,
        ...(organizer.email !== null ? { email: organizer.email } : {}),
      });
      if (input) {
        id = await createLinked(this.state.linked, this.ctx, ORGANIZER_KIND, input, this.trx);
        this.changes.add('organizer', id);
      }
    }
    if (id !== undefined) this.organizers.set(key, id);
    return id;
  }

  /** CATEGORIES: by name in the request language (case-insensitive), created when missing. */
  async category(name: string): Promise<number> {
    const key = name.toLowerCase();
    let id = this.categories.get(key);
    if (id === undefined) {
      id = await findOrCreateTermByName(this.ctx, this.trx, CATEGORIES, name);
      // Possibly new: term lists and counts must not be served from before it.
      this.changes.add('term', id);
      this.categories.set(key, id);
    }
    return id;
  }
}

import { after, before } from 'node:test';
import type { Dialect } from '../../src/db/connect.js';
import type { ImportOptions } from '../../src/modules/migration/import.js';
import { useTestApp } from '../helpers/app.js';
import { TecStandIn, tecEvent, tecOrganizer, tecTerm, tecVenue, type TecSite } from '../helpers/tec-stand-in.js';

/** The stand-in's application password (any is accepted), as `--auth` takes it. */
export const TEC_AUTH = 'admin:abcd efgh ijkl mnop qrst uvwx';

/**
 * For one suite: a test app (with an administrator unless `administrator: false`) and the TEC
 * stand-in serving `site`, started before the tests and stopped after them.
 */
export function useTecImport(dialect: Dialect, site: TecSite = tecSite(), { administrator = true } = {}) {
  const t = useTestApp(dialect);
  const tec = new TecStandIn(site);
  before(async () => {
    await tec.start();
    if (administrator) await t.api.user('administrator');
  });
  after(() => tec.stop());
  return { t, tec };
}

/** An import of the stand-in site with credentials, private addresses allowed and short retry delays. */
export function importOptions(site: string, extra: Partial<ImportOptions> = {}): ImportOptions {
  return { site, auth: TEC_AUTH, dryRun: false, allowPrivate: true, retryDelaysMs: [5, 5, 5], ...extra };
}

/**
 * A TEC site for the import tests: nested categories listed child first, an entity-encoded title,
 * 120 listed events (three pages of 50), and the cases TEC lists hide or blank: an event hidden
 * from listings, a password-protected one, a draft, and a venue no list shows.
 */
export function tecSite(): TecSite {
  const music = tecTerm('tribe_events_cat', 101, 'Music', 'music');
  const rock = tecTerm('tribe_events_cat', 102, 'Rock &#038; Roll', 'rock-roll', 101);
  const jazz = tecTerm('tribe_events_cat', 103, 'Jazz', 'jazz');
  const outdoor = tecTerm('post_tag', 201, 'outdoor', 'outdoor');
  const indoor = tecTerm('post_tag', 202, 'indoor', 'indoor');
  const hall = tecVenue(301, 'Transcript Hall', 'transcript-hall');
  const club = tecVenue(302, 'Club &amp; Bar', 'club-bar', { geo_lat: undefined, geo_lng: undefined });
  const barn = tecVenue(303, 'Hidden Barn', 'hidden-barn', { status: 'private' });
  const org = tecOrganizer(401, 'Transcript Org', 'transcript-org');
  const friends = tecOrganizer(402, 'Friends of Jazz', 'friends-of-jazz');
  const events = Array.from({ length: 120 }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + Math.floor(i / 28)).padStart(2, '0');
    return tecEvent({
      id: 1001 + i,
      title: i === 0 ? 'Rock &#038; Roll Night' : `Concert ${i + 1}`,
      slug: i === 0 ? 'rock-roll-night' : `concert-${i + 1}`,
      start: `2027-${month}-${day} 18:00:00`,
      end: `2027-${month}-${day} 20:00:00`,
      timezone: i === 0 ? 'Europe/Paris' : 'UTC',
      venue: i % 2 === 0 ? hall : club,
      organizers: i === 0 ? [friends, org] : [org],
      categories: i === 0 ? [rock] : [jazz],
      tags: [outdoor],
      extra:
        i === 0
          ? {
              cost: '€5 – €15',
              cost_details: {
                currency_symbol: '€',
                currency_code: 'EUR',
                currency_position: 'prefix',
                values: ['5', '15'],
              },
              featured: true,
              sticky: true,
              show_map: true,
              image: { url: 'https://example.org/rock.jpg', id: 77, extension: 'jpg' },
            }
          : {},
    });
  });
  events.push(
    tecEvent({
      id: 1121,
      title: 'Secret Rehearsal',
      slug: 'secret-rehearsal',
      start: '2027-06-01 10:00:00',
      end: '2027-06-01 12:00:00',
      venue: hall,
      extra: { hide_from_listings: true },
    }),
    tecEvent({
      id: 1122,
      title: 'Members Only',
      slug: 'members-only',
      start: '2027-06-02 10:00:00',
      end: '2027-06-02 12:00:00',
      extra: { password: 'opensesame' },
    }),
    tecEvent({
      id: 1123,
      title: 'Draft Gig',
      slug: 'draft-gig',
      start: '2027-06-03 10:00:00',
      end: '2027-06-03 12:00:00',
      extra: { status: 'draft' },
    }),
    tecEvent({
      id: 1124,
      title: 'Barn Dance',
      slug: 'barn-dance',
      start: '2027-06-04 04:00:00',
      end: '2027-06-05 03:59:59',
      timezone: 'America/New_York',
      venue: barn,
      tags: [indoor],
      extra: { all_day: true },
    }),
  );
  return {
    categories: [rock, music, jazz],
    tags: [outdoor, indoor],
    venues: [hall, club],
    organizers: [org, friends],
    events,
  };
}

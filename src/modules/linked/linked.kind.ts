import type { ErrorCode } from '../../errors.js';

/**
 * What differs between the two "linked post" types of TEC, venues and organizers (API.md §7–§14):
 * everything else (statuses, slugs, trash, duplicates, lists, permissions) is shared.
 */
export interface LinkedKind {
  readonly type: 'venue' | 'organizer';
  readonly path: 'venues' | 'organizers';
  readonly table: 'venues' | 'organizers';
  /** The request/response key holding the name (`venue` / `organizer`). */
  readonly nameField: 'venue' | 'organizer';
  /** TEC's post type, used in the URL of unpublished items. */
  readonly wpPostType: 'tribe_venue' | 'tribe_organizer';
  readonly detailColumns: readonly string[];
  /** Detail columns that `search` looks into, besides name, description and excerpt (TEC §9). */
  readonly searchColumns: readonly string[];
  readonly errors: {
    readonly notFound: ErrorCode;
    readonly notAccessible: ErrorCode;
    readonly inTrash: ErrorCode;
    readonly pageNotFound: ErrorCode;
  };
}

export const VENUE_KIND: LinkedKind = {
  type: 'venue',
  path: 'venues',
  table: 'venues',
  nameField: 'venue',
  wpPostType: 'tribe_venue',
  detailColumns: [
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'show_map',
    'show_map_link',
    'geo_lat',
    'geo_lng',
  ],
  searchColumns: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  errors: {
    notFound: 'venue-not-found',
    notAccessible: 'venue-not-accessible',
    inTrash: 'venue-is-in-trash',
    pageNotFound: 'venue-archive-page-not-found',
  },
};

export const ORGANIZER_KIND: LinkedKind = {
  type: 'organizer',
  path: 'organizers',
  table: 'organizers',
  nameField: 'organizer',
  wpPostType: 'tribe_organizer',
  detailColumns: ['phone', 'website', 'email'],
  searchColumns: ['phone', 'email', 'website'],
  errors: {
    notFound: 'organizer-not-found',
    notAccessible: 'organizer-not-accessible',
    inTrash: 'organizer-is-in-trash',
    pageNotFound: 'organizer-archive-page-not-found',
  },
};

import type { Capability } from '../../auth/capabilities.js';

/** The two taxonomies (API.md §3, §7): their storage key, TEC name, route and who may manage them. */
export interface Taxonomy {
  readonly key: 'category' | 'tag';
  readonly wpName: 'tribe_events_cat' | 'post_tag';
  readonly path: 'categories' | 'tags';
  readonly hierarchical: boolean;
  readonly manage: Capability;
}

export const CATEGORIES: Taxonomy = {
  key: 'category',
  wpName: 'tribe_events_cat',
  path: 'categories',
  hierarchical: true,
  manage: 'manage_categories',
};
export const TAGS: Taxonomy = {
  key: 'tag',
  wpName: 'post_tag',
  path: 'tags',
  hierarchical: false,
  manage: 'manage_tags',
};

import type { UrlBuilder } from '../../http/urls.js';
import type { TermRow } from './terms.repository.js';
import type { EmbeddedTerm, Term } from './terms.schemas.js';
import type { Taxonomy } from './taxonomies.js';

/** id → slug and parent of every category: enough to build archive URLs of any depth. */
export type SlugTree = ReadonlyMap<number, { slug: string; parent: number }>;

/** Public archive page of a term (API.md §8): `/events/category/{ancestors…}/{slug}/` or `/tag/{slug}/`. */
export function termPageUrl(row: TermRow, taxonomy: Taxonomy, urls: UrlBuilder, tree: SlugTree): string {
  if (!taxonomy.hierarchical) return urls.page(`/tag/${encodeURIComponent(row.slug)}/`);
  const slugs = [row.slug];
  const seen = new Set([row.id]);
  let parent = row.parent_id;
  while (parent !== 0 && !seen.has(parent)) {
    const node = tree.get(parent);
    if (!node) break;
    slugs.unshift(node.slug);
    seen.add(parent);
    parent = node.parent;
  }
  return urls.page(`/events/category/${slugs.map(encodeURIComponent).join('/')}/`);
}

function termUrls(row: TermRow, taxonomy: Taxonomy, urls: UrlBuilder): Term['urls'] {
  const links: Term['urls'] = { self: urls.rest(`${taxonomy.path}/${row.id}`), collection: urls.rest(taxonomy.path) };
  if (row.parent_id !== 0) links.up = urls.rest(`${taxonomy.path}/${row.parent_id}`);
  return links;
}

/** A term on the category/tag routes (API.md §8 "Term standalone"). */
export function presentTerm(row: TermRow, taxonomy: Taxonomy, urls: UrlBuilder, tree: SlugTree): Term {
  return {
    id: row.id,
    count: row.count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: taxonomy.wpName,
    ...(taxonomy.hierarchical ? { parent: row.parent_id } : {}),
    meta: [],
    url: termPageUrl(row, taxonomy, urls, tree),
    urls: termUrls(row, taxonomy, urls),
  };
}

/** A term inside an event's `categories` / `tags` (API.md §8 "Term embedded in an event"). */
export function presentEmbeddedTerm(row: TermRow, taxonomy: Taxonomy, urls: UrlBuilder): EmbeddedTerm {
  return {
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy: taxonomy.wpName,
    description: row.description,
    parent: row.parent_id,
    count: row.count,
    filter: 'raw',
    id: row.id,
    urls: termUrls(row, taxonomy, urls),
  };
}

/** A post addressed by id or by slug (the `/{id}` and `/by-slug/{slug}` routes, API.md §7). */
export type PostRef = { id: number } | { slug: string };

/** The post a by-id or by-slug route's path parameters address. */
export function postRefOf(params: { id?: number; slug?: string }): PostRef {
  if (params.id !== undefined) return { id: params.id };
  if (params.slug !== undefined) return { slug: params.slug };
  throw new Error('a post route without an id or a slug');
}

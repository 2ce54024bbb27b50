import type { Executor } from '../../db/schema.js';

/** The type of post an id names (event, venue, organizer), or undefined if none. */
export async function postType(db: Executor, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst();
  return row?.type;
}

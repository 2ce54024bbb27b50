import { sql, type Expression, type SqlBool } from 'kysely';
import type { Caller } from '../../auth/caller.js';
import { callerCan } from '../../auth/caller.js';
import { trashedSlug } from './posts.rules.js';
import { columnSlots, compiledOnce, type Slots } from '../../db/compiled.js';
import { dialectOfExecutor, listParameter, inList } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';
import { plannedId } from '../../db/planned-ids.js';
import { translatedColumn } from '../../db/translations.js';
import type { Language } from '../../i18n/languages.js';

export interface PostBase {
  id: number;
  type: string;
  author_id: number;
  status: string;
  slug: string;
  password: string;
  lang: string;
  published_at: number;
  status_before_trash: string | null;
}

/** The type of post an id names (event, venue, organizer), or undefined if none. */
export async function postType(db: Executor, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst();
  return row?.type;
}

const BASE_COLUMNS = [
  'id',
  'type',
  'author_id',
  'status',
  'slug',
  'password',
  'lang',
  'published_at',
  'status_before_trash',
] as const;
const postBasesByIds = compiledOnce((db, slot: Slots<[ids: unknown]>) =>
  db
    .selectFrom('posts')
    .select(BASE_COLUMNS)
    .where(inList(db, 'id', slot(0))),
);
// `slug <> ''` lets both planners use the partial unique index posts_slug. Written as a literal, not
// a parameter, so that PostgreSQL's generic plan uses it too and the statement is not planned anew
// at every execution.
const NON_EMPTY_SLUG = sql<SqlBool>`slug <> ''`;
const postIdBySlug = compiledOnce((db, slot: Slots<[type: string, slug: string]>) =>
  db.selectFrom('posts').select('id').where('type', '=', slot(0)).where('slug', '=', slot(1)).where(NON_EMPTY_SLUG),
);

export async function findPostBase(db: Executor, id: number): Promise<PostBase | undefined> {
  return (await findPostBases(db, [id])).get(id);
}

/** Several posts' base rows by id. */
async function findPostBases(db: Executor, ids: readonly number[]): Promise<Map<number, PostBase>> {
  if (ids.length === 0) return new Map();
  const rows = await postBasesByIds(db, [listParameter(db, ids)]);
  return new Map(rows.map((row) => [row.id, row]));
}

const lockedPostBase = compiledOnce((db, slot: Slots<[id: number]>) =>
  db.selectFrom('posts').select(BASE_COLUMNS).where('id', '=', slot(0)).forNoKeyUpdate(),
);

/**
 * A post's base row inside a write's transaction, locked until commit on PostgreSQL: a concurrent
 * update of the same post waits here and then reads what this one wrote, so partial updates
 * apply one after the other instead of each writing back what it read before the other (API.md
 * §13). NO KEY UPDATE, the lock an UPDATE takes itself: it does not block writers that only
 * reference the post (an event linking a venue). SQLite's writers already run one at a time.
 */
export async function lockPostBase(db: Executor, id: number): Promise<PostBase | undefined> {
  if (dialectOfExecutor(db) === 'sqlite') return findPostBase(db, id);
  return (await lockedPostBase(db, [id]))[0];
}

export async function findPostIdBySlug(db: Executor, type: string, slug: string): Promise<number | undefined> {
  if (slug === '') return undefined;
  return (await postIdBySlug(db, [type, slug]))[0]?.id;
}

const slugTakenByAnother = compiledOnce((db, slot: Slots<[type: string, slug: string, exceptId: number]>) =>
  db
    .selectFrom('posts')
    .select('id')
    .where('type', '=', slot(0))
    .where('slug', '=', slot(1))
    .where(NON_EMPTY_SLUG)
    .where('id', '<>', slot(2))
    .limit(1),
);

export async function slugTaken(
  db: Executor,
  type: string,
  slug: string,
  exceptId: number | undefined,
): Promise<boolean> {
  // Post ids start at 1: excepting 0 excepts nothing.
  return (await slugTakenByAnother(db, [type, slug, exceptId ?? 0])).length > 0;
}

/** Which of `slugs` posts of the type other than `exceptId` use, in one indexed query. */
export async function takenSlugs(
  db: Executor,
  type: string,
  slugs: readonly string[],
  exceptId: number | undefined,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('posts')
    .select('slug')
    .where('type', '=', type)
    .where('slug', 'in', [...slugs])
    .where(NON_EMPTY_SLUG)
    .where('id', '<>', exceptId ?? 0)
    .execute();
  return new Set(rows.map((row) => row.slug));
}

/** A trashed slug no other post of the type uses (`x__trashed`, `x__trashed-2`, …). */
export async function uniqueTrashedSlug(db: Executor, type: string, slug: string, id: number): Promise<string> {
  if (slug === '') return '';
  for (let attempt = 1; ; attempt++) {
    const candidate = trashedSlug(slug, attempt);
    if (!(await slugTaken(db, type, candidate, id))) return candidate;
  }
}

export interface NewPost {
  type: string;
  author_id: number;
  status: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  password: string;
  lang: string;
  parent_id: number;
  image_id: number | null;
  published_at: number;
  modified_at: number;
}

const NEW_POST_COLUMNS = [
  'type',
  'author_id',
  'status',
  'slug',
  'title',
  'description',
  'excerpt',
  'password',
  'lang',
  'parent_id',
  'image_id',
  'published_at',
  'modified_at',
] as const satisfies readonly (keyof NewPost)[];
const insertPostRow = compiledOnce((db, slot: Slots<unknown[]>) =>
  db
    .insertInto('posts')
    .values(columnSlots<NewPost, (typeof NEW_POST_COLUMNS)[number]>(NEW_POST_COLUMNS, slot, 0))
    .returning('id'),
);

export async function insertPost(db: Executor, post: NewPost): Promise<number> {
  const id = plannedId(post.type);
  if (id !== undefined) {
    await db
      .insertInto('posts')
      .values({ ...post, id })
      .execute();
    return id;
  }
  const [row] = await insertPostRow(
    db,
    NEW_POST_COLUMNS.map((column) => post[column]),
  );
  return row.id;
}

export type PostChanges = Partial<Omit<NewPost, 'type' | 'status_before_trash'>>;

/**
 * A status change keeps what the post was before the trash (posts.rules.ts, canEditPost): the
 * status it leaves when it enters the trash, nothing once it leaves it. SET reads the row as it
 * was before the update.
 */
function trashMemory(status: string | undefined) {
  if (status === undefined) return {};
  return {
    status_before_trash:
      status === 'trash'
        ? sql<string | null>`CASE WHEN status = 'trash' THEN status_before_trash ELSE status END`
        : null,
  };
}

export async function updatePost(db: Executor, id: number, changes: PostChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('posts')
    .set({ ...changes, ...trashMemory(changes.status) })
    .where('id', '=', id)
    .execute();
}

export async function deletePost(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('posts').where('id', '=', id).execute();
}

export type TranslatedPostFields = { title?: string; description?: string; excerpt?: string };

export async function upsertPostTranslation(
  db: Executor,
  postId: number,
  lang: string,
  fields: TranslatedPostFields,
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  // One statement, not a read then an insert: two concurrent first translations of a post would
  // both insert, and the second fail on the primary key.
  await db
    .insertInto('post_translations')
    .values({
      post_id: postId,
      lang,
      title: fields.title ?? null,
      description: fields.description ?? null,
      excerpt: fields.excerpt ?? null,
    })
    .onConflict((conflict) => conflict.columns(['post_id', 'lang']).doUpdateSet(fields))
    .execute();
}

/** Whether a user id names an existing user (the `author` parameter). */
export async function userExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Readers who cannot write see published posts only, whatever statuses they ask for. */
export function seesPublishedOnly(caller: Caller | null): boolean {
  return !caller || !callerCan(caller, 'create_posts');
}

/**
 * Which posts of a list the caller sees (API.md §10): anonymous and subscribers only published
 * ones; contributors and authors published ones plus their own; editors everything. Without an
 * explicit `statuses` list, trash is left out.
 */
export function visibleTo(
  alias: string,
  caller: Caller | null,
  statuses: readonly string[] | undefined,
): Expression<SqlBool> {
  const status = sql.ref(`${alias}.status`);
  const wanted = statuses ?? ['publish', 'future', 'draft', 'pending', 'private'];
  const inWanted = sql<SqlBool>`${status} IN (${sql.join(wanted)})`;
  if (!caller || seesPublishedOnly(caller)) return sql<SqlBool>`${status} = 'publish'`;
  if (callerCan(caller, 'read_others_private_posts')) return inWanted;
  return sql<SqlBool>`(${inWanted} AND (${status} = 'publish' OR ${sql.ref(`${alias}.author_id`)} = ${caller.userId}))`;
}

/** visibleTo for one post in memory: whether a list of `statuses` for `caller` shows a post of `status` by `authorId`. */
export function isVisibleTo(
  caller: Caller | null,
  statuses: readonly string[] | undefined,
  status: string,
  authorId: number,
): boolean {
  if (!caller || seesPublishedOnly(caller)) return status === 'publish';
  const wanted = (statuses ?? ['publish', 'future', 'draft', 'pending', 'private']).includes(status);
  if (callerCan(caller, 'read_others_private_posts')) return wanted;
  return wanted && (status === 'publish' || authorId === caller.userId);
}

/**
 * The columns every post representation reads: the post row, its text in the request language
 * (joined as `tr_req` / `tr_def`, see db/translations.ts) and its image (joined as `images`); and
 * its revision and last change, which its ETag is made of (modules/sync/validators.ts).
 */
export function postColumns(lang: Language, defaultLang: Language) {
  return [
    'posts.id',
    'posts.author_id',
    'posts.status',
    'posts.status_before_trash',
    'posts.slug',
    'posts.lang',
    'posts.password',
    'posts.published_at',
    'posts.modified_at',
    'posts.revision',
    sql<number>`COALESCE(posts.changed_at, posts.modified_at)`.as('changed_at'),
    translatedColumn('posts', 'title', lang, defaultLang).as('title'),
    translatedColumn('posts', 'description', lang, defaultLang).as('description'),
    translatedColumn('posts', 'excerpt', lang, defaultLang).as('excerpt'),
    'images.id as image_id',
    'images.url as image_url',
    'images.extension as image_extension',
    'images.width as image_width',
    'images.height as image_height',
    'images.filesize as image_filesize',
  ] as const;
}

import { Type, type Static } from '@sinclair/typebox';
import { callerCan } from '../../auth/caller.js';
import type { Executor } from '../../db/schema.js';
import type { ParamProblem } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { parseHttpUrl, parsePositiveInteger } from '../../domain/params.js';

/** An image record (API.md §8): created from an http(s) URL or referenced by id; never fetched. */
export const ImageSchema = Type.Object(
  {
    url: Type.String({ format: 'uri' }),
    id: Type.Integer(),
    extension: Type.String(),
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
    filesize: Type.Optional(Type.Integer()),
  },
  { $id: 'Image', description: 'A featured image' },
);
export type Image = Static<typeof ImageSchema>;

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'bmp', 'tif', 'tiff', 'heic'];

export interface ImageRow {
  image_id: number | null;
  image_url: string | null;
  image_extension: string | null;
  image_width: number | null;
  image_height: number | null;
  image_filesize: number | null;
}

export function presentImage(row: ImageRow): Image | false {
  if (row.image_id === null || row.image_url === null) return false;
  const image: Image = { url: row.image_url, id: row.image_id, extension: row.image_extension ?? '' };
  if (row.image_width) image.width = row.image_width;
  if (row.image_height) image.height = row.image_height;
  if (row.image_filesize) image.filesize = row.image_filesize;
  return image;
}

function extensionOf(url: string): string | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname);
  const extension = match?.[1].toLowerCase();
  return extension && IMAGE_EXTENSIONS.includes(extension) ? extension : undefined;
}

export type ImageOutcome = { ok: true; imageId: number | null } | { ok: false; problem: ParamProblem };

/**
 * The `image` parameter of a write: an existing image id, or an http(s) URL of an image file, which
 * creates an image record (only for users who may upload, as TEC). Empty values remove the image.
 */
export async function resolveImage(ctx: RequestContext, db: Executor, raw: unknown): Promise<ImageOutcome> {
  if (raw === null || raw === '' || raw === 0 || raw === '0' || raw === false) return { ok: true, imageId: null };
  const invalid = { ok: false as const, problem: { message: 'invalid_parameter' as const } };
  const id = parsePositiveInteger(raw);
  if (id !== undefined) {
    const row = await db.selectFrom('images').select('id').where('id', '=', id).executeTakeFirst();
    return row ? { ok: true, imageId: row.id } : invalid;
  }
  const url = parseHttpUrl(raw);
  const extension = url ? extensionOf(url) : undefined;
  if (!url || !extension || !callerCan(ctx.caller, 'upload_files')) return invalid;
  const existing = await db.selectFrom('images').select('id').where('url', '=', url).executeTakeFirst();
  if (existing) return { ok: true, imageId: existing.id };
  const created = await db
    .insertInto('images')
    .values({ url, extension, author_id: ctx.caller?.userId ?? 0, created_at: Math.floor(ctx.now.toSeconds()) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ok: true, imageId: created.id };
}

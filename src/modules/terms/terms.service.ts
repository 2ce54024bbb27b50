import { changeKey } from '../../changes/change-set.js';
import { requireCurrent } from '../../http/conditional.js';
import { termValidator } from '../sync/validators.js';
import { changeSetOf } from '../../changes/writes.js';
import { callerCan } from '../../auth/caller.js';
import { rowsById } from '../../cache/rows.js';
import type { TermsModule } from './terms.module.js';
import { isUniqueViolation } from '../../db/errors.js';
import { lockUntilCommit } from '../../db/locks.js';
import type { Executor } from '../../db/schema.js';
import { searchKey } from '../../db/translations.js';
import { ApiError, forbidden, invalidParams, type ParamProblem } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { sanitizeHtml } from '../../domain/html.js';
import { slugCandidate, toSlug } from '../../domain/slugs.js';
import { parsePositiveInteger } from '../../domain/params.js';
import { isReadableEvent } from '../posts/posts.access.js';
import * as repo from './terms.repository.js';
import type { categoryListArgs, categoryUpdateArgs } from './terms.schemas.js';
import type { ArgsInput } from '../../http/args.js';
import type { Taxonomy } from './taxonomies.js';

/** A category list's arguments; a tag list's are the same without `parent`. */
export type TermListInput = ArgsInput<typeof categoryListArgs>;

/** A category write's arguments (a tag's are the same without `parent`). */
export type TermWriteInput = ArgsInput<typeof categoryUpdateArgs> & {
  /** Whether the request sent `parent` at all (an error for tags, API.md §5). */
  parentSent?: boolean;
};

export interface TermPage {
  rows: repo.TermRow[];
  total: number;
  tree: repo.SlugTreeMap;
}

function languages(terms: TermsModule, ctx: RequestContext): repo.TermLanguages {
  return { lang: ctx.lang, defaultLang: terms.config.defaultLanguage };
}

/** Ids or slugs of a list parameter to term ids; unknown ones are reported as problems. */
async function resolveTermRefs(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  refs: readonly string[],
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<number[]> {
  const ids = refs.map((ref) => parsePositiveInteger(ref)).filter((id): id is number => id !== undefined);
  const slugs = refs.filter((ref) => parsePositiveInteger(ref) === undefined);
  const known = await repo.existingTermIds(terms.db, taxonomy.key, ids);
  const bySlug = await repo.termIdsBySlugs(terms.db, taxonomy.key, slugs, languages(terms, ctx));
  const unknown = [...ids.filter((id) => !known.has(id)), ...slugs.filter((slug) => !bySlug.has(slug))];
  if (unknown.length > 0) problems.set(name, { message: 'unknown_term', vars: { value: unknown.join(', ') } });
  return refs.map((ref) => parsePositiveInteger(ref) ?? bySlug.get(ref)).filter((id): id is number => id !== undefined);
}

async function requireEvent(
  terms: TermsModule,
  ctx: RequestContext,
  id: number,
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<void> {
  if (!(await isReadableEvent(terms.db, ctx.caller, id)))
    problems.set(name, { message: 'unknown_event', vars: { value: id } });
}

export async function listTerms(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  input: TermListInput,
): Promise<TermPage> {
  const problems = new Map<string, ParamProblem>();
  const include = input.include
    ? await resolveTermRefs(terms, ctx, taxonomy, input.include, 'include', problems)
    : undefined;
  const exclude = input.exclude
    ? await resolveTermRefs(terms, ctx, taxonomy, input.exclude, 'exclude', problems)
    : undefined;
  if (
    input.parent !== undefined &&
    input.parent !== 0 &&
    (await repo.existingTermIds(terms.db, taxonomy.key, [input.parent])).size === 0
  ) {
    problems.set('parent', { message: 'unknown_term', vars: { value: input.parent } });
  }
  if (input.post !== undefined) await requireEvent(terms, ctx, input.post, 'post', problems);
  if (input.event !== undefined) await requireEvent(terms, ctx, input.event, 'event', problems);
  if (problems.size > 0) throw invalidParams(problems);

  const filter: repo.TermFilter = {
    taxonomy: taxonomy.key,
    hideEmpty: input.hide_empty,
    search: input.search !== undefined ? searchKey(input.search) : undefined,
    slug: input.slug,
    include,
    exclude,
    parent: input.parent,
    eventId: input.event ?? input.post,
    modifiedMin: input.modified_after && Math.floor(input.modified_after.toSeconds()),
    modifiedBefore: input.modified_before && Math.floor(input.modified_before.toSeconds()),
  };
  const order: repo.TermOrder = { orderby: input.orderby, direction: input.order, include };
  const langs = languages(terms, ctx);
  const [rows, total, tree] = await Promise.all([
    repo.listTerms(terms.db, filter, order, langs, input.per_page, (input.page - 1) * input.per_page),
    repo.countTerms(terms.db, filter, langs),
    repo.slugPaths(terms.db, taxonomy.key, langs),
  ]);
  return { rows, total, tree };
}

export async function getTerm(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  id: number,
): Promise<{ row: repo.TermRow; tree: repo.SlugTreeMap }> {
  const row = await repo.findTerm(terms.db, taxonomy.key, id, languages(terms, ctx));
  if (!row) throw new ApiError('rest_term_invalid');
  return { row, tree: await repo.slugPaths(terms.db, taxonomy.key, languages(terms, ctx)) };
}

function requireManage(ctx: RequestContext, taxonomy: Taxonomy, input?: TermWriteInput): void {
  if (!callerCan(ctx.caller, taxonomy.manage)) throw forbidden(ctx.caller !== null);
  if (!taxonomy.hierarchical && input?.parentSent) throw new ApiError('rest_taxonomy_not_hierarchical');
}

function termExists(taxonomy: Taxonomy, termId: number, bySlug = false): ApiError {
  const message = bySlug ? 'term_slug_exists' : taxonomy.hierarchical ? 'term_exists_parent' : 'term_exists_taxonomy';
  return new ApiError('term_exists', { message, data: { term_id: termId } });
}

/** A parent must be an existing category that is neither the term itself nor one of its descendants. */
async function checkParent(
  db: Executor,
  taxonomy: Taxonomy,
  parent: number,
  termId: number | undefined,
): Promise<void> {
  if (parent === 0) return;
  if ((await repo.existingTermIds(db, taxonomy.key, [parent])).size === 0) {
    throw invalidParams(new Map([['parent', { message: 'unknown_term', vars: { value: parent } }]]));
  }
  if (termId === undefined) return;
  const ancestors = await repo.ancestorsOf(db, parent);
  if (parent === termId || ancestors.some((a) => a.id === termId)) {
    throw invalidParams(
      new Map([['parent', { message: 'term_parent_cycle', code: 'term_parent_cycle' } satisfies ParamProblem]]),
    );
  }
}

async function uniqueSlug(terms: TermsModule, taxonomy: Taxonomy, base: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const candidate = slugCandidate(base || 'term', attempt);
    if (!(await repo.slugExists(terms.db, taxonomy.key, candidate))) return candidate;
  }
}

/** Creates a category or tag (API.md §7, §12): 201 with the new term. */
export async function createTerm(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  input: Required<Pick<TermWriteInput, 'name'>> & TermWriteInput,
): Promise<number> {
  const parent = taxonomy.hierarchical ? (input.parent ?? 0) : 0;
  await checkParent(terms.db, taxonomy, parent, undefined);
  requireManage(ctx, taxonomy, input);
  const nameKey = searchKey(input.name);
  for (let attempt = 0; ; attempt++) {
    const sameName = await repo.findTermIdByName(terms.db, taxonomy.key, parent, nameKey);
    if (sameName !== undefined) throw termExists(taxonomy, sameName);
    let slug: string;
    if (input.slug !== undefined) {
      slug = toSlug(input.slug) || toSlug(input.name);
      const owner = await repo.findTermIdBySlug(terms.db, taxonomy.key, slug);
      if (owner !== undefined) throw termExists(taxonomy, owner, true);
    } else {
      slug = await uniqueSlug(terms, taxonomy, toSlug(input.name));
    }
    try {
      return await ctx.write(async (trx, changes) => {
        const id = await repo.insertTerm(trx, {
          taxonomy: taxonomy.key,
          name: input.name,
          name_key: nameKey,
          slug,
          description: sanitizeHtml(input.description ?? ''),
          parent_id: parent,
          lang: ctx.lang,
          created_at: Math.floor(ctx.now.toSeconds()),
        });
        changes.created(taxonomy.key, id);
        return id;
      });
    } catch (error) {
      // A concurrent writer took the name or slug between our check and insert: check again.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** Terms are readable by everyone: the state the change feed records for them. */
const PUBLIC_TERM = { status: 'publish', author_id: 0 };

/** Partial update (API.md §13): only sent fields change; text goes to the request language. */
export async function updateTerm(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  id: number,
  input: TermWriteInput,
): Promise<void> {
  const current = await repo.findTerm(terms.db, taxonomy.key, id, languages(terms, ctx));
  if (!current) throw new ApiError('rest_term_invalid');
  if (taxonomy.hierarchical && input.parent !== undefined) await checkParent(terms.db, taxonomy, input.parent, id);
  requireManage(ctx, taxonomy, input);
  const parent = input.parent ?? current.parent_id;
  const inOriginal = current.lang === ctx.lang;
  const nameKey = input.name !== undefined ? searchKey(input.name) : undefined;
  if (inOriginal && (nameKey !== undefined || input.parent !== undefined)) {
    const sameName = await repo.findTermIdByName(terms.db, taxonomy.key, parent, nameKey ?? current.name_key);
    if (sameName !== undefined && sameName !== id) throw termExists(taxonomy, sameName);
  }
  // A slug with nothing left after slugging keeps the stored one: written back, the slug read here
  // would undo a concurrent rename.
  const slug = input.slug !== undefined && inOriginal ? toSlug(input.slug) || undefined : undefined;
  if (slug !== undefined && slug !== current.slug) {
    const owner = await repo.findTermIdBySlug(terms.db, taxonomy.key, slug);
    if (owner !== undefined && owner !== id) throw termExists(taxonomy, owner, true);
  }
  const description = input.description !== undefined ? sanitizeHtml(input.description) : undefined;
  await ctx.write(async (trx, changes) => {
    await requireCurrent(ctx.conditions, () => termValidator(trx, terms.config, id, 'view'));
    changes.updated(taxonomy.key, id);
    if (taxonomy.hierarchical && input.parent !== undefined) {
      // Two concurrent moves could each pass the cycle check (X under Y, Y under X) and together
      // make a cycle: moves within a taxonomy run one after the other, each checking what the
      // previous one committed.
      await lockUntilCommit(trx, `term-parent|${taxonomy.key}`);
      await checkParent(trx, taxonomy, input.parent, id);
    }
    const shared: repo.TermChanges = {};
    if (input.parent !== undefined) shared.parent_id = input.parent;
    if (inOriginal) {
      if (slug !== undefined) shared.slug = slug;
      if (input.name !== undefined) Object.assign(shared, { name: input.name, name_key: nameKey });
      if (description !== undefined) shared.description = description;
    } else if (input.name !== undefined || description !== undefined || input.slug !== undefined) {
      // In another language the name, description and slug are that language's (API.md §15).
      const translatedSlug =
        input.slug !== undefined ? toSlug(input.slug) : input.name !== undefined ? toSlug(input.name) : undefined;
      await repo.upsertTermTranslation(trx, id, ctx.lang, {
        ...(input.name !== undefined ? { name: input.name, name_key: nameKey } : {}),
        ...(translatedSlug ? { slug: translatedSlug } : {}),
        ...(description !== undefined ? { description } : {}),
      });
    }
    try {
      await repo.updateTerm(trx, id, shared);
    } catch (error) {
      if (isUniqueViolation(error)) throw termExists(taxonomy, id);
      throw error;
    }
  });
}

/** Permanent delete (API.md §13): returns the term as it was. */
export async function deleteTerm(
  terms: TermsModule,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  id: number,
): Promise<{ row: repo.TermRow; tree: repo.SlugTreeMap }> {
  const before = await getTerm(terms, ctx, taxonomy, id);
  requireManage(ctx, taxonomy);
  await ctx.write(async (trx, changes) => {
    await requireCurrent(ctx.conditions, () => termValidator(trx, terms.config, id, 'view'));
    const children = await repo.deleteTerm(trx, id, before.row.parent_id);
    changes.deleted(taxonomy.key, id, PUBLIC_TERM);
    // Its children move up to its parent: a change of each of them.
    for (const child of children) changes.updated(taxonomy.key, child);
  });
  return before;
}

/**
 * The id of the top-level term of `taxonomy` with this name (case-insensitive), creating it when
 * missing: inline term creation from event writes, for callers who may manage terms (API.md §13).
 */
export async function findOrCreateTermByName(
  ctx: RequestContext,
  db: Executor,
  taxonomy: Taxonomy,
  name: string,
): Promise<number> {
  const nameKey = searchKey(name);
  const existing = await repo.findTermIdByName(db, taxonomy.key, 0, nameKey);
  if (existing !== undefined) return existing;
  const base = toSlug(name) || 'term';
  for (let attempt = 1; ; attempt++) {
    const slug = slugCandidate(base, attempt);
    if (await repo.slugExists(db, taxonomy.key, slug)) continue;
    const id = await repo.insertTerm(db, {
      taxonomy: taxonomy.key,
      name,
      name_key: nameKey,
      slug,
      description: '',
      parent_id: 0,
      lang: ctx.lang,
      created_at: Math.floor(ctx.now.toSeconds()),
    });
    // Created inside an event write: a change of its own in the feed (API.md §21.1).
    changeSetOf(db)?.created(taxonomy.key, id);
    return id;
  }
}

/** Term rows by id, reused until a write changes them (cache/rows.ts). */
export async function termRowsById(
  terms: TermsModule,
  ctx: RequestContext,
  ids: readonly number[],
  db: Executor = terms.db,
): Promise<Map<number, repo.TermRow>> {
  const version = db === terms.db ? await ctx.dataVersion() : undefined;
  return rowsById(
    terms.state.rows,
    version,
    (id) => `${id}|${ctx.lang}`,
    ids,
    (missing) => repo.findTermsByIds(db, missing, languages(terms, ctx)),
    (storedUnder, id) =>
      version !== undefined && terms.version.unchangedSince(storedUnder, version, [changeKey('term', id)]),
  );
}

/** The terms of each event in link order (termRowsById). */
export async function termsOfLinks(
  terms: TermsModule,
  ctx: RequestContext,
  links: readonly { event_id: number; term_id: number }[],
  db: Executor = terms.db,
): Promise<Map<number, repo.TermRow[]>> {
  const rows = await termRowsById(
    terms,
    ctx,
    links.map((link) => link.term_id),
    db,
  );
  const result = new Map<number, repo.TermRow[]>();
  for (const link of links) {
    const row = rows.get(link.term_id);
    if (row) result.set(link.event_id, [...(result.get(link.event_id) ?? []), row]);
  }
  return result;
}

import { pages, wpEventIds, type PageOutcome, type Source } from './source.js';

type HiddenEvents = Awaited<ReturnType<typeof wpEventIds>>;

/**
 * The source's lists as a run reads them. With `keep`, each list is read from the source once and
 * answered from memory after that: `--keep-ids` checks every id before writing (API.md §24) and
 * then writes exactly the items it checked, without reading the site twice.
 */
export class Lists {
  private readonly kept = new Map<string, PageOutcome[]>();
  private hidden: Promise<HiddenEvents> | undefined;

  constructor(
    readonly source: Source,
    private readonly keep: boolean,
  ) {}

  async *pages(path: string, key: string, query: Record<string, string | number>): AsyncGenerator<PageOutcome> {
    const name = `${path}?${JSON.stringify(query)}`;
    const kept = this.kept.get(name);
    if (kept) {
      yield* kept;
      return;
    }
    const read: PageOutcome[] = [];
    for await (const outcome of pages(this.source, path, key, query)) {
      if (this.keep) read.push(outcome);
      yield outcome;
    }
    if (this.keep) this.kept.set(name, read);
  }

  /** Events WordPress lists and TEC hides (wp/v2/tribe_events), read once per run. */
  hiddenEvents(statuses: string): Promise<HiddenEvents> {
    this.hidden ??= wpEventIds(this.source, statuses);
    return this.hidden;
  }
}

import { DateTime } from 'luxon';
import { buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import { parseDateInput } from '../../domain/dates.js';
import { zoneOf } from '../../domain/timezones.js';
import { importTec, type ImportOptions, type ImportReport } from './import.js';
import { SourceUnusable } from './source.js';

/** `--since` in any form of API.md §6 (site time zone), as seconds; undefined when unreadable. */
export function sinceInstant(config: Config, raw: string): number | undefined {
  const zone = zoneOf(config.siteTimezone);
  const parsed = parseDateInput(raw, zone, DateTime.now().setZone(zone));
  return parsed ? Math.floor(parsed.toSeconds()) : undefined;
}

/**
 * The `import:tec` command: the application is built in this process (no server needed) and the
 * import writes through it. A source that cannot be used comes back as SourceUnusable (exit 2).
 */
export async function runTecImport(config: Config, options: ImportOptions): Promise<ImportReport | SourceUnusable> {
  const app = await buildApp(config, { logger: false });
  try {
    return await importTec(app, options);
  } catch (error) {
    if (error instanceof SourceUnusable) return error;
    throw error;
  } finally {
    await app.close();
  }
}

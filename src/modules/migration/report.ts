import { KINDS, type ImportReport } from './import.js';

const COLUMNS = ['created', 'updated', 'unchanged', 'failed'] as const;

/**
 * The end of an import on standard output (API.md §24): a table with one row per resource, then
 * one line per failure, then the warnings.
 */
export function reportLines(report: ImportReport): string[] {
  const width = Math.max('resource'.length, ...KINDS.map((kind) => kind.length));
  const cell = (value: string | number, i: number) => String(value).padStart(COLUMNS[i].length + 2);
  const lines = [
    `${report.dryRun ? 'Dry run (nothing was written) of an import' : 'Imported'} from ${report.source}${report.copyMode ? ' (copy mode)' : ''}:`,
    `${'resource'.padEnd(width)}${COLUMNS.map((column, i) => cell(column, i)).join('')}`,
    ...KINDS.map(
      (kind) => `${kind.padEnd(width)}${COLUMNS.map((column, i) => cell(report.tallies[kind][column], i)).join('')}`,
    ),
  ];
  if (report.failures.length > 0) lines.push('', 'Failed:', ...report.failures);
  if (report.warnings.length > 0) lines.push('', 'Warnings:', ...report.warnings);
  return lines;
}

export const anyFailed = (report: ImportReport): boolean => KINDS.some((kind) => report.tallies[kind].failed > 0);

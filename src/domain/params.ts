/**
 * Primitive parsers for request parameters (API.md §6). Each returns the parsed value, or undefined
 * when the input is not acceptable; callers turn undefined into a 400 naming the parameter.
 */

/** JSON integers or digit strings (an optional leading minus sign is read, range checks are the caller's). */
export function parseInteger(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw !== 'string' || !/^\s*-?\d{1,15}\s*$/.test(raw)) return undefined;
  return Number(raw.trim());
}

export function parsePositiveInteger(raw: unknown): number | undefined {
  const value = parseInteger(raw);
  return value !== undefined && value >= 1 ? value : undefined;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** `true/false`, `1/0`, and the strings true/false/1/0/yes/no/on/off in any case. */
export function parseBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw !== 'string') return undefined;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * A list given as a JSON array, repeated `name[]=` parameters (already an array after query parsing)
 * or a comma-separated string. Items are trimmed strings; empty items are dropped.
 */
export function parseList(raw: unknown): string[] | undefined {
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (typeof raw === 'string') items = raw.split(',');
  else if (typeof raw === 'number') items = [raw];
  else return undefined;
  const result: string[] = [];
  for (const item of items) {
    if (typeof item === 'number' && Number.isFinite(item)) result.push(String(item));
    else if (typeof item === 'string') {
      for (const part of item.split(',')) if (part.trim() !== '') result.push(part.trim());
    } else return undefined;
  }
  return result;
}

/** A list whose every element is a positive integer id. */
export function parseIdList(raw: unknown): number[] | undefined {
  const items = parseList(raw);
  if (items === undefined) return undefined;
  const ids: number[] = [];
  for (const item of items) {
    const id = parsePositiveInteger(item);
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return ids;
}

/** A string with at least one non-blank character; returned trimmed. */
export function parseNonEmptyString(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Absolute http(s) URLs only (no `javascript:` or relative links). */
export function parseHttpUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  try {
    const url = new URL(trimmed);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') return trimmed;
  } catch {
    return undefined;
  }
  return undefined;
}

/** A finite number (JSON number or numeric string). */
export function parseNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string' || !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** A JSON object (not null, not an array), whose properties may then be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { IcsProblem } from './ics.problem.js';

/** One content line of an iCalendar text, unfolded (RFC 5545 §3.1). */
export interface ContentLine {
  /** 1-based number of its first physical line in the text as sent (folded lines counted). */
  readonly line: number;
  /** Upper-case property name, e.g. `DTSTART`, `BEGIN`. */
  readonly name: string;
  /** Parameters by upper-case name, values unquoted, e.g. `{ TZID: 'Europe/Paris' }`. */
  readonly params: Readonly<Record<string, string>>;
  readonly value: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a body sent as bytes; not UTF-8 is rest_invalid_ics naming the first line holding
 * an invalid sequence. Some producers fold lines by octets, through the middle of a character: so
 * a text that is not UTF-8 as sent is read again with its folds joined as bytes (RFC 5545 §3.1
 * unfolds before decoding), keeping one empty line per fold so that line numbers stay those sent.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return decodeUnfolded(bytes);
  }
}

function decodeUnfolded(bytes: Uint8Array): string {
  const physical: Uint8Array[] = [];
  for (let start = 0; start <= bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    physical.push(bytes.subarray(start, stop > start && bytes[stop - 1] === 0x0d ? stop - 1 : stop));
    start = stop + 1;
  }
  const lines: string[] = [];
  for (let index = 0; index < physical.length;) {
    const parts = [physical[index]];
    let next = index + 1;
    while (next < physical.length && (physical[next][0] === 0x20 || physical[next][0] === 0x09))
      parts.push(physical[next++].subarray(1));
    try {
      lines.push(decoder.decode(Buffer.concat(parts)), ...Array<string>(next - index - 1).fill(''));
    } catch {
      throw new IcsProblem('not UTF-8', index + 1);
    }
    index = next;
  }
  return lines.join('\n').replace(/^\uFEFF/, '');
}

/** Splits `text` at `separator` outside double quotes (parameter values may be quoted). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Index of the `:` ending name and parameters (the first one outside quotes), or -1. */
function valueColon(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === ':' && !quoted) return i;
  }
  return -1;
}

/**
 * Exchange writes `TZID=tzone://Microsoft/Custom` unquoted, colon and all: the value then starts
 * after the colon that follows it (node-ical reads it so too).
 */
function exchangeTzidEnd(text: string): number | undefined {
  const match = /;TZID=tzone:\/\/[^:;]*:/i.exec(text);
  return match ? match.index + match[0].length - 1 : undefined;
}

function contentLine(text: string, line: number): ContentLine {
  // No stored text may hold a NUL (PostgreSQL refuses them, API.md §25.3).
  if (text.includes('\0')) throw new IcsProblem('a NUL character', line);
  const colon = exchangeTzidEnd(text) ?? valueColon(text);
  if (colon === -1) throw new IcsProblem("a line without ':'", line);
  const [name, ...rawParams] = splitOutsideQuotes(text.slice(0, colon), ';');
  const params: Record<string, string> = {};
  for (const raw of rawParams) {
    const equals = raw.indexOf('=');
    if (equals === -1) continue;
    params[raw.slice(0, equals).trim().toUpperCase()] = raw.slice(equals + 1).replace(/^"(.*)"$/, '$1');
  }
  return { line, name: name.trim().toUpperCase(), params, value: text.slice(colon + 1) };
}

/**
 * The content lines of a text: CRLF or LF line ends (both accepted, API.md §19.3), folded lines
 * (a line starting with a space or tab continues the previous one) joined, blank lines skipped.
 */
export function contentLines(text: string): ContentLine[] {
  const physical = text.split(/\r?\n/);
  const lines: ContentLine[] = [];
  let pending: { text: string; line: number } | undefined;
  const flush = () => {
    if (pending && pending.text.trim() !== '') lines.push(contentLine(pending.text, pending.line));
    pending = undefined;
  };
  for (const [index, raw] of physical.entries()) {
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && pending) {
      pending.text += raw.slice(1);
      continue;
    }
    flush();
    pending = { text: raw, line: index + 1 };
  }
  flush();
  return lines;
}

/** A content line as text again (unfolded: node-ical reads lines of any length). */
export function lineText(line: Pick<ContentLine, 'name' | 'params' | 'value'>): string {
  const params = Object.entries(line.params).map(([name, value]) =>
    /[;:,]/.test(value) ? `;${name}="${value}"` : `;${name}=${value}`,
  );
  return `${line.name}${params.join('')}:${line.value}`;
}

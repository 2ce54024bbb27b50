import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldLines as referenceFold } from 'ical-generator';
import { foldLines } from '../../src/modules/ical/ical.fold.js';

/** Characters of every UTF-8 length, and the escapes of TEXT values. */
const ALPHABET = ['a', 'Z', ' ', ',', '\\', ';', 'é', 'ß', '€', '中', 'ह', '🎉', '𝄞', '👩‍👩‍👧'];

function randomLine(random: () => number, length: number): string {
  let line = 'DESCRIPTION:';
  while (line.length < length) line += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return line;
}

describe('iCalendar line folding (API.md §19.1)', () => {
  it('folds exactly as ical-generator does, for lines of every length and character width', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 2_000; i++) {
      const text = [randomLine(random, i % 300), randomLine(random, (i * 7) % 120), 'END:VEVENT'].join('\r\n');
      assert.equal(foldLines(text), referenceFold(text), JSON.stringify(text));
    }
  });

  it('folds lines of one-octet characters as ical-generator does, at every length', () => {
    for (let length = 60; length < 400; length++) {
      const text = `X-ALT-DESC:${'abc, d;\\'.repeat(60).slice(0, length)}\r\nEND:VEVENT`;
      assert.equal(foldLines(text), referenceFold(text));
    }
  });

  it('never makes a line longer than 75 octets, nor splits a UTF-8 sequence', () => {
    const folded = foldLines(`SUMMARY:${'é'.repeat(100)}${'🎉'.repeat(50)}`);
    for (const line of folded.split('\r\n')) {
      assert.ok(Buffer.byteLength(line) <= 75);
      assert.ok(!line.includes('\uFFFD') && Buffer.from(line).toString() === line, 'whole characters');
    }
    assert.equal(folded.replace(/\r\n /g, ''), `SUMMARY:${'é'.repeat(100)}${'🎉'.repeat(50)}`);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import qs from 'qs';
import {
  parseBoolean,
  parseHttpUrl,
  parseIdList,
  parseInteger,
  parseList,
  parseNonEmptyString,
  parseNumber,
  parsePositiveInteger,
} from '../../src/domain/params.js';

describe('parseInteger (API.md §6)', () => {
  it('accepts JSON integers', () => {
    assert.equal(parseInteger(0), 0);
    assert.equal(parseInteger(42), 42);
    assert.equal(parseInteger(-7), -7);
  });

  it('accepts digit strings, trimming surrounding blanks', () => {
    assert.equal(parseInteger('42'), 42);
    assert.equal(parseInteger('007'), 7);
    assert.equal(parseInteger(' 12 '), 12);
  });

  it('reads a leading minus sign and leaves the range check to the caller', () => {
    assert.equal(parseInteger('-1'), -1);
  });

  it('rejects JSON numbers that are not integers or not safe integers', () => {
    assert.equal(parseInteger(1.5), undefined);
    assert.equal(parseInteger(Number.NaN), undefined);
    assert.equal(parseInteger(Number.POSITIVE_INFINITY), undefined);
    assert.equal(parseInteger(2 ** 53), undefined);
  });

  it('rejects decimal strings such as "1.5"', () => {
    assert.equal(parseInteger('1.5'), undefined);
    assert.equal(parseInteger('1e3'), undefined);
  });

  it('rejects non-numeric strings such as "abc" and "12abc"', () => {
    assert.equal(parseInteger('abc'), undefined);
    assert.equal(parseInteger('12abc'), undefined);
    assert.equal(parseInteger('1 2'), undefined);
  });

  it('rejects the empty string and a blank string', () => {
    assert.equal(parseInteger(''), undefined);
    assert.equal(parseInteger('   '), undefined);
  });

  it('rejects null, undefined, booleans, arrays and objects', () => {
    assert.equal(parseInteger(null), undefined);
    assert.equal(parseInteger(undefined), undefined);
    assert.equal(parseInteger(true), undefined);
    assert.equal(parseInteger([1]), undefined);
    assert.equal(parseInteger(['1']), undefined);
    assert.equal(parseInteger({ value: 1 }), undefined);
  });
});

describe('parsePositiveInteger', () => {
  it('accepts integers from 1 up, as numbers or digit strings', () => {
    assert.equal(parsePositiveInteger(1), 1);
    assert.equal(parsePositiveInteger('1'), 1);
    assert.equal(parsePositiveInteger('250'), 250);
  });

  it('rejects zero as a number and as a string', () => {
    assert.equal(parsePositiveInteger(0), undefined);
    assert.equal(parsePositiveInteger('0'), undefined);
  });

  it('rejects negative integers', () => {
    assert.equal(parsePositiveInteger(-1), undefined);
    assert.equal(parsePositiveInteger('-1'), undefined);
  });

  it('rejects words such as "foo bar"', () => {
    assert.equal(parsePositiveInteger('foo bar'), undefined);
  });
});

describe('parseBoolean (API.md §6)', () => {
  it('accepts JSON true and false', () => {
    assert.equal(parseBoolean(true), true);
    assert.equal(parseBoolean(false), false);
  });

  it('accepts the JSON numbers 1 and 0', () => {
    assert.equal(parseBoolean(1), true);
    assert.equal(parseBoolean(0), false);
  });

  it('accepts "true" and "false" in any case', () => {
    assert.equal(parseBoolean('true'), true);
    assert.equal(parseBoolean('TRUE'), true);
    assert.equal(parseBoolean('false'), false);
    assert.equal(parseBoolean('FALSE'), false);
  });

  it('accepts the strings "1" and "0"', () => {
    assert.equal(parseBoolean('1'), true);
    assert.equal(parseBoolean('0'), false);
  });

  it('accepts "yes" and "no" in any case', () => {
    assert.equal(parseBoolean('yes'), true);
    assert.equal(parseBoolean('Yes'), true);
    assert.equal(parseBoolean('No'), false);
    assert.equal(parseBoolean('no'), false);
  });

  it('accepts "on" and "off" in any case', () => {
    assert.equal(parseBoolean('on'), true);
    assert.equal(parseBoolean('ON'), true);
    assert.equal(parseBoolean('OFF'), false);
    assert.equal(parseBoolean('off'), false);
  });

  it('rejects other words such as "maybe" and the empty string', () => {
    assert.equal(parseBoolean('maybe'), undefined);
    assert.equal(parseBoolean(''), undefined);
    assert.equal(parseBoolean('y'), undefined);
  });

  it('rejects numbers other than 1 and 0', () => {
    assert.equal(parseBoolean(2), undefined);
    assert.equal(parseBoolean(-1), undefined);
    assert.equal(parseBoolean('2'), undefined);
  });

  it('rejects null, arrays and objects', () => {
    assert.equal(parseBoolean(null), undefined);
    assert.equal(parseBoolean(undefined), undefined);
    assert.equal(parseBoolean([true]), undefined);
    assert.equal(parseBoolean({}), undefined);
  });
});

describe('parseList (API.md §6)', () => {
  it('accepts a JSON array of strings and numbers', () => {
    assert.deepEqual(parseList(['concerts', 12, '7']), ['concerts', '12', '7']);
  });

  it('accepts repeated name[]= query parameters as parsed by qs', () => {
    const query = qs.parse('categories[]=1&categories[]=concerts');
    assert.deepEqual(parseList(query.categories), ['1', 'concerts']);
  });

  it('accepts a comma-separated string, trimming blanks around items', () => {
    assert.deepEqual(parseList('1, 2,3'), ['1', '2', '3']);
  });

  it('drops empty items of a comma-separated string', () => {
    assert.deepEqual(parseList('1,,2,'), ['1', '2']);
  });

  it('splits comma-separated strings inside an array', () => {
    assert.deepEqual(parseList(['1,2', '3']), ['1', '2', '3']);
  });

  it('accepts a single JSON number as a one-item list', () => {
    assert.deepEqual(parseList(5), ['5']);
  });

  it('accepts a single word as a one-item list', () => {
    assert.deepEqual(parseList('concerts'), ['concerts']);
  });

  it('rejects an object', () => {
    assert.equal(parseList({ a: 1 }), undefined);
  });

  it('rejects nested objects as parsed by qs from name[key]=', () => {
    const query = qs.parse('categories[x]=1');
    assert.equal(parseList(query.categories), undefined);
  });

  it('rejects arrays holding objects, arrays, null or booleans', () => {
    assert.equal(parseList([1, { id: 2 }]), undefined);
    assert.equal(parseList([1, [2]]), undefined);
    assert.equal(parseList([1, null]), undefined);
    assert.equal(parseList([true]), undefined);
  });

  it('rejects null and booleans', () => {
    assert.equal(parseList(null), undefined);
    assert.equal(parseList(true), undefined);
  });
});

describe('parseIdList', () => {
  it('accepts ids from a comma-separated string', () => {
    assert.deepEqual(parseIdList('1, 2,3'), [1, 2, 3]);
  });

  it('accepts ids from a JSON array mixing numbers and digit strings', () => {
    assert.deepEqual(parseIdList([4, '5']), [4, 5]);
  });

  it('accepts a single JSON number', () => {
    assert.deepEqual(parseIdList(9), [9]);
  });

  it('rejects a list containing a non-id word', () => {
    assert.equal(parseIdList('1,a'), undefined);
  });

  it('rejects a list containing zero, a negative or a decimal', () => {
    assert.equal(parseIdList('1,0'), undefined);
    assert.equal(parseIdList([-1]), undefined);
    assert.equal(parseIdList('1.5'), undefined);
  });

  it('rejects an object', () => {
    assert.equal(parseIdList({ 0: 1 }), undefined);
  });
});

describe('parseNonEmptyString (API.md §6)', () => {
  it('returns the string trimmed', () => {
    assert.equal(parseNonEmptyString('  Jazz night '), 'Jazz night');
  });

  it('rejects the empty string', () => {
    assert.equal(parseNonEmptyString(''), undefined);
  });

  it('rejects a string of blanks', () => {
    assert.equal(parseNonEmptyString('   '), undefined);
    assert.equal(parseNonEmptyString('\t\n'), undefined);
  });

  it('rejects numbers, null, arrays and objects', () => {
    assert.equal(parseNonEmptyString(12), undefined);
    assert.equal(parseNonEmptyString(null), undefined);
    assert.equal(parseNonEmptyString(['a']), undefined);
    assert.equal(parseNonEmptyString({}), undefined);
  });
});

describe('parseHttpUrl', () => {
  it('accepts an http URL with a path', () => {
    assert.equal(parseHttpUrl('http://example.com/events/jazz'), 'http://example.com/events/jazz');
  });

  it('accepts an https URL with a port, path and query', () => {
    assert.equal(parseHttpUrl('https://example.com:8443/a/b?x=1'), 'https://example.com:8443/a/b?x=1');
  });

  it('returns the URL trimmed', () => {
    assert.equal(parseHttpUrl('  https://example.com/  '), 'https://example.com/');
  });

  it('rejects a bare word such as "foo"', () => {
    assert.equal(parseHttpUrl('foo'), undefined);
  });

  it('rejects a relative path such as "/foo/bar"', () => {
    assert.equal(parseHttpUrl('/foo/bar'), undefined);
  });

  it('rejects javascript: URLs', () => {
    assert.equal(parseHttpUrl('javascript:alert(1)'), undefined);
  });

  it('rejects other schemes such as ftp://x and mailto:', () => {
    assert.equal(parseHttpUrl('ftp://x'), undefined);
    assert.equal(parseHttpUrl('mailto:someone@example.com'), undefined);
  });

  it('rejects an http URL without a host', () => {
    assert.equal(parseHttpUrl('http://'), undefined);
  });

  it('rejects non-strings', () => {
    assert.equal(parseHttpUrl(null), undefined);
    assert.equal(parseHttpUrl(42), undefined);
  });
});

describe('parseNumber', () => {
  it('accepts finite JSON numbers', () => {
    assert.equal(parseNumber(1.5), 1.5);
    assert.equal(parseNumber(-3), -3);
    assert.equal(parseNumber(0), 0);
  });

  it('accepts numeric strings, including signs, leading dots and exponents', () => {
    assert.equal(parseNumber('2.25'), 2.25);
    assert.equal(parseNumber('-3'), -3);
    assert.equal(parseNumber('+4'), 4);
    assert.equal(parseNumber('-.5'), -0.5);
    assert.equal(parseNumber('1e3'), 1000);
    assert.equal(parseNumber(' 7 '), 7);
  });

  it('rejects non-finite JSON numbers', () => {
    assert.equal(parseNumber(Number.NaN), undefined);
    assert.equal(parseNumber(Number.POSITIVE_INFINITY), undefined);
  });

  it('rejects words, empty strings, hexadecimal and malformed numbers', () => {
    assert.equal(parseNumber('abc'), undefined);
    assert.equal(parseNumber(''), undefined);
    assert.equal(parseNumber('Infinity'), undefined);
    assert.equal(parseNumber('0x10'), undefined);
    assert.equal(parseNumber('1.2.3'), undefined);
  });

  it('rejects null, booleans and arrays', () => {
    assert.equal(parseNumber(null), undefined);
    assert.equal(parseNumber(true), undefined);
    assert.equal(parseNumber([1]), undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRORS } from '../../src/errors.js';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { en } from '../../src/i18n/messages/en.js';
import { catalogues } from '../../src/i18n/messages/index.js';
import { translate } from '../../src/i18n/translate.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  it('there is one catalogue per content language', () => {
    assert.deepEqual(Object.keys(catalogues).sort(), [...LANGUAGES].sort());
  });

  for (const lang of LANGUAGES) {
    it(`${lang} has every key of the English catalogue, with the same placeholders`, () => {
      const catalogue = catalogues[lang] as Record<string, unknown>;
      for (const key of Object.keys(en)) {
        assert.equal(typeof catalogue[key], 'string', `${lang} misses ${key}`);
        assert.notEqual(catalogue[key], '', `${lang}.${key} is empty`);
        assert.deepEqual(
          placeholders(catalogue[key] as string),
          placeholders(en[key as keyof typeof en]),
          `${lang}.${key}`,
        );
      }
      assert.deepEqual(Object.keys(catalogue).sort(), Object.keys(en).sort(), `${lang} has keys English lacks`);
    });
  }

  it('every language but English really translates the error messages', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      assert.notEqual(translate(lang, 'rest_no_route'), en.rest_no_route, lang);
      assert.notEqual(translate(lang, 'cost_free'), '', lang);
    }
  });

  it('every error code of the registry has a message', () => {
    for (const [code, entry] of Object.entries(ERRORS)) assert.ok(entry.message in en, code);
  });
});

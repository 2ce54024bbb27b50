import type { Language } from '../languages.js';
import type { Catalogue } from './en.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fi } from './fi.js';
import { fr } from './fr.js';
import { hu } from './hu.js';
import { it } from './it.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { ptBr } from './pt-br.js';
import { ro } from './ro.js';
import { sv } from './sv.js';

/** One catalogue per language (API.md §15). */
export const catalogues: Readonly<Record<Language, Catalogue>> = {
  nl,
  en,
  fi,
  fr,
  de,
  hu,
  it,
  pl,
  'pt-br': ptBr,
  ro,
  es,
  sv,
};

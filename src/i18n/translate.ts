import type { Language } from './languages.js';
import { catalogues } from './messages/index.js';
import type { MessageKey } from './messages/en.js';

export type MessageVars = Readonly<Record<string, string | number>>;

/** The message `key` in `lang`, with `{name}` placeholders filled from `vars`. */
export function translate(lang: Language, key: MessageKey, vars: MessageVars = {}): string {
  const template = catalogues[lang][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

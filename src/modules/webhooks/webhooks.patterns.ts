import { ITEM_ACTIONS, ITEM_TYPES } from '../../changes/change-set.js';

/**
 * Event patterns of a subscription (API.md §22): `{type}.{action}`, `{type}.*` (every action of a
 * type) or `*` (everything).
 */
const PATTERNS: ReadonlySet<string> = new Set([
  '*',
  ...ITEM_TYPES.flatMap((type) => [`${type}.*`, ...ITEM_ACTIONS.map((action) => `${type}.${action}`)]),
]);

export function isPattern(value: string): boolean {
  return PATTERNS.has(value);
}

/** Whether a subscription with these patterns wants `type` (e.g. `event.updated`). */
export function wants(patterns: readonly string[], type: string): boolean {
  const kind = type.slice(0, type.indexOf('.'));
  return patterns.some((pattern) => pattern === '*' || pattern === type || pattern === `${kind}.*`);
}

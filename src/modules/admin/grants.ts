import { randomBytes } from 'node:crypto';
import type { Caller } from '../../auth/caller.js';

/**
 * The editor writes and reads through the REST API itself (app.inject), so every rule of the API
 * applies to it unchanged (API.md §23.2: one rule set). The signed-in user is handed to that request
 * as a single-use grant: `Authorization: CalendarEditor {nonce}`, a random nonce known only inside
 * this process and deleted when used. Requests from outside cannot produce one.
 */
export const GRANT_SCHEME = /^CalendarEditor ([A-Za-z0-9_-]{43})$/;

const grants = new Map<string, Caller>();

export function grantFor(caller: Caller): string {
  const nonce = randomBytes(32).toString('base64url');
  grants.set(nonce, caller);
  return nonce;
}

/** The caller of a grant, once; undefined for anything else. */
export function takeGrant(value: string): Caller | undefined {
  const caller = grants.get(value);
  grants.delete(value);
  return caller;
}

/** A grant not taken (the request failed before authentication) is withdrawn. */
export function withdrawGrant(value: string): void {
  grants.delete(value);
}

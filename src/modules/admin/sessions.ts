import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashApplicationPassword } from '../../auth/passwords.js';
import { isRole } from '../../auth/capabilities.js';
import type { Caller } from '../../auth/caller.js';
import type { Db } from '../../db/schema.js';
import * as repo from './sessions.repository.js';

/** API.md §23.2: a session ends after 12 h unused or 7 days after sign-in. */
export const IDLE_SECONDS = 12 * 3600;
export const MAX_AGE_SECONDS = 7 * 24 * 3600;
/** `seen_at` is written at most this often: an editor's page views need not each be a write. */
const TOUCH_EVERY_SECONDS = 300;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
/** 256 random bits (the contract asks for at least 128). */
export const newToken = () => randomBytes(32).toString('base64url');

export interface Session {
  readonly tokenHash: string;
  readonly caller: Caller;
  readonly csrf: string;
}

/** Signs in with a login and one of its application passwords; undefined when they do not match (§4). */
export async function signIn(
  db: Db,
  login: string,
  password: string,
  now: number,
): Promise<{ token: string; session: Session } | undefined> {
  if (login === '' || password === '' || `${login}${password}`.includes('\0')) return undefined;
  const found = await repo.findSignIn(db, login, hashApplicationPassword(password));
  if (!found || !isRole(found.role)) return undefined;
  const token = newToken();
  const csrf = newToken();
  await repo.insertSession(db, {
    token_hash: hashToken(token),
    app_password_id: found.app_password_id,
    csrf,
    created_at: now,
  });
  await repo.deleteStaleSessions(db, now - MAX_AGE_SECONDS, now - IDLE_SECONDS);
  return {
    token,
    session: {
      tokenHash: hashToken(token),
      caller: { userId: found.user_id, login: found.login, role: found.role },
      csrf,
    },
  };
}

/**
 * The session of a cookie token, with the user's current role; undefined when unknown, expired,
 * or its application password or user is gone (API.md §23.2).
 */
export async function sessionOf(db: Db, token: string | undefined, now: number): Promise<Session | undefined> {
  if (token === undefined || token === '' || token.length > 100) return undefined;
  const tokenHash = hashToken(token);
  const row = await repo.findSession(db, tokenHash);
  if (!row || !isRole(row.role)) return undefined;
  if (row.created_at + MAX_AGE_SECONDS <= now || row.seen_at + IDLE_SECONDS <= now) {
    await repo.deleteSession(db, tokenHash);
    return undefined;
  }
  if (now - row.seen_at >= TOUCH_EVERY_SECONDS) await repo.touchSession(db, tokenHash, now);
  return { tokenHash, caller: { userId: row.user_id, login: row.login, role: row.role }, csrf: row.csrf };
}

export async function signOut(db: Db, session: Session): Promise<void> {
  await repo.deleteSession(db, session.tokenHash);
}

/** The sign-in form's CSRF token, bound to the pre-session cookie (API.md §23.2). */
export function preSessionCsrf(preSession: string): string {
  return createHmac('sha256', preSession).update('calendar-sign-in').digest('base64url');
}

export function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

import { isRole, ROLES, type Role } from '../../auth/capabilities.js';
import type { Caller } from '../../auth/caller.js';
import { generateApplicationPassword, hashApplicationPassword } from '../../auth/passwords.js';
import type { VersionedCache } from '../../cache/lru.js';
import type { Db } from '../../db/schema.js';
import * as users from './users.repository.js';

export class UserError extends Error {}

const LOGIN = /^[A-Za-z0-9._@-]{1,60}$/;

function requireRole(role: string): Role {
  if (!isRole(role)) throw new UserError(`unknown role "${role}" (roles: ${ROLES.join(', ')})`);
  return role;
}

async function requireUser(db: Db, login: string): Promise<users.UserRow> {
  const user = await users.findUserByLogin(db, login);
  if (!user) throw new UserError(`no user with login "${login}"`);
  return user;
}

/**
 * Credentials already found, by password hash, valid while the data version they were read under
 * is current, or `stillValid` says that the changes since then cannot have touched them.
 */
export interface CredentialCache {
  rows: VersionedCache<users.CredentialRow>;
  version: string;
  stillValid?: (storedUnder: string) => boolean;
}

/**
 * Resolves HTTP credentials to a caller; undefined when they match no application password.
 * Only found credentials are cached: every change to users or application passwords changes the
 * data version (SQLite's data_version, PostgreSQL's trigger of migration 0009), so a revoked
 * password or a changed role is seen by the next request.
 */
export async function authenticate(
  db: Db,
  login: string | null,
  password: string,
  cache?: CredentialCache,
): Promise<Caller | undefined> {
  const hash = hashApplicationPassword(password);
  let credential = cache?.rows.get(hash, cache.version, cache.stillValid);
  if (!credential) {
    credential = await users.findCredential(db, hash);
    if (credential && cache) cache.rows.set(hash, cache.version, credential);
  }
  if (!credential || !isRole(credential.role)) return undefined;
  if (login !== null && credential.login !== login) return undefined;
  return { userId: credential.user_id, login: credential.login, role: credential.role };
}

export async function createUser(
  db: Db,
  login: string,
  role: string,
  now: number,
): Promise<{ id: number; password: string }> {
  if (!LOGIN.test(login)) throw new UserError(`invalid login "${login}" (letters, digits and . _ @ - only)`);
  const checkedRole = requireRole(role);
  return db.transaction().execute(async (trx) => {
    if (await users.findUserByLogin(trx, login)) throw new UserError(`a user with login "${login}" already exists`);
    const id = await users.insertUser(trx, login, checkedRole, now);
    const password = generateApplicationPassword();
    await users.insertAppPassword(trx, id, 'initial', hashApplicationPassword(password), now);
    return { id, password };
  });
}

export async function createAppPassword(db: Db, login: string, name: string, now: number): Promise<string> {
  const user = await requireUser(db, login);
  const password = generateApplicationPassword();
  await users.insertAppPassword(db, user.id, name, hashApplicationPassword(password), now);
  return password;
}

export async function revokeAppPassword(db: Db, login: string, id: number): Promise<void> {
  const user = await requireUser(db, login);
  if (!(await users.deleteAppPassword(db, user.id, id)))
    throw new UserError(`user "${login}" has no application password ${id}`);
}

export async function listAppPasswords(db: Db, login: string): Promise<users.AppPasswordRow[]> {
  return users.listAppPasswords(db, (await requireUser(db, login)).id);
}

export async function changeRole(db: Db, login: string, role: string): Promise<void> {
  const user = await requireUser(db, login);
  await users.updateUserRole(db, user.id, requireRole(role));
}

export async function deleteUser(db: Db, login: string): Promise<void> {
  await users.deleteUser(db, (await requireUser(db, login)).id);
}

export const listUsers = users.listUsers;

/**
 * Start-up bootstrap (API.md §2): with CALENDAR_ADMIN_PASSWORD, user `admin` exists and that string
 * is one of its application passwords; on an empty database without it, `admin` is created with a
 * random password, returned so the caller can print it once.
 */
export async function ensureAdmin(db: Db, adminPassword: string | undefined, now: number): Promise<string | undefined> {
  if (adminPassword !== undefined) {
    await db.transaction().execute(async (trx) => {
      const existing = await users.findUserByLogin(trx, 'admin');
      const id = existing ? existing.id : await users.insertUser(trx, 'admin', 'administrator', now);
      if (existing && existing.role !== 'administrator') await users.updateUserRole(trx, id, 'administrator');
      const hash = hashApplicationPassword(adminPassword);
      if (!(await users.appPasswordExists(trx, hash)))
        await users.insertAppPassword(trx, id, 'CALENDAR_ADMIN_PASSWORD', hash, now);
    });
    return undefined;
  }
  if ((await users.countUsers(db)) > 0) return undefined;
  return (await createUser(db, 'admin', 'administrator', now)).password;
}

import { compiledOnce, type Slots } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

export interface UserRow {
  id: number;
  login: string;
  role: string;
  created_at: number;
}

export async function findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
}

export async function listUsers(db: Executor): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('id').execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertUser(db: Executor, login: string, role: string, now: number): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ login, role, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUserRole(db: Executor, id: number, role: string): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
}

export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export interface CredentialRow {
  user_id: number;
  login: string;
  role: string;
}

/** Read on every authenticated request. */
const credentialByHash = compiledOnce((db, slot: Slots<[hash: string]>) =>
  db
    .selectFrom('app_passwords')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .select(['users.id as user_id', 'users.login', 'users.role'])
    .where('app_passwords.hash', '=', slot(0)),
);

export async function findCredential(db: Executor, hash: string): Promise<CredentialRow | undefined> {
  return (await credentialByHash(db, [hash]))[0];
}

export async function insertAppPassword(
  db: Executor,
  userId: number,
  name: string,
  hash: string,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('app_passwords')
    .values({ user_id: userId, name, hash, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function appPasswordExists(db: Executor, hash: string): Promise<boolean> {
  const row = await db.selectFrom('app_passwords').select('id').where('hash', '=', hash).executeTakeFirst();
  return row !== undefined;
}

export interface AppPasswordRow {
  id: number;
  name: string;
  created_at: number;
}

export async function listAppPasswords(db: Executor, userId: number): Promise<AppPasswordRow[]> {
  return db
    .selectFrom('app_passwords')
    .select(['id', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export async function deleteAppPassword(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('app_passwords')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

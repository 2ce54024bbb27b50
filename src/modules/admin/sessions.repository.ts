import type { Executor } from '../../db/schema.js';

/** An application password and its user, for signing in (API.md §23.2). */
export interface SignInRow {
  app_password_id: number;
  user_id: number;
  login: string;
  role: string;
}

export async function findSignIn(db: Executor, login: string, hash: string): Promise<SignInRow | undefined> {
  return db
    .selectFrom('app_passwords')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .select(['app_passwords.id as app_password_id', 'users.id as user_id', 'users.login', 'users.role'])
    .where('app_passwords.hash', '=', hash)
    .where('users.login', '=', login)
    .executeTakeFirst();
}

export interface SessionRow extends SignInRow {
  csrf: string;
  created_at: number;
  seen_at: number;
}

/** A session with its password and user as they are now: none once either is gone. */
export async function findSession(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom('editor_sessions')
    .innerJoin('app_passwords', 'app_passwords.id', 'editor_sessions.app_password_id')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .select([
      'editor_sessions.app_password_id',
      'editor_sessions.csrf',
      'editor_sessions.created_at',
      'editor_sessions.seen_at',
      'users.id as user_id',
      'users.login',
      'users.role',
    ])
    .where('editor_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ? { ...row, created_at: Number(row.created_at), seen_at: Number(row.seen_at) } : undefined;
}

export async function insertSession(
  db: Executor,
  row: { token_hash: string; app_password_id: number; csrf: string; created_at: number },
): Promise<void> {
  await db
    .insertInto('editor_sessions')
    .values({ ...row, seen_at: row.created_at })
    .execute();
}

export async function touchSession(db: Executor, tokenHash: string, now: number): Promise<void> {
  await db.updateTable('editor_sessions').set({ seen_at: now }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('editor_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Sessions past their limits, and those whose password is gone, are removed now and then. */
export async function deleteStaleSessions(db: Executor, createdBefore: number, seenBefore: number): Promise<void> {
  await db
    .deleteFrom('editor_sessions')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', createdBefore),
        eb('seen_at', '<', seenBefore),
        eb.not(
          eb.exists(
            eb
              .selectFrom('app_passwords')
              .select('id')
              .whereRef('app_passwords.id', '=', 'editor_sessions.app_password_id'),
          ),
        ),
      ]),
    )
    .execute();
}

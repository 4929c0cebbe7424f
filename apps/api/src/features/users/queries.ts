import { sql, type Kysely, type Transaction } from 'kysely';
import type { Role } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { usernamesLookAlike } from './skeleton';

/** Whether another user than `exceptId` has this username, ignoring case. */
export async function usernameTaken(db: Kysely<Database>, username: string, exceptId?: string) {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql<boolean>`lower(username) = lower(${username})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return Boolean(await query.executeTakeFirst());
}

/**
 * Another user's username (than `exceptId`'s) that looks like this one (the same TR39 skeleton, skeleton.ts), or
 * undefined. Read over all usernames: a deployment has thousands of users at most, and a person adds them one by
 * one.
 */
export async function lookAlikeUsername(db: Kysely<Database>, username: string, exceptId?: string) {
  let query = db.selectFrom('users').select('username');
  if (exceptId) query = query.where('id', '<>', exceptId);
  const others = await query.execute();
  return others.find((other) => usernamesLookAlike(other.username, username))?.username;
}

export function findUser(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization of a user, if the user exists. */
export function userOrganization(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').select('organization_id').where('id', '=', id).executeTakeFirst();
}

export function insertUser(
  trx: Transaction<Database>,
  user: { organizationId: string; username: string; passwordHash: string; role: Role },
) {
  return trx
    .insertInto('users')
    .values({
      organization_id: user.organizationId,
      username: user.username,
      password_hash: user.passwordHash,
      role: user.role,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Changes a user's name and role and, with `passwordHash`, the password; `endSessions` then ends the user's
 * sessions too.
 */
export async function updateUser(
  trx: Transaction<Database>,
  id: string,
  change: { username: string; role: Role; passwordHash: string | null; endSessions: boolean },
): Promise<void> {
  const { username, role, passwordHash, endSessions } = change;
  await trx
    .updateTable('users')
    .set({
      username,
      role,
      ...(passwordHash
        ? {
            password_hash: passwordHash,
            ...(endSessions ? { tokens_valid_after: sql<Date>`now()` } : {}),
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteUser(trx: Transaction<Database>, id: string): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', id).execute();
}

/** The password hash of a user that exists. */
export function passwordHashOf(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
}

export async function setPassword(
  trx: Transaction<Database>,
  id: string,
  passwordHash: string,
): Promise<void> {
  await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

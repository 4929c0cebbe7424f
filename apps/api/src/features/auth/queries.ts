import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { clientErrorReportSchema } from '@portal/contracts/auth';
import type { Database } from '../../db/schema';
import { revokeProviderStateOf } from './oidc-adapter';

/** The user signing in by this username (ignoring case and surrounding spaces), with the password hash. */
export function userForSignIn(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'password_hash', 'organization_id'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.trim().toLowerCase()))
    .executeTakeFirst();
}

/**
 * Signs a user out everywhere: tokens issued up to this second are refused from now on; sessions, grants and
 * refresh tokens end.
 */
export async function signOut(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ tokens_valid_after: new Date(Math.ceil(Date.now() / 1000) * 1000) })
    .where('id', '=', userId)
    .execute();
  await revokeProviderStateOf(trx, userId);
}

/** Keeps an error the browser reported. */
export async function recordClientError(
  db: Kysely<Database>,
  report: z.output<typeof clientErrorReportSchema>,
): Promise<void> {
  await db
    .insertInto('client_errors')
    .values({ user_id: null, message: report.message, detail: JSON.stringify(report) })
    .execute();
}

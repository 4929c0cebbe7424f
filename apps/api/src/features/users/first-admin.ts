import { sql, type Kysely } from 'kysely';
import { generateLinkKey } from '@portal/contracts/forms/organization';
import { createUserBodySchema } from '@portal/contracts/users';
import type { Database } from '../../db/schema';
import { audit } from '../audit/audit';
import { hashPassword } from '../auth/passwords';

/** The provider organization a real deployment starts with; its SystemAdmin may rename it later. */
export const DEFAULT_PROVIDER_NAME = 'Scrubber Service Provider';

/** The username and password rules of every user (packages/contracts), so the first admin is no exception. */
const credentialsSchema = createUserBodySchema.pick({ username: true, password: true });

export type FirstAdminOutcome =
  | { created: true; userId: string; organizationId: string; username: string }
  | { created: false; reason: 'exists'; message: string }
  | { created: false; reason: 'invalid'; message: string };

/**
 * The first SystemAdmin of a deployment without the demo (docs/decisions/0063-audited-changes.md): in the provider
 * organization (made when there is none), only while no SystemAdmin exists, never replacing anyone. The username and
 * password follow the rules of every user; a weak password is refused with the rule it breaks.
 */
export async function createFirstAdministrator(
  db: Kysely<Database>,
  input: { username: string; password: string; organizationName?: string; by: string },
): Promise<FirstAdminOutcome> {
  if (await systemAdminExists(db))
    return {
      created: false,
      reason: 'exists',
      message: 'A SystemAdmin exists already: nothing was changed.',
    };
  const parsed = credentialsSchema.safeParse({ username: input.username, password: input.password });
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    return { created: false, reason: 'invalid', message: messages.join('; ') };
  }
  const { username, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx): Promise<FirstAdminOutcome> => {
    // Checked again inside the transaction, with the users locked: two starts at once make one admin.
    await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    if (await systemAdminExists(trx))
      return {
        created: false,
        reason: 'exists',
        message: 'A SystemAdmin exists already: nothing was changed.',
      };
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where(sql<boolean>`lower(username) = lower(${username})`)
      .executeTakeFirst();
    if (taken)
      return { created: false, reason: 'invalid', message: `username: ${username} is taken by another user` };
    let provider = await trx
      .selectFrom('organizations')
      .select('id')
      .where('is_provider', '=', true)
      .executeTakeFirst();
    if (!provider) {
      const name = input.organizationName?.trim() || DEFAULT_PROVIDER_NAME;
      provider = await trx
        .insertInto('organizations')
        .values({
          name,
          email: null,
          phone: null,
          priority: true,
          is_provider: true,
          link_key: generateLinkKey(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(trx, {
        userId: null,
        organizationId: null,
        action: 'organization.create',
        subject: provider.id,
        detail: { name, by: input.by },
      });
    }
    const user = await trx
      .insertInto('users')
      .values({ organization_id: provider.id, username, password_hash: passwordHash, role: 'SystemAdmin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(trx, {
      userId: null,
      organizationId: null,
      action: 'user.create',
      subject: user.id,
      detail: { username, role: 'SystemAdmin', organizationId: provider.id, by: input.by },
    });
    return { created: true, userId: user.id, organizationId: provider.id, username };
  });
}

async function systemAdminExists(db: Kysely<Database>): Promise<boolean> {
  return Boolean(
    await db.selectFrom('users').select('id').where('role', '=', 'SystemAdmin').executeTakeFirst(),
  );
}

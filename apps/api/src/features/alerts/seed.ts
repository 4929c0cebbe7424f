import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The demo users' addresses for alert e-mails (their organization's domain), so the first start's alerts show in
 * the outbox (/admin/outbox) as what would have been sent. Their settings stay the defaults. Kept when set.
 */
export async function seedDemoAlertAddresses(db: Kysely<Database>): Promise<void> {
  const users = await db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.username', 'o.email', 's.user_id as subscribed'])
    .execute();
  for (const user of users) {
    const domain = user.email?.split('@')[1];
    if (user.subscribed || !domain) continue;
    await db
      .insertInto('alert_subscriptions')
      .values({ user_id: user.id, email: `${user.username}@${domain}`, settings: null })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeAlertSettings, type AlertSettings } from '@portal/contracts/alerts';
import type { Database } from '../../db/schema';
import { isUuid } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { effectiveSettings } from './recipients';

/**
 * Unsubscribe links (docs/decisions/0091-alerts.md): every alert e-mail names a link that stops the recipient's
 * alert e-mails without signing in, and carries it as List-Unsubscribe with List-Unsubscribe-Post (RFC 8058), so a
 * mail program's own "Unsubscribe" works in one click. The token is the user's id and an HMAC-SHA256 of it under a
 * key made once and kept in the settings table (every process signs and checks with the same key); it only ever
 * stops e-mails, so it does not expire. Opening the link changes nothing (mail scanners open links): the page asks,
 * and a POST stops.
 */

const SETTINGS_KEY = 'alerts.unsubscribe-key';
const PURPOSE = 'alert-email-unsubscribe';

const keys = new WeakMap<Kysely<Database>, Promise<Buffer>>();

async function loadOrCreateKey(db: Kysely<Database>): Promise<Buffer> {
  const read = async () =>
    (await db.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst())
      ?.value as unknown;
  const decode = (value: unknown) =>
    Buffer.from(
      ((typeof value === 'string' ? JSON.parse(value) : value) as { key: string }).key,
      'base64url',
    );
  const existing = await read();
  if (existing !== undefined) return decode(existing);
  // Two processes starting at once: the first insert wins and both use its key.
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value: JSON.stringify({ key: randomBytes(32).toString('base64url') }) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return decode(await read());
}

/** The unsubscribe key of this database, read (or made) once per process. */
export function unsubscribeKey(db: Kysely<Database>): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = loadOrCreateKey(db);
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, userId: string) =>
  createHmac('sha256', key).update(`${PURPOSE}:${userId}`).digest('base64url');

/** The user's token: `<user id>.<HMAC>`. */
export const unsubscribeToken = (key: Buffer, userId: string) => `${userId}.${mac(key, userId)}`;

/** The user id a token was made for, or null when it is not one of ours. */
export function verifyUnsubscribeToken(key: Buffer, token: string): string | null {
  const [userId, signature, ...rest] = token.split('.');
  if (!userId || !signature || rest.length || !isUuid(userId)) return null;
  const expected = Buffer.from(mac(key, userId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

/** The links of a user's e-mails: the page that asks (in the text), and the one-click address (the header). */
export function unsubscribeLinks(publicUrl: string, token: string): { page: string; oneClick: string } {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    page: `${base(publicUrl)}/unsubscribe?${query}`,
    oneClick: `${base(publicUrl)}/api/alerts/unsubscribe?${query}`,
  };
}

/** What the page shows before asking: the address and whether e-mails are on. */
export async function unsubscribeStatus(
  db: Kysely<Database>,
  userId: string,
): Promise<{ email: string | null; emailsOn: boolean } | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .leftJoin('organization_alert_defaults as d', 'd.organization_id', 'u.organization_id')
    .select(['u.id', 's.email', 's.settings as own', 'd.settings as defaults'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const { settings } = effectiveSettings(row.own, row.defaults);
  return { email: row.email ?? null, emailsOn: Boolean(row.email) && settings.channels.includes('email') };
}

/**
 * Stops the user's alert e-mails: their settings in force (their own, or their organization's defaults, which
 * become their own) without the e-mail channel; the rest (the bell, ships, event types) stays. Audited as the user,
 * in the change's transaction. Returns false when e-mails were off already (nothing is written).
 */
export async function stopAlertEmails(db: Kysely<Database>, userId: string): Promise<boolean> {
  const user = await db
    .selectFrom('users as u')
    .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .leftJoin('organization_alert_defaults as d', 'd.organization_id', 'u.organization_id')
    .select(['u.id', 'u.organization_id', 's.email', 's.settings as own', 'd.settings as defaults'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
  const { settings, source } = effectiveSettings(user.own, user.defaults);
  if (!settings.channels.includes('email')) return false;
  const next: AlertSettings = normalizeAlertSettings({
    ...settings,
    channels: settings.channels.filter((c) => c !== 'email'),
  });
  await auditedChange(
    db,
    { userId, organizationId: user.organization_id },
    async (trx) => {
      await trx
        .insertInto('alert_subscriptions')
        .values({ user_id: userId, email: user.email, settings: JSON.stringify(next) })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ settings: JSON.stringify(next), updated_on: new Date() }),
        )
        .execute();
    },
    {
      action: 'alert-subscription.unsubscribe',
      subject: userId,
      detail: { from: source, channels: next.channels },
    },
  );
  return true;
}

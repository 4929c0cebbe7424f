import { sql, type Kysely } from 'kysely';
import {
  DEFAULT_ALERT_SETTINGS,
  DEFAULT_REMINDER_HOURS,
  type AlertDeliveryFailure,
  type AlertSubscription,
  type OrganizationAlertDefaults,
  type OutboxList,
  type OutboxMail,
} from '@portal/contracts/alerts';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { effectiveSettings } from './recipients';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The caller's e-mails that failed in the last 30 days, newest first: the profile says so. */
export async function deliveryFailuresOf(
  db: Kysely<Database>,
  userId: string,
): Promise<AlertDeliveryFailure[]> {
  const rows = await db
    .selectFrom('alert_deliveries')
    .select(['address', 'last_error', 'created_on', 'subject'])
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .where('status', '=', 'failed')
    .where('created_on', '>=', new Date(Date.now() - 30 * 86_400_000))
    .orderBy('created_on', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => ({
    address: r.address ?? '',
    error: r.last_error ?? 'Unknown error',
    failedOn: new Date(r.created_on).toISOString(),
    subject: r.subject,
  }));
}

/** GET /api/profile/alert-subscription: the caller's settings in force, where they come from, and failures. */
export async function subscriptionOf(db: Kysely<Database>, caller: Caller): Promise<AlertSubscription> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .leftJoin('organization_alert_defaults as d', 'd.organization_id', 'u.organization_id')
    .select(['s.email', 's.settings as own', 'd.settings as defaults'])
    .where('u.id', '=', caller.userId)
    .executeTakeFirstOrThrow();
  const { settings, source } = effectiveSettings(row.own, row.defaults);
  return {
    email: row.email ?? null,
    settings,
    source,
    failures: await deliveryFailuresOf(db, caller.userId),
  };
}

/** GET /api/organizations/{id}/alert-defaults. */
export async function organizationAlertDefaults(
  db: Kysely<Database>,
  organizationId: string,
): Promise<OrganizationAlertDefaults> {
  const row = await db
    .selectFrom('organization_alert_defaults')
    .select(['settings', 'reminder_hours'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const { settings, source } = effectiveSettings(null, row?.settings ?? null);
  return {
    settings: source === 'default' ? DEFAULT_ALERT_SETTINGS : settings,
    isDefault: source === 'default',
    reminderHours: row?.reminder_hours ?? DEFAULT_REMINDER_HOURS,
  };
}

/** GET /api/admin/outbox: every e-mail the portal composed, newest first (SystemAdmin). */
export async function outbox(
  db: Kysely<Database>,
  query: { limit: number; offset: number; status?: OutboxMail['status'] },
  transport: 'smtp' | 'outbox',
): Promise<OutboxList> {
  let base = db
    .selectFrom('alert_deliveries')
    .where('channel', '=', 'email')
    .where('status', 'in', query.status ? [query.status] : ['pending', 'sent', 'failed']);
  if (query.status) base = base.where('status', '=', query.status);
  const [rows, count, failed] = await Promise.all([
    base
      .select([
        'id',
        'idempotency_key',
        'kind',
        'address',
        'subject',
        'text_body',
        'html_body',
        'created_on',
        'sent_on',
        'send_after',
        'status',
        'transport',
        'attempts',
        'last_error',
      ])
      .orderBy('created_on', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('alert_deliveries')
      .where('channel', '=', 'email')
      .where('status', '=', 'failed')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      idempotencyKey: r.idempotency_key,
      kind:
        r.kind === 'digest' || r.kind === 'inspection-pack' || r.kind === 'verifier-invitation'
          ? r.kind
          : 'alert',
      to: r.address ?? '',
      subject: r.subject ?? '',
      text: r.text_body ?? '',
      html: r.html_body ?? '',
      createdOn: iso(r.created_on)!,
      sentOn: iso(r.sent_on),
      sendAfter: r.status === 'pending' ? iso(r.send_after) : null,
      status: r.status as OutboxMail['status'],
      transport: r.transport,
      attempts: r.attempts,
      error: r.last_error,
    })),
    total: Number(count.n),
    transport,
    failed: Number(failed.n),
  };
}

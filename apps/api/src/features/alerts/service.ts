import { sql, type Kysely } from 'kysely';
import {
  ALERT_MESSAGES,
  normalizeAlertSettings,
  outboxResendMessage,
  type AlertSettings,
  type OutboxResendBody,
  type OutboxResendResult,
} from '@portal/contracts/alerts';
import type { Database } from '../../db/schema';
import { badRequest } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo, isSystemAdmin, isUuid, organizationFacilityIds } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { jobQueueOf, type Services } from '../../services';
import { JOB_NAMES, type AlertEmailJob } from '../../jobs/contract';

const M = ALERT_MESSAGES;

/** Every id a known one: the caller's ships (or the organization's), or organizations that exist. */
async function allKnown(ids: readonly string[], count: (ids: string[]) => Promise<number>): Promise<boolean> {
  if (ids.some((id) => !isUuid(id))) return false;
  return (await count([...ids])) === ids.length;
}

/**
 * The caller's own alert settings (or back to the organization's defaults) and the address e-mails go to. A
 * selection names only ships the caller sees; ships by organization are a SystemAdmin's; the e-mail channel needs
 * an address. Audited in the change's transaction.
 */
export async function saveSubscription(
  db: Kysely<Database>,
  caller: Caller,
  body: { email: string | null; settings?: AlertSettings; useDefaults?: true },
): Promise<void> {
  const settings = body.settings && !body.useDefaults ? normalizeAlertSettings(body.settings) : null;
  if (settings) {
    const { ships } = settings;
    if (ships.mode === 'organizations') {
      if (!isSystemAdmin(caller))
        throw badRequest(`settings.ships: ${M.organizationsOnlySystemAdmin}`, {
          'settings.ships': M.organizationsOnlySystemAdmin,
        });
      const known = await allKnown(ships.organizationIds, async (ids) =>
        Number(
          (
            await db
              .selectFrom('organizations')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('id', 'in', ids)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
      if (!known)
        throw badRequest('settings.ships: One of the chosen organizations does not exist', {
          'settings.ships': 'One of the chosen organizations does not exist',
        });
    }
    if (ships.mode === 'selected') {
      const known = await allKnown(ships.facilityIds, async (ids) =>
        Number(
          (
            await db
              .selectFrom('facilities')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('id', 'in', ids)
              .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
      if (!known) throw badRequest(`settings.ships: ${M.unknownShip}`, { 'settings.ships': M.unknownShip });
    }
    if (settings.channels.includes('email') && !body.email)
      throw badRequest(`email: ${M.emailRequired}`, { email: M.emailRequired });
  }
  await auditedChange(
    db,
    caller,
    async (trx) => {
      await trx
        .insertInto('alert_subscriptions')
        .values({
          user_id: caller.userId,
          email: body.email,
          settings: settings ? JSON.stringify(settings) : null,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            email: body.email,
            settings: settings ? JSON.stringify(settings) : null,
            updated_on: new Date(),
          }),
        )
        .execute();
    },
    {
      action: 'alert-subscription.update',
      subject: caller.userId,
      detail: { email: body.email, settings: settings ?? 'organization defaults' },
    },
  );
}

/**
 * An organization's defaults for its users without settings of their own (or back to the portal's), and the hours
 * a report-required event may wait for an acknowledgement. The caller may manage the organization (the route
 * checks it); a selection names only the organization's ships. Audited in the change's transaction.
 */
export async function saveOrganizationAlertDefaults(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  body: { reminderHours: number; settings?: AlertSettings; useDefaults?: true },
): Promise<void> {
  const settings = body.settings && !body.useDefaults ? normalizeAlertSettings(body.settings) : null;
  if (settings?.ships.mode === 'organizations')
    throw badRequest(`settings.ships: ${M.defaultsShips}`, { 'settings.ships': M.defaultsShips });
  if (settings?.ships.mode === 'selected') {
    const known = await allKnown(settings.ships.facilityIds, async (ids) =>
      Number(
        (
          await db
            .selectFrom('facilities')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('id', 'in', ids)
            .where('id', 'in', organizationFacilityIds(db, organizationId))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    const message = "One of the chosen ships is not one of the organization's";
    if (!known) throw badRequest(`settings.ships: ${message}`, { 'settings.ships': message });
  }
  await auditedChange(
    db,
    caller,
    async (trx) => {
      const values = {
        settings: settings ? JSON.stringify(settings) : null,
        reminder_hours: body.reminderHours,
      };
      await trx
        .insertInto('organization_alert_defaults')
        .values({ organization_id: organizationId, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_on: new Date() }))
        .execute();
    },
    {
      action: 'alert-defaults.update',
      subject: organizationId,
      detail: { settings: settings ?? 'portal defaults', reminderHours: body.reminderHours },
    },
  );
}

/** E-mails per e-mail job when failed ones are sent again (the fan-out's jobs hold one alert's e-mails). */
const RESEND_JOB_SIZE = 100;

/**
 * POST /api/admin/outbox/resend (SystemAdmin): failed e-mails back to pending, with the e-mail jobs that send them,
 * in one audited transaction: after an SMTP outage longer than the retries, or an address fixed at the receiving
 * end. Each keeps its Message-ID (its delivery's id), its address and text as composed; only e-mails still failed
 * when asked are taken, so one sent or queued meanwhile is never sent twice.
 */
export async function resendFailedEmails(
  services: Services,
  caller: Caller,
  body: OutboxResendBody,
): Promise<OutboxResendResult> {
  const { db } = services.database;
  const ids = 'ids' in body ? body.ids.filter(isUuid) : null;
  if (ids && ids.length === 0) return { resent: 0, message: outboxResendMessage(0) };
  const resent = await auditedChange(
    db,
    caller,
    async (trx) => {
      let query = trx
        .updateTable('alert_deliveries')
        .set({ status: 'pending' })
        .where('channel', '=', 'email')
        .where('status', '=', 'failed');
      if (ids) query = query.where('id', 'in', ids);
      const rows = await query.returning('id').execute();
      const queued = rows.map((r) => r.id);
      for (let i = 0; i < queued.length; i += RESEND_JOB_SIZE) {
        const job: AlertEmailJob = { deliveryIds: queued.slice(i, i + RESEND_JOB_SIZE) };
        await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.alertEmail, job);
      }
      return queued;
    },
    (queued) => ({
      action: 'alert-email.resend',
      detail: { resent: queued.length, deliveryIds: queued.slice(0, 100) },
    }),
  );
  return { resent: resent.length, message: outboxResendMessage(resent.length) };
}

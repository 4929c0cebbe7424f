import { sql, type Kysely, type Selectable } from 'kysely';
import { monthPackPeriod, packPeriodInstants, previousMonth } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import type { InspectionPacksTable } from '../../db/tables/inspection-packs';
import { jobQueueOf, type Services } from '../../services';
import { usersSeeingFacility } from '../access/policy';
import { JOB_NAMES, type AlertEmailJob, type InspectionPackJob } from '../../jobs/contract';
import { composePackMail, packLink } from './mail';
import { periodOf } from './queries';

/**
 * The monthly packs (docs/decisions/0106-inspection-packs.md): each organization may schedule a ship's pack of the
 * previous calendar month (UTC) for chosen users. The schedule job (with the alert sweep, every
 * ALERTS_SWEEP_SECONDS) queues one pack per ship and month whoever scheduled it; when it is ready, its link goes by
 * e-mail through the alerts' mail path (alert_deliveries and the alert-email job: SMTP, or the embedded outbox).
 */

/** Queues the packs of the previous month that are due at `now`; answers the packs queued. */
export async function queueMonthlyPacks(services: Services, now = new Date()): Promise<number> {
  const { db } = services.database;
  const month = previousMonth(now);
  const days = monthPackPeriod(month)!;
  const { from, to } = packPeriodInstants(days);
  const due = (query: ReturnType<typeof schedules>) =>
    query.where((eb) => eb.or([eb('last_month', 'is', null), eb('last_month', '<', month)]));
  const schedules = (k: Kysely<Database>) => k.selectFrom('inspection_pack_schedules');
  const facilities = await due(schedules(db)).select('facility_id').distinct().execute();
  let queued = 0;
  for (const { facility_id: facilityId } of facilities) {
    await db.transaction().execute(async (trx) => {
      const rows = await due(schedules(trx))
        .select('id')
        .where('facility_id', '=', facilityId)
        .forUpdate()
        .execute();
      if (rows.length === 0) return;
      const inserted = await trx
        .insertInto('inspection_packs')
        .values({
          facility_id: facilityId,
          period_from: from,
          period_to: to,
          scheduled: true,
          requested_by_name: 'Monthly schedule',
        })
        .onConflict((oc) =>
          oc.columns(['facility_id', 'period_from', 'period_to']).where('scheduled', '=', true).doNothing(),
        )
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        const job: InspectionPackJob = { packId: inserted.id };
        await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.inspectionPack, job);
        queued++;
      } else {
        // Another organization's schedule made this month's pack: a ready one is mailed to the new recipients now
        // (once each: the deliveries' keys), one still being built mails everyone when it is ready.
        const existing = await trx
          .selectFrom('inspection_packs')
          .selectAll()
          .where('facility_id', '=', facilityId)
          .where('period_from', '=', from)
          .where('period_to', '=', to)
          .where('scheduled', '=', true)
          .executeTakeFirst();
        if (existing?.state === 'ready') {
          const ship = await trx
            .selectFrom('facilities')
            .select('name')
            .where('id', '=', facilityId)
            .executeTakeFirstOrThrow();
          await mailReadyPack(services, trx, existing, ship.name);
        }
      }
      await trx
        .updateTable('inspection_pack_schedules')
        .set({ last_month: month })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    });
  }
  return queued;
}

/**
 * Writes the e-mails of a ready scheduled pack, inside the transaction that marks it ready, and sends the alert
 * e-mail job that sends them: to the recipients of every schedule of the ship who still see it and gave an address
 * (My profile, Alerts). Each recipient once per pack (the delivery's idempotency key). Answers the e-mails written.
 */
export async function mailReadyPack(
  services: Services,
  trx: Kysely<Database>,
  pack: Selectable<InspectionPacksTable>,
  shipName: string,
): Promise<number> {
  const recipients = await trx
    .selectFrom('users as u')
    .innerJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .select(['u.id', 's.email'])
    .where('s.email', 'is not', null)
    .where('u.id', 'in', usersSeeingFacility(trx, pack.facility_id))
    .where(
      'u.id',
      'in',
      trx
        .selectFrom('inspection_pack_schedules')
        .select(sql<string>`unnest(recipient_ids)`.as('id'))
        .where('facility_id', '=', pack.facility_id),
    )
    .orderBy('u.id')
    .execute();
  if (recipients.length === 0) return 0;
  const ship = await trx
    .selectFrom('facilities')
    .select('imo')
    .where('id', '=', pack.facility_id)
    .executeTakeFirst();
  const mail = composePackMail({
    shipName,
    imo: ship?.imo ?? null,
    period: periodOf(pack),
    originals: pack.originals ?? 0,
    zipBytes: pack.zip_bytes ?? 0,
    pdfSha256: pack.pdf_sha256 ?? '',
    link: packLink(services.config.publicUrl, pack.facility_id, pack.id),
  });
  const ids: string[] = [];
  for (const r of recipients) {
    const row = await trx
      .insertInto('alert_deliveries')
      .values({
        idempotency_key: `inspection-pack:${pack.id}:${r.id}`,
        user_id: r.id,
        channel: 'email',
        kind: 'inspection-pack',
        status: 'pending',
        address: r.email,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) ids.push(row.id);
  }
  if (ids.length) {
    const job: AlertEmailJob = { deliveryIds: ids };
    await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.alertEmail, job);
  }
  return ids.length;
}

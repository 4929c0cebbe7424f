import type { Kysely } from 'kysely';
import {
  INSPECTION_PACK_SCHEDULE_MESSAGES,
  type InspectionPack,
  type InspectionPackSchedule,
} from '@portal/contracts/inspection-packs';
import { packPeriodInstants } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { badRequest, forbidden } from '../../errors';
import { jobQueueOf, type Services } from '../../services';
import type { Caller } from '../access/caller';
import { isSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { JOB_NAMES, type InspectionPackJob } from '../../jobs/contract';
import { findSchedule, presentPack, recipientCandidates, shipName } from './queries';

const actor = (caller: Caller) => ({
  userId: caller.apiKey ? null : caller.userId,
  organizationId: caller.organizationId,
  apiKey: caller.apiKey,
});

/**
 * Queues a pack of the ship and period for the caller (who sees the ship): the row and its build job in one
 * audited transaction, so the job exists exactly when the pack does.
 */
export async function requestPack(
  services: Services,
  caller: Caller,
  facilityId: string,
  period: { from: string; to: string },
): Promise<InspectionPack> {
  const { db } = services.database;
  const { from, to } = packPeriodInstants(period);
  const row = await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const inserted = await trx
        .insertInto('inspection_packs')
        .values({
          facility_id: facilityId,
          period_from: from,
          period_to: to,
          requested_by: caller.apiKey ? null : caller.userId,
          requested_by_name: caller.apiKey ? `API key ${caller.apiKey.name}` : caller.username,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const job: InspectionPackJob = { packId: inserted.id };
      await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.inspectionPack, job);
      return inserted;
    },
    (inserted) => ({
      action: 'inspection-pack.create',
      subject: inserted.id,
      detail: { facilityId, from: period.from, to: period.to },
    }),
  );
  return presentPack(row, await shipName(db, facilityId));
}

/** The caller's organization's monthly pack of the ship, and whom it may name. */
export async function scheduleOf(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
): Promise<InspectionPackSchedule> {
  const [schedule, candidates] = await Promise.all([
    findSchedule(db, facilityId, caller.organizationId),
    recipientCandidates(db, caller, facilityId),
  ]);
  const chosen = new Set(schedule?.recipient_ids ?? []);
  return {
    facilityId,
    enabled: Boolean(schedule),
    recipients: candidates.filter((c) => chosen.has(c.userId)),
    candidates,
    lastMonth: schedule?.last_month ?? null,
  };
}

/** Setting an organization's schedule is for its administrators (and a SystemAdmin), not for a User or a key. */
function requireScheduleAdmin(caller: Caller): void {
  if (caller.apiKey || (caller.role !== 'UserAdmin' && !isSystemAdmin(caller)))
    throw forbidden('Only an administrator may schedule the monthly inspection pack');
}

/**
 * Sets the caller's organization's monthly pack of the ship with its recipients: users of the organization (any, for
 * a SystemAdmin) who see the ship. Audited in its transaction. The first pack, of the previous month, is queued by
 * the next schedule job.
 */
export async function saveSchedule(
  services: Services,
  caller: Caller,
  facilityId: string,
  recipientIds: string[],
): Promise<InspectionPackSchedule> {
  requireScheduleAdmin(caller);
  const { db } = services.database;
  const allowed = new Set((await recipientCandidates(db, caller, facilityId)).map((c) => c.userId));
  const ids = [...new Set(recipientIds)];
  if (ids.some((id) => !allowed.has(id)))
    throw badRequest(INSPECTION_PACK_SCHEDULE_MESSAGES.recipientNotAllowed, {
      recipientIds: INSPECTION_PACK_SCHEDULE_MESSAGES.recipientNotAllowed,
    });
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx
        .insertInto('inspection_pack_schedules')
        .values({
          facility_id: facilityId,
          organization_id: caller.organizationId,
          recipient_ids: ids,
          created_by: caller.userId,
        })
        .onConflict((oc) =>
          oc
            .columns(['facility_id', 'organization_id'])
            .doUpdateSet({ recipient_ids: ids, updated_on: new Date() }),
        )
        .execute();
    },
    {
      action: 'inspection-pack-schedule.update',
      subject: facilityId,
      detail: { organizationId: caller.organizationId, recipientIds: ids },
    },
  );
  return scheduleOf(db, caller, facilityId);
}

/** Stops the caller's organization's monthly pack of the ship (packs made stay). */
export async function deleteSchedule(
  services: Services,
  caller: Caller,
  facilityId: string,
): Promise<InspectionPackSchedule> {
  requireScheduleAdmin(caller);
  const { db } = services.database;
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx
        .deleteFrom('inspection_pack_schedules')
        .where('facility_id', '=', facilityId)
        .where('organization_id', '=', caller.organizationId)
        .execute();
    },
    {
      action: 'inspection-pack-schedule.delete',
      subject: facilityId,
      detail: { organizationId: caller.organizationId },
    },
  );
  return scheduleOf(db, caller, facilityId);
}

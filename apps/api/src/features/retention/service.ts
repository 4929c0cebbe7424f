import type { Kysely } from 'kysely';
import {
  archiveBefore,
  keptFrom,
  retentionProblem,
  type Retention,
  type RetentionBody,
  type StorageMonths,
} from '@portal/contracts/retention';
import type { Database } from '../../db/schema';
import { monthOf } from '../../db/partitions';
import { badRequest, notFound } from '../../errors';
import {
  archiveMonth,
  deleteShipMonths,
  prepareMonthPartitions,
  readArchivedMonths,
  readOnlineMonths,
  restoreMonth,
} from '../../storage';
import type { Caller } from '../access/caller';
import { audit, auditedChange, type AuditActor } from '../audit/audit';

/**
 * Data retention (docs/decisions/0125-partitions-and-retention.md): each organization's setting (months online, at
 * least 18; archive or delete what is older), the month partitions archived when every organization's retention
 * lets a month go, a month archived or restored by a SystemAdmin, and the deletion an administrator chose. Each
 * change commits with its audit entry; the storage modules do the work (storage/partitions.ts).
 */

const actorOf = (caller: Caller): AuditActor => ({
  userId: caller.userId,
  organizationId: caller.organizationId,
  apiKey: caller.apiKey,
});
/** The retention job acts as nobody: its entries name no user. */
const SYSTEM: AuditActor = { userId: null, organizationId: null };

export async function readRetention(db: Kysely<Database>, organizationId: string, now = new Date()) {
  const row = await db
    .selectFrom('organizations')
    .select(['retention_months', 'retention_expired'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound('Organization not found');
  return {
    months: row.retention_months,
    expired: row.retention_expired,
    keptFrom: keptFrom(monthOf(now), row.retention_months),
  } satisfies Retention;
}

export async function saveRetention(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  body: RetentionBody,
): Promise<Retention> {
  const problem = retentionProblem(body.months);
  if (problem) throw badRequest(problem, { months: problem });
  const before = await readRetention(db, organizationId);
  await auditedChange(
    db,
    actorOf(caller),
    (trx) =>
      trx
        .updateTable('organizations')
        .set({ retention_months: body.months, retention_expired: body.expired })
        .where('id', '=', organizationId)
        .execute(),
    {
      action: 'retention.set',
      subject: organizationId,
      detail: { before: { months: before.months, expired: before.expired }, after: body },
    },
  );
  return readRetention(db, organizationId);
}

/** The first month every organization keeps: months before it may be archived. */
async function archiveBeforeNow(db: Kysely<Database>, now: Date): Promise<string> {
  const rows = await db.selectFrom('organizations').select('retention_months').execute();
  return archiveBefore(
    monthOf(now),
    rows.map((r) => r.retention_months),
  );
}

export async function storageMonths(db: Kysely<Database>, now = new Date()): Promise<StorageMonths> {
  const archived = await readArchivedMonths(db);
  return {
    online: await readOnlineMonths(db),
    archived: archived.map((m) => ({
      month: m.month,
      archivedOn: new Date(m.archived_on).toISOString(),
      reason: m.reason,
    })),
    archiveBefore: await archiveBeforeNow(db, now),
  };
}

/** A SystemAdmin archives a month (audited): its data leave the dashboards and lists until restored. */
export async function archiveMonthBy(db: Kysely<Database>, caller: Caller, month: string) {
  return auditedChange(
    db,
    actorOf(caller),
    (trx) => archiveMonth(trx, month, { userId: caller.userId, reason: 'administrator' }),
    (result) => ({
      action: 'storage.archive',
      subject: month,
      detail: { reason: 'administrator', ...result },
    }),
  );
}

/** A SystemAdmin restores an archived month (audited): its data are online again, as they were. */
export async function restoreMonthBy(db: Kysely<Database>, caller: Caller, month: string) {
  return auditedChange(
    db,
    actorOf(caller),
    (trx) => restoreMonth(trx, month),
    (result) => ({ action: 'storage.restore', subject: month, detail: result }),
  );
}

/**
 * The storage-months job: partitions made ahead and for rows waiting in a default partition; the months past every
 * organization's retention archived; and, for each organization whose administrator chose deletion, its ships'
 * data older than its retention deleted (online or archived). Each archive and deletion with its audit entry.
 */
export async function applyRetention(db: Kysely<Database>, now = new Date()) {
  const made = await prepareMonthPartitions(db, now);
  const before = await archiveBeforeNow(db, now);
  const archived: string[] = [];
  for (const month of await readOnlineMonths(db)) {
    if (month >= before) break;
    await auditedChange(
      db,
      SYSTEM,
      (trx) => archiveMonth(trx, month, { userId: null, reason: 'retention' }),
      (result) => ({ action: 'storage.archive', subject: month, detail: { reason: 'retention', ...result } }),
    );
    archived.push(month);
  }
  let deleted = 0;
  const deleting = await db
    .selectFrom('organizations')
    .select(['id', 'retention_months'])
    .where('retention_expired', '=', 'delete')
    .execute();
  for (const organization of deleting) {
    const ships = await db
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', organization.id)
      .execute();
    const from = keptFrom(monthOf(now), organization.retention_months);
    // Audited when something went: the job runs on every beat and most find nothing to delete.
    deleted += await db.transaction().execute(async (trx) => {
      const rows = await deleteShipMonths(
        trx,
        ships.map((s) => s.id),
        from,
      );
      if (rows > 0)
        await audit(trx, {
          ...SYSTEM,
          organizationId: organization.id,
          action: 'retention.delete',
          subject: organization.id,
          detail: { before: from, rows },
        });
      return rows;
    });
  }
  return { made, archived, deleted };
}

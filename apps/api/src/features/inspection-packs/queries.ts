import { sql, type Kysely, type Selectable } from 'kysely';
import type { InspectionPack, InspectionPackRecipient } from '@portal/contracts/inspection-packs';
import { DAY_MS, inspectionPackFileName } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import type { InspectionPacksTable } from '../../db/tables/inspection-packs';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { isSystemAdmin, usersSeeingFacility } from '../access/policy';

type PackRow = Selectable<InspectionPacksTable>;

const dayOf = (d: Date | string) => new Date(d).toISOString().slice(0, 10);
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The period of a row as its first and last day: period_to is the instant after the last day. */
export const periodOf = (row: Pick<PackRow, 'period_from' | 'period_to'>) => ({
  from: dayOf(row.period_from),
  to: dayOf(new Date(new Date(row.period_to).getTime() - DAY_MS)),
});

export function presentPack(row: PackRow, shipName: string): InspectionPack {
  const period = periodOf(row);
  return {
    id: row.id,
    facilityId: row.facility_id,
    from: period.from,
    to: period.to,
    state: row.state,
    progress: Number(row.progress),
    stage: row.stage,
    scheduled: row.scheduled,
    requestedBy: row.requested_by_name,
    requestedOn: new Date(row.requested_on).toISOString(),
    startedOn: iso(row.started_on),
    finishedOn: iso(row.finished_on),
    pdfSha256: row.pdf_sha256,
    zipBytes: row.zip_bytes === null ? null : Number(row.zip_bytes),
    originals: row.originals,
    fileName: inspectionPackFileName(shipName, period),
    error: row.error,
  };
}

export async function shipName(db: Kysely<Database>, facilityId: string): Promise<string> {
  const row = await db
    .selectFrom('facilities')
    .select('name')
    .where('id', '=', facilityId)
    .executeTakeFirst();
  return row?.name ?? 'ship';
}

/** A ship's packs, newest request first (its visibility checked before). */
export async function listPacks(
  db: Kysely<Database>,
  facilityId: string,
  limit = 100,
): Promise<InspectionPack[]> {
  const [rows, name] = await Promise.all([
    db
      .selectFrom('inspection_packs')
      .selectAll()
      .where('facility_id', '=', facilityId)
      .orderBy('requested_on', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute(),
    shipName(db, facilityId),
  ]);
  return rows.map((r) => presentPack(r, name));
}

/** A pack of the ship (its visibility checked before); another ship's, or none, is "Inspection pack not found". */
export async function findPack(db: Kysely<Database>, facilityId: string, packId: string): Promise<PackRow> {
  const row = await db
    .selectFrom('inspection_packs')
    .selectAll()
    .where('id', '=', packId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw notFound('Inspection pack not found');
  return row;
}

/**
 * Who may get a ship's monthly pack from the caller's organization: the users who see the ship (the access policy)
 * of the caller's organization, or any of them for a SystemAdmin; with the address their alerts go to.
 */
export async function recipientCandidates(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
): Promise<InspectionPackRecipient[]> {
  let query = db
    .selectFrom('users as u')
    .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.username', 's.email'])
    .where('u.id', 'in', usersSeeingFacility(db, facilityId));
  if (!isSystemAdmin(caller)) query = query.where('u.organization_id', '=', caller.organizationId);
  const rows = await query.orderBy(sql`lower(u.username)`).execute();
  return rows.map((r) => ({ userId: r.id, username: r.username, email: r.email ?? null }));
}

/** The schedule of a ship and an organization, if any. */
export function findSchedule(db: Kysely<Database>, facilityId: string, organizationId: string) {
  return db
    .selectFrom('inspection_pack_schedules')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

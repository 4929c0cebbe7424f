import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { auditLogQuerySchema } from '@portal/contracts/audit';
import type { Database } from '../../db/schema';

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** A text as a uuid, or null when it is not one (a subject may be a name; a cast would fail). */
const asUuid = (text: RawBuilder<unknown>) => sql`CASE WHEN ${text} ~* ${UUID} THEN (${text})::uuid END`;

/** A field of the entry's detail as text (null when the detail is not an object or has no such field). */
const detailText = (field: string) =>
  sql`CASE WHEN jsonb_typeof(a.detail) = 'object' THEN a.detail ->> ${field} END`;

/**
 * One page of the audit log, newest first, filtered by organization, action and period; with the filtered total.
 * Each row brings the names of the users, ships and organizations its ids refer to (left joins: an id of
 * something deleted since, or of anything else, stays without a name).
 */
export async function auditLogPage(db: Kysely<Database>, query: z.output<typeof auditLogQuerySchema>) {
  const { organizationId, action, from, to, page, pageSize } = query;
  let filtered = db.selectFrom('audit_log as a');
  if (organizationId) filtered = filtered.where('a.organization_id', '=', organizationId);
  if (action) filtered = filtered.where('a.action', '=', action);
  if (from) filtered = filtered.where('a.at', '>=', new Date(from));
  if (to) filtered = filtered.where('a.at', '<=', new Date(to));
  const { total } = await filtered
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await filtered
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    // The names of the ids the entry holds: its subject (a user, a ship or an organization) and its detail's.
    .leftJoin('users as su', (j) => j.on(sql<boolean>`su.id = ${asUuid(sql`a.subject`)}`))
    .leftJoin('facilities as sf', (j) => j.on(sql<boolean>`sf.id = ${asUuid(sql`a.subject`)}`))
    .leftJoin('organizations as so', (j) => j.on(sql<boolean>`so.id = ${asUuid(sql`a.subject`)}`))
    .leftJoin('facilities as df', (j) => j.on(sql<boolean>`df.id = ${asUuid(detailText('facilityId'))}`))
    .leftJoin('organizations as dorg', (j) =>
      j.on(sql<boolean>`dorg.id = ${asUuid(detailText('organizationId'))}`),
    )
    .leftJoin('users as du', (j) => j.on(sql<boolean>`du.id = ${asUuid(detailText('userId'))}`))
    .select([
      'a.id',
      'a.at',
      'a.user_id',
      'u.username',
      'a.organization_id',
      'o.name as organization_name',
      'a.action',
      'a.subject',
      'a.detail',
      'su.username as subject_user',
      'sf.name as subject_facility',
      'so.name as subject_organization',
      'df.id as detail_facility_id',
      'df.name as detail_facility',
      'dorg.id as detail_organization_id',
      'dorg.name as detail_organization',
      'du.id as detail_user_id',
      'du.username as detail_user',
    ])
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { total, rows };
}

/** The names of an entry's ids, by id (only the ids that name something). */
export function entryNames(row: {
  subject: string | null;
  subject_user: string | null;
  subject_facility: string | null;
  subject_organization: string | null;
  detail_facility_id: string | null;
  detail_facility: string | null;
  detail_organization_id: string | null;
  detail_organization: string | null;
  detail_user_id: string | null;
  detail_user: string | null;
}): Record<string, string> {
  const names: Record<string, string> = {};
  const subjectName = row.subject_user ?? row.subject_facility ?? row.subject_organization;
  if (row.subject && subjectName) names[row.subject] = subjectName;
  if (row.detail_facility_id && row.detail_facility) names[row.detail_facility_id] = row.detail_facility;
  if (row.detail_organization_id && row.detail_organization)
    names[row.detail_organization_id] = row.detail_organization;
  if (row.detail_user_id && row.detail_user) names[row.detail_user_id] = row.detail_user;
  return names;
}

/** The actions the audit log holds, for its filter. */
export function auditLogActions(db: Kysely<Database>) {
  return db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
}

/** The latest audit log entries as stored. */
export function latestAuditEntries(db: Kysely<Database>, limit: number) {
  return db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

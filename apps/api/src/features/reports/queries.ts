import { sql, type Kysely, type Transaction } from 'kysely';
import type { Report, ReportField, ReportListItem } from '@portal/contracts/reports';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo, isUuid } from '../access/policy';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function listReports(db: Kysely<Database>): Promise<ReportListItem[]> {
  const rows = await db
    .selectFrom('reports as r')
    .select([
      'r.id',
      'r.name',
      'r.target',
      sql<number>`(select count(*) from report_fields f where f.report_id = r.id)`.as('total'),
      sql<number>`(select count(*) from report_fields f where f.report_id = r.id
        and exists (select 1 from report_field_calculations c where c.report_field_id = f.id and c.approved_on is not null))`.as(
        'approved',
      ),
    ])
    .orderBy('r.position')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    target: r.target,
    approvedFieldsCount: Number(r.approved),
    totalFieldsCount: Number(r.total),
  }));
}

export async function findReport(db: Kysely<Database>, id: string) {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function reportFields(db: Kysely<Database>, reportId: string) {
  return db
    .selectFrom('report_fields')
    .selectAll()
    .where('report_id', '=', reportId)
    .orderBy('position')
    .orderBy('name')
    .execute();
}

export async function reportDetail(db: Kysely<Database>, id: string): Promise<Report | undefined> {
  const report = await findReport(db, id);
  if (!report) return undefined;
  const fields = await reportFields(db, id);
  const calculations = fields.length
    ? await db
        .selectFrom('report_field_calculations')
        .selectAll()
        .where(
          'report_field_id',
          'in',
          fields.map((f) => f.id),
        )
        .orderBy('version', 'desc')
        .orderBy('revision', 'desc')
        .execute()
    : [];
  const now = Date.now();
  const toField = (f: (typeof fields)[number]): ReportField => {
    const own = calculations.filter((c) => c.report_field_id === f.id);
    const approved = own.filter((c) => c.approved_on !== null);
    // The one in force now; else the latest approved.
    const current =
      approved.find(
        (c) =>
          (!c.valid_from || new Date(c.valid_from).getTime() <= now) &&
          (!c.valid_to || new Date(c.valid_to).getTime() > now),
      ) ?? approved[0];
    return {
      id: f.id,
      name: f.name,
      isApproved: approved.length > 0,
      asLifetime: f.as_lifetime,
      asSeries: f.as_series,
      byFacility: f.by_facility,
      facilityAggregateType: f.facility_aggregate_type,
      timeAggregateType: f.time_aggregate_type,
      format: f.format,
      formatNote: f.format_note,
      interfaceType: f.interface_type,
      unit: f.unit,
      note: f.note,
      documentation: f.documentation,
      calculations: own.length,
      approvedCalculation: current
        ? {
            id: current.id,
            version: current.version,
            revision: current.revision,
            transformAlgorithm: current.transform_algorithm,
            inputIds: current.input_ids,
            validFrom: iso(current.valid_from),
            validTo: iso(current.valid_to),
          }
        : null,
    };
  };
  const list = fields.map(toField);
  return {
    id: report.id,
    name: report.name,
    target: report.target,
    documentation: report.documentation,
    information: report.information,
    fields: list,
    approvedFieldsCount: list.filter((f) => f.isApproved).length,
    totalFieldsCount: list.length,
  };
}

/**
 * The ships whose values count: those the caller may see, narrowed to `ids` when given (ids the caller may
 * not see, or that do not exist, are dropped without a word). Sorted by name.
 */
export async function visibleFleet(
  db: Kysely<Database>,
  caller: Caller,
  ids?: readonly string[],
): Promise<{ id: string; name: string; imo: string | null }[]> {
  let query = db
    .selectFrom('facilities as f')
    .select(['f.id', 'f.name', 'f.imo'])
    .where(facilityVisibleTo(db, caller, sql.ref('f.id')));
  if (ids) {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    query = query.where('f.id', 'in', valid);
  }
  return query
    .orderBy(sql`lower(f.name)`)
    .orderBy('f.id')
    .execute();
}

/** Changes a report's information text, or "Report not found" (404). */
export async function updateReportInformation(
  trx: Transaction<Database>,
  id: string,
  information: string,
): Promise<void> {
  const updated = await trx
    .updateTable('reports')
    .set({ information })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw notFound('Report not found');
}

export async function facilityExists(db: Kysely<Database>, facilityId: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('facilities').select('id').where('id', '=', facilityId).executeTakeFirst(),
  );
}

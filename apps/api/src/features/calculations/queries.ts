import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** A field of a report: its id and name. */
export function findReportFieldOf(db: Kysely<Database>, reportId: string, fieldId: string) {
  return db
    .selectFrom('report_fields')
    .select(['id', 'name'])
    .where('id', '=', fieldId)
    .where('report_id', '=', reportId)
    .executeTakeFirst();
}

/** An approved calculation whose validity overlaps a period, with what it computes and who approved it. */
export interface CalculationInForce {
  kind: 'measurement' | 'report';
  /** The measurement field, or the report and its field ("SO2/CO2 ratio: Values"). */
  name: string;
  version: number;
  revision: number;
  validFrom: Date | null;
  validTo: Date | null;
  approvedOn: Date;
  /** The approver's user name; null for a product default (approved by no person) or a user since deleted. */
  approvedBy: string | null;
  comment: string | null;
}

/**
 * The calculations in force on a ship over [from, to): its approved measurement field calculations and the approved
 * report field calculations (they apply to every ship) whose validity overlaps the period, measurement fields first,
 * each in catalogue order, oldest validity first.
 */
export async function calculationsInForce(
  db: Kysely<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<CalculationInForce[]> {
  const [measurement, report] = await Promise.all([
    db
      .selectFrom('measurement_field_calculations as c')
      .innerJoin('measurement_fields as f', 'f.id', 'c.measurement_field_id')
      .leftJoin('users as u', 'u.id', 'c.approved_by')
      .select([
        'f.name',
        'c.version',
        'c.revision',
        'c.valid_from',
        'c.valid_to',
        'c.approved_on',
        'c.comment',
        'u.username',
      ])
      .where('c.facility_id', '=', facilityId)
      .where('c.approved_on', 'is not', null)
      .where((eb) => eb.or([eb('c.valid_from', 'is', null), eb('c.valid_from', '<', to)]))
      .where((eb) => eb.or([eb('c.valid_to', 'is', null), eb('c.valid_to', '>=', from)]))
      .orderBy('f.position')
      .orderBy('f.name')
      .orderBy('c.valid_from')
      .execute(),
    db
      .selectFrom('report_field_calculations as c')
      .innerJoin('report_fields as f', 'f.id', 'c.report_field_id')
      .innerJoin('reports as r', 'r.id', 'f.report_id')
      .leftJoin('users as u', 'u.id', 'c.approved_by')
      .select([
        'r.name as report',
        'f.name',
        'c.version',
        'c.revision',
        'c.valid_from',
        'c.valid_to',
        'c.approved_on',
        'c.comment',
        'u.username',
      ])
      .where('r.target', '=', 'Facility')
      .where('c.approved_on', 'is not', null)
      .where((eb) => eb.or([eb('c.valid_from', 'is', null), eb('c.valid_from', '<', to)]))
      .where((eb) => eb.or([eb('c.valid_to', 'is', null), eb('c.valid_to', '>=', from)]))
      .orderBy('r.position')
      .orderBy('f.position')
      .orderBy('c.valid_from')
      .execute(),
  ]);
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  return [
    ...measurement.map((r) => ({ kind: 'measurement' as const, name: r.name, ...common(r) })),
    ...report.map((r) => ({ kind: 'report' as const, name: `${r.report}: ${r.name}`, ...common(r) })),
  ];
  function common(r: {
    version: number;
    revision: number;
    valid_from: Date | null;
    valid_to: Date | null;
    approved_on: Date | null;
    comment: string | null;
    username: string | null;
  }) {
    return {
      version: Number(r.version),
      revision: Number(r.revision),
      validFrom: date(r.valid_from),
      validTo: date(r.valid_to),
      approvedOn: new Date(r.approved_on!),
      approvedBy: r.username,
      comment: r.comment,
    };
  }
}

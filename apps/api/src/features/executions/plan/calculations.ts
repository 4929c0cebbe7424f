import type { Kysely } from 'kysely';
import type { OutputType } from '@portal/formula';
import type { Database } from '../../../db/schema';
import type { MeasurementCalc, ReportCalc } from './types';

const time = (d: Date | null | undefined, fallback: number) => (d ? new Date(d).getTime() : fallback);

/**
 * Sub-step "approved calculations": the ship's approved measurement calculations and every approved report
 * calculation valid at some moment of [from, to) (no start: from always; no end: for ever).
 */
export async function loadApprovedCalculations(
  db: Kysely<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<{ measurement: MeasurementCalc[]; report: ReportCalc[] }> {
  const periodStart = new Date(from);
  const periodEnd = new Date(to);
  const measurementRows = await db
    .selectFrom('measurement_field_calculations')
    .select([
      'id',
      'measurement_field_id',
      'version',
      'revision',
      'required_sample_interval_seconds',
      'preload_interval_seconds',
      'input_ids',
      'transform_algorithm',
      'output_type',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  const reportRows = await db
    .selectFrom('report_field_calculations')
    .select([
      'id',
      'report_field_id',
      'version',
      'revision',
      'algorithm_seconds_span',
      'input_ids',
      'transform_algorithm',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  return {
    measurement: measurementRows.map((r) => ({
      id: r.id,
      fieldId: r.measurement_field_id,
      version: r.version,
      revision: r.revision,
      interval: r.required_sample_interval_seconds,
      preload: r.preload_interval_seconds,
      inputIds: r.input_ids ?? [],
      algorithm: r.transform_algorithm,
      outputType: r.output_type as OutputType,
      validFrom: time(r.valid_from, -Infinity),
      validTo: time(r.valid_to, Infinity),
      approvedOn: time(r.approved_on, 0),
    })),
    report: reportRows.map((r) => ({
      id: r.id,
      fieldId: r.report_field_id,
      version: r.version,
      revision: r.revision,
      span: r.algorithm_seconds_span,
      inputIds: r.input_ids ?? [],
      algorithm: r.transform_algorithm,
      validFrom: time(r.valid_from, -Infinity),
      validTo: time(r.valid_to, Infinity),
      approvedOn: time(r.approved_on, 0),
    })),
  };
}

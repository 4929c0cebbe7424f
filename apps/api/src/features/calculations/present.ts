import type { MeasurementFieldCalculation, ReportFieldCalculation } from '@portal/contracts/calculations';
import type { OutputType } from '@portal/contracts/calculations';
import { calculationState, canDelete, isLocked, type CalculationRow } from './store';

const iso = (d: Date | string | null | undefined) =>
  d === null || d === undefined ? null : new Date(d).toISOString();

function common(row: CalculationRow) {
  return {
    id: row.id,
    version: row.version,
    revision: row.revision,
    comment: row.comment,
    documentation: row.documentation,
    inputIds: row.input_ids ?? [],
    transformAlgorithm: row.transform_algorithm,
    qualityScore: row.quality_score,
    approvedOn: iso(row.approved_on),
    recalculationRequestedOn: iso(row.recalculation_requested_on),
    recalculationQueuedOn: iso(row.recalculation_queued_on),
    canDelete: canDelete(row),
    locked: isLocked(row),
    state: calculationState(row),
    validFrom: iso(row.valid_from),
    validTo: iso(row.valid_to),
    createdOn: iso(row.created_on)!,
    updatedOn: iso(row.updated_on)!,
  };
}

export function toMeasurementFieldCalculation(row: CalculationRow): MeasurementFieldCalculation {
  return {
    ...common(row),
    facilityId: row.facility_id!,
    measurementFieldId: row.measurement_field_id!,
    requiredSampleIntervalInSeconds: row.required_sample_interval_seconds ?? null,
    preloadIntervalInSeconds: row.preload_interval_seconds ?? null,
    outputType: (row.output_type ?? 'Double') as OutputType,
  };
}

/** Report field calculations run per span: sample and preload intervals do not apply to them. */
export function toReportFieldCalculation(row: CalculationRow): ReportFieldCalculation {
  return {
    ...common(row),
    reportFieldId: row.report_field_id!,
    requiredSampleIntervalInSeconds: null,
    preloadIntervalInSeconds: null,
    algorithmSecondsSpan: row.algorithm_seconds_span ?? 3600,
  };
}

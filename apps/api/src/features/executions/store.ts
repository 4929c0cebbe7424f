import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { replaceMeasurementValues, replaceReportValues, type FieldSeries } from '../../storage';
import type { ComputeRequest } from './plan';
import type { ReportSeries } from './report-fields';
import type { EventDerivation } from './derive-events';

/** What a period's computation produced, ready to store. */
export interface Computed {
  request: ComputeRequest;
  /** Recomputed measurement fields (ids), each with its series inside [from, to). */
  measurement: Map<string, FieldSeries>;
  /** Recomputed report fields (ids), each with span starts and values (fields sharing a calculation share one). */
  report: Map<string, ReportSeries>;
  /** The compliance events around the period (null: not derived in this run). */
  events: EventDerivation | null;
  /** The field ids whose stored rows the write replaces. */
  replaceMeasurementFieldIds: 'all' | string[];
  replaceReportFieldIds: 'all' | string[];
  /** What was read and computed, for the execution's counts. */
  counts: ComputedCounts;
}

export interface ComputedCounts {
  /** Timestamps of the primary data source in the period. */
  targets: number;
  /** Values (not missing) of the mapped channels read. */
  samples: number;
  measurementFields: number;
  /** Measurement field values computed (one per field and target timestamp of its interval). */
  measurementValues: number;
  reportFields: number;
}

/**
 * Step "store", measurement values: the period's values of the recomputed fields replaced by the computed ones
 * (storage/measurement-values.ts), in the replacing transaction.
 */
export async function storeMeasurementValues(
  trx: Transaction<Database>,
  computed: Computed,
): Promise<number> {
  const { facilityId, from, to } = computed.request;
  return replaceMeasurementValues(trx, {
    facilityId,
    from,
    to,
    fieldIds: computed.replaceMeasurementFieldIds,
    series: computed.measurement,
  });
}

/**
 * Step "store", report values: the period's hours of the recomputed report fields replaced by the computed ones
 * (storage/report-values.ts), in the replacing transaction.
 */
export async function storeReportValues(trx: Transaction<Database>, computed: Computed): Promise<number> {
  const { facilityId, from, to } = computed.request;
  return replaceReportValues(trx, {
    facilityId,
    from,
    to,
    fieldIds: computed.replaceReportFieldIds,
    series: computed.report,
  });
}

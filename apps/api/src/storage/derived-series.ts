import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { floorHour } from './days';
import { deleteMeasurementValues } from './measurement-values';
import { deleteReportValues } from './report-values';

/**
 * A series computed from a ship's samples by the engine: when samples are deleted (a data file with its data), its
 * values of their range go too, before the range is computed again from the samples that remain.
 */
export interface DerivedSeries {
  name: string;
  /**
   * Deletes the ship's values derived from samples in [from, to] (both included), with whatever it keeps beside
   * them (a roll-up), in the caller's transaction; makes the caller the ship's only writer of derived values until
   * it ends (lockShipValues). Returns how many rows (or chunks) changed.
   */
  deleteRange(trx: Transaction<Database>, facilityId: string, from: Date, to: Date): Promise<number>;
}

/**
 * The derived series, in the order their values are deleted. A new series computed from the samples is added here
 * with its module. Compliance events are not: the engine withdraws them (features/executions/store-events.ts), each
 * with its record book entry and alerts.
 */
export const DERIVED_SERIES = [
  { name: 'measurementChunks', deleteRange: deleteMeasurementValues },
  {
    name: 'reportValues',
    // The hours the range touches, and their days' roll-up.
    deleteRange: (trx, facilityId, from, to) =>
      deleteReportValues(trx, facilityId, new Date(floorHour(from.getTime())), to),
  },
] as const satisfies readonly DerivedSeries[];

export type DerivedSeriesName = (typeof DERIVED_SERIES)[number]['name'];

/** Deletes every derived series' values of a ship's samples in [from, to]; returns how many went, per series. */
export async function deleteDerivedSeries(
  trx: Transaction<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<Record<DerivedSeriesName, number>> {
  const deleted = {} as Record<DerivedSeriesName, number>;
  for (const series of DERIVED_SERIES)
    deleted[series.name] = await series.deleteRange(trx, facilityId, from, to);
  return deleted;
}

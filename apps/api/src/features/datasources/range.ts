import type { Kysely } from 'kysely';
import { dataCoveragePercent } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { streamSampleRange } from '../../storage';

/**
 * Recomputes a ship's data range (first and last raw sample of any data source, from files and the stream) and its
 * coverage (samples in files of the primary data source as a percentage of those expected at its measure frequency
 * within that range).
 * Called after every import and delete, from committed data.
 */
export async function updateFacilityDataRange(db: Kysely<Database>, facilityId: string): Promise<void> {
  const range = await db
    .selectFrom('data_files')
    .select((eb) => [eb.fn.min('time_stamp_min').as('min'), eb.fn.max('time_stamp_max').as('max')])
    .where('facility_id', '=', facilityId)
    .where('has_samples', '=', true)
    .executeTakeFirst();
  const stream = await streamSampleRange(db, facilityId);
  const earliest = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a < b ? a : b);
  const latest = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);
  const min = earliest(range?.min ? new Date(range.min) : null, stream?.min ?? null);
  const max = latest(range?.max ? new Date(range.max) : null, stream?.max ?? null);
  let coverage: number | null = null;
  const primary = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'measure_frequency_seconds'])
    .where('facility_id', '=', facilityId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  if (primary && min && max) {
    const counted = await db
      .selectFrom('data_files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('row_count'), eb.lit(0)).as('samples'))
      .where('data_source_id', '=', primary.id)
      .where('has_samples', '=', true)
      .executeTakeFirst();
    coverage = dataCoveragePercent(
      Number(counted?.samples ?? 0),
      min,
      max,
      primary.measure_frequency_seconds,
    );
  }
  await db
    .updateTable('facilities')
    .set({ data_timestamp_min: min, data_timestamp_max: max, data_coverage: coverage })
    .where('id', '=', facilityId)
    .execute();
}

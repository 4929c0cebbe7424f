import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { concatSeries, readMeasurementValues, type FieldSeries } from '../../../storage';
import type { FieldSeriesOf } from '../measurement-fields';

/**
 * Sub-step "read the events' fields": each field read once over [readFrom, readTo): the stored series before and
 * after the executed period [from, to) around its computed (or stored) middle, `seriesOf`. No field: empty.
 */
export function eventSeriesReader(
  db: Kysely<Database>,
  facilityId: string,
  range: { from: number; to: number; readFrom: number; readTo: number },
  seriesOf: FieldSeriesOf,
): (fieldId: string | undefined) => Promise<FieldSeries> {
  const { from, to, readFrom, readTo } = range;
  const reads = new Map<string, Promise<FieldSeries>>();
  return (fieldId) => {
    if (!fieldId) return Promise.resolve({ timestamps: new Float64Array(0), values: new Float64Array(0) });
    let series = reads.get(fieldId);
    if (!series) {
      series = Promise.all([
        readMeasurementValues(db, facilityId, fieldId, readFrom, from),
        seriesOf(fieldId),
        readMeasurementValues(db, facilityId, fieldId, to, readTo),
      ]).then((parts) => concatSeries(parts.filter((p) => p.timestamps.length > 0)));
      reads.set(fieldId, series);
    }
    return series;
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import {
  concatSeries,
  lowerBound,
  readMeasurementValues,
  readRawSamples,
  type FieldSeries,
  type RawSamples,
} from '../../../storage';
import type { FieldSeriesOf } from '../measurement-fields';
import type { RawRead } from './on-targets';
import type { ChannelRef } from './types';

const EMPTY: FieldSeries = { timestamps: new Float64Array(0), values: new Float64Array(0) };

/** A field's series over [a, b). */
export type FieldRead = (fieldId: string, a: number, b: number) => Promise<FieldSeries>;

/**
 * Sub-step "read fields": a field's series over [a, b): the stored values outside the executed period [from, to),
 * the recomputed ones (`seriesOf`) inside; without `seriesOf` all stored.
 */
export function fieldReader(
  db: Kysely<Database>,
  facilityId: string,
  request: { from: number; to: number; seriesOf?: FieldSeriesOf },
): FieldRead {
  const { from, to, seriesOf } = request;
  return async (fieldId, a, b) => {
    if (!seriesOf || b <= from || a >= to) return readMeasurementValues(db, facilityId, fieldId, a, b);
    const inside = await seriesOf(fieldId);
    const lo = lowerBound(inside.timestamps, Math.max(a, from));
    const hi = lowerBound(inside.timestamps, Math.min(b, to));
    const parts = [
      a < from ? await readMeasurementValues(db, facilityId, fieldId, a, from) : EMPTY,
      { timestamps: inside.timestamps.subarray(lo, hi), values: inside.values.subarray(lo, hi) },
      b > to ? await readMeasurementValues(db, facilityId, fieldId, to, b) : EMPTY,
    ].filter((p) => p.timestamps.length > 0);
    return parts.length ? concatSeries(parts) : EMPTY;
  };
}

/**
 * Sub-step "read raw channels": the raw channels the ledger reads (speed, flows without a field, fuel type
 * channels), each data source read once for all of them over the widest range asked (at least `span()`), then
 * served from that read.
 */
export function rawReader(
  db: Kysely<Database>,
  facilityId: string,
  refs: readonly ChannelRef[],
  span: () => { from: number; to: number },
): RawRead {
  const reads = new Map<string, { from: number; to: number; samples: Promise<RawSamples | undefined> }>();
  return async (ref, from, to) => {
    let read = reads.get(ref.dataSourceId);
    if (!read || read.from > from || read.to < to) {
      const wide = { from: Math.min(from, span().from), to: Math.max(to, span().to) };
      const sources = [
        ...new Set(refs.filter((r) => r.dataSourceId === ref.dataSourceId).map((r) => r.source)),
      ];
      read = {
        ...wide,
        samples: readRawSamples(db, facilityId, {
          from: new Date(wide.from),
          to: new Date(wide.to),
          channels: sources,
          dataSourceId: ref.dataSourceId,
        }).then((all) => all.find((s) => s.dataSourceId === ref.dataSourceId)),
      };
      reads.set(ref.dataSourceId, read);
    }
    const raw = await read.samples;
    const column = raw?.columns[ref.source];
    return raw && column ? { timestamps: raw.timestamps, column } : undefined;
  };
}

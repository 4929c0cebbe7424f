import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { DAY_MS, dayChunks, dayText, floorDay } from './days';
import { packFloat64, unpackFloat64 } from './packed';
import { lowerBound } from './search';
import { lockShipValues } from './ship-lock';
import type { PartitionedTable } from '../db/partitions';
import { assertMonthsOnline } from './archived-months';

/**
 * The stored measurement field series (`measurement_values`): one chunk per ship, field and UTC day, timestamps and
 * values as packed columns (packed.ts) or plain doubles (an edge day rewritten by a delete). Written by the engine's
 * store step (whole days, replaced in its transaction), cut by a delete of a range; the one module that touches the
 * table.
 */

/** Its month partitions: a chunk's UTC day decides its month (docs/decisions/0125-partitions-and-retention.md). */
export const MEASUREMENT_VALUES_MONTHS: PartitionedTable = {
  table: 'measurement_values',
  column: 'day',
  kind: 'date',
};

/** A series of one field: timestamps (UTC epoch ms, ascending) and one value per timestamp (NaN = null). */
export interface FieldSeries {
  timestamps: Float64Array<ArrayBufferLike>;
  values: Float64Array<ArrayBufferLike>;
}

/** Bytes of a Float64Array for a bytea column as plain doubles (no copy). */
export const bytesOf = (values: Float64Array) =>
  Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** A stored column as a Float64Array: packed (packed.ts) or plain doubles (as bytesOf writes them). */
export function float64Of(bytes: Uint8Array): Float64Array {
  return unpackFloat64(bytes);
}

/** A column as stored: packed where exact, else plain doubles (packed.ts). */
export const packColumn = (values: Float64Array): Buffer => packFloat64(values);

/** The parts one after the other (each ascending, in time order). */
export function concatSeries(parts: FieldSeries[]): FieldSeries {
  if (parts.length === 1) return parts[0]!;
  const n = parts.reduce((s, p) => s + p.timestamps.length, 0);
  const timestamps = new Float64Array(n);
  const values = new Float64Array(n);
  let at = 0;
  for (const p of parts) {
    timestamps.set(p.timestamps, at);
    values.set(p.values, at);
    at += p.timestamps.length;
  }
  return { timestamps, values };
}

/** Stored values of one measurement field of a ship within [from, to). */
export async function readMeasurementValues(
  db: Kysely<Database>,
  facilityId: string,
  fieldId: string,
  from: number,
  to: number,
): Promise<FieldSeries> {
  const rows = await db
    .selectFrom('measurement_values')
    .select(['timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .where('measurement_field_id', '=', fieldId)
    .where('day', '>=', dayText(Math.floor(from / DAY_MS) * DAY_MS))
    .where('day', '<', dayText(Math.ceil(to / DAY_MS) * DAY_MS))
    .orderBy('day')
    .execute();
  const parts = rows.map((r) => {
    const ts = float64Of(r.timestamps);
    const vs = float64Of(r.values);
    const lo = lowerBound(ts, from);
    const hi = lowerBound(ts, to);
    return { timestamps: ts.subarray(lo, hi), values: vs.subarray(lo, hi) };
  });
  return parts.length
    ? concatSeries(parts)
    : { timestamps: new Float64Array(0), values: new Float64Array(0) };
}

/**
 * Per ship of `facilityIds`, the stored values of `fieldIds` within [from, to) on the last UTC day of that period on
 * which `keyFieldId` has a chunk (one query: the fleet map's last positions).
 */
export async function readLastDayValues(
  db: Kysely<Database>,
  facilityIds: readonly string[],
  keyFieldId: string,
  fieldIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, Map<string, FieldSeries>>> {
  const out = new Map<string, Map<string, FieldSeries>>();
  if (facilityIds.length === 0 || fieldIds.length === 0) return out;
  const lastDays = db
    .selectFrom('measurement_values')
    .distinctOn('facility_id')
    .select(['facility_id', 'day'])
    .where('facility_id', 'in', [...facilityIds])
    .where('measurement_field_id', '=', keyFieldId)
    .where('day', '>=', dayText(Math.floor(from / DAY_MS) * DAY_MS))
    .where('day', '<', dayText(Math.ceil(to / DAY_MS) * DAY_MS))
    .orderBy('facility_id')
    .orderBy('day', 'desc')
    .as('last');
  const rows = await db
    .selectFrom('measurement_values as mv')
    .innerJoin(lastDays, (join) =>
      join.onRef('last.facility_id', '=', 'mv.facility_id').onRef('last.day', '=', 'mv.day'),
    )
    .select(['mv.facility_id', 'mv.measurement_field_id', 'mv.timestamps', 'mv.values'])
    .where('mv.measurement_field_id', 'in', [...fieldIds])
    .execute();
  for (const r of rows) {
    const ts = float64Of(r.timestamps);
    const vs = float64Of(r.values);
    const lo = lowerBound(ts, from);
    const hi = lowerBound(ts, to);
    const fields = out.get(r.facility_id) ?? new Map<string, FieldSeries>();
    fields.set(r.measurement_field_id, { timestamps: ts.subarray(lo, hi), values: vs.subarray(lo, hi) });
    out.set(r.facility_id, fields);
  }
  return out;
}

const ROWS_PER_INSERT = 1_000;
const BYTES_PER_INSERT = 16 * 1024 * 1024;

/**
 * What an execution replaces: the period [from, to) of the recomputed fields of a ship. Whole UTC days for a file's
 * execution; a window of minutes for a live one (docs/decisions/0122-live-windows.md), whose edge days are merged.
 */
export interface MeasurementReplacement {
  facilityId: string;
  /** UTC epoch ms. */
  from: number;
  to: number;
  /** The fields whose stored values of the period go ('all': every field of the ship). */
  fieldIds: 'all' | readonly string[];
  /** The new series per field, inside [from, to). */
  series: ReadonlyMap<string, FieldSeries>;
}

/** The part of a series with timestamps in [from, to). */
export function seriesBetween(series: FieldSeries, from: number, to: number): FieldSeries {
  const lo = lowerBound(series.timestamps, from);
  const hi = lowerBound(series.timestamps, to);
  if (lo === 0 && hi === series.timestamps.length) return series;
  return { timestamps: series.timestamps.subarray(lo, hi), values: series.values.subarray(lo, hi) };
}

/**
 * The stored chunks of the days that [from, to) cuts (not whole days) with the values outside [from, to) kept, per
 * field: what a window's replacement keeps of its edge days (empty for whole days).
 */
async function keptOfEdgeDays(
  trx: Transaction<Database>,
  replacement: MeasurementReplacement,
): Promise<Map<string, { before: FieldSeries; after: FieldSeries }>> {
  const { facilityId, from, to, fieldIds } = replacement;
  const kept = new Map<string, { before: FieldSeries; after: FieldSeries }>();
  const edgeDays = new Set<number>();
  if (from !== floorDay(from)) edgeDays.add(floorDay(from));
  if (to !== floorDay(to)) edgeDays.add(floorDay(to));
  if (edgeDays.size === 0 || (fieldIds !== 'all' && fieldIds.length === 0)) return kept;
  let query = trx
    .selectFrom('measurement_values')
    .select(['measurement_field_id', 'timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .where(
      'day',
      'in',
      [...edgeDays].map((d) => dayText(d)),
    );
  if (fieldIds !== 'all') query = query.where('measurement_field_id', 'in', [...fieldIds]);
  const empty = { timestamps: new Float64Array(0), values: new Float64Array(0) };
  for (const row of await query.execute()) {
    const series = { timestamps: float64Of(row.timestamps), values: float64Of(row.values) };
    const entry = kept.get(row.measurement_field_id) ?? { before: empty, after: empty };
    const before = seriesBetween(series, -Infinity, from);
    const after = seriesBetween(series, to, Infinity);
    if (before.timestamps.length) entry.before = concatSeries([entry.before, before]);
    if (after.timestamps.length) entry.after = concatSeries([entry.after, after]);
    kept.set(row.measurement_field_id, entry);
  }
  return kept;
}

/**
 * Replaces the period's values of the recomputed fields: deletes the day chunks it touches and inserts the new ones,
 * in the caller's transaction (the engine's replacing one, which holds lockShipValues). Whole days replace whole
 * chunks; a window's edge days keep their stored values outside [from, to) around the new ones (one chunk per day,
 * as a whole day's execution writes it). Returns the chunks written.
 */
export async function replaceMeasurementValues(
  trx: Transaction<Database>,
  replacement: MeasurementReplacement,
): Promise<number> {
  const { facilityId, from, to, fieldIds } = replacement;
  const kept = await keptOfEdgeDays(trx, replacement);
  const firstDay = floorDay(from);
  const afterLastDay = to === floorDay(to) ? to : floorDay(to) + DAY_MS;
  await assertMonthsOnline(trx, new Date(from), new Date(to - 1));
  if (fieldIds === 'all' || fieldIds.length > 0) {
    let del = trx
      .deleteFrom('measurement_values')
      .where('facility_id', '=', facilityId)
      .where('day', '>=', dayText(firstDay))
      .where('day', '<', dayText(afterLastDay));
    if (fieldIds !== 'all') del = del.where('measurement_field_id', 'in', [...fieldIds]);
    await del.execute();
  }
  let written: ReadonlyMap<string, FieldSeries> = replacement.series;
  if (kept.size > 0) {
    const merged = new Map<string, FieldSeries>();
    const empty = { timestamps: new Float64Array(0), values: new Float64Array(0) };
    for (const fieldId of new Set([...replacement.series.keys(), ...kept.keys()])) {
      const fresh = replacement.series.get(fieldId);
      const edges = kept.get(fieldId);
      const parts = [
        edges?.before ?? empty,
        fresh ? seriesBetween(fresh, from, to) : empty,
        edges?.after ?? empty,
      ];
      merged.set(fieldId, concatSeries(parts.filter((p) => p.timestamps.length > 0)));
    }
    written = merged;
  }
  let batch: {
    facility_id: string;
    measurement_field_id: string;
    day: string;
    row_count: number;
    timestamps: Buffer;
    values: Buffer;
  }[] = [];
  let batchBytes = 0;
  let rows = 0;
  const flush = async () => {
    if (batch.length) await trx.insertInto('measurement_values').values(batch).execute();
    rows += batch.length;
    batch = [];
    batchBytes = 0;
  };
  // Fields of the same interval share their targets (views of one array): a day's timestamps are packed once.
  const packedDays = new Map<ArrayBufferLike, Map<string, Buffer>>();
  for (const [fieldId, series] of written) {
    if (series.timestamps.length === 0) continue;
    let days = packedDays.get(series.timestamps.buffer);
    if (!days) packedDays.set(series.timestamps.buffer, (days = new Map()));
    for (const chunk of dayChunks(series.timestamps)) {
      const slice = series.timestamps.subarray(chunk.start, chunk.end);
      const key = `${slice.byteOffset}:${slice.length}`;
      let timestamps = days.get(key);
      if (!timestamps) days.set(key, (timestamps = packColumn(slice)));
      const values = packColumn(series.values.subarray(chunk.start, chunk.end));
      batch.push({
        facility_id: facilityId,
        measurement_field_id: fieldId,
        day: dayText(chunk.day),
        row_count: chunk.end - chunk.start,
        timestamps,
        values,
      });
      batchBytes += timestamps.length + values.length;
      if (batch.length >= ROWS_PER_INSERT || batchBytes >= BYTES_PER_INSERT) await flush();
    }
  }
  await flush();
  return rows;
}

/**
 * Deletes a ship's measurement field values with timestamps in [from, to] (both included). Day chunks wholly inside
 * go; a chunk the range cuts is rewritten with the values outside the range kept. In the caller's transaction, which
 * it makes the ship's only writer of derived values until it ends (lockShipValues). Returns the chunks changed.
 */
export async function deleteMeasurementValues(
  trx: Transaction<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<number> {
  const a = from.getTime();
  const b = to.getTime();
  const firstDay = floorDay(a);
  const lastDay = floorDay(b);
  let changed = 0;
  await lockShipValues(trx, facilityId);
  // Whole days strictly inside the range.
  const inner = await trx
    .deleteFrom('measurement_values')
    .where('facility_id', '=', facilityId)
    .where('day', '>', dayText(firstDay))
    .where('day', '<', dayText(lastDay))
    .executeTakeFirst();
  changed += Number(inner.numDeletedRows ?? 0);
  // The edge days: keep what lies outside [from, to].
  const edges = await trx
    .selectFrom('measurement_values')
    .select(['measurement_field_id', 'day', 'timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .where('day', 'in', [...new Set([dayText(firstDay), dayText(lastDay)])])
    .execute();
  for (const row of edges) {
    const ts = float64Of(row.timestamps);
    const vs = float64Of(row.values);
    const lo = lowerBound(ts, a);
    let hi = lowerBound(ts, b);
    while (hi < ts.length && ts[hi]! <= b) hi++;
    if (hi <= lo) continue;
    const keep = ts.length - (hi - lo);
    const where = trx
      .deleteFrom('measurement_values')
      .where('facility_id', '=', facilityId)
      .where('measurement_field_id', '=', row.measurement_field_id)
      .where('day', '=', row.day);
    if (keep === 0) await where.execute();
    else {
      const nts = new Float64Array(keep);
      const nvs = new Float64Array(keep);
      nts.set(ts.subarray(0, lo));
      nts.set(ts.subarray(hi), lo);
      nvs.set(vs.subarray(0, lo));
      nvs.set(vs.subarray(hi), lo);
      await trx
        .updateTable('measurement_values')
        .set({ row_count: keep, timestamps: bytesOf(nts), values: bytesOf(nvs) })
        .where('facility_id', '=', facilityId)
        .where('measurement_field_id', '=', row.measurement_field_id)
        .where('day', '=', row.day)
        .execute();
    }
    changed++;
  }
  return changed;
}

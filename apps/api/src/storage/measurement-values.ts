import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { packFloat64, unpackFloat64 } from './packed';
import { lowerBound } from './search';

/**
 * The stored measurement field series (`measurement_values`): one chunk per ship, field and UTC day, timestamps and
 * values as packed columns (packed.ts) or plain doubles (an edge day rewritten by a delete).
 */

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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

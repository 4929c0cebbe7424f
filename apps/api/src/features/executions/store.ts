import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { packColumn, type FieldSeries } from '../../storage';
import type { ComputeRequest } from './plan';
import type { ReportSeries } from './report-fields';
import type { EventDerivation } from './derive-events';
import type { LedgerDerivation } from './derive-ledger';
import { dayChunks, dayText } from './series';

/** What a period's computation produced, ready to store. */
export interface Computed {
  request: ComputeRequest;
  /** Recomputed measurement fields (ids), each with its series inside [from, to). */
  measurement: Map<string, FieldSeries>;
  /** Recomputed report fields (ids), each with span starts and values (fields sharing a calculation share one). */
  report: Map<string, ReportSeries>;
  /** The compliance events around the period (null: not derived in this run). */
  events: EventDerivation | null;
  /** The carbon ledger's port calls and pieces around the period (null: not derived in this run). */
  ledger: LedgerDerivation | null;
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
 * Takes the ship's derived values for the rest of the transaction: a second writer of the same ship (an execution of
 * overlapping days on another worker, a file's values deleted) waits here until the first commits, then reads what
 * it wrote. Without it, both delete the rows they saw and insert theirs (the second is refused by the primary key)
 * and both match their events against the events stored before either (the events are doubled). Taken before the
 * record book's lock (storage/record-book.ts), always in that order. On the embedded database transactions already
 * run one at a time.
 */
export async function lockShipValues(trx: Transaction<Database>, facilityId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ship-values:${facilityId}`}, 0))`.execute(trx);
}

const MEASUREMENT_ROWS_PER_INSERT = 1_000;
const MEASUREMENT_BYTES_PER_INSERT = 16 * 1024 * 1024;
const REPORT_ROWS_PER_INSERT = 20_000;

/**
 * Step "store", measurement values: deletes the period's day chunks of the recomputed fields and inserts the new
 * ones (whole days, so no chunk is merged), in the replacing transaction.
 */
export async function storeMeasurementValues(
  trx: Transaction<Database>,
  computed: Computed,
): Promise<number> {
  const { facilityId, from, to } = computed.request;
  const fromDay = dayText(from);
  const toDay = dayText(to);
  const mIds = computed.replaceMeasurementFieldIds;
  if (mIds === 'all' || mIds.length > 0) {
    let del = trx
      .deleteFrom('measurement_values')
      .where('facility_id', '=', facilityId)
      .where('day', '>=', fromDay)
      .where('day', '<', toDay);
    if (mIds !== 'all') del = del.where('measurement_field_id', 'in', mIds);
    await del.execute();
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
  let measurementRows = 0;
  const flush = async () => {
    if (batch.length) await trx.insertInto('measurement_values').values(batch).execute();
    measurementRows += batch.length;
    batch = [];
    batchBytes = 0;
  };
  // Fields of the same interval share their targets (views of one array): a day's timestamps are packed once.
  const packedDays = new Map<ArrayBufferLike, Map<string, Buffer>>();
  for (const [fieldId, series] of computed.measurement) {
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
      if (batch.length >= MEASUREMENT_ROWS_PER_INSERT || batchBytes >= MEASUREMENT_BYTES_PER_INSERT)
        await flush();
    }
  }
  await flush();
  return measurementRows;
}

/**
 * Step "store", report values: deletes the period's hours of the recomputed report fields and inserts the new ones,
 * one statement per field (span starts as epoch ms and values as float8 arrays: cheaper to send and parse than one
 * row of parameters per value), in the replacing transaction.
 */
export async function storeReportValues(trx: Transaction<Database>, computed: Computed): Promise<number> {
  const { facilityId, from, to } = computed.request;
  const rIds = computed.replaceReportFieldIds;
  if (rIds === 'all' || rIds.length > 0) {
    let del = trx
      .deleteFrom('report_values')
      .where('facility_id', '=', facilityId)
      .where('span_start', '>=', new Date(from))
      .where('span_start', '<', new Date(to));
    if (rIds !== 'all') del = del.where('report_field_id', 'in', rIds);
    await del.execute();
  }
  let reportRows = 0;
  // Fields that share a calculation share its series: the arrays are made once.
  const arrays = new Map<ReportSeries, { starts: number[]; values: (number | null)[] }>();
  for (const [fieldId, r] of computed.report) {
    let rows = arrays.get(r);
    if (!rows) {
      rows = { starts: [], values: [] };
      for (let i = 0; i < r.spanStarts.length; i++) {
        const s = r.spanStarts[i]!;
        if (s < from || s >= to) continue;
        const v = r.values[i]!;
        rows.starts.push(s);
        rows.values.push(Number.isFinite(v) ? v : null);
      }
      arrays.set(r, rows);
    }
    const { starts, values } = rows;
    for (let at = 0; at < starts.length; at += REPORT_ROWS_PER_INSERT) {
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${facilityId}::uuid, ${fieldId}::uuid, to_timestamp(s / 1000.0), v
        from unnest(${starts.slice(at, at + REPORT_ROWS_PER_INSERT)}::float8[], ${values.slice(at, at + REPORT_ROWS_PER_INSERT)}::float8[]) as u(s, v)
      `.execute(trx);
    }
    reportRows += starts.length;
  }
  return reportRows;
}

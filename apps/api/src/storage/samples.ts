import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { unpackFloat64 } from './packed';
import { lowerBound, upperBound } from './search';
import type { PartitionedTable } from '../db/partitions';
import { assertMonthsOnline, readArchivedMonths } from './archived-months';
import { monthOf } from '../db/partitions';

/**
 * The raw samples of a ship, from its two ways in, and the one module that touches their tables:
 * - files (`raw_timestamps`, `raw_values`): per data file its timestamps and one column per raw channel, as Float64
 *   columns packed where exact (packed.ts; NaN = missing). Written once by the upload (features/files/import.ts,
 *   inside the file's transaction), deleted with their file.
 * - the stream (`stream_samples`, migration 0033): one row per ship, data source, raw channel and source time, written
 *   by the Sparkplug host (features/live) with ON CONFLICT DO NOTHING, so a replayed or duplicated sample changes
 *   nothing and a late one lands in place (docs/decisions/0120-live-sparkplug-host.md).
 * Both are read together by the engine and data health ({@link readRawSamples}), with one rule where they meet: where
 * a file of the data source covers a time (between its first and last timestamp, a second more each way), the file's
 * samples count and the stream's do not.
 */

/**
 * Its month partitions (docs/decisions/0125-partitions-and-retention.md): the files' time index, a file's first
 * timestamp decides its month (its channels' columns, raw_values, are per file and stay where they are); the stream's
 * samples, each by its source time.
 */
export const SAMPLE_INDEX_MONTHS: PartitionedTable = {
  table: 'raw_timestamps',
  column: 'time_stamp_min',
  kind: 'timestamptz',
};
export const STREAM_SAMPLES_MONTHS: PartitionedTable = {
  table: 'stream_samples',
  column: 'source_time',
  kind: 'timestamptz',
};

/** Which file's samples: the ship first, as in every key of the value tables. */
export interface SampleFileKey {
  facilityId: string;
  dataFileId: string;
}

/** The head of a file's samples: its range and its timestamps column (packed or plain doubles). */
export interface SampleTimestamps {
  timeStampMin: Date;
  timeStampMax: Date;
  rowCount: number;
  timestamps: Uint8Array;
}

/** One raw channel's column of a file (packed or plain doubles). */
export interface SampleColumn {
  channel: string;
  dataType: string;
  values: Uint8Array;
}

/** An insert of raw columns carries about this many bytes: no statement gets huge, and one batch is stored while the next is packed. */
const COLUMN_BATCH_BYTES = 4 * 1024 * 1024;

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Writes a file's timestamps, in the file's import transaction. */
export async function storeSampleTimestamps(
  trx: Transaction<Database>,
  file: SampleFileKey,
  head: SampleTimestamps,
): Promise<void> {
  await assertMonthsOnline(trx, head.timeStampMin, head.timeStampMax);
  await trx
    .insertInto('raw_timestamps')
    .values({
      facility_id: file.facilityId,
      data_file_id: file.dataFileId,
      time_stamp_min: head.timeStampMin,
      time_stamp_max: head.timeStampMax,
      row_count: head.rowCount,
      timestamps: asBuffer(head.timestamps),
    })
    .execute();
}

/**
 * Writes a file's raw columns as they come (from a parse that packs them one at a time), in the file's import
 * transaction: about {@link COLUMN_BATCH_BYTES} per insert, one batch going to the database while the next columns
 * are packed. Returns the channels stored, in their order.
 */
export async function storeSampleColumns(
  trx: Transaction<Database>,
  file: SampleFileKey,
  columns: AsyncIterable<SampleColumn> | Iterable<SampleColumn>,
): Promise<string[]> {
  type Row = {
    facility_id: string;
    data_file_id: string;
    channel: string;
    data_type: string;
    values: Buffer;
  };
  const insert = (batch: Row[]) => trx.insertInto('raw_values').values(batch).execute();
  let storing: Promise<unknown> = Promise.resolve();
  let batch: Row[] = [];
  let bytes = 0;
  const channels: string[] = [];
  for await (const column of columns) {
    channels.push(column.channel);
    batch.push({
      facility_id: file.facilityId,
      data_file_id: file.dataFileId,
      channel: column.channel,
      data_type: column.dataType,
      values: asBuffer(column.values),
    });
    bytes += column.values.length;
    if (bytes >= COLUMN_BATCH_BYTES) {
      await storing;
      storing = insert(batch);
      storing.catch(() => undefined);
      batch = [];
      bytes = 0;
    }
  }
  await storing;
  if (batch.length) await insert(batch);
  return channels;
}

/**
 * Deletes a file's samples (its timestamps and every raw column), in the transaction that deletes the file (the
 * foreign keys would take them with the file's row too; deleted here first, so the samples have one owner).
 */
export async function deleteFileSamples(trx: Transaction<Database>, file: SampleFileKey): Promise<void> {
  await trx
    .deleteFrom('raw_values')
    .where('facility_id', '=', file.facilityId)
    .where('data_file_id', '=', file.dataFileId)
    .execute();
  await trx
    .deleteFrom('raw_timestamps')
    .where('facility_id', '=', file.facilityId)
    .where('data_file_id', '=', file.dataFileId)
    .execute();
}

export interface RawSamples {
  dataSourceId: string;
  /** UTC epoch ms, ascending, each once. */
  timestamps: Float64Array;
  /** Per raw column name, one value per timestamp (NaN = missing or not in that file). */
  columns: Record<string, Float64Array>;
}

export interface RawSampleQuery {
  from: Date;
  to: Date;
  /** Raw column names to read; all when absent. */
  channels?: string[];
  dataSourceId?: string;
}

/** A stored column (packed or plain doubles, packed.ts) as a Float64Array. */
export function float64FromBytes(bytes: Uint8Array): Float64Array {
  return unpackFloat64(bytes);
}

interface FileChunk {
  timestamps: Float64Array;
  columns: Map<string, Float64Array>;
}

/**
 * The raw samples of a ship between `from` and `to` (both included), per data source: the files with samples
 * overlapping the period, merged in time order. Where files overlap, a timestamp is taken once, from the file
 * imported last (a corrected re-export wins).
 */
export async function readRawSamples(
  db: Kysely<Database>,
  facilityId: string,
  query: RawSampleQuery,
): Promise<RawSamples[]> {
  let files = db
    .selectFrom('data_files as f')
    .innerJoin('raw_timestamps as t', (join) =>
      join.onRef('t.facility_id', '=', 'f.facility_id').onRef('t.data_file_id', '=', 'f.id'),
    )
    .select(['f.id', 'f.data_source_id', 't.timestamps', 't.time_stamp_min', 't.time_stamp_max'])
    .where('f.facility_id', '=', facilityId)
    .where('f.has_samples', '=', true)
    .where('t.time_stamp_max', '>=', query.from)
    .where('t.time_stamp_min', '<=', query.to)
    .orderBy('f.data_source_id')
    .orderBy('t.time_stamp_min')
    .orderBy('f.imported_on');
  if (query.dataSourceId) files = files.where('f.data_source_id', '=', query.dataSourceId);
  const [fileRows, stream] = await Promise.all([files.execute(), readStreamChunks(db, facilityId, query)]);
  if (fileRows.length === 0 && stream.size === 0) return [];

  let values = db
    .selectFrom('raw_values')
    .select(['data_file_id', 'channel', 'values'])
    .where('facility_id', '=', facilityId)
    .where(
      'data_file_id',
      'in',
      fileRows.map((f) => f.id),
    );
  if (query.channels) {
    if (query.channels.length === 0) values = values.where('channel', 'in', ['']);
    else values = values.where('channel', 'in', query.channels);
  }
  const valueRows = fileRows.length > 0 ? await values.execute() : [];
  const byFile = new Map<string, Map<string, Float64Array>>();
  for (const v of valueRows) {
    let m = byFile.get(v.data_file_id);
    if (!m) byFile.set(v.data_file_id, (m = new Map()));
    m.set(v.channel, float64FromBytes(v.values));
  }

  const bySource = new Map<string, FileChunk[]>();
  const spans = new Map<string, { from: number; to: number }[]>();
  for (const f of fileRows) {
    const chunks = bySource.get(f.data_source_id) ?? [];
    chunks.push({ timestamps: float64FromBytes(f.timestamps), columns: byFile.get(f.id) ?? new Map() });
    bySource.set(f.data_source_id, chunks);
    const covered = spans.get(f.data_source_id) ?? [];
    covered.push({ from: new Date(f.time_stamp_min).getTime(), to: new Date(f.time_stamp_max).getTime() });
    spans.set(f.data_source_id, covered);
  }
  // The stream's samples where no file of their data source covers the time (files first: the rule above).
  for (const [dataSourceId, rows] of stream) {
    const chunk = streamChunk(rows, spans.get(dataSourceId) ?? []);
    if (chunk.timestamps.length === 0) continue;
    bySource.set(dataSourceId, [chunk, ...(bySource.get(dataSourceId) ?? [])]);
  }
  const from = query.from.getTime();
  const to = query.to.getTime();
  return [...bySource].map(([dataSourceId, chunks]) => ({
    dataSourceId,
    ...mergeChunks(chunks, from, to, query.channels),
  }));
}

/** Merges file chunks (each ascending) into one ascending series within [from, to]; later chunks win on equal timestamps. */
export function mergeChunks(
  chunks: FileChunk[],
  from: number,
  to: number,
  channels?: string[],
): { timestamps: Float64Array; columns: Record<string, Float64Array> } {
  const names = channels ?? [...new Set(chunks.flatMap((c) => [...c.columns.keys()]))];
  const fast = concatenateDisjoint(chunks, from, to, names);
  if (fast) return fast;
  // (chunk, row) pairs inside the period; a stable sort by time keeps the later chunk last among equals.
  const refs: { t: number; chunk: number; row: number }[] = [];
  let sorted = true;
  let last = -Infinity;
  chunks.forEach((chunk, c) => {
    const ts = chunk.timestamps;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i]!;
      if (t < from || t > to) continue;
      if (t <= last) sorted = false;
      last = t;
      refs.push({ t, chunk: c, row: i });
    }
  });
  if (!sorted) refs.sort((a, b) => a.t - b.t || a.chunk - b.chunk);
  const kept: typeof refs = [];
  for (const r of refs) {
    if (kept.length && kept[kept.length - 1]!.t === r.t) kept[kept.length - 1] = r;
    else kept.push(r);
  }
  const timestamps = new Float64Array(kept.length);
  const columns: Record<string, Float64Array> = {};
  for (const name of names) columns[name] = new Float64Array(kept.length).fill(NaN);
  for (let k = 0; k < kept.length; k++) {
    const r = kept[k]!;
    timestamps[k] = r.t;
    const chunk = chunks[r.chunk]!;
    for (const name of names) {
      const column = chunk.columns.get(name);
      if (column) columns[name]![k] = column[r.row]!;
    }
  }
  return { timestamps, columns };
}

/** The usual case (daily files one after another): copy whole slices; null when chunks overlap in time. */
function concatenateDisjoint(chunks: FileChunk[], from: number, to: number, names: string[]) {
  const spans: { start: number; end: number }[] = [];
  let last = -Infinity;
  let total = 0;
  for (const chunk of chunks) {
    const start = lowerBound(chunk.timestamps, from);
    const end = upperBound(chunk.timestamps, to);
    if (end > start) {
      if (chunk.timestamps[start]! <= last) return null;
      last = chunk.timestamps[end - 1]!;
    }
    spans.push({ start, end });
    total += Math.max(0, end - start);
  }
  const timestamps = new Float64Array(total);
  const columns: Record<string, Float64Array> = {};
  for (const name of names) columns[name] = new Float64Array(total).fill(NaN);
  let at = 0;
  chunks.forEach((chunk, c) => {
    const { start, end } = spans[c]!;
    if (end <= start) return;
    timestamps.set(chunk.timestamps.subarray(start, end), at);
    for (const name of names) {
      const column = chunk.columns.get(name);
      if (column) columns[name]!.set(column.subarray(start, end), at);
    }
    at += end - start;
  });
  return { timestamps, columns };
}

/** A sample that arrived over the stream: a ship's data source's raw channel at a source time. */
export interface StreamSample {
  facilityId: string;
  dataSourceId: string;
  channel: string;
  /** The source time, UTC epoch ms. */
  time: number;
  /** NaN or null = missing (a Sparkplug metric's is_null, or a value that is no number). */
  value: number | null;
  /** Replayed from the edge node's buffer after a lost link (Sparkplug's is_historical). */
  isHistorical: boolean;
}

/** What a store of stream samples added: how many were new, and per ship and data source the source times they span. */
export interface StoredStreamSamples {
  inserted: number;
  duplicates: number;
  /** Ship id to data source id to the first and last new sample's source time (epoch ms, both included). */
  touched: Map<string, Map<string, { from: number; to: number }>>;
}

/** Rows per insert: 7 parameters each, well under PostgreSQL's 65535 bind parameters. */
const STREAM_BATCH_ROWS = 2000;

/**
 * Stores stream samples. Idempotent per (ship, data source, channel, source time): a sample already stored (a
 * replay, a duplicate) inserts nothing and changes nothing, the first value stays; out-of-order and late samples
 * are stored in place like any other (the key orders them, not the arrival). Only what was new is reported as
 * touched, so a replay queues no execution. A sample of an archived month is not stored (counted with the
 * duplicates): it would wait in the default partition and keep the month from being restored.
 */
export async function storeStreamSamples(
  db: Kysely<Database>,
  samples: readonly StreamSample[],
): Promise<StoredStreamSamples> {
  const touched: StoredStreamSamples['touched'] = new Map();
  let inserted = 0;
  const archived = new Set((await readArchivedMonths(db)).map((m) => m.month));
  const online = archived.size === 0 ? samples : samples.filter((s) => !archived.has(monthOf(s.time)));
  for (let start = 0; start < online.length; start += STREAM_BATCH_ROWS) {
    const batch = online.slice(start, start + STREAM_BATCH_ROWS).map((s) => ({
      facility_id: s.facilityId,
      data_source_id: s.dataSourceId,
      channel: s.channel,
      source_time: new Date(s.time),
      value: s.value === null || !Number.isFinite(s.value) ? null : s.value,
      is_historical: s.isHistorical,
    }));
    const rows = await db
      .insertInto('stream_samples')
      .values(batch)
      .onConflict((oc) => oc.columns(['facility_id', 'data_source_id', 'channel', 'source_time']).doNothing())
      .returning(['facility_id', 'data_source_id', 'source_time'])
      .execute();
    inserted += rows.length;
    for (const row of rows) {
      const t = new Date(row.source_time).getTime();
      let ship = touched.get(row.facility_id);
      if (!ship) touched.set(row.facility_id, (ship = new Map()));
      const range = ship.get(row.data_source_id);
      if (!range) ship.set(row.data_source_id, { from: t, to: t });
      else {
        range.from = Math.min(range.from, t);
        range.to = Math.max(range.to, t);
      }
    }
  }
  return { inserted, duplicates: samples.length - inserted, touched };
}

/** The first and last source time of a ship's stream samples (null without any), for its data range. */
export async function streamSampleRange(
  db: Kysely<Database>,
  facilityId: string,
): Promise<{ min: Date; max: Date } | null> {
  const row = await db
    .selectFrom('stream_samples')
    .select((eb) => [eb.fn.min('source_time').as('min'), eb.fn.max('source_time').as('max')])
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  if (!row?.min || !row.max) return null;
  return { min: new Date(row.min), max: new Date(row.max) };
}

/** A channel's latest streamed sample (the live readout). */
export interface LatestStreamSample {
  dataSourceId: string;
  channel: string;
  time: number;
  value: number | null;
  isHistorical: boolean;
}

/**
 * The latest streamed sample of each channel of a ship, of those within `windowMs` before its latest streamed
 * sample (the live readout; a channel silent longer is not live any more). The window keeps the read to the ship's
 * last stretch of the time index, however long it has streamed.
 */
export async function latestStreamSamples(
  db: Kysely<Database>,
  facilityId: string,
  windowMs: number,
): Promise<LatestStreamSample[]> {
  const latest = await db
    .selectFrom('stream_samples')
    .select((eb) => eb.fn.max('source_time').as('max'))
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  if (!latest?.max) return [];
  const rows = await db
    .selectFrom('stream_samples')
    .distinctOn(['data_source_id', 'channel'])
    .select(['data_source_id', 'channel', 'source_time', 'value', 'is_historical'])
    .where('facility_id', '=', facilityId)
    .where('source_time', '>=', new Date(new Date(latest.max).getTime() - windowMs))
    .orderBy('data_source_id')
    .orderBy('channel')
    .orderBy('source_time', 'desc')
    .execute();
  return rows.map((r) => ({
    dataSourceId: r.data_source_id,
    channel: r.channel,
    time: new Date(r.source_time).getTime(),
    value: r.value,
    isHistorical: r.is_historical,
  }));
}

/** A ship's stream samples in [from, to], of one data source when given: the rows both readers below select from. */
function streamSamplesBetween(
  db: Kysely<Database>,
  facilityId: string,
  query: { from: Date; to: Date; dataSourceId?: string },
) {
  const rows = db
    .selectFrom('stream_samples')
    .where('facility_id', '=', facilityId)
    .where('source_time', '>=', query.from)
    .where('source_time', '<=', query.to);
  return query.dataSourceId ? rows.where('data_source_id', '=', query.dataSourceId) : rows;
}

/** A stored stream sample as read back (for tests, the bench and the health view). */
export interface StoredStreamSample {
  channel: string;
  time: number;
  value: number | null;
  isHistorical: boolean;
}

/** The stream samples of a ship's data source in [from, to], in time order per channel. */
export async function readStreamSamples(
  db: Kysely<Database>,
  facilityId: string,
  query: { from: Date; to: Date; dataSourceId?: string },
): Promise<StoredStreamSample[]> {
  const rows = streamSamplesBetween(db, facilityId, query)
    .select(['channel', 'source_time', 'value', 'is_historical'])
    .orderBy('channel')
    .orderBy('source_time');
  return (await rows.execute()).map((r) => ({
    channel: r.channel,
    time: new Date(r.source_time).getTime(),
    value: r.value,
    isHistorical: r.is_historical,
  }));
}

interface StreamRow {
  channel: string;
  t: number;
  value: number | null;
}

/** The stream rows of the period per data source, in time order. */
async function readStreamChunks(
  db: Kysely<Database>,
  facilityId: string,
  query: RawSampleQuery,
): Promise<Map<string, StreamRow[]>> {
  if (query.channels && query.channels.length === 0) return new Map();
  let rows = streamSamplesBetween(db, facilityId, query)
    .select(['data_source_id', 'channel', 'source_time', 'value'])
    .orderBy('data_source_id')
    .orderBy('source_time');
  if (query.channels) rows = rows.where('channel', 'in', query.channels);
  const out = new Map<string, StreamRow[]>();
  for (const r of await rows.execute()) {
    let list = out.get(r.data_source_id);
    if (!list) out.set(r.data_source_id, (list = []));
    list.push({ channel: r.channel, t: new Date(r.source_time).getTime(), value: r.value });
  }
  return out;
}

/**
 * A file covers from its first timestamp to its last, widened by this much each way: a logger file's timestamps are
 * whole seconds, a gateway's milliseconds, so a streamed sample within a second of a file's edge is the same reading.
 */
const FILE_SPAN_MARGIN_MS = 1000;

/** Stream rows (in time order) as one chunk, without the times a file of the data source covers. */
function streamChunk(rows: StreamRow[], fileSpans: { from: number; to: number }[]): FileChunk {
  const covered = (t: number) =>
    fileSpans.some((s) => t >= s.from - FILE_SPAN_MARGIN_MS && t <= s.to + FILE_SPAN_MARGIN_MS);
  const times: number[] = [];
  const kept: { row: StreamRow; index: number }[] = [];
  for (const row of rows) {
    if (covered(row.t)) continue;
    if (times.length === 0 || times[times.length - 1] !== row.t) times.push(row.t);
    kept.push({ row, index: times.length - 1 });
  }
  const columns = new Map<string, Float64Array>();
  for (const { row, index } of kept) {
    let column = columns.get(row.channel);
    if (!column) columns.set(row.channel, (column = new Float64Array(times.length).fill(NaN)));
    column[index] = row.value ?? NaN;
  }
  return { timestamps: Float64Array.from(times), columns };
}

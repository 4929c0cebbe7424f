import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { unpackFloat64 } from './packed';
import { lowerBound, upperBound } from './search';

/**
 * The raw samples of a ship (`raw_timestamps`, `raw_values`): per data file its timestamps and one column per raw
 * channel, as Float64 columns packed where exact (packed.ts; NaN = missing). Written once by the upload
 * (features/files/import.ts, inside the file's transaction), read by the engine and data health, deleted with
 * their file. The one module that touches these tables.
 */

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
    .select(['f.id', 'f.data_source_id', 't.timestamps'])
    .where('f.facility_id', '=', facilityId)
    .where('f.has_samples', '=', true)
    .where('t.time_stamp_max', '>=', query.from)
    .where('t.time_stamp_min', '<=', query.to)
    .orderBy('f.data_source_id')
    .orderBy('t.time_stamp_min')
    .orderBy('f.imported_on');
  if (query.dataSourceId) files = files.where('f.data_source_id', '=', query.dataSourceId);
  const fileRows = await files.execute();
  if (fileRows.length === 0) return [];

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
  const valueRows = await values.execute();
  const byFile = new Map<string, Map<string, Float64Array>>();
  for (const v of valueRows) {
    let m = byFile.get(v.data_file_id);
    if (!m) byFile.set(v.data_file_id, (m = new Map()));
    m.set(v.channel, float64FromBytes(v.values));
  }

  const bySource = new Map<string, FileChunk[]>();
  for (const f of fileRows) {
    const chunks = bySource.get(f.data_source_id) ?? [];
    chunks.push({ timestamps: float64FromBytes(f.timestamps), columns: byFile.get(f.id) ?? new Map() });
    bySource.set(f.data_source_id, chunks);
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

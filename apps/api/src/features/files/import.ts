import { webcrypto } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { constants as zlibConstants, gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { formatDateTime } from '@portal/contracts/rules';
import { parseReaderConfiguration } from '@portal/contracts/readers';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import { parseDataFile, ReaderError, readerDefinition, type ParsedDataFile, type UploadRules } from '../../readers';
import { eachUploadedFile } from '../../readers/archive';
import { packFloat64 } from './packed';
import { updateFacilityDataRange } from './range';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export interface ImportUploadInput {
  facilityId: string;
  dataSourceId: string;
  /** Name of the upload: a data file or a .zip of data files. */
  fileName: string;
  content: Buffer | Readable;
  /** User id, or null for the seed and the onboard uploader. */
  importedBy: string | null;
  /** Limits of the upload; the defaults suit the HTTP route. */
  rules?: Partial<UploadRules>;
  /** Stage timings (ms) are added here when given (benchmarks). */
  timings?: Record<string, number>;
}

export interface ImportResult {
  ids: string[];
  errorMessages: string[];
}

export const DEFAULT_UPLOAD_RULES: UploadRules = {
  acceptedExtensions: [],
  maxUploadBytes: 512 * 1024 * 1024,
  maxEntries: 10_000,
  maxTotalUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 400,
  maxEntryBytes: 512 * 1024 * 1024,
};

/** An insert of raw columns carries at most this many bytes, so no statement gets huge. */
const INSERT_BATCH_BYTES = 16 * 1024 * 1024;
/** The original is compressed and stored in parts of this size (compressed in parallel, rows of bounded size). */
const ORIGINAL_PART_BYTES = 8 * 1024 * 1024;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/**
 * The upload service (HTTP route, demo seed, onboard uploader): takes a data file or a .zip of them, and imports
 * each file whole or not at all (one transaction per file): the original (gzip, in parts), its UTC timestamps and
 * every raw column, packed where exact (docs/decisions/0050-storage-performance.md). An archive is imported one file
 * at a time, each freed before the next is unpacked. A file whose content was imported before into the same data source is answered
 * as an error message instead of being imported twice. Keeps the ship's data range and coverage current.
 */
export async function importUploadedFile(db: Kysely<Database>, input: ImportUploadInput): Promise<ImportResult> {
  const source = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'reader_id', 'reader_configuration', 'utc_offset_minutes'])
    .where('id', '=', input.dataSourceId)
    .where('facility_id', '=', input.facilityId)
    .executeTakeFirst();
  if (!source) throw notFound('Data source not found');
  const reader = readerDefinition(source.reader_id);
  const rules: UploadRules = { ...DEFAULT_UPLOAD_RULES, ...input.rules, acceptedExtensions: reader?.acceptedFileExtensions ?? [] };
  const configuration = parseReaderConfiguration(source.reader_id, source.reader_configuration);
  const ids: string[] = [];
  const fileErrors: string[] = [];
  let skipped = 0;
  // One file of an archive in memory at a time: each is parsed and stored before the next is unpacked.
  const upload = await eachUploadedFile(
    Buffer.isBuffer(input.content) ? { fileName: input.fileName, content: input.content } : { fileName: input.fileName, stream: input.content },
    rules,
    async (file) => {
      if (!configuration.ok) {
        skipped++;
        return;
      }
      const outcome = await importOneFile(db, {
        facilityId: input.facilityId,
        dataSourceId: source.id,
        readerId: source.reader_id,
        configuration: configuration.configuration,
        offsetMinutes: source.utc_offset_minutes,
        fileName: file.fileName,
        content: file.content,
        importedBy: input.importedBy,
        timings: input.timings,
      });
      if ('id' in outcome) ids.push(outcome.id);
      else fileErrors.push(outcome.error);
    },
  );
  const result: ImportResult = { ids, errorMessages: [...upload.errors, ...fileErrors] };
  if (!configuration.ok && skipped > 0) {
    result.errorMessages.push(`The parser configuration of the data source is not valid: ${configuration.errors.join('; ')}. No file was imported.`);
  }
  if (ids.length > 0) await updateFacilityDataRange(db, input.facilityId);
  return result;
}

interface OneFile {
  facilityId: string;
  dataSourceId: string;
  readerId: string;
  configuration: Parameters<typeof parseDataFile>[1]['configuration'];
  offsetMinutes: number;
  fileName: string;
  content: Buffer;
  importedBy: string | null;
  timings?: Record<string, number>;
}

function stopwatch(timings: Record<string, number> | undefined) {
  let last = performance.now();
  return (stage: string) => {
    const now = performance.now();
    if (timings) timings[stage] = (timings[stage] ?? 0) + (now - last);
    last = now;
  };
}

async function alreadyImported(db: Kysely<Database>, file: OneFile, sha256: string): Promise<{ id: string } | { error: string } | null> {
  const existing = await db
    .selectFrom('data_files')
    .select(['id', 'imported_on', 'removed_on'])
    .where('data_source_id', '=', file.dataSourceId)
    .where('content_sha256', '=', sha256)
    .executeTakeFirst();
  if (!existing) return null;
  // Deleted from the list with its samples kept: uploading it again lists it again.
  if (existing.removed_on) {
    await db.updateTable('data_files').set({ removed_on: null, file_name: file.fileName }).where('id', '=', existing.id).execute();
    return { id: existing.id };
  }
  return { error: `${file.fileName}: already imported on ${formatDateTime(existing.imported_on)}` };
}

/**
 * The original, compressed in parts in the thread pool (while the file is parsed on this thread). Huffman-only
 * deflate: twice as fast as level 1 for 3% more bytes on logger CSV (bench/results/ingest.md). Each part is a
 * complete gzip member (a part that does not shrink is kept as it is), stored as its own row as soon as it is ready.
 */
function compressOriginal(content: Buffer): Promise<{ compression: 'gzip' | 'none'; content: Buffer }>[] {
  const parts: Promise<{ compression: 'gzip' | 'none'; content: Buffer }>[] = [];
  for (let at = 0; at === 0 || at < content.length; at += ORIGINAL_PART_BYTES) {
    const piece = content.subarray(at, at + ORIGINAL_PART_BYTES);
    const part = gzipAsync(piece, { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY }).then((gz) =>
      gz.length < piece.length ? { compression: 'gzip' as const, content: gz } : { compression: 'none' as const, content: piece },
    );
    part.catch(() => undefined);
    parts.push(part);
  }
  return parts;
}

/** Rows of a batch, flushed whenever their bytes reach INSERT_BATCH_BYTES. */
async function insertInBatches<T>(rows: Iterable<T>, bytesOf: (row: T) => number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  let batch: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    batch.push(row);
    bytes += bytesOf(row);
    if (bytes >= INSERT_BATCH_BYTES) {
      await insert(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length) await insert(batch);
}

async function importOneFile(db: Kysely<Database>, file: OneFile): Promise<{ id: string } | { error: string }> {
  const lap = stopwatch(file.timings);
  // The hash and the compressed original are made in the thread pool while this thread parses.
  const hashing = webcrypto.subtle.digest('SHA-256', file.content).then((digest) => Buffer.from(digest).toString('hex'));
  hashing.catch(() => undefined);
  const originalParts = compressOriginal(file.content);
  let parsed: ParsedDataFile | ReaderError;
  try {
    parsed = await parseDataFile({ fileName: file.fileName, content: file.content }, { readerId: file.readerId, configuration: file.configuration }, { utcTimezoneOffsetInMinutes: file.offsetMinutes });
  } catch (error) {
    if (!(error instanceof ReaderError)) throw error;
    parsed = error;
  }
  lap('parse');
  const sha256 = await hashing;
  // A file imported before is answered as such, whether or not it parses.
  const seen = await alreadyImported(db, file, sha256);
  if (seen) return seen;
  if (parsed instanceof ReaderError) return { error: `${file.fileName}: ${parsed.message}` };
  lap('hash and duplicate check');
  try {
    const id = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('data_files')
        .values({
          facility_id: file.facilityId,
          data_source_id: file.dataSourceId,
          file_name: file.fileName,
          content_sha256: sha256,
          byte_size: file.content.length,
          row_count: parsed.rowCount,
          time_stamp_min: parsed.timeStampMin,
          time_stamp_max: parsed.timeStampMax,
          imported_by: file.importedBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The connection is kept busy with whatever is ready: the parts of the original compressed so far while this
      // thread packs the columns (a server works meanwhile; PGlite, in this thread, does one after the other), then
      // the columns, then the parts still being compressed.
      const compressed = originalParts.map(() => false);
      originalParts.forEach((p, i) => p.then(() => (compressed[i] = true), () => undefined));
      let nextPart = 0;
      const storeOriginalParts = async (all: boolean) => {
        while (nextPart < originalParts.length && (all || compressed[nextPart])) {
          const part = nextPart++;
          const { compression, content } = await originalParts[part]!;
          await trx.insertInto('data_file_originals').values({ facility_id: file.facilityId, data_file_id: row.id, part, compression, content }).execute();
        }
      };
      const storingReadyParts = storeOriginalParts(false);
      storingReadyParts.catch(() => undefined);
      await yieldToEventLoop();
      // Packed columns: exact, and a quarter to a half of the bytes to store (features/files/packed.ts).
      const timestamps = packFloat64(parsed.timestamps);
      const columns = parsed.channels.map((channel) => ({ facility_id: file.facilityId, data_file_id: row.id, channel: channel.channel, data_type: channel.dataType, values: packFloat64(channel.values) }));
      lap('store original, pack columns');
      await storingReadyParts;
      lap('store original (ready parts)');
      await trx
        .insertInto('raw_timestamps')
        .values({
          facility_id: file.facilityId,
          data_file_id: row.id,
          time_stamp_min: parsed.timeStampMin,
          time_stamp_max: parsed.timeStampMax,
          row_count: parsed.rowCount,
          timestamps,
        })
        .execute();
      await insertInBatches(
        columns,
        (r) => r.values.length,
        async (batch) => {
          await trx.insertInto('raw_values').values(batch).execute();
          await storeOriginalParts(false);
        },
      );
      lap('store columns');
      await storeOriginalParts(true);
      lap('store original (rest)');
      // The ship's range commits with the file, so a connection lost after the commit cannot leave it stale
      // (faults.test.ts); the row lock makes concurrent imports of one ship see each other's files.
      await trx.selectFrom('facilities').select('id').where('id', '=', file.facilityId).forUpdate().execute();
      await updateFacilityDataRange(trx, file.facilityId);
      return row.id;
    });
    lap('commit');
    return { id };
  } catch (error) {
    // The same content uploaded twice at once: the unique index lets one in, the other is told.
    if (isUniqueViolation(error)) {
      const seenNow = await alreadyImported(db, file, sha256);
      if (seenNow) return seenNow;
    }
    throw error;
  }
}

/** Reads the original of a data file back (for re-parsing and audit): its parts in order, uncompressed. */
export async function readOriginal(db: Kysely<Database>, facilityId: string, dataFileId: string): Promise<Buffer | null> {
  const rows = await db
    .selectFrom('data_file_originals')
    .select(['compression', 'content'])
    .where('facility_id', '=', facilityId)
    .where('data_file_id', '=', dataFileId)
    .orderBy('part')
    .execute();
  if (rows.length === 0) return null;
  const parts = await Promise.all(rows.map((row) => (row.compression === 'gzip' ? gunzipAsync(row.content) : Buffer.from(row.content))));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

import { randomUUID, webcrypto } from 'node:crypto';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { constants as zlibConstants, gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { formatDateTime } from '@portal/contracts/rules';
import { parseReaderConfiguration, type DelimitedReaderConfiguration, type XlsxReaderConfiguration } from '@portal/contracts/readers';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import { ReaderError, readerDefinition, type UploadRules } from '../../readers';
import { eachUploadedFile } from '../../readers/archive';
import type { PackedHead } from './parse-and-pack';
import { readDataFile } from './parse-off-thread';
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
  /**
   * How the original is compressed: 'inline' gzips it during the import (PGlite, where every stored byte is
   * costly); 'deferred' stores it raw, marked pending, and compresses it once the import has committed (PostgreSQL
   * stores raw bytes faster than this process can gzip them, so the upload is answered sooner; the gzip work is
   * the same, done after the answer). Default 'inline'.
   */
  originalCompression?: OriginalCompression;
}

export type OriginalCompression = 'inline' | 'deferred';

/** The choice for a database kind: deferred on a PostgreSQL server, inline on PGlite. */
export const originalCompressionFor = (kind: 'pglite' | 'postgres'): OriginalCompression => (kind === 'postgres' ? 'deferred' : 'inline');

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

/** An insert of raw columns carries about this many bytes: no statement gets huge, and one batch is stored while the next is packed. */
const INSERT_BATCH_BYTES = 4 * 1024 * 1024;
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
  let previousCompressed: Promise<unknown> = Promise.resolve();
  // One file of an archive in memory at a time: each is parsed and stored before the next is unpacked (and the
  // original of the one before is compressed, when that follows the answer).
  const upload = await eachUploadedFile(
    Buffer.isBuffer(input.content) ? { fileName: input.fileName, content: input.content } : { fileName: input.fileName, stream: input.content },
    rules,
    async (file) => {
      if (!configuration.ok) {
        skipped++;
        return;
      }
      await previousCompressed;
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
        originalCompression: input.originalCompression ?? 'inline',
      });
      if ('error' in outcome) fileErrors.push(outcome.error);
      else {
        ids.push(outcome.id);
        previousCompressed = outcome.compressed ?? previousCompressed;
      }
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
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration;
  offsetMinutes: number;
  fileName: string;
  content: Buffer;
  importedBy: string | null;
  timings?: Record<string, number>;
  originalCompression: OriginalCompression;
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

type OriginalPart = Promise<{ compression: 'gzip' | 'none' | 'pending'; content: Buffer }>;

/**
 * The original in parts of ORIGINAL_PART_BYTES, each stored as its own row. Inline, each part is a complete gzip
 * member, Huffman-only (twice as fast as level 1 for 3% more bytes on logger CSV, bench/results/ingest.md), made in
 * the thread pool while the file is parsed; a part that does not shrink is kept as it is ('none'). Deferred, the
 * parts are stored as they are, marked 'pending' for the compress-originals job (jobs/compress-originals.ts).
 */
function originalParts(content: Buffer, compression: OriginalCompression): OriginalPart[] {
  const parts: OriginalPart[] = [];
  for (let at = 0; at === 0 || at < content.length; at += ORIGINAL_PART_BYTES) {
    const piece = content.subarray(at, at + ORIGINAL_PART_BYTES);
    if (compression === 'deferred') {
      parts.push(Promise.resolve({ compression: 'pending', content: piece }));
      continue;
    }
    parts.push(compressPart(piece));
  }
  return parts;
}

/** One part gzip'ed Huffman-only in the thread pool, or kept as it is when that does not shrink it. */
async function compressPart(piece: Buffer): Promise<{ compression: 'gzip' | 'none'; content: Buffer }> {
  const gz = await gzipAsync(piece, { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY });
  return gz.length < piece.length ? { compression: 'gzip', content: gz } : { compression: 'none', content: piece };
}

/** Compressions of originals under way in this process (deferred: started once their import committed). */
const compressing = new Set<Promise<unknown>>();

/**
 * Deferred compression of a committed import's original, in this process, while the bytes are still in memory:
 * each part gzip'ed in the thread pool and rewritten while still pending. What a stopped process leaves pending,
 * the compress-originals job sweeps up (jobs/compress-originals.ts).
 */
function compressAfterCommit(db: Kysely<Database>, file: OneFile, dataFileId: string): Promise<unknown> {
  const work = (async () => {
    for (let part = 0, at = 0; at === 0 || at < file.content.length; part++, at += ORIGINAL_PART_BYTES) {
      await compressPendingPart(db, { facilityId: file.facilityId, dataFileId, part }, file.content.subarray(at, at + ORIGINAL_PART_BYTES));
    }
  })().catch((error: unknown) => console.warn(`compressing the original of ${file.fileName} is left to the compress-originals job: ${(error as Error).message}`));
  compressing.add(work);
  void work.finally(() => compressing.delete(work));
  return work;
}

/**
 * Stores a pending part of an original compressed (or as 'none' when gzip does not shrink it), only while it is
 * still pending: a part compressed meanwhile by another process, or deleted with its file, is left alone.
 * Returns the bytes stored, or null when the part was no longer pending.
 */
export async function compressPendingPart(db: Kysely<Database>, key: { facilityId: string; dataFileId: string; part: number }, raw: Buffer): Promise<number | null> {
  const compressed = await compressPart(raw);
  const updated = await db
    .updateTable('data_file_originals')
    .set({ compression: compressed.compression, content: compressed.content })
    .where('facility_id', '=', key.facilityId)
    .where('data_file_id', '=', key.dataFileId)
    .where('part', '=', key.part)
    .where('compression', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 ? compressed.content.length : null;
}

/** Resolves when the originals this process is compressing are stored compressed (shutdown, benchmarks, tests). */
export async function originalsCompressed(): Promise<void> {
  while (compressing.size > 0) await Promise.all([...compressing]);
}

/** A file whose content was imported before into the data source: the transaction that began storing it is rolled back. */
class ImportedBefore extends Error {}

/** A file that does not parse: the transaction that began storing its original is rolled back. */
class UnreadableFile extends Error {
  constructor(readonly readerError: ReaderError) {
    super(readerError.message);
  }
}

const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** A file imported (with its original's compression under way when deferred), or why not. */
type FileOutcome = { id: string; compressed?: Promise<unknown> } | { error: string };

async function importOneFile(db: Kysely<Database>, file: OneFile): Promise<FileOutcome> {
  const lap = stopwatch(file.timings);
  // Three things at once: the hash (thread pool), the parse and packing of the columns (a worker thread for large
  // files, parse-off-thread.ts) and, on this thread, storing the original (then the columns as they come).
  const hashing = webcrypto.subtle.digest('SHA-256', file.content).then((digest) => Buffer.from(digest).toString('hex'));
  hashing.catch(() => undefined);
  const reading = readDataFile({
    fileName: file.fileName,
    content: file.content,
    readerId: file.readerId,
    configuration: file.configuration,
    options: { utcTimezoneOffsetInMinutes: file.offsetMinutes },
  });
  let headDone = false;
  const head: Promise<PackedHead | ReaderError> = reading.head
    .catch((error: unknown) => {
      if (error instanceof ReaderError) return error;
      throw error;
    })
    .finally(() => (headDone = true));
  head.catch(() => undefined);
  const parts = originalParts(file.content, file.originalCompression);
  for (const part of parts) part.catch(() => undefined);
  let sha256: string | null = null;
  try {
    const id = await db.transaction().execute(async (trx) => {
      // The row comes first (the original's parts refer to it), under a provisional hash until the real one is ready:
      // the original is stored while the hash is computed. Rows and time range follow the parse.
      const row = await trx
        .insertInto('data_files')
        .values({
          facility_id: file.facilityId,
          data_source_id: file.dataSourceId,
          file_name: file.fileName,
          content_sha256: `pending:${randomUUID()}`,
          byte_size: file.content.length,
          row_count: 0,
          time_stamp_min: new Date(0),
          time_stamp_max: new Date(0),
          imported_by: file.importedBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A file imported before is answered as such, whether or not it parses: checked as soon as the hash is known.
      let hashed = false;
      hashing.then(() => (hashed = true), () => (hashed = true));
      let claimed = false;
      const claimHash = async () => {
        sha256 = await hashing;
        const earlier = await trx.selectFrom('data_files').select('id').where('data_source_id', '=', file.dataSourceId).where('content_sha256', '=', sha256).executeTakeFirst();
        if (earlier) throw new ImportedBefore();
        // The unique index makes a concurrent upload of the same content wait for this one, then fail as a duplicate.
        await trx.updateTable('data_files').set({ content_sha256: sha256 }).where('id', '=', row.id).execute();
        claimed = true;
        lap('hash and duplicate check');
      };
      for (let part = 0; part < parts.length; part++) {
        const { compression, content } = await parts[part]!;
        await trx.insertInto('data_file_originals').values({ facility_id: file.facilityId, data_file_id: row.id, part, compression, content }).execute();
        if (hashed && !claimed) await claimHash();
        // A file that turned out unreadable stops here (the transaction rolls back).
        if (headDone && (await head) instanceof ReaderError) break;
      }
      if (!claimed) await claimHash();
      lap('store original');
      const packed = await head;
      if (packed instanceof ReaderError) throw new UnreadableFile(packed);
      lap('parse (beyond the original)');
      const timeStampMin = new Date(packed.timeStampMin);
      const timeStampMax = new Date(packed.timeStampMax);
      await trx.updateTable('data_files').set({ row_count: packed.rowCount, time_stamp_min: timeStampMin, time_stamp_max: timeStampMax }).where('id', '=', row.id).execute();
      await trx
        .insertInto('raw_timestamps')
        .values({
          facility_id: file.facilityId,
          data_file_id: row.id,
          time_stamp_min: timeStampMin,
          time_stamp_max: timeStampMax,
          row_count: packed.rowCount,
          timestamps: asBuffer(packed.timestamps),
        })
        .execute();
      // Columns are stored as they come: one batch goes to the database while the next columns are packed.
      const insertColumns = (batch: { facility_id: string; data_file_id: string; channel: string; data_type: string; values: Buffer }[]) => trx.insertInto('raw_values').values(batch).execute();
      let storing: Promise<unknown> = Promise.resolve();
      let batch: Parameters<typeof insertColumns>[0] = [];
      let bytes = 0;
      for await (const column of reading.columns) {
        batch.push({ facility_id: file.facilityId, data_file_id: row.id, channel: column.channel, data_type: column.dataType, values: asBuffer(column.values) });
        bytes += column.values.length;
        if (bytes >= INSERT_BATCH_BYTES) {
          await storing;
          storing = insertColumns(batch);
          storing.catch(() => undefined);
          batch = [];
          bytes = 0;
        }
      }
      await storing;
      if (batch.length) await insertColumns(batch);
      lap('store columns');
      // The ship's range commits with the file, so a connection lost after the commit cannot leave it stale
      // (faults.test.ts); the row lock makes concurrent imports of one ship see each other's files. NO KEY UPDATE, the
      // lock the range update takes anyway: FOR UPDATE would wait for the key-share locks that a concurrent import's
      // rows hold on the ship while that import waits for this one on the content's unique index (a deadlock).
      await trx.selectFrom('facilities').select('id').where('id', '=', file.facilityId).forNoKeyUpdate().execute();
      await updateFacilityDataRange(trx, file.facilityId);
      return row.id;
    });
    lap('commit');
    return { id, compressed: file.originalCompression === 'deferred' ? compressAfterCommit(db, file, id) : undefined };
  } catch (error) {
    if (error instanceof UnreadableFile) return { error: `${file.fileName}: ${error.readerError.message}` };
    // Imported before, or the same content uploaded twice at once (the unique index lets one in): the other is told.
    if (sha256 && (error instanceof ImportedBefore || isUniqueViolation(error))) {
      const seen = await alreadyImported(db, file, sha256);
      if (seen) return seen;
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
  // 'none' (kept as it is) and 'pending' (not compressed yet) are the bytes themselves.
  const parts = await Promise.all(rows.map((row) => (row.compression === 'gzip' ? gunzipAsync(row.content) : Buffer.from(row.content))));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

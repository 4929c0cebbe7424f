import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { sql, type Transaction } from 'kysely';
import { formatDateTime } from '@portal/contracts/rules';
import {
  DEFAULT_GAP_WARNING_SAMPLES,
  type DataFileWarning,
  type UploadedFileWarnings,
} from '@portal/contracts/data-health';
import {
  parseReaderConfiguration,
  type DelimitedReaderConfiguration,
  type XlsxReaderConfiguration,
} from '@portal/contracts/readers';
import type { DatabaseHandle } from '../../storage/database';
import {
  ensureMonthPartitions,
  storeSampleColumns,
  storeSampleTimestamps,
  unpackFloat64,
  type OriginalKey,
} from '../../storage';
import type { Database } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { audit, type AuditActor } from '../audit/audit';
import { ReaderError, readerDefinition, type UploadRules } from '../../readers';
import { eachUploadedFile } from '../../readers/archive';
import type { PackedHead } from './parse-and-pack';
import { readDataFile } from './parse-off-thread';
import { updateFacilityDataRange } from '../datasources/range';
import { fileWarnings } from './warnings';

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
   * Who uploaded, for the audit log: each imported file's entry ('datafile.upload') is written in the file's own
   * transaction. Absent for the demo seed.
   */
  auditedBy?: { actor: AuditActor; detail?: Record<string, unknown> };
  /** A time gap longer than this many samples is warned about (default DEFAULT_GAP_WARNING_SAMPLES). */
  gapWarningSamples?: number;
}

export interface ImportResult {
  ids: string[];
  errorMessages: string[];
  /** Per imported file, what it warns about (features/files/warnings.ts); kept with the file too. */
  warnings: UploadedFileWarnings[];
}

export const DEFAULT_UPLOAD_RULES: UploadRules = {
  acceptedExtensions: [],
  maxUploadBytes: 512 * 1024 * 1024,
  maxEntries: 10_000,
  maxTotalUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 400,
  maxEntryBytes: 512 * 1024 * 1024,
};

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** What an import writes to: the database and the store of originals (storage/originals.ts). */
export type ImportTarget = Pick<DatabaseHandle, 'db' | 'originals'>;

/**
 * Files of one upload imported in one transaction, at most this many (or this many bytes, whichever comes first; a
 * larger file goes alone): what a file costs beyond its own rows (BEGIN/COMMIT, the ship's lock and data range) is
 * paid once per batch (docs/decisions/0127-originals-in-object-storage-and-batch-import.md).
 */
export const IMPORT_BATCH_FILES = 100;
export const IMPORT_BATCH_BYTES = 16 * 1024 * 1024;

/** One upload as received: a data file or a .zip of data files. */
export interface UploadedContent {
  fileName: string;
  content: Buffer | Readable;
}

/**
 * The upload service (HTTP route, demo seed, onboard uploader): takes a data file or a .zip of them, and imports
 * each file whole or not at all: the original (storage/originals.ts), its UTC timestamps and every raw column, packed
 * where exact (docs/decisions/0050-storage-performance.md). A file whose content was imported before into the same
 * data source is answered as an error message instead of being imported twice. Keeps the ship's data range and
 * coverage current. The files of an archive go in batches (importUploads).
 */
export async function importUploadedFile(
  target: ImportTarget,
  input: ImportUploadInput,
): Promise<ImportResult> {
  const { fileName, content, ...rest } = input;
  return importUploads(target, { ...rest, uploads: [{ fileName, content }] });
}

/**
 * Several uploads at once (the files of a multi-file upload, a folder of the onboard uploader, a ship-year of daily
 * files), each a data file or a .zip of them, into one data source. The files are imported in batches of one
 * transaction each (IMPORT_BATCH_FILES, IMPORT_BATCH_BYTES) with a savepoint per file: a file that does not import
 * (unreadable, imported before) gets its error message and the others of its batch are kept, exactly as if each had
 * been uploaded on its own; each imported file has its audit entry. A failure that is not the file's (the database or
 * the store of originals unreachable) rolls back the batch it happened in and is thrown: the batches committed before
 * stay, nothing of that batch is kept, and sending the same uploads again imports what is missing and answers the
 * others as imported before.
 */
export async function importUploads(
  target: ImportTarget,
  input: Omit<ImportUploadInput, 'fileName' | 'content'> & {
    uploads: Iterable<UploadedContent> | AsyncIterable<UploadedContent>;
  },
): Promise<ImportResult> {
  const { db } = target;
  const source = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'reader_id', 'reader_configuration', 'utc_offset_minutes', 'measure_frequency_seconds'])
    .where('id', '=', input.dataSourceId)
    .where('facility_id', '=', input.facilityId)
    .executeTakeFirst();
  if (!source) throw notFound('Data source not found');
  // What the warnings compare each file with: the data source's mappings and the ship's data before this upload.
  const [mappings, ship] = await Promise.all([
    db
      .selectFrom('data_source_channels')
      .select(['source', 'name'])
      .where('data_source_id', '=', source.id)
      .where('is_custom', '=', false)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('facilities')
      .select(['data_timestamp_min', 'data_timestamp_max'])
      .where('id', '=', input.facilityId)
      .executeTakeFirst(),
  ]);
  const warningContext: WarningContext = {
    mappings,
    measureFrequencySeconds: source.measure_frequency_seconds,
    gapSamples: input.gapWarningSamples ?? DEFAULT_GAP_WARNING_SAMPLES,
    otherData:
      ship?.data_timestamp_min && ship.data_timestamp_max
        ? {
            min: new Date(ship.data_timestamp_min).getTime(),
            max: new Date(ship.data_timestamp_max).getTime(),
          }
        : null,
  };
  const reader = readerDefinition(source.reader_id);
  const rules: UploadRules = {
    ...DEFAULT_UPLOAD_RULES,
    ...input.rules,
    acceptedExtensions: reader?.acceptedFileExtensions ?? [],
  };
  const configuration = parseReaderConfiguration(source.reader_id, source.reader_configuration);
  const ids: string[] = [];
  const warnings: UploadedFileWarnings[] = [];
  const uploadErrors: string[] = [];
  const fileErrors: string[] = [];
  let skipped = 0;
  let previousCompressed: Promise<unknown> = Promise.resolve();
  let batch: OneFile[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const files = batch;
    batch = [];
    batchBytes = 0;
    // One batch's originals compressing at a time: each batch waits for the one before.
    await previousCompressed;
    const outcomes = await importBatch(target, files);
    const compressing: Promise<unknown>[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if ('error' in outcome) fileErrors.push(outcome.error);
      else {
        ids.push(outcome.id);
        warnings.push({ id: outcome.id, fileName: files[i]!.fileName, warnings: outcome.warnings });
        if (outcome.compressed) compressing.push(outcome.compressed);
      }
    }
    previousCompressed = Promise.all(compressing);
  };
  for await (const upload of input.uploads) {
    const uploaded = await eachUploadedFile(
      Buffer.isBuffer(upload.content)
        ? { fileName: upload.fileName, content: upload.content }
        : { fileName: upload.fileName, stream: upload.content },
      rules,
      async (file) => {
        if (!configuration.ok) {
          skipped++;
          return;
        }
        if (
          batch.length >= IMPORT_BATCH_FILES ||
          (batch.length > 0 && batchBytes + file.content.length > IMPORT_BATCH_BYTES)
        )
          await flush();
        batch.push({
          facilityId: input.facilityId,
          dataSourceId: source.id,
          readerId: source.reader_id,
          configuration: configuration.configuration,
          offsetMinutes: source.utc_offset_minutes,
          fileName: file.fileName,
          content: file.content,
          importedBy: input.importedBy,
          timings: input.timings,
          auditedBy: input.auditedBy,
          warningContext,
        });
        batchBytes += file.content.length;
      },
    );
    uploadErrors.push(...uploaded.errors);
  }
  await flush();
  // What is wrong with an upload itself (its type, its size, a broken archive) comes before its files' own.
  const result: ImportResult = { ids, errorMessages: [...uploadErrors, ...fileErrors], warnings };
  if (!configuration.ok && skipped > 0) {
    result.errorMessages.push(
      `The parser configuration of the data source is not valid: ${configuration.errors.join('; ')}. No file was imported.`,
    );
  }
  return result;
}

/** What each file of an upload is compared with for its warnings. */
interface WarningContext {
  mappings: { source: string; name: string }[];
  measureFrequencySeconds: number;
  gapSamples: number;
  otherData: { min: number; max: number } | null;
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
  auditedBy?: ImportUploadInput['auditedBy'];
  warningContext: WarningContext;
}

/** The audit entry of one imported file, written in the transaction that imports it. */
async function auditUpload(trx: Transaction<Database>, file: OneFile, dataFileId: string): Promise<void> {
  if (!file.auditedBy) return;
  await audit(trx, {
    ...file.auditedBy.actor,
    action: 'datafile.upload',
    subject: file.dataSourceId,
    detail: {
      facilityId: file.facilityId,
      ids: [dataFileId],
      fileName: file.fileName,
      ...file.auditedBy.detail,
    },
  });
}

/** Bytes hashed per turn of the event loop: other requests wait at most a few milliseconds. */
const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * The SHA-256 of a file, computed on this thread a slice per turn of the event loop. In the thread pool (webcrypto)
 * it copied the file first and queued behind the original's write and the parse workers: 0.1 s of work for 100 MB
 * took up to 0.8 s there.
 */
async function sha256Of(content: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < content.length; at += HASH_SLICE_BYTES) {
    if (at > 0) await nextTurn();
    hash.update(content.subarray(at, at + HASH_SLICE_BYTES));
  }
  return hash.digest('hex');
}

function stopwatch(timings: Record<string, number> | undefined) {
  let last = performance.now();
  return (stage: string) => {
    const now = performance.now();
    if (timings) timings[stage] = (timings[stage] ?? 0) + (now - last);
    last = now;
  };
}

/**
 * A file whose content the data source has (committed, or earlier in the same batch): listed again when it was
 * deleted from the list with its samples kept (audited as an upload), else answered as imported before.
 */
async function alreadyImported(
  trx: Transaction<Database>,
  file: OneFile,
  sha256: string,
): Promise<{ id: string; warnings: DataFileWarning[] } | { error: string } | null> {
  const existing = await trx
    .selectFrom('data_files')
    .select(['id', 'imported_on', 'removed_on', 'warnings'])
    .where('data_source_id', '=', file.dataSourceId)
    .where('content_sha256', '=', sha256)
    .executeTakeFirst();
  if (!existing) return null;
  // Deleted from the list with its samples kept: uploading it again lists it again.
  if (existing.removed_on) {
    await trx
      .updateTable('data_files')
      .set({ removed_on: null, file_name: file.fileName })
      .where('id', '=', existing.id)
      .execute();
    await auditUpload(trx, file, existing.id);
    return { id: existing.id, warnings: storedWarnings(existing.warnings) };
  }
  return { error: `${file.fileName}: already imported on ${formatDateTime(existing.imported_on)}` };
}

/** A file whose content was imported before into the data source: the transaction that began storing it is rolled back. */
class ImportedBefore extends Error {}

/** A file that does not parse: the transaction that began storing its original is rolled back. */
class UnreadableFile extends Error {
  constructor(readonly readerError: ReaderError) {
    super(readerError.message);
  }
}

/** The warnings column as read (jsonb: parsed by the driver; text elsewhere). */
export function storedWarnings(value: unknown): DataFileWarning[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as DataFileWarning[]) : [];
}

/** A file imported (with its original's compression under way) and its warnings, or why not. */
type FileOutcome =
  | {
      id: string;
      warnings: DataFileWarning[];
      compressed?: Promise<unknown>;
      stored?: true;
      /** The first and last sample of a file stored now: its months get their partitions after the commit. */
      range?: { from: Date; to: Date };
    }
  | { error: string };

/**
 * The files of a batch in one transaction, each behind its own savepoint: a file that does not import (unreadable,
 * imported before) is rolled back to its savepoint and answered with its message; the ship's lock and data range
 * once, at the end; the originals compressed once the batch has committed. Any other failure rolls the batch back,
 * removes what its files put in the store of originals, and is thrown.
 */
async function importBatch(target: ImportTarget, files: OneFile[]): Promise<FileOutcome[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await importBatchOnce(target, files);
    } catch (error) {
      // Two batches of one ship that share files in another order can wait for each other on the content's unique
      // index: PostgreSQL ends one of them, which runs again once the other has committed (its shared files are then
      // answered as imported before). Rolled back whole, so nothing of it is kept in between.
      if ((error as { code?: string }).code !== '40P01' || attempt === 3) throw error;
    }
  }
}

async function importBatchOnce(target: ImportTarget, files: OneFile[]): Promise<FileOutcome[]> {
  const { db, originals } = target;
  /** From the last file stored to the commit: the ship's lock and range, and the commit. */
  let commit = stopwatch(undefined);
  const stored: OriginalKey[] = [];
  let outcomes: FileOutcome[];
  try {
    outcomes = await db.transaction().execute(async (trx) => {
      const answers: FileOutcome[] = [];
      for (const file of files) {
        const reading = startReading(file);
        await sql`savepoint import_file`.execute(trx);
        let original: OriginalKey | null = null;
        try {
          const imported = await importInto(trx, originals, file, reading, (key) => {
            original = key;
            stored.push(key);
          });
          await sql`release savepoint import_file`.execute(trx);
          answers.push(imported);
        } catch (error) {
          const sha256 = reading.sha256;
          // Samples of an archived month (storage/archived-months.ts): refused with the reason, nothing of the file
          // stored.
          const archived = error instanceof AppError && error.code === 'CONFLICT';
          if (!(
            error instanceof UnreadableFile ||
            error instanceof ImportedBefore ||
            isUniqueViolation(error) ||
            archived
          ))
            throw error;
          await sql`rollback to savepoint import_file`.execute(trx);
          if (original) {
            stored.splice(stored.indexOf(original), 1);
            await originals.discard(original);
          }
          if (error instanceof UnreadableFile) {
            answers.push({ error: `${file.fileName}: ${error.readerError.message}` });
            continue;
          }
          if (archived) {
            answers.push({ error: `${file.fileName}: ${error.message}` });
            continue;
          }
          // Imported before (earlier in this batch too), or the same content uploaded at once elsewhere (the unique
          // index let one in): the caller is told, or a file deleted from the list is listed again.
          const seen = sha256 ? await alreadyImported(trx, file, sha256) : null;
          if (!seen) throw error;
          answers.push(seen);
        }
      }
      commit = stopwatch(files[0]?.timings);
      if (answers.some((a) => 'id' in a)) {
        // The ship's range commits with the files, so a connection lost after the commit cannot leave it stale
        // (faults.test.ts); the row lock makes concurrent imports of one ship see each other's files. NO KEY UPDATE,
        // the lock the range update takes anyway: FOR UPDATE would wait for the key-share locks that a concurrent
        // import's rows hold on the ship while that import waits for this one on the content's unique index (a
        // deadlock).
        const facilityId = files[0]!.facilityId;
        await trx
          .selectFrom('facilities')
          .select('id')
          .where('id', '=', facilityId)
          .forNoKeyUpdate()
          .execute();
        await updateFacilityDataRange(trx, facilityId);
      }
      return answers;
    });
  } catch (error) {
    for (const key of stored) await originals.discard(key);
    throw error;
  }
  commit('commit');
  // The months of the stored samples get their partitions now (data of a month without one waits in the default
  // partition until then), before the execution stores that month's values (storage/partitions.ts).
  const ranges = outcomes.flatMap((o) => ('range' in o && o.range ? [o.range] : []));
  // The batch has committed: a deadlock here (ensureMonthPartitions tried 3 times) must not reach importBatch's retry,
  // which would import the committed files again ("already imported", seen in CI); the rows wait in the default
  // partition for the storage-months job (placeWaitingRows) and the execution makes its months before it stores.
  if (ranges.length > 0)
    await ensureMonthPartitions(
      db,
      new Date(Math.min(...ranges.map((r) => r.from.getTime()))),
      new Date(Math.max(...ranges.map((r) => r.to.getTime()))),
    ).catch((error: unknown) => {
      if ((error as { code?: string }).code !== '40P01') throw error;
    });
  return outcomes.map((outcome, i) => {
    const file = files[i]!;
    if (!('id' in outcome) || !outcome.stored) return outcome;
    return {
      id: outcome.id,
      warnings: outcome.warnings,
      compressed: originals.compressAfterCommit(
        db,
        { facilityId: file.facilityId, dataFileId: outcome.id },
        file.content,
      ),
    };
  });
}

/** A file's hash (this thread, in slices) and its parse and packing (a worker thread for large files), started. */
function startReading(file: OneFile) {
  const hashing = sha256Of(file.content);
  hashing.catch(() => undefined);
  const reading = readDataFile({
    fileName: file.fileName,
    content: file.content,
    readerId: file.readerId,
    configuration: file.configuration,
    options: { utcTimezoneOffsetInMinutes: file.offsetMinutes },
  });
  const state = {
    hashing,
    reading,
    headDone: false,
    head: null as unknown as Promise<PackedHead | ReaderError>,
    /** Known once the hash is claimed. */
    sha256: null as string | null,
  };
  state.head = reading.head
    .catch((error: unknown) => {
      if (error instanceof ReaderError) return error;
      throw error;
    })
    .finally(() => (state.headDone = true));
  state.head.catch(() => undefined);
  return state;
}

/**
 * One file into the batch's transaction: its row, its original (storage/originals.ts) while the hash is computed,
 * then its timestamps and columns as the parse gives them, its warnings and its audit entry. Throws UnreadableFile or
 * ImportedBefore (or the unique index's violation) for the batch to roll back to the file's savepoint.
 */
async function importInto(
  trx: Transaction<Database>,
  originals: ImportTarget['originals'],
  file: OneFile,
  reading: ReturnType<typeof startReading>,
  onOriginal: (key: OriginalKey) => void,
): Promise<{ id: string; warnings: DataFileWarning[]; stored: true; range: { from: Date; to: Date } }> {
  const lap = stopwatch(file.timings);
  // The row comes first (the original refers to it), under a provisional hash until the real one is ready: the
  // original is stored while the hash is computed. Rows and time range follow the parse.
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
  reading.hashing.then(
    () => (hashed = true),
    () => (hashed = true),
  );
  let claimed = false;
  const claimHash = async () => {
    const sha256 = await reading.hashing;
    reading.sha256 = sha256;
    const earlier = await trx
      .selectFrom('data_files')
      .select('id')
      .where('data_source_id', '=', file.dataSourceId)
      .where('content_sha256', '=', sha256)
      .executeTakeFirst();
    if (earlier) throw new ImportedBefore();
    // The unique index makes a concurrent upload of the same content wait for this one, then fail as a duplicate.
    await trx.updateTable('data_files').set({ content_sha256: sha256 }).where('id', '=', row.id).execute();
    claimed = true;
    lap('hash and duplicate check');
  };
  const original = { facilityId: file.facilityId, dataFileId: row.id };
  onOriginal(original);
  // Between the pieces of the original: the hash claimed once known; a file that turned out unreadable stops
  // there (rolled back to its savepoint).
  await originals.storeRaw(trx, original, file.content, async () => {
    if (hashed && !claimed) await claimHash();
    return reading.headDone && (await reading.head) instanceof ReaderError;
  });
  if (!claimed) await claimHash();
  lap('store original');
  const packed = await reading.head;
  if (packed instanceof ReaderError) throw new UnreadableFile(packed);
  lap('parse (beyond the original)');
  const timeStampMin = new Date(packed.timeStampMin);
  const timeStampMax = new Date(packed.timeStampMax);
  const samples = { facilityId: file.facilityId, dataFileId: row.id };
  await storeSampleTimestamps(trx, samples, {
    timeStampMin,
    timeStampMax,
    rowCount: packed.rowCount,
    timestamps: packed.timestamps,
  });
  // Columns are stored as they come: one batch goes to the database while the next columns are packed.
  const columnNames = await storeSampleColumns(trx, samples, reading.reading.columns);
  lap('store columns');
  const warnings = fileWarnings({
    ...file.warningContext,
    columns: columnNames,
    timestamps: unpackFloat64(packed.timestamps),
    now: Date.now(),
  });
  // Rows, range and warnings in one statement.
  await trx
    .updateTable('data_files')
    .set({
      row_count: packed.rowCount,
      time_stamp_min: timeStampMin,
      time_stamp_max: timeStampMax,
      ...(warnings.length > 0 ? { warnings: JSON.stringify(warnings) } : {}),
    })
    .where('id', '=', row.id)
    .execute();
  await auditUpload(trx, file, row.id);
  return { id: row.id, warnings, stored: true, range: { from: timeStampMin, to: timeStampMax } };
}

import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
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
import { storeSampleColumns, storeSampleTimestamps, unpackFloat64, type OriginalKey } from '../../storage';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
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
 * The upload service (HTTP route, demo seed, onboard uploader): takes a data file or a .zip of them, and imports
 * each file whole or not at all (one transaction per file): the original (storage/originals.ts), its UTC timestamps and
 * every raw column, packed where exact (docs/decisions/0050-storage-performance.md). An archive is imported one file
 * at a time, each freed before the next is unpacked. A file whose content was imported before into the same data source is answered
 * as an error message instead of being imported twice. Keeps the ship's data range and coverage current.
 */
export async function importUploadedFile(
  target: ImportTarget,
  input: ImportUploadInput,
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
  const fileErrors: string[] = [];
  let skipped = 0;
  let previousCompressed: Promise<unknown> = Promise.resolve();
  // One file of an archive in memory at a time: each is parsed and stored before the next is unpacked, and the
  // original of the one before is compressed (that follows each file's commit).
  const upload = await eachUploadedFile(
    Buffer.isBuffer(input.content)
      ? { fileName: input.fileName, content: input.content }
      : { fileName: input.fileName, stream: input.content },
    rules,
    async (file) => {
      if (!configuration.ok) {
        skipped++;
        return;
      }
      await previousCompressed;
      const outcome = await importOneFile(target, {
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
      if ('error' in outcome) fileErrors.push(outcome.error);
      else {
        ids.push(outcome.id);
        warnings.push({ id: outcome.id, fileName: file.fileName, warnings: outcome.warnings });
        previousCompressed = outcome.compressed ?? previousCompressed;
      }
    },
  );
  const result: ImportResult = { ids, errorMessages: [...upload.errors, ...fileErrors], warnings };
  if (!configuration.ok && skipped > 0) {
    result.errorMessages.push(
      `The parser configuration of the data source is not valid: ${configuration.errors.join('; ')}. No file was imported.`,
    );
  }
  if (ids.length > 0) await updateFacilityDataRange(db, input.facilityId);
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

async function alreadyImported(
  db: Kysely<Database>,
  file: OneFile,
  sha256: string,
): Promise<{ id: string; warnings: DataFileWarning[] } | { error: string } | null> {
  const existing = await db
    .selectFrom('data_files')
    .select(['id', 'imported_on', 'removed_on', 'warnings'])
    .where('data_source_id', '=', file.dataSourceId)
    .where('content_sha256', '=', sha256)
    .executeTakeFirst();
  if (!existing) return null;
  // Deleted from the list with its samples kept: uploading it again lists it again.
  if (existing.removed_on) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('data_files')
        .set({ removed_on: null, file_name: file.fileName })
        .where('id', '=', existing.id)
        .execute();
      await auditUpload(trx, file, existing.id);
    });
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
  { id: string; warnings: DataFileWarning[]; compressed?: Promise<unknown> } | { error: string };

async function importOneFile(target: ImportTarget, file: OneFile): Promise<FileOutcome> {
  const { db, originals } = target;
  const lap = stopwatch(file.timings);
  // Three things at once: the hash (this thread, in slices), the parse and packing of the columns (a worker thread for large
  // files, parse-off-thread.ts) and, on this thread, storing the original (then the columns as they come).
  const hashing = sha256Of(file.content);
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
  let sha256: string | null = null;
  let original = null as OriginalKey | null;
  let warnings: DataFileWarning[] = [];
  try {
    const id = await db.transaction().execute(async (trx) => {
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
      hashing.then(
        () => (hashed = true),
        () => (hashed = true),
      );
      let claimed = false;
      const claimHash = async () => {
        sha256 = await hashing;
        const earlier = await trx
          .selectFrom('data_files')
          .select('id')
          .where('data_source_id', '=', file.dataSourceId)
          .where('content_sha256', '=', sha256)
          .executeTakeFirst();
        if (earlier) throw new ImportedBefore();
        // The unique index makes a concurrent upload of the same content wait for this one, then fail as a duplicate.
        await trx
          .updateTable('data_files')
          .set({ content_sha256: sha256 })
          .where('id', '=', row.id)
          .execute();
        claimed = true;
        lap('hash and duplicate check');
      };
      original = { facilityId: file.facilityId, dataFileId: row.id };
      // Between the pieces of the original: the hash claimed once known; a file that turned out unreadable stops
      // there (the transaction rolls back).
      await originals.storeRaw(trx, original, file.content, async () => {
        if (hashed && !claimed) await claimHash();
        return headDone && (await head) instanceof ReaderError;
      });
      if (!claimed) await claimHash();
      lap('store original');
      const packed = await head;
      if (packed instanceof ReaderError) throw new UnreadableFile(packed);
      lap('parse (beyond the original)');
      const timeStampMin = new Date(packed.timeStampMin);
      const timeStampMax = new Date(packed.timeStampMax);
      await trx
        .updateTable('data_files')
        .set({ row_count: packed.rowCount, time_stamp_min: timeStampMin, time_stamp_max: timeStampMax })
        .where('id', '=', row.id)
        .execute();
      const samples = { facilityId: file.facilityId, dataFileId: row.id };
      await storeSampleTimestamps(trx, samples, {
        timeStampMin,
        timeStampMax,
        rowCount: packed.rowCount,
        timestamps: packed.timestamps,
      });
      // Columns are stored as they come: one batch goes to the database while the next columns are packed.
      const columnNames = await storeSampleColumns(trx, samples, reading.columns);
      lap('store columns');
      warnings = fileWarnings({
        ...file.warningContext,
        columns: columnNames,
        timestamps: unpackFloat64(packed.timestamps),
        now: Date.now(),
      });
      if (warnings.length > 0)
        await trx
          .updateTable('data_files')
          .set({ warnings: JSON.stringify(warnings) })
          .where('id', '=', row.id)
          .execute();
      // The ship's range commits with the file, so a connection lost after the commit cannot leave it stale
      // (faults.test.ts); the row lock makes concurrent imports of one ship see each other's files. NO KEY UPDATE, the
      // lock the range update takes anyway: FOR UPDATE would wait for the key-share locks that a concurrent import's
      // rows hold on the ship while that import waits for this one on the content's unique index (a deadlock).
      await trx
        .selectFrom('facilities')
        .select('id')
        .where('id', '=', file.facilityId)
        .forNoKeyUpdate()
        .execute();
      await updateFacilityDataRange(trx, file.facilityId);
      await auditUpload(trx, file, row.id);
      return row.id;
    });
    lap('commit');
    return {
      id,
      warnings,
      compressed: originals.compressAfterCommit(
        db,
        { facilityId: file.facilityId, dataFileId: id },
        file.content,
      ),
    };
  } catch (error) {
    if (original) await originals.discard(original);
    if (error instanceof UnreadableFile) return { error: `${file.fileName}: ${error.readerError.message}` };
    // Imported before, or the same content uploaded twice at once (the unique index lets one in): the other is told.
    if (sha256 && (error instanceof ImportedBefore || isUniqueViolation(error))) {
      const seen = await alreadyImported(db, file, sha256);
      if (seen) return seen;
    }
    throw error;
  }
}

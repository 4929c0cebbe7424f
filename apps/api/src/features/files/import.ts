import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { formatDateTime } from '@portal/contracts/rules';
import { parseReaderConfiguration } from '@portal/contracts/readers';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import { parseDataFile, readUpload, ReaderError, readerDefinition, type ParsedDataFile, type UploadRules } from '../../readers';
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

/** A raw_values insert carries at most this many bytes of samples, so no statement gets huge. */
const INSERT_BATCH_BYTES = 16 * 1024 * 1024;

const asBytes = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/**
 * The upload service (HTTP route, demo seed, onboard uploader): takes a data file or a .zip of them, and imports
 * each file whole or not at all (one transaction per file): the original (gzip), its UTC timestamps and every raw
 * column as Float64Array chunks. A file whose content was imported before into the same data source is answered
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
  const upload = await readUpload(Buffer.isBuffer(input.content) ? { fileName: input.fileName, content: input.content } : { fileName: input.fileName, stream: input.content }, rules);
  const result: ImportResult = { ids: [], errorMessages: [...upload.errors] };
  if (upload.files.length === 0) return result;

  const configuration = parseReaderConfiguration(source.reader_id, source.reader_configuration);
  if (!configuration.ok) {
    result.errorMessages.push(`The parser configuration of the data source is not valid: ${configuration.errors.join('; ')}. No file was imported.`);
    return result;
  }
  let imported = false;
  for (const file of upload.files) {
    const outcome = await importOneFile(db, {
      facilityId: input.facilityId,
      dataSourceId: source.id,
      readerId: source.reader_id,
      configuration: configuration.configuration,
      offsetMinutes: source.utc_offset_minutes,
      fileName: file.fileName,
      content: file.content,
      importedBy: input.importedBy,
    });
    if ('id' in outcome) {
      result.ids.push(outcome.id);
      imported = true;
    } else result.errorMessages.push(outcome.error);
  }
  if (imported) await updateFacilityDataRange(db, input.facilityId);
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

async function importOneFile(db: Kysely<Database>, file: OneFile): Promise<{ id: string } | { error: string }> {
  const sha256 = createHash('sha256').update(file.content).digest('hex');
  const seen = await alreadyImported(db, file, sha256);
  if (seen) return seen;

  // Compressing the original runs in the thread pool while the file is parsed on this thread.
  const original = gzipAsync(file.content, { level: 1 });
  original.catch(() => undefined);
  let parsed: ParsedDataFile;
  try {
    parsed = await parseDataFile({ fileName: file.fileName, content: file.content }, { readerId: file.readerId, configuration: file.configuration }, { utcTimezoneOffsetInMinutes: file.offsetMinutes });
  } catch (error) {
    if (error instanceof ReaderError) return { error: `${file.fileName}: ${error.message}` };
    throw error;
  }
  const compressed = await original;
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
      const keepGzip = compressed.length < file.content.length;
      await trx
        .insertInto('data_file_originals')
        .values({ facility_id: file.facilityId, data_file_id: row.id, compression: keepGzip ? 'gzip' : 'none', content: keepGzip ? compressed : file.content })
        .execute();
      await trx
        .insertInto('raw_timestamps')
        .values({
          facility_id: file.facilityId,
          data_file_id: row.id,
          time_stamp_min: parsed.timeStampMin,
          time_stamp_max: parsed.timeStampMax,
          row_count: parsed.rowCount,
          timestamps: asBytes(parsed.timestamps),
        })
        .execute();
      let batch: { facility_id: string; data_file_id: string; channel: string; data_type: string; values: Buffer }[] = [];
      let batchBytes = 0;
      const flush = async () => {
        if (batch.length) await trx.insertInto('raw_values').values(batch).execute();
        batch = [];
        batchBytes = 0;
      };
      for (const channel of parsed.channels) {
        batch.push({ facility_id: file.facilityId, data_file_id: row.id, channel: channel.channel, data_type: channel.dataType, values: asBytes(channel.values) });
        batchBytes += channel.values.byteLength;
        if (batchBytes >= INSERT_BATCH_BYTES) await flush();
      }
      await flush();
      return row.id;
    });
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

/** Reads the original of a data file back (for re-parsing and audit). */
export async function readOriginal(db: Kysely<Database>, facilityId: string, dataFileId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('data_file_originals')
    .select(['compression', 'content'])
    .where('facility_id', '=', facilityId)
    .where('data_file_id', '=', dataFileId)
    .executeTakeFirst();
  if (!row) return null;
  const content = Buffer.from(row.content);
  return row.compression === 'gzip' ? await gunzipAsync(content) : content;
}

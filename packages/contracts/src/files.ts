import { z } from 'zod';
import { dataFileWarningSchema, uploadedFileWarningsSchema } from './data-health';

/** Data files of a data source (spec part 1, sections 3 and 7). Times are UTC ISO strings. */
export const dataFileSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  timeStampMin: z.string(),
  timeStampMax: z.string(),
  importedOn: z.string(),
  rowCount: z.number(),
  byteSize: z.number(),
  /** What the upload warned about (data-health.ts), kept with the file. */
  warnings: z
    .array(dataFileWarningSchema)
    .describe("The upload's warnings of the file, as the upload answered them."),
});
export type DataFile = z.infer<typeof dataFileSchema>;

/** The execution an upload queued (`joined: false`) or joined (`joined: true`). */
export const uploadExecutionSchema = z.object({ id: z.string(), joined: z.boolean() });
export type UploadExecution = z.infer<typeof uploadExecutionSchema>;

/**
 * POST algorithm/facilitydatasource/{id}/file?execute=false: the upload imports the files and queues nothing. By
 * default (no `execute`, or `execute=true`) it queues the execution of the uploaded range.
 */
export const uploadQuerySchema = z.object({
  execute: z
    .stringbool()
    .default(true)
    .describe(
      "Queue the execution of the uploaded files' range (default true). Uploads that arrive while an execution of the ship waits in the queue join it.",
    ),
});

/**
 * Answer of an upload: the ids of the imported files and one message per rejected file (the spec's two fields), and
 * per imported file what it warns about (mapped channels missing, columns not mapped, timestamps out of range,
 * time gaps); a file without warnings is listed with an empty list.
 */
export const uploadResponseSchema = z.object({
  ids: z.array(z.string()),
  errorMessages: z.array(z.string()),
  warnings: z
    .array(uploadedFileWarningsSchema)
    .describe(
      "Per imported file, what it warns about: mapped channels missing from the file (missingChannels, by column name), columns no channel maps (unmappedColumns), rows refused (refusedRows), timestamps in the future, before 2000 or more than a year from the ship's other data (timestampsOutOfRange), and time gaps longer than UPLOAD_GAP_WARNING_SAMPLES samples (timeGaps). None stops the import; they are kept with the file.",
    ),
  execution: uploadExecutionSchema
    .nullable()
    .describe(
      'The execution of the uploaded range (GET /api/executions/{id}): queued by this upload, or joined when one was waiting for the ship (widened to cover both). Null when nothing was imported or the upload was sent with execute=false.',
    ),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const dataFileParamsSchema = z.object({ id: z.string(), fileId: z.string() });

/** "Also delete associated data": with true the file's raw samples are deleted too. */
export const deleteDataFileQuerySchema = z.object({ deleteData: z.stringbool().default(false) });

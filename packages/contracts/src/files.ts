import { z } from 'zod';

/** Data files of a data source (spec part 1, sections 3 and 7). Times are UTC ISO strings. */
export const dataFileSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  timeStampMin: z.string(),
  timeStampMax: z.string(),
  importedOn: z.string(),
  rowCount: z.number(),
  byteSize: z.number(),
});
export type DataFile = z.infer<typeof dataFileSchema>;

/** Answer of an upload: the ids of the imported files and one message per rejected file. */
export const uploadResponseSchema = z.object({
  ids: z.array(z.string()),
  errorMessages: z.array(z.string()),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const dataFileParamsSchema = z.object({ id: z.string(), fileId: z.string() });

/** "Also delete associated data": with true the file's raw samples are deleted too. */
export const deleteDataFileQuerySchema = z.object({ deleteData: z.stringbool().default(false) });

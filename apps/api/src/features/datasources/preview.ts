import type { Kysely } from 'kysely';
import type { ReaderPreview, ReaderPreviewBody } from '@portal/contracts/datasources';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { OriginalStore } from '../../storage';
import { extensionOf, previewDataFile, readerDefinition } from '../../readers';

type PreviewRequest = Omit<ReaderPreviewBody, 'utcTimezoneOffsetInMinutes'> & {
  utcTimezoneOffsetInMinutes: number;
};

/**
 * The file a preview reads (ids checked by the route's schema, idParam): a data file of the ship (its original), or a data source's sample file; 404 when it is
 * not the ship's, 400 when neither is given or the data source has no sample file.
 */
export async function previewFileOf(
  db: Kysely<Database>,
  originals: OriginalStore,
  facilityId: string,
  body: Pick<PreviewRequest, 'dataSourceId' | 'fileId'>,
): Promise<{ fileName: string; content: Buffer }> {
  if (body.fileId !== undefined) {
    const file = await db
      .selectFrom('data_files')
      .select(['id', 'file_name'])
      .where('id', '=', body.fileId)
      .where('facility_id', '=', facilityId)
      .where('removed_on', 'is', null)
      .executeTakeFirst();
    const content = file && (await originals.read(db, { facilityId, dataFileId: file.id }));
    if (!file || !content) throw notFound('File not found');
    return { fileName: file.file_name, content };
  }
  if (body.dataSourceId !== undefined) {
    const source = await db
      .selectFrom('facility_data_sources')
      .select(['sample_file', 'sample_file_name'])
      .where('id', '=', body.dataSourceId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    if (!source) throw notFound('Data source not found');
    if (!source.sample_file || !source.sample_file_name)
      throw badRequest('The data source has no sample file; choose one to see the preview');
    return { fileName: source.sample_file_name, content: Buffer.from(source.sample_file) };
  }
  throw badRequest('Choose a sample file to see the preview');
}

/** The first rows of the file read with the configuration sent (see readers/preview.ts). */
export async function previewReader(
  file: { fileName: string; content: Buffer },
  body: PreviewRequest,
): Promise<ReaderPreview> {
  const reader = readerDefinition(body.dataSourceReaderId);
  const extension = extensionOf(file.fileName);
  let configuration: unknown;
  try {
    configuration = JSON.parse(body.dataSourceReaderConfiguration);
  } catch {
    return emptyPreview(file.fileName, 'The parser configuration must be valid JSON.');
  }
  if (reader && !reader.acceptedFileExtensions.includes(extension))
    return emptyPreview(
      file.fileName,
      `${file.fileName}: the ${reader.name} reader reads ${reader.acceptedFileExtensions.join(', ')} files.`,
    );
  const preview = await previewDataFile(
    file,
    { readerId: body.dataSourceReaderId, configuration },
    { utcTimezoneOffsetInMinutes: body.utcTimezoneOffsetInMinutes },
  );
  return { fileName: file.fileName, ...preview };
}

const emptyPreview = (fileName: string, error: string): ReaderPreview => ({
  fileName,
  header: [],
  channels: [],
  rows: [],
  errors: [error],
  file: null,
});

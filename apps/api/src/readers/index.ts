import { READERS } from '@portal/contracts/readers';

export {
  parseDataFile,
  readDelimitedPart,
  joinDelimitedParts,
  DEFAULT_MAX_COLUMNS,
  DEFAULT_MAX_LINE_BYTES,
  type ParsedChannel,
  type ParsedDataFile,
  type ParseOptions,
  type RestOfFile,
} from './parse';
export { ReaderError, type ReaderErrorCode } from './errors';
export type { ChannelDataType } from './columns';
export { sampleChannels, niceScale, type RawChannel } from './sample';
export { previewDataFile, PREVIEW_ROWS, type PreviewRow, type ReaderPreview } from './preview';
export {
  readUpload,
  extensionOf,
  formatBytes,
  type UploadInput,
  type UploadResult,
  type UploadRules,
  type UploadedFile,
} from './archive';

export interface ReaderDefinition {
  id: string;
  name: string;
  acceptedFileExtensions: string[];
  defaultConfiguration: (typeof READERS)[number]['defaultConfiguration'];
}

/** The data source readers (parser providers) the API offers: GET algorithm/datasourcereader. */
export const READER_DEFINITIONS: readonly ReaderDefinition[] = READERS.map((r) => ({
  id: r.id,
  name: r.name,
  acceptedFileExtensions: [...r.acceptedFileExtensions],
  defaultConfiguration: r.defaultConfiguration,
}));

export function readerDefinition(readerId: string): ReaderDefinition | undefined {
  return READER_DEFINITIONS.find((r) => r.id === readerId);
}

/** The accept list of the upload (dataSourceReaderAcceptedFileExtensionsByComma), e.g. ".csv,.txt"; empty for an unknown reader. */
export function acceptedExtensionsByComma(readerId: string): string {
  return readerDefinition(readerId)?.acceptedFileExtensions.join(',') ?? '';
}

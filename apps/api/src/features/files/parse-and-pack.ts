import type { DelimitedReaderConfiguration, XlsxReaderConfiguration } from '@portal/contracts/readers';
import { parseDataFile, type ChannelDataType, type ParseOptions } from '../../readers';
import { packFloat64 } from './packed';

export interface ReadRequest {
  fileName: string;
  content: Uint8Array;
  readerId: string;
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration;
  options: ParseOptions;
}

/** A parsed data file as the import stores it: its UTC time range and every column packed (features/files/packed.ts). */
export interface PackedDataFile {
  rowCount: number;
  /** UTC epoch ms of the first and last row. */
  timeStampMin: number;
  timeStampMax: number;
  timestamps: Uint8Array;
  channels: { channel: string; dataType: ChannelDataType; values: Uint8Array }[];
}

/** Parses a data file with its data source's reader and packs its columns; throws the reader's ReaderError. */
export async function parseAndPack(request: ReadRequest): Promise<PackedDataFile> {
  const content = Buffer.isBuffer(request.content) ? request.content : Buffer.from(request.content.buffer, request.content.byteOffset, request.content.byteLength);
  const parsed = await parseDataFile({ fileName: request.fileName, content }, { readerId: request.readerId, configuration: request.configuration }, request.options);
  return {
    rowCount: parsed.rowCount,
    timeStampMin: parsed.timeStampMin.getTime(),
    timeStampMax: parsed.timeStampMax.getTime(),
    timestamps: packFloat64(parsed.timestamps),
    channels: parsed.channels.map((channel) => ({ channel: channel.channel, dataType: channel.dataType, values: packFloat64(channel.values) })),
  };
}

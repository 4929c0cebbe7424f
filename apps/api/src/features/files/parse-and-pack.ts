import type { DelimitedReaderConfiguration, XlsxReaderConfiguration } from '@portal/contracts/readers';
import { parseDataFile, type ChannelDataType, type ParsedDataFile, type ParseOptions } from '../../readers';
import { packCodes, packFloat64 } from '../../storage';

export interface ReadRequest {
  fileName: string;
  content: Uint8Array;
  readerId: string;
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration;
  options: ParseOptions;
}

/** What the import stores first of a parsed data file: its rows, UTC time range and packed timestamps. */
export interface PackedHead {
  rowCount: number;
  /** UTC epoch ms of the first and last row. */
  timeStampMin: number;
  timeStampMax: number;
  timestamps: Uint8Array;
}

/** One channel's column, packed (storage/packed.ts). */
export interface PackedColumn {
  channel: string;
  dataType: ChannelDataType;
  values: Uint8Array;
}

/**
 * Parses a data file with its data source's reader (throws the reader's ReaderError) and hands back its head and a
 * generator that packs one column at a time, so that the columns packed first can be stored while the rest are
 * packed.
 */
export async function parseForStorage(
  request: ReadRequest,
): Promise<{ head: PackedHead; columns: Generator<PackedColumn> }> {
  const content = Buffer.isBuffer(request.content)
    ? request.content
    : Buffer.from(request.content.buffer, request.content.byteOffset, request.content.byteLength);
  return packForStorage(
    await parseDataFile(
      { fileName: request.fileName, content },
      { readerId: request.readerId, configuration: request.configuration },
      request.options,
    ),
  );
}

/** A parsed data file's head, and a generator that packs one column at a time. */
export function packForStorage(parsed: ParsedDataFile): {
  head: PackedHead;
  columns: Generator<PackedColumn>;
} {
  const head: PackedHead = {
    rowCount: parsed.rowCount,
    timeStampMin: parsed.timeStampMin.getTime(),
    timeStampMax: parsed.timeStampMax.getTime(),
    timestamps: packFloat64(parsed.timestamps),
  };
  function* columns(): Generator<PackedColumn> {
    for (const channel of parsed.channels) {
      // A column the reader kept as codes is packed from them (its values are never made), else from its values.
      const packed = channel.codes ? packCodes(channel.codes.codes, channel.codes.decimals) : null;
      yield {
        channel: channel.channel,
        dataType: channel.dataType,
        values: packed ?? packFloat64(channel.values),
      };
    }
  }
  return { head, columns: columns() };
}

import {
  READER_IDS,
  delimitedReaderConfigurationSchema,
  xlsxReaderConfigurationSchema,
  type DelimitedReaderConfiguration,
  type XlsxReaderConfiguration,
} from '@portal/contracts/readers';
import type { ColumnArena } from './arena';
import { valuesFromCodes, type ChannelDataType } from './columns';
import {
  finishDelimited,
  readDelimited,
  readDelimitedRows,
  type DelimitedPart,
  type DelimitedRows,
} from './delimited';
import type { ColumnState } from './columns';
import { ReaderError } from './errors';
import type { ReadTable } from './table';
import { formatLocal } from './timestamps';
import { readXlsx } from './xlsx';

export interface ParsedChannel {
  channel: string;
  description: string | null;
  unit: string | null;
  dataType: ChannelDataType;
  /** One value per row; NaN = missing. Boolean as 1/0, UTCDateTime as epoch ms, String channels all NaN (see texts). */
  values: Float64Array;
  /** String channels only: the cell texts (null = missing). */
  texts?: (string | null)[];
  /** Most digits written after the decimal separator in a cell of this channel (0 for integers). */
  decimals?: number;
  /**
   * A column of plain numbers as its integer codes: value = code / 10^decimals (readers/columns.ts). `values` is
   * then made from them when first read, so the storage, which packs the codes, never makes it.
   */
  codes?: { codes: Float64Array; decimals: number };
}

export interface ParsedDataFile {
  /** UTC epoch ms, strictly ascending. */
  timestamps: Float64Array;
  channels: ParsedChannel[];
  rowCount: number;
  timeStampMin: Date;
  timeStampMax: Date;
}

export interface ParseOptions {
  /** The data source's offset: local = UTC + offset. */
  utcTimezoneOffsetInMinutes: number;
  /** Longest accepted line of a delimited file, in bytes (default 1 MB). */
  maxLineBytes?: number;
  /** Most columns accepted (default 2000). */
  maxColumns?: number;
  /** Memory reused between parses for the columns (readers/arena.ts): the parsed file is only valid until the next parse with it. */
  arena?: ColumnArena;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_COLUMNS = 2000;

/**
 * Parses one data file with its data source's reader into columnar, UTC, time-sorted channel samples.
 * Throws a ReaderError whose message tells the uploader what is wrong and where.
 */
export async function parseDataFile(
  input: { fileName: string; content: Buffer },
  reader: { readerId: string; configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration },
  options: ParseOptions,
): Promise<ParsedDataFile> {
  const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
  const offsetMinutes = options.utcTimezoneOffsetInMinutes;
  let table: ReadTable;
  if (reader.readerId === READER_IDS.delimited) {
    const config = checkConfiguration(delimitedReaderConfigurationSchema, reader.configuration);
    table = readDelimited(input.content, config, {
      offsetMinutes,
      maxColumns,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      arena: options.arena,
    });
  } else if (reader.readerId === READER_IDS.xlsx) {
    const config = checkConfiguration(xlsxReaderConfigurationSchema, reader.configuration);
    if (input.content.length === 0) throw new ReaderError('EMPTY_FILE', 'The file is empty.');
    table = await readXlsx(input.content, config, offsetMinutes, maxColumns);
  } else {
    throw new ReaderError('BAD_CONFIGURATION', `Unknown data source reader '${reader.readerId}'.`);
  }
  return sortAndCheck(table, offsetMinutes);
}

/** What the second part of a file read in two hands to the first (parse-worker.ts). */
export interface RestOfFile {
  state: ColumnState;
  rowCount: number;
}

function delimitedConfiguration(
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration,
): DelimitedReaderConfiguration {
  return checkConfiguration(delimitedReaderConfigurationSchema, configuration);
}

/** Reads one part of a large delimited file (readers/delimited.ts DelimitedPart); throws its ReaderError. */
export function readDelimitedPart(
  content: Buffer,
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration,
  options: ParseOptions,
  part: DelimitedPart,
): DelimitedRows {
  const config = delimitedConfiguration(configuration);
  return readDelimitedRows(
    content,
    config,
    {
      offsetMinutes: options.utcTimezoneOffsetInMinutes,
      maxColumns: options.maxColumns ?? DEFAULT_MAX_COLUMNS,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    },
    part,
  );
}

/** The file of two parts read at once: the first part takes in the rest, then as parseDataFile (types, order, duplicates). */
export function joinDelimitedParts(
  first: DelimitedRows,
  rest: RestOfFile,
  configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration,
  options: ParseOptions,
): ParsedDataFile {
  const config = delimitedConfiguration(configuration);
  first.columns.absorb(rest.state, first.rowCount, first.rowCount + rest.rowCount);
  return sortAndCheck(
    finishDelimited(first, config, first.rowCount + rest.rowCount),
    options.utcTimezoneOffsetInMinutes,
  );
}

function checkConfiguration<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const detail = r.error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw new ReaderError(
    'BAD_CONFIGURATION',
    `The parser configuration of the data source is not valid: ${detail}.`,
  );
}

/** Orders rows by time (loggers sometimes append out of order), rejects duplicate timestamps and trims the columns. */
function sortAndCheck(table: ReadTable, offsetMinutes: number): ParsedDataFile {
  const n = table.rowCount;
  const fileRow = (i: number) => (table.rowNumbers ? table.rowNumbers[i] : table.firstDataRow + i);
  const ts = table.timestamps;
  let ascending = true;
  for (let i = 1; i < n && ascending; i++) if (ts[i]! <= ts[i - 1]!) ascending = false;

  let order: Uint32Array | null = null;
  if (!ascending) {
    order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => ts[a]! - ts[b]! || a - b);
    for (let k = 1; k < n; k++) {
      if (ts[order[k]!] === ts[order[k - 1]!]) {
        throw new ReaderError(
          'DUPLICATE_TIMESTAMP',
          `Rows ${fileRow(order[k - 1]!)} and ${fileRow(order[k]!)} have the same timestamp (${formatLocal(ts[order[k]!]!, offsetMinutes)}). Each row needs its own time.`,
        );
      }
    }
  }
  const take = (column: Float64Array): Float64Array => {
    if (!order) return column.length === n ? column : column.slice(0, n);
    const out = new Float64Array(n);
    for (let k = 0; k < n; k++) out[k] = column[order[k]!]!;
    return out;
  };
  const timestamps = take(ts);
  const channels: ParsedChannel[] = [];
  for (const ch of table.channels) {
    const values = take(ch.values);
    if (ch.unnamed && values.every((v) => Number.isNaN(v)) && !ch.texts?.some((t) => t !== null)) continue; // a delimiter at each line end
    const base = {
      channel: ch.channel,
      description: ch.description,
      unit: ch.unit,
      dataType: ch.dataType,
      decimals: ch.decimals,
    };
    if (ch.codedDecimals >= 0 && ch.dataType !== 'String') {
      channels.push(codedChannel(base, values, ch.codedDecimals));
      continue;
    }
    const parsed: ParsedChannel = {
      ...base,
      values: ch.codedDecimals >= 0 ? valuesFromCodes(values, ch.codedDecimals) : values,
    };
    if (ch.dataType === 'String') {
      const texts = ch.texts ?? [];
      parsed.texts = order ? Array.from(order, (i) => texts[i] ?? null) : texts.slice(0, n);
      parsed.values.fill(NaN);
    }
    channels.push(parsed);
  }
  return {
    timestamps,
    channels,
    rowCount: n,
    // The readers throw HEADER_ONLY for a file without rows: n >= 1.
    timeStampMin: new Date(timestamps[0]!),
    timeStampMax: new Date(timestamps[n - 1]!),
  };
}

/** A channel of codes whose values are made on first read (and kept). */
function codedChannel(
  base: Omit<ParsedChannel, 'values' | 'codes'>,
  codes: Float64Array,
  decimals: number,
): ParsedChannel {
  let values: Float64Array | null = null;
  return {
    ...base,
    codes: { codes, decimals },
    get values() {
      return (values ??= valuesFromCodes(codes, decimals));
    },
  };
}

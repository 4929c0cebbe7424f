import {
  READER_IDS,
  delimitedReaderConfigurationSchema,
  xlsxReaderConfigurationSchema,
  type DelimitedReaderConfiguration,
  type ReaderConfiguration,
  type XlsxReaderConfiguration,
} from '@portal/contracts/readers';
import { MISSING_TOKENS, parseNumberText } from './columns';
import { badTimestamp, onlyBlankFrom, readRecord, toUtf8 } from './delimited';
import { ReaderError } from './errors';
import { parseDataFile } from './parse';
import { resolveColumns } from './table';
import { timestampTextParser } from './timestamps';
import { asText, cellTimestampParser, openSheet, rowCells, type Plain } from './xlsx';

/** A data row as the preview shows it. */
export interface PreviewRow {
  /** The row number in the file (1-based, as the reader's messages count). */
  row: number;
  /** The timestamp cells as written (two joined by a space). */
  timestampText: string;
  /** The time read, UTC ISO 8601; null when the text does not match the format. */
  timestamp: string | null;
  /** One per channel: a number, a text the reader does not read as a number (a word, a date), or null (missing). */
  values: (number | string | null)[];
}

export interface ReaderPreview {
  /** Every name of the header row, timestamp columns included (for choosing them). */
  header: string[];
  /** The header's columns read as raw channels, with the unit and description rows' cells when those rows are set. */
  channels: { name: string; unit: string | null; description: string | null }[];
  rows: PreviewRow[];
  /** Readable mistakes, each once: of the configuration, of the header, of the rows shown, then of the whole file. */
  errors: string[];
  /** The whole file as an upload would read it; null when it does not read (see errors) or was too large to check. */
  file: { rowCount: number; timeStampMin: string; timeStampMax: string } | null;
}

export const PREVIEW_ROWS = 20;
/** Files up to this size are also read whole (as an upload would), so that a mistake past the first rows shows. */
export const PREVIEW_WHOLE_FILE_BYTES = 5 * 1024 * 1024;

interface Table {
  header: string[];
  units: string[] | null;
  descriptions: string[] | null;
  rows: { row: number; cells: Plain[] }[];
  errors: string[];
}

const emptyPreview = (errors: string[]): ReaderPreview => ({
  header: [],
  channels: [],
  rows: [],
  errors,
  file: null,
});

/**
 * The first rows of a file read with a reader configuration that may not be saved yet: what the configuration form
 * shows while it is edited. Unlike an upload it does not stop at the first mistake: each row shown says what is
 * wrong with it. Files up to PREVIEW_WHOLE_FILE_BYTES are then read whole by the reader itself.
 */
export async function previewDataFile(
  input: { fileName: string; content: Buffer },
  reader: { readerId: string; configuration: unknown },
  options: { utcTimezoneOffsetInMinutes: number; rows?: number },
): Promise<ReaderPreview> {
  const rows = options.rows ?? PREVIEW_ROWS;
  const offset = options.utcTimezoneOffsetInMinutes;
  let configuration: ReaderConfiguration;
  let table: Table;
  let decimalSeparator: '.' | ',' = '.';
  try {
    if (reader.readerId === READER_IDS.delimited) {
      const parsed = delimitedReaderConfigurationSchema.safeParse(reader.configuration);
      if (!parsed.success) return emptyPreview(configurationErrors(parsed.error.issues));
      configuration = parsed.data;
      decimalSeparator = parsed.data.decimalSeparator;
      table = delimitedTable(input.content, parsed.data, rows);
    } else if (reader.readerId === READER_IDS.xlsx) {
      const parsed = xlsxReaderConfigurationSchema.safeParse(reader.configuration);
      if (!parsed.success) return emptyPreview(configurationErrors(parsed.error.issues));
      configuration = parsed.data;
      table = await xlsxTable(input.content, parsed.data, rows);
    } else {
      return emptyPreview([`Unknown data source reader '${reader.readerId}'.`]);
    }
  } catch (error) {
    if (error instanceof ReaderError) return emptyPreview([error.message]);
    throw error;
  }

  const errors = [...table.errors];
  let timestampColumns: number[] = [];
  let channelColumns = table.header.map((_, column) => column);
  try {
    const layout = resolveColumns(
      table.header,
      table.units,
      table.descriptions,
      configuration.timestampColumns,
      configuration.headerRow,
    );
    timestampColumns = layout.timestampColumns;
    channelColumns = layout.channels.map((c) => c.column);
  } catch (error) {
    if (!(error instanceof ReaderError)) throw error;
    errors.push(error.message);
  }
  const cellText = (cells: string[] | null, column: number) => {
    const t = (cells?.[column] ?? '').trim();
    return t === '' ? null : t;
  };
  const channels = channelColumns.map((column) => ({
    name: table.header[column]!.trim() || `Column${column + 1}`,
    unit: cellText(table.units, column),
    description: cellText(table.descriptions, column),
  }));

  const timestampOf = timestampParser(configuration, reader.readerId, decimalSeparator, offset);
  const previewRows: PreviewRow[] = table.rows.map(({ row, cells }) => {
    const stamps = timestampColumns.map((c) => cells[c] ?? null);
    const timestampText = stamps.map(asText).join(' ');
    const t = timestampColumns.length ? timestampOf(stamps) : NaN;
    if (timestampColumns.length && Number.isNaN(t))
      errors.push(badTimestamp(row, timestampText, configuration.timestampFormat).message);
    return {
      row,
      timestampText,
      timestamp: Number.isNaN(t) ? null : new Date(t).toISOString(),
      values: channelColumns.map((c) => cellValue(cells[c] ?? null, decimalSeparator)),
    };
  });

  let file: ReaderPreview['file'] = null;
  if (input.content.length <= PREVIEW_WHOLE_FILE_BYTES && errors.length === 0) {
    try {
      const parsed = await parseDataFile(
        input,
        { readerId: reader.readerId, configuration },
        { utcTimezoneOffsetInMinutes: offset },
      );
      file = {
        rowCount: parsed.rowCount,
        timeStampMin: parsed.timeStampMin.toISOString(),
        timeStampMax: parsed.timeStampMax.toISOString(),
      };
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      errors.push(error.message);
    }
  }
  return { header: table.header, channels, rows: previewRows, errors: [...new Set(errors)], file };
}

function configurationErrors(issues: { path: PropertyKey[]; message: string }[]): string[] {
  return issues.map(
    (i) =>
      `The parser configuration is not valid: ${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}.`,
  );
}

function timestampParser(
  configuration: ReaderConfiguration,
  readerId: string,
  decimalSeparator: '.' | ',',
  offset: number,
): (stamps: Plain[]) => number {
  if (readerId === READER_IDS.xlsx) return cellTimestampParser(configuration.timestampFormat, offset);
  const parse = timestampTextParser(configuration.timestampFormat, decimalSeparator, offset);
  return (stamps) => parse(stamps.map(asText).join(' '));
}

/** A cell as the preview shows it: a number when the reader reads one, else its text; missing tokens as null. */
function cellValue(cell: Plain, decimalSeparator: '.' | ','): number | string | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return cell;
  const text = asText(cell).trim();
  if (MISSING_TOKENS.has(text)) return null;
  if (typeof cell !== 'string') return text;
  const n = parseNumberText(text, decimalSeparator);
  return Number.isNaN(n) ? text : n;
}

/** The header, unit and description rows and the first data rows of a delimited file, as texts. */
function delimitedTable(content: Buffer, config: DelimitedReaderConfiguration, rows: number): Table {
  const buf = toUtf8(content, config.encoding);
  if (onlyBlankFrom(buf, 0)) throw new ReaderError('EMPTY_FILE', 'The file is empty.');
  const delimiter = config.delimiter.charCodeAt(0);
  const maxCells = 2000;
  let pos = 0;
  const table: Table = { header: [], units: null, descriptions: null, rows: [], errors: [] };
  let header: string[] | null = null;
  for (let fileRow = 1; fileRow < config.firstDataRow && pos < buf.length; fileRow++) {
    const { cells, next } = readRecord(buf, pos, delimiter, fileRow, maxCells);
    pos = next;
    if (fileRow === config.headerRow) header = cells;
    if (fileRow === config.unitRow) table.units = cells;
    if (fileRow === config.descriptionRow) table.descriptions = cells;
  }
  if (!header)
    throw new ReaderError('MISSING_HEADER', `The file ends before the header row (row ${config.headerRow}).`);
  table.header = header;
  for (let fileRow = config.firstDataRow; table.rows.length < rows && !onlyBlankFrom(buf, pos); fileRow++) {
    const { cells, next } = readRecord(buf, pos, delimiter, fileRow, maxCells);
    pos = next;
    if (cells.length !== header.length)
      table.errors.push(
        `Row ${fileRow} has ${cells.length} value${cells.length === 1 ? '' : 's'}, but the header (row ${config.headerRow}) has ${header.length} columns.`,
      );
    table.rows.push({ row: fileRow, cells });
  }
  if (table.rows.length === 0)
    table.errors.push(
      `The file has a header but no data rows (data is expected from row ${config.firstDataRow}).`,
    );
  return table;
}

/** The same of a workbook's sheet: its cells as exceljs reads them (numbers, dates, booleans, texts). */
async function xlsxTable(content: Buffer, config: XlsxReaderConfiguration, rows: number): Promise<Table> {
  if (content.length === 0) throw new ReaderError('EMPTY_FILE', 'The file is empty.');
  const ws = await openSheet(content, config);
  const lastRow = ws.rowCount;
  if (lastRow < config.headerRow)
    throw new ReaderError(
      'MISSING_HEADER',
      `The sheet ends before the header row (row ${config.headerRow}).`,
    );
  const headerCells = rowCells(ws, config.headerRow);
  let width = headerCells.length;
  while (width > 0 && asText(headerCells[width - 1]!).trim() === '') width--;
  const table: Table = {
    header: headerCells.slice(0, width).map(asText),
    units: config.unitRow ? rowCells(ws, config.unitRow).map(asText) : null,
    descriptions: config.descriptionRow ? rowCells(ws, config.descriptionRow).map(asText) : null,
    rows: [],
    errors: [],
  };
  for (let r = config.firstDataRow; r <= lastRow && table.rows.length < rows; r++) {
    const cells = rowCells(ws, r);
    if (cells.every((c) => c === null || asText(c).trim() === '')) continue;
    table.rows.push({ row: r, cells: cells.slice(0, width) });
  }
  if (table.rows.length === 0)
    table.errors.push(
      `The sheet has a header but no data rows (data is expected from row ${config.firstDataRow}).`,
    );
  return table;
}

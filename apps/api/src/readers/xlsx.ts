import ExcelJS from 'exceljs';
import { TIMESTAMP_FORMATS, type XlsxReaderConfiguration } from '@portal/contracts/readers';
import { ColumnSet, MISSING_TOKENS, digitsAfterSeparator, type ChannelDataType } from './columns';
import { badTimestamp } from './delimited';
import { ReaderError } from './errors';
import { checkColumnCount, resolveColumns, type ReadTable } from './table';
import { MS_IN_DAY, excelSerialToMs, naiveFormatParser, timestampTextParser } from './timestamps';

export type Plain = number | string | boolean | Date | null;

/** exceljs cell values (formulas, rich text, hyperlinks, errors) as plain values. Formula errors such as #DIV/0! count as missing. */
function plain(v: ExcelJS.CellValue): Plain {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v; // a number too large for a date cell's format
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if ('result' in v) return plain(v.result as ExcelJS.CellValue);
  if ('formula' in v || 'sharedFormula' in v) return null;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('text' in v) return String(v.text);
  return null;
}

export function asText(v: Plain): string {
  if (v === null) return '';
  if (v instanceof Date)
    return v
      .toISOString()
      .replace('T', ' ')
      .replace(/\.000Z$/, '')
      .replace('Z', '');
  return String(v);
}

export function rowCells(ws: ExcelJS.Worksheet, r: number): Plain[] {
  const values = ws.getRow(r).values;
  // exceljs answers a sparse array with index 0 unused (columns are 1-based).
  if (!Array.isArray(values)) return [];
  const cells: Plain[] = [];
  for (let c = 1; c < values.length; c++) cells.push(plain(values[c]));
  return cells;
}

/**
 * The UTC time of a row's timestamp cells (one, or a date and a time): date cells (and numbers, for EXCEL) as the
 * logger clock, text cells as the format says; NaN when they do not match.
 */
export function cellTimestampParser(format: string, offsetMinutes: number): (stamps: Plain[]) => number {
  const offsetMs = offsetMinutes * 60_000;
  const parseText = timestampTextParser(format, '.', offsetMinutes);
  /** A timestamp cell as naive ms (Date, or Excel serial when the format is EXCEL), or null when it is text. */
  const naiveOf = (v: Plain): number | null => {
    if (v instanceof Date) return v.getTime();
    if (typeof v === 'number' && format === TIMESTAMP_FORMATS.excel) return excelSerialToMs(v);
    return null;
  };
  return (stamps) => {
    const naive = stamps.map(naiveOf);
    if (!naive.every((n) => n !== null)) return parseText(stamps.map(asText).join(' '));
    // Date and time in two cells: the day of the first, the time of day of the second.
    const t =
      naive.length === 1
        ? naive[0]!
        : Math.floor(naive[0]! / MS_IN_DAY) * MS_IN_DAY + (((naive[1]! % MS_IN_DAY) + MS_IN_DAY) % MS_IN_DAY);
    return t - offsetMs;
  };
}

/** The configured sheet of an .xlsx workbook; a ReaderError when the workbook cannot be read or has no such sheet. */
export async function openSheet(
  content: Buffer,
  config: XlsxReaderConfiguration,
): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw new ReaderError(
      'UNREADABLE_WORKBOOK',
      'The workbook could not be read: it is damaged or not an .xlsx file.',
    );
  }
  const ws =
    typeof config.sheet === 'number'
      ? workbook.worksheets[config.sheet - 1]
      : workbook.getWorksheet(config.sheet);
  if (!ws) {
    const names = workbook.worksheets.map((w) => `'${w.name}'`).join(', ') || 'none';
    throw new ReaderError(
      'BAD_CONFIGURATION',
      `The workbook has no sheet ${typeof config.sheet === 'number' ? `number ${config.sheet}` : `'${config.sheet}'`} (its sheets: ${names}).`,
    );
  }
  return ws;
}

/**
 * Reads one sheet of an .xlsx workbook. Date cells come from exceljs as Dates holding the cell's clock
 * reading as if it were UTC; that reading is the logger's local clock, so the data source offset applies.
 */
export async function readXlsx(
  content: Buffer,
  config: XlsxReaderConfiguration,
  offsetMinutes: number,
  maxColumns: number,
): Promise<ReadTable> {
  const ws = await openSheet(content, config);
  const lastRow = ws.rowCount;
  if (lastRow === 0) throw new ReaderError('EMPTY_FILE', `The sheet '${ws.name}' is empty.`);
  if (lastRow < config.headerRow)
    throw new ReaderError(
      'MISSING_HEADER',
      `The sheet ends before the header row (row ${config.headerRow}).`,
    );

  const headerCells = rowCells(ws, config.headerRow);
  let width = headerCells.length;
  while (width > 0 && asText(headerCells[width - 1]!).trim() === '') width--;
  checkColumnCount(width, maxColumns);
  const header = headerCells.slice(0, width).map(asText);
  const units = config.unitRow ? rowCells(ws, config.unitRow).map(asText) : null;
  const descriptions = config.descriptionRow ? rowCells(ws, config.descriptionRow).map(asText) : null;
  const layout = resolveColumns(header, units, descriptions, config.timestampColumns, config.headerRow);

  const capacity = Math.max(1, lastRow - config.firstDataRow + 1);
  const offsetMs = offsetMinutes * 60_000;
  const format = config.timestampFormat;
  const naiveFormat = naiveFormatParser(format);
  const columns = new ColumnSet(width, capacity, '.', naiveFormat, offsetMs);
  const timestamps = new Float64Array(capacity);
  const rowNumbers = new Int32Array(capacity);
  const texts = layout.channels.map(() => new Array<string | null>(capacity));

  const timestampOf = cellTimestampParser(format, offsetMinutes);

  let row = 0;
  for (let r = config.firstDataRow; r <= lastRow; r++) {
    const cells = rowCells(ws, r);
    if (cells.every((c) => c === null || asText(c).trim() === '')) continue; // empty spreadsheet rows
    for (let c = width; c < cells.length; c++) {
      if (cells[c] !== null && asText(cells[c]!).trim() !== '') {
        throw new ReaderError(
          'ROW_LENGTH',
          `Row ${r} has a value in column ${c + 1}, beyond the ${width} columns of the header (row ${config.headerRow}).`,
        );
      }
    }
    const stamps = layout.timestampColumns.map((c) => cells[c] ?? null);
    const t = timestampOf(stamps);
    if (Number.isNaN(t)) throw badTimestamp(r, stamps.map(asText).join(' '), format);
    timestamps[row] = t;
    rowNumbers[row] = r;

    layout.channels.forEach((ch, i) => {
      const v = cells[ch.column] ?? null;
      const text = asText(v).trim();
      texts[i]![row] = MISSING_TOKENS.has(text) ? null : text;
      if (v === null) columns.missing(ch.column, row);
      else if (typeof v === 'number') {
        columns.slowNumbers[ch.column] = 1; // decimals from the shortest text of a double say nothing about 1e-7
        columns.number(ch.column, row, v, digitsAfterSeparator(String(v), '.'));
      } else if (typeof v === 'boolean') columns.boolean(ch.column, row, v, r, text);
      else if (v instanceof Date) columns.date(ch.column, row, v.getTime(), r, text);
      else columns.text(ch.column, row, v, r);
    });
    row++;
  }
  if (row === 0)
    throw new ReaderError(
      'HEADER_ONLY',
      `The sheet has a header but no data rows (data is expected from row ${config.firstDataRow}).`,
    );

  const dataTypes: ChannelDataType[] = layout.channels.map((ch) =>
    columns.dataType(ch.column, row, ch.channel),
  );
  return {
    rowCount: row,
    timestamps,
    firstDataRow: config.firstDataRow,
    rowNumbers,
    channels: layout.channels.map((ch, i) => ({
      ...ch,
      dataType: dataTypes[i]!,
      values: columns.values[ch.column]!,
      codedDecimals: columns.coded[ch.column]!,
      decimals: columns.maxDecimals[ch.column]!,
      texts: dataTypes[i] === 'String' ? texts[i] : undefined,
    })),
  };
}

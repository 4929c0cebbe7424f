import { describeTimestampFormat, type DelimitedReaderConfiguration } from '@portal/contracts/readers';
import type { ColumnArena } from './arena';
import { ColumnSet, MISSING_TOKENS } from './columns';
import { ReaderError, quoteCell } from './errors';
import type { ReadTable } from './table';
import { resolveColumns, checkColumnCount } from './table';
import { naiveFormatParser, timestampTextParser } from './timestamps';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const PLUS = 43;
const MINUS = 45;

export interface DelimitedLimits {
  offsetMinutes: number;
  maxLineBytes: number;
  maxColumns: number;
  /** Memory for the columns and timestamps, reused between parses (readers/arena.ts). */
  arena?: ColumnArena;
}

/**
 * One of two parts of a large file read by two threads at once (features/files/parse-off-thread.ts): the rows from
 * byte `start` to byte `end`, both line starts after the rows before the data. Only for UTF-8 files without a byte
 * order mark and without a quote character, so that a line is a row and bytes are where the planner counted them.
 */
export interface DelimitedPart {
  start: number;
  end: number;
  /** Data rows of the file before this part: its rows are numbered, and stored, after them. */
  rowsBefore: number;
  /** The whole file's columns then its timestamps (memory shared by the two parts), each `capacity` rows long. */
  memory: Float64Array[];
}

/** A delimited file's rows as read (a whole file, or one part), before their data types are settled. */
export interface DelimitedRows {
  buf: Buffer;
  layout: ReturnType<typeof resolveColumns>;
  columns: ColumnSet;
  timestamps: Float64Array;
  /** Rows read here (this part's, or the file's). */
  rowCount: number;
  dataStart: number;
}

/** The file as UTF-8 bytes without a byte order mark. */
export function toUtf8(content: Buffer, encoding: DelimitedReaderConfiguration['encoding']): Buffer {
  if (encoding === 'utf-8') {
    return content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf
      ? content.subarray(3)
      : content;
  }
  // The WHATWG 'latin1' label is windows-1252, a superset that loggers on Windows actually write.
  const text = new TextDecoder(encoding === 'latin1' ? 'latin1' : 'utf-16le').decode(content);
  return Buffer.from(text, 'utf8');
}

/**
 * Checks every line against the length limit before anything is split, and answers the number of lines
 * (an upper bound of the records, used to size the columns once).
 */
function checkLines(buf: Buffer, maxLineBytes: number): number {
  let lines = 0;
  let pos = 0;
  while (pos < buf.length) {
    let end = buf.indexOf(LF, pos);
    if (end < 0) end = buf.length;
    lines++;
    if (end - pos > maxLineBytes) {
      throw new ReaderError(
        'LINE_TOO_LONG',
        `Row ${lines} is ${(end - pos).toLocaleString('en-US')} bytes long; a row may hold at most ${maxLineBytes.toLocaleString('en-US')} bytes. ` +
          'Check the delimiter and line breaks of the file.',
      );
    }
    pos = end + 1;
  }
  return lines;
}

/** Reads a quoted cell (RFC 4180: "" is a quote; delimiters and line breaks inside are text) starting at the opening quote. */
function readQuoted(
  buf: Buffer,
  start: number,
  delimiter: number,
  fileRow: number,
): { text: string; next: number } {
  let p = start + 1;
  let segment = p;
  let text = '';
  for (;;) {
    const q = buf.indexOf(QUOTE, p);
    if (q < 0)
      throw new ReaderError('UNCLOSED_QUOTE', `Row ${fileRow}: a quoted value is opened but never closed.`);
    if (buf[q + 1] === QUOTE) {
      text += buf.toString('utf8', segment, q + 1);
      p = q + 2;
      segment = p;
      continue;
    }
    text += buf.toString('utf8', segment, q);
    p = q + 1;
    break;
  }
  // Lenient about text after the closing quote (`"a"b`): it is kept, as spreadsheet programs do.
  let end = p;
  while (end < buf.length) {
    const c = buf[end];
    if (c === delimiter || c === LF || c === CR) break;
    end++;
  }
  if (end > p) text += buf.toString('utf8', p, end);
  return { text, next: end };
}

function cellEnd(buf: Buffer, pos: number, delimiter: number): number {
  const len = buf.length;
  while (pos < len) {
    const c = buf[pos];
    if (c === delimiter || c === LF || c === CR) return pos;
    pos++;
  }
  return len;
}

/** One record as texts (the general path: header, unit and description rows, and text columns). */
export function readRecord(
  buf: Buffer,
  pos: number,
  delimiter: number,
  fileRow: number,
  maxCells: number,
): { cells: string[]; next: number } {
  const cells: string[] = [];
  for (;;) {
    let q0 = pos;
    while (delimiter !== 32 && q0 < buf.length && buf[q0] === 32) q0++;
    if (q0 < buf.length && buf[q0] === QUOTE) {
      const q = readQuoted(buf, q0, delimiter, fileRow);
      cells.push(q.text);
      pos = q.next;
    } else {
      const end = cellEnd(buf, pos, delimiter);
      cells.push(buf.toString('utf8', pos, end));
      pos = end;
    }
    if (cells.length > maxCells) break;
    if (pos < buf.length && buf[pos] === delimiter) {
      pos++;
      continue;
    }
    break;
  }
  return { cells, next: skipLineBreak(buf, pos) };
}

function skipLineBreak(buf: Buffer, pos: number): number {
  if (pos < buf.length && buf[pos] === CR) pos++;
  if (pos < buf.length && buf[pos] === LF) pos++;
  return pos;
}

export function onlyBlankFrom(buf: Buffer, pos: number): boolean {
  for (let i = pos; i < buf.length; i++) {
    const c = buf[i];
    if (c !== LF && c !== CR && c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Reads a delimited text file. Numbers are parsed straight from the bytes in one pass; quoted cells,
 * timestamps and anything that is not a plain number take the general (string) path.
 */
export function readDelimited(
  content: Buffer,
  config: DelimitedReaderConfiguration,
  limits: DelimitedLimits,
): ReadTable {
  const rows = readDelimitedRows(content, config, limits);
  return finishDelimited(rows, config, rows.rowCount);
}

/** Reads the rows of a delimited file, or of one part of it (`part`), leaving the data types to finishDelimited. */
export function readDelimitedRows(
  content: Buffer,
  config: DelimitedReaderConfiguration,
  limits: DelimitedLimits,
  part?: DelimitedPart,
): DelimitedRows {
  const buf = toUtf8(content, config.encoding);
  if (onlyBlankFrom(buf, 0)) throw new ReaderError('EMPTY_FILE', 'The file is empty.');
  // Every line is checked before anything is read, by the whole read or the first part (so a line too long anywhere
  // is the file's error, as when it is read whole); the second part leaves it to the first.
  const lineCount = part && part.rowsBefore > 0 ? 0 : checkLines(buf, limits.maxLineBytes);
  const delimiter = config.delimiter.charCodeAt(0);
  const decimal = config.decimalSeparator.charCodeAt(0);
  let len = buf.length;

  // Rows before the data: header, unit and description rows, and anything else to skip.
  let pos = 0;
  let header: string[] | null = null;
  let units: string[] | null = null;
  let descriptions: string[] | null = null;
  for (let fileRow = 1; fileRow < config.firstDataRow; fileRow++) {
    if (pos >= len) break;
    const wanted =
      fileRow === config.headerRow || fileRow === config.unitRow || fileRow === config.descriptionRow;
    if (!wanted) {
      pos = readRecord(buf, pos, delimiter, fileRow, Number.MAX_SAFE_INTEGER).next;
      continue;
    }
    const { cells, next } = readRecord(buf, pos, delimiter, fileRow, limits.maxColumns);
    pos = next;
    if (fileRow === config.headerRow) {
      checkColumnCount(cells.length, limits.maxColumns);
      header = cells;
    }
    if (fileRow === config.unitRow) units = cells;
    if (fileRow === config.descriptionRow) descriptions = cells;
  }
  if (!header)
    throw new ReaderError('MISSING_HEADER', `The file ends before the header row (row ${config.headerRow}).`);
  if (pos >= len || onlyBlankFrom(buf, pos)) {
    throw new ReaderError(
      'HEADER_ONLY',
      `The file has a header but no data rows (data is expected from row ${config.firstDataRow}).`,
    );
  }

  const layout = resolveColumns(header, units, descriptions, config.timestampColumns, config.headerRow);
  const columnCount = header.length;
  const capacity = Math.max(1, lineCount - (config.firstDataRow - 1));
  const offsetMs = limits.offsetMinutes * 60_000;
  const naiveFormat = naiveFormatParser(config.timestampFormat);
  if (part && ((part.rowsBefore > 0 && part.start < pos) || part.memory.length !== columnCount + 1))
    throw new Error('The parts of the file were planned wrongly');
  const memory = part?.memory ?? limits.arena?.columns(columnCount + 1, capacity);
  const firstRow = part?.rowsBefore ?? 0;
  const columns = new ColumnSet(
    columnCount,
    capacity,
    config.decimalSeparator,
    naiveFormat,
    offsetMs,
    memory?.slice(0, columnCount),
    firstRow,
  );
  const parseTimestamp = timestampTextParser(
    config.timestampFormat,
    config.decimalSeparator,
    limits.offsetMinutes,
  );

  // For each column: -1 for a channel, else its place among the timestamp columns.
  const timestampSlot = new Int8Array(columnCount).fill(-1);
  layout.timestampColumns.forEach((c, i) => (timestampSlot[c] = i));
  const timestampParts: string[] = new Array(layout.timestampColumns.length).fill('');
  const timestamps = memory?.[columnCount] ?? new Float64Array(capacity);
  const values = columns.values;
  const coded = columns.coded;
  const numbers = columns.numbers;
  const maxDecimals = columns.maxDecimals;

  const dataStart = pos;
  if (part) {
    if (part.rowsBefore > 0) pos = part.start;
    len = part.end;
  }
  let row = firstRow;
  while (pos < len) {
    const fileRow = config.firstDataRow + row;
    let c = buf[pos]!;
    if (c === LF || c === CR) {
      if (onlyBlankFrom(buf, pos)) break;
      if (columnCount > 1)
        throw new ReaderError(
          'ROW_LENGTH',
          `Row ${fileRow} is empty; every data row needs ${columnCount} values as in the header.`,
        );
    }
    let col = 0;
    for (;;) {
      if (col >= columnCount) {
        throw new ReaderError(
          'ROW_LENGTH',
          `Row ${fileRow} has more values than the ${columnCount} columns of the header (row ${config.headerRow}).`,
        );
      }
      c = pos < len ? buf[pos]! : LF;
      if (c === 32 && delimiter !== 32) {
        // Spaces before a quoted value (`, "text"`): read it as quoted, as spreadsheet programs do.
        let q = pos;
        while (q < len && buf[q] === 32) q++;
        if (q < len && buf[q] === QUOTE) {
          pos = q;
          c = QUOTE;
        }
      }
      const slot = timestampSlot[col]!;
      if (slot >= 0) {
        if (c === QUOTE) {
          const q = readQuoted(buf, pos, delimiter, fileRow);
          timestampParts[slot] = q.text;
          pos = q.next;
        } else {
          const end = cellEnd(buf, pos, delimiter);
          timestampParts[slot] = buf.toString('utf8', pos, end);
          pos = end;
        }
      } else if (c === delimiter || c === LF || c === CR) {
        values[col]![row] = NaN;
      } else if (c === QUOTE) {
        const q = readQuoted(buf, pos, delimiter, fileRow);
        columns.text(col, row, q.text, fileRow);
        pos = q.next;
      } else {
        // Fast path: [+-]digits[sep digits] up to the cell end, at most 15 significant digits.
        let p = pos;
        let negative = false;
        if (c === MINUS || c === PLUS) {
          negative = c === MINUS;
          p++;
          c = p < len ? buf[p]! : LF;
        }
        let mantissa = 0;
        let digits = 0;
        let decimals = 0;
        while (c >= 48 && c <= 57) {
          mantissa = mantissa * 10 + (c - 48);
          digits++;
          p++;
          c = p < len ? buf[p]! : LF;
        }
        if (c === decimal) {
          p++;
          c = p < len ? buf[p]! : LF;
          while (c >= 48 && c <= 57) {
            mantissa = mantissa * 10 + (c - 48);
            digits++;
            decimals++;
            p++;
            c = p < len ? buf[p]! : LF;
          }
        }
        if (digits > 0 && digits <= 15 && (c === delimiter || c === LF || c === CR)) {
          // The column's code as it is (the usual cell: as many decimals as the column's codes), else ColumnSet.digits.
          if (decimals === coded[col]) values[col]![row] = negative ? -mantissa : mantissa;
          else columns.digits(col, row, mantissa, decimals, negative);
          numbers[col]!++;
          if (decimals > maxDecimals[col]!) maxDecimals[col] = decimals;
          pos = p;
        } else {
          const end = cellEnd(buf, p, delimiter);
          columns.text(col, row, buf.toString('utf8', pos, end), fileRow);
          pos = end;
        }
      }
      if (pos < len && buf[pos] === delimiter) {
        pos++;
        col++;
        continue;
      }
      break;
    }
    if (col + 1 !== columnCount) {
      throw new ReaderError(
        'ROW_LENGTH',
        `Row ${fileRow} has ${col + 1} value${col === 0 ? '' : 's'}, but the header (row ${config.headerRow}) has ${columnCount} columns.`,
      );
    }
    pos = skipLineBreak(buf, pos);
    // One timestamp column or two (the reader configuration's schema).
    const stampText =
      timestampParts.length === 1 ? timestampParts[0]! : `${timestampParts[0]} ${timestampParts[1]}`;
    const t = parseTimestamp(stampText);
    if (Number.isNaN(t)) throw badTimestamp(fileRow, stampText, config.timestampFormat);
    timestamps[row] = t;
    row++;
  }
  if (row === 0) {
    throw new ReaderError(
      'HEADER_ONLY',
      `The file has a header but no data rows (data is expected from row ${config.firstDataRow}).`,
    );
  }
  return { buf, layout, columns, timestamps, rowCount: row - firstRow, dataStart };
}

/** Settles the data types of the rows read (`rowCount` of them, every part's) and reads the text columns. */
export function finishDelimited(
  rows: DelimitedRows,
  config: DelimitedReaderConfiguration,
  rowCount: number,
): ReadTable {
  const { buf, layout, columns, timestamps, dataStart } = rows;
  const delimiter = config.delimiter.charCodeAt(0);
  const dataTypes = layout.channels.map((ch) => columns.dataType(ch.column, rowCount, ch.channel));
  const textColumns = layout.channels.filter((_, i) => dataTypes[i] === 'String').map((ch) => ch.column);
  const texts = textColumns.length
    ? readTexts(buf, dataStart, delimiter, config.firstDataRow, rowCount, textColumns)
    : new Map<number, (string | null)[]>();

  return {
    rowCount,
    timestamps,
    firstDataRow: config.firstDataRow,
    rowNumbers: null,
    channels: layout.channels.map((ch, i) => ({
      ...ch,
      dataType: dataTypes[i]!,
      values: columns.values[ch.column]!,
      codedDecimals: columns.coded[ch.column]!,
      decimals: columns.maxDecimals[ch.column]!,
      texts: texts.get(ch.column),
    })),
  };
}

/** Second pass over the data rows for the text columns only (rare: loggers write numbers). */
function readTexts(
  buf: Buffer,
  start: number,
  delimiter: number,
  firstDataRow: number,
  rowCount: number,
  columns: number[],
): Map<number, (string | null)[]> {
  const out = new Map<number, (string | null)[]>(columns.map((c) => [c, new Array<string | null>(rowCount)]));
  let pos = start;
  for (let row = 0; row < rowCount; row++) {
    const { cells, next } = readRecord(buf, pos, delimiter, firstDataRow + row, Number.MAX_SAFE_INTEGER);
    pos = next;
    for (const c of columns) {
      const t = cells[c]!.trim();
      out.get(c)![row] = MISSING_TOKENS.has(t) ? null : t;
    }
  }
  return out;
}

export function badTimestamp(fileRow: number, text: string, format: string): ReaderError {
  if (text.trim() === '') return new ReaderError('BAD_TIMESTAMP', `Row ${fileRow}: the timestamp is empty.`);
  return new ReaderError(
    'BAD_TIMESTAMP',
    `Row ${fileRow}: the timestamp ${quoteCell(text)} does not match ${describeTimestampFormat(format)}.`,
  );
}

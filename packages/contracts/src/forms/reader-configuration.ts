import {
  READER_IDS,
  TIMESTAMP_FORMATS,
  TIMESTAMP_TOKENS,
  delimitedReaderConfigurationSchema,
  isNamedTimestampFormat,
  xlsxReaderConfigurationSchema,
} from '../readers';
import type { FieldErrors } from './errors';

/**
 * The reader configuration form of the data source dialog. The configuration's JSON text (what the data source
 * stores, and what the Advanced field shows) is the one state: the form's fields are read from it
 * (`readerForm`) and a field's change is written into it (`withReaderForm`), so editing either updates the other.
 * A field holding what the schema refuses (a row typed as "abc") keeps it in the JSON, for `validateReaderForm` to
 * say what is wrong.
 */

export const DELIMITER_CHOICES = [
  { value: 'comma', label: 'Comma ( , )', delimiter: ',' },
  { value: 'semicolon', label: 'Semicolon ( ; )', delimiter: ';' },
  { value: 'tab', label: 'Tab', delimiter: '\t' },
  { value: 'pipe', label: 'Pipe ( | )', delimiter: '|' },
  { value: 'space', label: 'Space', delimiter: ' ' },
  { value: 'other', label: 'Other', delimiter: null },
] as const;
export type DelimiterChoice = (typeof DELIMITER_CHOICES)[number]['value'];

export const TIMESTAMP_FORMAT_CHOICES = [
  { value: TIMESTAMP_FORMATS.iso, label: 'ISO 8601 (2026-01-31T13:45:00)' },
  { value: TIMESTAMP_FORMATS.unixSeconds, label: 'Unix seconds (1769867100)' },
  { value: TIMESTAMP_FORMATS.unixMilliseconds, label: 'Unix milliseconds (1769867100000)' },
  { value: TIMESTAMP_FORMATS.excel, label: 'Excel serial date (46053.5729)' },
  { value: 'custom', label: 'Custom pattern' },
] as const;
export type TimestampFormatChoice = (typeof TIMESTAMP_FORMAT_CHOICES)[number]['value'];

export const ENCODING_CHOICES = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'latin1', label: 'Latin-1 (Windows-1252)' },
  { value: 'utf-16le', label: 'UTF-16 LE' },
] as const;

/** The hint under the custom pattern field. */
export const TIMESTAMP_PATTERN_HINT = `${TIMESTAMP_TOKENS.map((t) => t.token).join(' ')}; any other character as written, e.g. DD.MM.YYYY HH:mm:ss`;

/** A custom pattern's first value when Custom pattern is chosen. */
export const DEFAULT_TIMESTAMP_PATTERN = 'YYYY-MM-DD HH:mm:ss';

export const READER_FORM_MESSAGES = {
  invalidJson: 'The parser configuration is not valid JSON; correct it under Advanced',
  delimiterRequired: 'Provide a delimiter',
  delimiterOneCharacter: 'The delimiter is one character',
  rowRequired: 'Row is required',
  wholeNumber: 'Must be a whole number',
  rowFromOne: 'Rows are counted from 1',
  firstDataRowAfterHeader: 'The first data row must come after the header row',
  timestampColumnRequired: 'Choose the timestamp column',
  timeColumnRequired: 'Choose the time column',
  patternRequired: 'Provide a timestamp pattern',
  sheetRequired: 'Sheet is required',
} as const;
const M = READER_FORM_MESSAGES;

/** The form's fields, as the inputs show them (text for numbers). */
export interface ReaderForm {
  delimiter: DelimiterChoice;
  /** The delimiter when `delimiter` is 'other'. */
  otherDelimiter: string;
  decimalSeparator: string;
  headerRow: string;
  /** Empty: the file has no such row. */
  unitRow: string;
  descriptionRow: string;
  firstDataRow: string;
  /** Date and time, or the date when `twoTimestampColumns`. */
  timestampColumn: string;
  twoTimestampColumns: boolean;
  timeColumn: string;
  timestampFormat: TimestampFormatChoice;
  /** The pattern when `timestampFormat` is 'custom'. */
  timestampPattern: string;
  encoding: string;
  /** A sheet's name or number (xlsx). */
  sheet: string;
}
export type ReaderFormField = keyof ReaderForm;

type Json = Record<string, unknown>;

function parseObject(json: string): Json | null {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);

/** The form's fields read from the configuration's JSON text; null when it is not a JSON object. */
export function readerForm(json: string): ReaderForm | null {
  const c = parseObject(json);
  if (!c) return null;
  const delimiter = text(c.delimiter);
  const choice = DELIMITER_CHOICES.find((d) => d.delimiter === delimiter)?.value ?? 'other';
  const format = text(c.timestampFormat);
  const columns = Array.isArray(c.timestampColumns) ? c.timestampColumns.map(text) : [];
  return {
    delimiter: choice,
    otherDelimiter: choice === 'other' ? delimiter : '',
    decimalSeparator: text(c.decimalSeparator),
    headerRow: text(c.headerRow),
    unitRow: text(c.unitRow),
    descriptionRow: text(c.descriptionRow),
    firstDataRow: text(c.firstDataRow),
    timestampColumn: columns[0] ?? '',
    twoTimestampColumns: columns.length > 1,
    timeColumn: columns[1] ?? '',
    timestampFormat: isNamedTimestampFormat(format) ? format : 'custom',
    timestampPattern: isNamedTimestampFormat(format) ? '' : format,
    encoding: text(c.encoding) || 'utf-8',
    sheet: text(c.sheet ?? 1),
  };
}

/** A row typed in the form as it goes into the JSON: a whole number as a number, empty as null, anything else as typed. */
function rowValue(typed: string): number | string | null {
  const t = typed.trim();
  if (t === '') return null;
  return /^\d+$/.test(t) ? Number(t) : typed;
}

/**
 * The configuration's JSON text with the form's changes written in (other keys kept as they are). A JSON text that
 * is not an object is answered as it is: the form is not shown then.
 */
export function withReaderForm(readerId: string, json: string, patch: Partial<ReaderForm>): string {
  const c = parseObject(json);
  const form = readerForm(json);
  if (!c || !form) return json;
  const next = { ...form, ...patch };
  const out: Json = { ...c };
  if (readerId === READER_IDS.delimited) {
    const chosen = DELIMITER_CHOICES.find((d) => d.value === next.delimiter);
    out.delimiter = chosen?.delimiter ?? next.otherDelimiter;
    out.decimalSeparator = next.decimalSeparator;
    out.encoding = next.encoding;
  } else {
    out.sheet = /^\d+$/.test(next.sheet.trim()) ? Number(next.sheet.trim()) : next.sheet;
  }
  out.headerRow = rowValue(next.headerRow);
  out.unitRow = rowValue(next.unitRow);
  out.descriptionRow = rowValue(next.descriptionRow);
  out.firstDataRow = rowValue(next.firstDataRow);
  out.timestampColumns = next.twoTimestampColumns
    ? [next.timestampColumn, next.timeColumn]
    : [next.timestampColumn];
  out.timestampFormat = next.timestampFormat === 'custom' ? next.timestampPattern : next.timestampFormat;
  return JSON.stringify(out, null, 2);
}

/** Choosing Custom pattern starts from the pattern written before, or DEFAULT_TIMESTAMP_PATTERN. */
export function chooseTimestampFormat(form: ReaderForm, choice: TimestampFormatChoice): Partial<ReaderForm> {
  if (choice !== 'custom') return { timestampFormat: choice };
  return { timestampFormat: 'custom', timestampPattern: form.timestampPattern || DEFAULT_TIMESTAMP_PATTERN };
}

/** Which form field a message of the configuration's schema belongs to. */
function fieldOf(path: readonly PropertyKey[], form: ReaderForm): ReaderFormField | null {
  const [key, index] = path;
  switch (key) {
    case 'delimiter':
      return form.delimiter === 'other' ? 'otherDelimiter' : 'delimiter';
    case 'timestampColumns':
      return index === 1 ? 'timeColumn' : 'timestampColumn';
    case 'timestampFormat':
      return form.timestampFormat === 'custom' ? 'timestampPattern' : 'timestampFormat';
    case 'decimalSeparator':
    case 'headerRow':
    case 'unitRow':
    case 'descriptionRow':
    case 'firstDataRow':
    case 'encoding':
    case 'sheet':
      return key;
    default:
      return null;
  }
}

/**
 * The form's messages: the first per field, the rules of the forms before those of the configuration's schema
 * (which the server applies too: a pattern needs YYYY, MM and DD, the delimiter differs from the decimal separator). A JSON text that is not an object gets one message, on '' (the Advanced field).
 */
export function validateReaderForm(readerId: string, json: string): FieldErrors<ReaderFormField | ''> {
  const form = readerForm(json);
  if (!form) return { '': M.invalidJson };
  const errors: FieldErrors<ReaderFormField | ''> = {};
  const rows = ['headerRow', 'unitRow', 'descriptionRow', 'firstDataRow'] as const;
  for (const row of rows) {
    const value = form[row].trim();
    if (value === '') {
      if (row === 'headerRow' || row === 'firstDataRow') errors[row] = M.rowRequired;
    } else if (!/^-?\d+$/.test(value)) errors[row] = M.wholeNumber;
    else if (Number(value) < 1) errors[row] = M.rowFromOne;
  }
  if (readerId === READER_IDS.delimited) {
    if (form.delimiter === 'other') {
      if (form.otherDelimiter === '') errors.otherDelimiter = M.delimiterRequired;
      else if (form.otherDelimiter.length > 1) errors.otherDelimiter = M.delimiterOneCharacter;
    }
  } else if (form.sheet.trim() === '') errors.sheet = M.sheetRequired;
  if (form.timestampColumn.trim() === '') errors.timestampColumn = M.timestampColumnRequired;
  if (form.twoTimestampColumns && form.timeColumn.trim() === '') errors.timeColumn = M.timeColumnRequired;
  if (form.timestampFormat === 'custom') {
    if (form.timestampPattern.trim() === '') errors.timestampPattern = M.patternRequired;
  }
  const schema =
    readerId === READER_IDS.delimited
      ? delimitedReaderConfigurationSchema
      : readerId === READER_IDS.xlsx
        ? xlsxReaderConfigurationSchema
        : null;
  const parsed = schema?.safeParse(JSON.parse(json));
  if (parsed && !parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path, form);
      if (field) errors[field] ??= issue.message;
    }
  }
  return errors;
}

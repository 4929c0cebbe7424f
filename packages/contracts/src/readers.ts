import { z } from 'zod';
import { userText } from './forms/text';

/**
 * Configuration of the data source readers (parser providers). A data source stores its reader id and
 * this configuration as JSON text (`dataSourceReaderConfiguration`).
 *
 * Rows and columns are 1-based, as a person counts them in a spreadsheet.
 * `timestampColumns` names one column (date and time together) or two (date, then time), joined by a space.
 * `timestampFormat` uses the tokens YYYY MM DD HH mm ss SSS (any other characters are literal),
 * or `ISO` (ISO 8601; a zone in the text wins over the data source offset), or `EXCEL` (serial day number; xlsx date cells are read as such).
 * The timestamps in a file are in the logger's local clock; the data source's `utcTimezoneOffsetInMinutes`
 * (local = UTC + offset) turns them into UTC.
 */
export const READER_IDS = { delimited: 'delimited-text', xlsx: 'excel-workbook' } as const;
export type ReaderId = (typeof READER_IDS)[keyof typeof READER_IDS];

const rowNumber = z.number().int('Must be a whole number').min(1, 'Rows are counted from 1');

export const delimitedReaderConfigurationSchema = z
  .object({
    delimiter: userText().min(1, 'Provide a delimiter').max(1, 'The delimiter is one character'),
    decimalSeparator: z.enum(['.', ','], { message: 'The decimal separator is "." or ","' }),
    headerRow: rowNumber,
    unitRow: rowNumber.nullable().default(null),
    descriptionRow: rowNumber.nullable().default(null),
    firstDataRow: rowNumber,
    timestampColumns: z
      .array(userText().min(1))
      .min(1, 'Name the timestamp column')
      .max(2, 'At most two timestamp columns (date and time)'),
    timestampFormat: userText().min(1, 'Provide a timestamp format'),
    encoding: z.enum(['utf-8', 'latin1', 'utf-16le']).default('utf-8'),
  })
  .refine((c) => c.delimiter !== c.decimalSeparator, {
    message: 'The delimiter and the decimal separator must differ',
    path: ['decimalSeparator'],
  })
  .refine((c) => c.firstDataRow > c.headerRow, {
    message: 'The first data row must come after the header row',
    path: ['firstDataRow'],
  });
export type DelimitedReaderConfiguration = z.infer<typeof delimitedReaderConfigurationSchema>;

export const xlsxReaderConfigurationSchema = z
  .object({
    sheet: z.union([userText().min(1), z.number().int().min(1)]).default(1),
    headerRow: rowNumber,
    unitRow: rowNumber.nullable().default(null),
    descriptionRow: rowNumber.nullable().default(null),
    firstDataRow: rowNumber,
    timestampColumns: z
      .array(userText().min(1))
      .min(1, 'Name the timestamp column')
      .max(2, 'At most two timestamp columns (date and time)'),
    timestampFormat: userText().min(1, 'Provide a timestamp format'),
  })
  .refine((c) => c.firstDataRow > c.headerRow, {
    message: 'The first data row must come after the header row',
    path: ['firstDataRow'],
  });
export type XlsxReaderConfiguration = z.infer<typeof xlsxReaderConfigurationSchema>;

export const DEFAULT_DELIMITED_CONFIGURATION: DelimitedReaderConfiguration = {
  delimiter: ',',
  decimalSeparator: '.',
  headerRow: 1,
  unitRow: null,
  descriptionRow: null,
  firstDataRow: 2,
  timestampColumns: ['Timestamp'],
  timestampFormat: 'YYYY-MM-DD HH:mm:ss',
  encoding: 'utf-8',
};

export const DEFAULT_XLSX_CONFIGURATION: XlsxReaderConfiguration = {
  sheet: 1,
  headerRow: 1,
  unitRow: null,
  descriptionRow: null,
  firstDataRow: 2,
  timestampColumns: ['Timestamp'],
  timestampFormat: 'EXCEL',
};

export const READERS = [
  {
    id: READER_IDS.delimited,
    name: 'Delimited text (CSV)',
    acceptedFileExtensions: ['.csv', '.txt'],
    defaultConfiguration: DEFAULT_DELIMITED_CONFIGURATION,
  },
  {
    id: READER_IDS.xlsx,
    name: 'Excel workbook (XLSX)',
    acceptedFileExtensions: ['.xlsx'],
    defaultConfiguration: DEFAULT_XLSX_CONFIGURATION,
  },
] as const;

/** Parses and validates a reader configuration (JSON text); answers the first mistakes as readable messages. */
export function parseReaderConfiguration(
  readerId: string,
  json: string,
):
  | { ok: true; configuration: DelimitedReaderConfiguration | XlsxReaderConfiguration }
  | { ok: false; errors: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { ok: false, errors: ['The parser configuration is not valid JSON'] };
  }
  const schema =
    readerId === READER_IDS.delimited
      ? delimitedReaderConfigurationSchema
      : readerId === READER_IDS.xlsx
        ? xlsxReaderConfigurationSchema
        : null;
  if (!schema) return { ok: false, errors: [`Unknown data source reader '${readerId}'`] };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, configuration: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)),
  };
}

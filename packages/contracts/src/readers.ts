import { z } from 'zod';
import { userText } from './forms/text';

/**
 * Configuration of the data source readers (parser providers). A data source stores its reader id and
 * this configuration as JSON text (`dataSourceReaderConfiguration`). Every option is described below (the
 * descriptions go into the OpenAPI document) and, with examples, in docs/readers.md.
 *
 * Rows and columns are 1-based, as a person counts them in a spreadsheet.
 * The timestamps in a file are in the logger's local clock; the data source's `utcTimezoneOffsetInMinutes`
 * (local = UTC + offset) turns them into UTC. Unix times and ISO texts with a zone are absolute: no offset applies.
 */
export const READER_IDS = { delimited: 'delimited-text', xlsx: 'excel-workbook' } as const;
export type ReaderId = (typeof READER_IDS)[keyof typeof READER_IDS];

/** The named timestamp formats; anything else is a pattern of the tokens of TIMESTAMP_TOKENS. */
export const TIMESTAMP_FORMATS = {
  iso: 'ISO',
  unixSeconds: 'UNIX_S',
  unixMilliseconds: 'UNIX_MS',
  excel: 'EXCEL',
} as const;
export type NamedTimestampFormat = (typeof TIMESTAMP_FORMATS)[keyof typeof TIMESTAMP_FORMATS];
export const NAMED_TIMESTAMP_FORMATS: readonly string[] = Object.values(TIMESTAMP_FORMATS);
export const isNamedTimestampFormat = (format: string): format is NamedTimestampFormat =>
  NAMED_TIMESTAMP_FORMATS.includes(format);

/** The tokens of a custom timestamp pattern; every other character is literal. */
export const TIMESTAMP_TOKENS = [
  { token: 'YYYY', meaning: 'year, 4 digits' },
  { token: 'MM', meaning: 'month, 01-12' },
  { token: 'DD', meaning: 'day, 01-31' },
  { token: 'HH', meaning: 'hour, 00-23' },
  { token: 'mm', meaning: 'minute, 00-59' },
  { token: 'ss', meaning: 'second, 00-59' },
  { token: 'SSS', meaning: 'millisecond, 000-999' },
] as const;

/** How the readers show a timestamp format in messages: the pattern itself, or the named format in words. */
export function describeTimestampFormat(format: string): string {
  switch (format) {
    case TIMESTAMP_FORMATS.iso:
      return 'ISO 8601 (e.g. 2026-01-31T13:45:00)';
    case TIMESTAMP_FORMATS.unixSeconds:
      return 'Unix seconds (e.g. 1769867100)';
    case TIMESTAMP_FORMATS.unixMilliseconds:
      return 'Unix milliseconds (e.g. 1769867100000)';
    case TIMESTAMP_FORMATS.excel:
      return 'an Excel date number (e.g. 46053.5729)';
    default:
      return format;
  }
}

const rowNumber = z.number().int('Must be a whole number').min(1, 'Rows are counted from 1');

const describedOptions = {
  headerRow: rowNumber.describe(
    'Row of the column names (1 = the first line of the file). The timestamp columns are found by these names; every other column is a raw channel.',
  ),
  unitRow: rowNumber
    .nullable()
    .default(null)
    .describe('Row of the units of the columns (e.g. ppm, kg/h), or null when the file has none.'),
  descriptionRow: rowNumber
    .nullable()
    .default(null)
    .describe('Row of a longer description of each column, or null when the file has none.'),
  firstDataRow: rowNumber.describe(
    'First row of values; it comes after the header row. Rows between the header and it (units, descriptions, comments) are skipped unless named above.',
  ),
  timestampColumns: z
    .array(userText().min(1))
    .min(1, 'Name the timestamp column')
    .max(2, 'At most two timestamp columns (date and time)')
    .describe(
      'Header names of the timestamp: one column (date and time together, e.g. ["Timestamp"]) or two (date, then time, e.g. ["Date", "Time"]; read joined by a space). The names are matched exactly first, then ignoring case.',
    ),
  timestampFormat: userText()
    .min(1, 'Provide a timestamp format')
    .refine(
      (f) => isNamedTimestampFormat(f) || ['YYYY', 'MM', 'DD'].every((t) => f.includes(t)),
      'A pattern needs YYYY, MM and DD (e.g. DD.MM.YYYY HH:mm:ss)',
    )
    .describe(
      'How the timestamp is written: ISO (ISO 8601, e.g. 2026-01-31T13:45:00, a zone such as Z or +02:00 in the text wins over the data source offset); UNIX_S (seconds since 1970-01-01 UTC, e.g. 1769867100, fractions allowed); UNIX_MS (milliseconds since 1970-01-01 UTC); EXCEL (serial day number, e.g. 46053.5729; xlsx date cells are read as dates whatever the format); or a pattern of the tokens YYYY MM DD HH mm ss SSS where every other character is literal (e.g. DD.MM.YYYY HH:mm:ss, MM/DD/YYYY HH:mm, YYYY-MM-DDTHH:mm:ss). With two timestamp columns the pattern covers both, joined by a space (e.g. DD.MM.YYYY HH:mm:ss for a date column and a time column). Unix times are UTC: the data source offset does not apply to them.',
    ),
};

export const delimitedReaderConfigurationSchema = z
  .object({
    delimiter: userText()
      .min(1, 'Provide a delimiter')
      .max(1, 'The delimiter is one character')
      .describe(
        'The one character between values: "," (comma), ";" (semicolon), "\\t" (tab), "|" (pipe), " " (space) or any other. A value holding it is written in double quotes.',
      ),
    decimalSeparator: z
      .enum(['.', ','], { message: 'The decimal separator is "." or ","' })
      .describe(
        'The character before the decimals of a number: "." (12.5) or "," (12,5). It must differ from the delimiter.',
      ),
    ...describedOptions,
    encoding: z
      .enum(['utf-8', 'latin1', 'utf-16le'])
      .default('utf-8')
      .describe(
        'Character encoding of the file: utf-8 (a byte order mark is skipped), latin1 (Windows-1252, as many loggers on Windows write) or utf-16le.',
      ),
  })
  .refine((c) => c.delimiter !== c.decimalSeparator, {
    message: 'The delimiter and the decimal separator must differ',
    path: ['decimalSeparator'],
  })
  .refine((c) => c.firstDataRow > c.headerRow, {
    message: 'The first data row must come after the header row',
    path: ['firstDataRow'],
  })
  .describe(
    'Configuration of the delimited text reader (delimited-text: .csv and .txt files), stored as JSON text in dataSourceReaderConfiguration. See docs/readers.md.',
  );
export type DelimitedReaderConfiguration = z.infer<typeof delimitedReaderConfigurationSchema>;

export const xlsxReaderConfigurationSchema = z
  .object({
    sheet: z
      .union([userText().min(1), z.number().int().min(1)])
      .default(1)
      .describe('The sheet to read: its name (e.g. "Log") or its number, 1 for the first.'),
    ...describedOptions,
  })
  .refine((c) => c.firstDataRow > c.headerRow, {
    message: 'The first data row must come after the header row',
    path: ['firstDataRow'],
  })
  .describe(
    'Configuration of the Excel workbook reader (excel-workbook: .xlsx files), stored as JSON text in dataSourceReaderConfiguration. Date cells are read as the logger clock. See docs/readers.md.',
  );
export type XlsxReaderConfiguration = z.infer<typeof xlsxReaderConfigurationSchema>;
export type ReaderConfiguration = DelimitedReaderConfiguration | XlsxReaderConfiguration;

// The OpenAPI document lists both configurations as components (app.ts: jsonSchemaTransformObject).
z.globalRegistry.add(delimitedReaderConfigurationSchema, { id: 'DelimitedReaderConfiguration' });
z.globalRegistry.add(xlsxReaderConfigurationSchema, { id: 'XlsxReaderConfiguration' });

export const DEFAULT_DELIMITED_CONFIGURATION: DelimitedReaderConfiguration = {
  delimiter: ',',
  decimalSeparator: '.',
  headerRow: 1,
  unitRow: null,
  descriptionRow: null,
  firstDataRow: 2,
  timestampColumns: ['Timestamp'],
  timestampFormat: 'ISO',
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

import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  READER_IDS,
  type DelimitedReaderConfiguration,
  type ReaderId,
  type XlsxReaderConfiguration,
} from '@portal/contracts/readers';
import { CHANNELS, printedUnit, rawChannelNames, type ChannelDataType } from './channels';
import { channelColumn, generateShipDay, type DaySamples } from './generate';
import { demoFuelMapping, type DemoFuelMapping } from './fuel';
import type { DemoShip, LoggerFormat } from './ships';

export interface DemoChannelMapping {
  /** Raw column name, exactly as in the file's header. */
  source: string;
  /** Portal channel name (letters, digits, underscore). */
  name: string;
  dataType: ChannelDataType;
  unit: string;
  description: string;
  /** A fuel flow channel's consumer and fuel type (the carbon ledger's); null for the other channels. */
  fuel: DemoFuelMapping | null;
}

/** The data source the seed creates for a ship, so that the ship's logger files import as they are. */
export interface DemoDataSource {
  name: string;
  dataSourceReaderId: ReaderId;
  /** JSON text, as the API stores it; see readerConfiguration() for the object. */
  dataSourceReaderConfiguration: string;
  measureFrequencyInSeconds: 60;
  utcTimezoneOffsetInMinutes: number;
  channelMappings: DemoChannelMapping[];
}

export interface ShipDayFile {
  fileName: string;
  content: Buffer;
}

const MINUTE_MS = 60_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats a logger-clock instant (ms, already shifted by the clock offset) with the reader's tokens, or as ISO 8601 UTC. */
export function formatTimestamp(clockMs: number, format: string): string {
  const d = new Date(clockMs);
  if (format === 'ISO') return `${d.toISOString().slice(0, 19)}Z`;
  return format.replace(/YYYY|MM|DD|HH|mm|ss|SSS/g, (token) => {
    switch (token) {
      case 'YYYY':
        return String(d.getUTCFullYear());
      case 'MM':
        return pad(d.getUTCMonth() + 1);
      case 'DD':
        return pad(d.getUTCDate());
      case 'HH':
        return pad(d.getUTCHours());
      case 'mm':
        return pad(d.getUTCMinutes());
      case 'ss':
        return pad(d.getUTCSeconds());
      default:
        return pad(d.getUTCMilliseconds(), 3);
    }
  });
}

export function readerConfiguration(ship: DemoShip): DelimitedReaderConfiguration | XlsxReaderConfiguration {
  const logger = ship.logger;
  if (logger.kind === 'xlsx') {
    return {
      sheet: logger.sheetName,
      headerRow: 1,
      unitRow: null,
      descriptionRow: null,
      firstDataRow: 2,
      timestampColumns: [...logger.timestampColumns],
      timestampFormat: 'EXCEL',
    };
  }
  return {
    delimiter: logger.delimiter,
    decimalSeparator: logger.decimalSeparator,
    headerRow: 1,
    unitRow: logger.unitRow ? 2 : null,
    descriptionRow: null,
    firstDataRow: logger.unitRow ? 3 : 2,
    timestampColumns: [...logger.timestampColumns],
    timestampFormat: logger.timestampFormat,
    encoding: logger.encoding,
  };
}

export function dataSourceDefinition(ship: DemoShip): DemoDataSource {
  const raw = rawChannelNames(ship.logger.naming);
  return {
    name: ship.logger.kind === 'xlsx' ? 'EGCS_Logger_XLSX' : 'EGCS_Logger_CSV',
    dataSourceReaderId: ship.logger.kind === 'xlsx' ? READER_IDS.xlsx : READER_IDS.delimited,
    dataSourceReaderConfiguration: JSON.stringify(readerConfiguration(ship)),
    measureFrequencyInSeconds: 60,
    utcTimezoneOffsetInMinutes: ship.logger.clockOffsetMinutes,
    channelMappings: CHANNELS.map((c) => ({
      source: raw[c.field],
      name: c.field,
      dataType: c.dataType,
      unit: c.unit,
      description: c.description,
      fuel: demoFuelMapping(ship, c.field),
    })),
  };
}

/** File name as the logger writes it, from the logger-clock date of the file's first row. */
export function loggerFileName(logger: LoggerFormat, firstRowUtcMs: number): string {
  const d = new Date(firstRowUtcMs + logger.clockOffsetMinutes * MINUTE_MS);
  return logger.fileNamePattern
    .replace('{YYYY}', String(d.getUTCFullYear()))
    .replace('{MM}', pad(d.getUTCMonth() + 1))
    .replace('{DD}', pad(d.getUTCDate()));
}

function csvCell(text: string, delimiter: string): string {
  return text.includes(delimiter) || text.includes('"') || text.includes('\n')
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}

/** The date and the time part of a format written in two columns ('DD.MM.YYYY HH:mm:ss'). */
function dateAndTimeFormats(format: string): [string, string] {
  const [date, time, ...rest] = format.split(' ');
  if (date === undefined || time === undefined || rest.length > 0)
    throw new Error(`The timestamp format '${format}' is not a date and a time format`);
  return [date, time];
}

/** Writes samples as the ship's CSV logger does (header, optional unit row, logger-clock timestamps, its decimal separator). */
export function writeCsv(ship: DemoShip, samples: DaySamples): Buffer {
  const logger = ship.logger;
  if (logger.kind !== 'csv') throw new Error(`${ship.name} does not log CSV`);
  const { delimiter, decimalSeparator, lineEnding } = logger;
  const raw = rawChannelNames(logger.naming);
  const lines: string[] = [];
  lines.push(
    [...logger.timestampColumns, ...CHANNELS.map((c) => raw[c.field])]
      .map((h) => csvCell(h, delimiter))
      .join(delimiter),
  );
  if (logger.unitRow)
    lines.push(
      [
        ...logger.timestampColumns.map(() => ''),
        ...CHANNELS.map((c) => csvCell(printedUnit(c.unit), delimiter)),
      ].join(delimiter),
    );
  const twoFormats = logger.timestampColumns.length === 2 ? dateAndTimeFormats(logger.timestampFormat) : null;
  const columns = CHANNELS.map((c) => channelColumn(samples, c.field));
  const decimals = CHANNELS.map((c) => c.decimals);
  const comma = decimalSeparator === ',';
  const offsetMs = logger.clockOffsetMinutes * MINUTE_MS;
  // columns and decimals have one entry per channel, and every channel one value per timestamp.
  for (let r = 0; r < samples.timestamps.length; r++) {
    const clock = samples.timestamps[r]! + offsetMs;
    const cells = twoFormats
      ? [formatTimestamp(clock, twoFormats[0]), formatTimestamp(clock, twoFormats[1])]
      : [formatTimestamp(clock, logger.timestampFormat)];
    for (let k = 0; k < columns.length; k++) {
      const value = columns[k]![r]!;
      if (Number.isNaN(value)) cells.push('');
      else {
        const text = value.toFixed(decimals[k]);
        cells.push(comma ? text.replace('.', ',') : text);
      }
    }
    lines.push(cells.join(delimiter));
  }
  return Buffer.from(lines.join(lineEnding) + lineEnding, logger.encoding === 'latin1' ? 'latin1' : 'utf8');
}

/**
 * exceljs stamps every zip entry with the current time: overwrite the DOS times of the local and central headers in place
 * (no re-compression), so that the same day always gives the same bytes.
 */
function withFixedZipTimes(zip: Buffer, at: Date): Buffer {
  const dosTime = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1);
  const dosDate =
    ((Math.max(1980, at.getUTCFullYear()) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('exceljs wrote no zip end record');
  const entries = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('Unexpected zip central directory');
    zip.writeUInt16LE(dosTime, p + 12);
    zip.writeUInt16LE(dosDate, p + 14);
    const local = zip.readUInt32LE(p + 42);
    zip.writeUInt16LE(dosTime, local + 10);
    zip.writeUInt16LE(dosDate, local + 12);
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return zip;
}

/** Writes samples as the ship's Excel logger does: one sheet, a header row, Excel date cells, numbers, blanks for gaps. */
export async function writeXlsx(ship: DemoShip, samples: DaySamples): Promise<Buffer> {
  const logger = ship.logger;
  if (logger.kind !== 'xlsx') throw new Error(`${ship.name} does not log Excel workbooks`);
  const raw = rawChannelNames(logger.naming);
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  // A fixed creation date keeps the bytes reproducible.
  workbook.created = new Date(samples.timestamps[0] ?? 0);
  workbook.modified = workbook.created;
  workbook.creator = 'EGCS data logger';
  const sheet = workbook.addWorksheet(logger.sheetName);
  sheet.columns = [
    { header: logger.timestampColumns[0], key: 't', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
    ...CHANNELS.map((c) => ({ header: raw[c.field], key: c.field, width: 14 })),
  ];
  const offsetMs = logger.clockOffsetMinutes * MINUTE_MS;
  const columns = CHANNELS.map((c) => channelColumn(samples, c.field));
  // Every channel has one value per timestamp.
  for (let r = 0; r < samples.timestamps.length; r++) {
    // exceljs turns a Date into the serial day number of its UTC fields: hand it the logger-clock instant.
    const values: (Date | number | null)[] = [new Date(samples.timestamps[r]! + offsetMs)];
    for (const column of columns) values.push(Number.isNaN(column[r]) ? null : column[r]!);
    sheet.addRow(values).commit();
  }
  sheet.commit();
  await workbook.commit();
  await done;
  return withFixedZipTimes(Buffer.concat(chunks), new Date(samples.timestamps[0] ?? Date.UTC(1980, 0, 1)));
}

/** Writes arbitrary samples of a ship in its logger's format and names the file by the first row's logger-clock date. */
export async function writeSamplesFile(ship: DemoShip, samples: DaySamples): Promise<ShipDayFile> {
  const fileName = loggerFileName(ship.logger, samples.timestamps[0] ?? 0);
  const content = ship.logger.kind === 'xlsx' ? await writeXlsx(ship, samples) : writeCsv(ship, samples);
  return { fileName, content };
}

/** The logger file of one UTC day of a ship (its rows are exactly generateShipDay(ship, day).samples). */
export async function writeShipDayFile(ship: DemoShip, day: Date): Promise<ShipDayFile> {
  return writeSamplesFile(ship, generateShipDay(ship, day).samples);
}

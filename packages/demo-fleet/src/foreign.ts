/**
 * Foreign loggers: three loggers of ships that are not in the demo fleet, each naming its channels its own way, with
 * its own delimiter, decimal separator and timestamp format. They write the very samples of a demo ship's day
 * (`generateShipDay`), so a ship onboarded with one of them must show the same KPIs as the demo ship: what the
 * onboarding test and the suggested mappings are checked against.
 */
import { READER_IDS, type DelimitedReaderConfiguration } from '@portal/contracts/readers';
import { CHANNELS, type ChannelField } from './channels';
import { formatTimestamp, type ShipDayFile } from './formats';
import { channelColumn, generateShipDay } from './generate';
import type { DemoShip } from './ships';

export type ForeignLoggerKey = 'ams' | 'bridge' | 'opc';

/** A column of a foreign logger: the demo channel it records, under the logger's name (and its unit row's text). */
export interface ForeignColumn {
  field: ChannelField;
  name: string;
  unit?: string;
}

export interface ForeignLogger {
  key: ForeignLoggerKey;
  /** What a person would call it. */
  title: string;
  delimiter: ';' | '\t' | ',';
  decimalSeparator: '.' | ',';
  /** One column (date and time) or two (date, then time). */
  timestampColumns: [string] | [string, string];
  /** Reader tokens; with two columns, the date format and the time format joined by a space. */
  timestampFormat: string;
  unitRow: boolean;
  lineEnding: '\r\n' | '\n';
  fileNamePattern: string;
  /** In the order the logger writes them; a real logger also logs channels the portal does not use. */
  columns: ForeignColumn[];
}

/**
 * The three foreign loggers:
 * - `ams`: an alarm and monitoring system's export, upper snake case with the unit in the name (`ME1_FO_FLOW_KGH`),
 *   `;` and decimal comma, `DD.MM.YYYY HH:mm:ss` in one column;
 * - `bridge`: a bridge data recorder's tab-separated export, free text with units in brackets or parentheses
 *   (`SO2 Outlet [ppm]`, `Fuel flow (kg/h)`), `MM/DD/YYYY HH:mm`;
 * - `opc`: an OPC UA historian, dotted tags (`Scrubber.Running`, `EGCS.SO2Out`) with a unit row, `,` and `.`, date and
 *   time in two columns.
 * All log in UTC.
 */
export const FOREIGN_LOGGERS: readonly ForeignLogger[] = [
  {
    key: 'ams',
    title: 'Alarm and monitoring system (upper snake case, ; and decimal comma)',
    delimiter: ';',
    decimalSeparator: ',',
    timestampColumns: ['TIMESTAMP'],
    timestampFormat: 'DD.MM.YYYY HH:mm:ss',
    unitRow: false,
    lineEnding: '\r\n',
    fileNamePattern: 'AMS_TREND_{YYYY}{MM}{DD}.csv',
    columns: [
      { field: 'ENGINE_RPM', name: 'ME1_SPEED_RPM' },
      { field: 'ENGINE_LOAD', name: 'ME1_LOAD_PCT' },
      { field: 'FUEL_FLOW', name: 'ME1_FO_FLOW_KGH' },
      { field: 'FUEL_SULFUR', name: 'FO_SULPHUR_CONTENT_PCT' },
      { field: 'EXHAUST_TEMP', name: 'ME1_EXH_GAS_TEMP_DEGC' },
      { field: 'SCRUBBER_RUNNING', name: 'EGCS_RUN_STATUS' },
      { field: 'SCRUBBER_MODE', name: 'EGCS_MODE_SEL' },
      { field: 'SO2_PPM', name: 'SO2_OUT_PPM' },
      { field: 'CO2_PCT', name: 'CO2_OUT_PCT' },
      { field: 'SCRUBBER_POWER', name: 'EGCS_PWR_KW' },
      { field: 'WASHWATER_FLOW', name: 'WW_FLOW_M3H' },
      { field: 'WASHWATER_PH', name: 'WW_DISCH_PH' },
      { field: 'WASHWATER_PAH', name: 'WW_DISCH_PAH_UGL' },
      { field: 'WASHWATER_TURBIDITY', name: 'WW_DISCH_TURB_NTU' },
      { field: 'WASHWATER_PH_INLET', name: 'WW_INLET_PH' },
      { field: 'WASHWATER_PAH_INLET', name: 'WW_INLET_PAH_UGL' },
      { field: 'WASHWATER_TURBIDITY_INLET', name: 'WW_INLET_TURB_NTU' },
      { field: 'SCRUBBER_DIFF_PRESSURE', name: 'EGCS_DP_MBAR' },
      { field: 'LATITUDE', name: 'GPS_LAT_DEG' },
      { field: 'LONGITUDE', name: 'GPS_LON_DEG' },
      { field: 'SHIP_SPEED', name: 'GPS_SOG_KN' },
    ],
  },
  {
    key: 'bridge',
    title: 'Bridge data recorder (free text with units, tab-separated)',
    delimiter: '\t',
    decimalSeparator: '.',
    timestampColumns: ['Date Time'],
    timestampFormat: 'MM/DD/YYYY HH:mm',
    unitRow: false,
    lineEnding: '\n',
    fileNamePattern: 'VDR export {YYYY}-{MM}-{DD}.txt',
    columns: [
      { field: 'LATITUDE', name: 'Position latitude [°]' },
      { field: 'LONGITUDE', name: 'Position longitude [°]' },
      { field: 'SHIP_SPEED', name: 'Speed over ground [kn]' },
      { field: 'HEADING', name: 'Heading [°]' },
      { field: 'ENGINE_LOAD', name: 'Main engine load (%)' },
      { field: 'FUEL_FLOW', name: 'Fuel flow (kg/h)' },
      { field: 'FUEL_SULFUR', name: 'Fuel sulphur content (% m/m)' },
      { field: 'SCRUBBER_RUNNING', name: 'Scrubber running' },
      { field: 'SO2_PPM', name: 'SO2 Outlet [ppm]' },
      { field: 'CO2_PCT', name: 'CO2 Outlet [% vol]' },
      { field: 'SCRUBBER_POWER', name: 'Scrubber electric power [kW]' },
      { field: 'SCRUBBER_INLET_TEMP', name: 'Gas temperature scrubber inlet [°C]' },
      { field: 'WASHWATER_PH', name: 'Washwater outlet pH' },
      { field: 'WASHWATER_PAH', name: 'Washwater outlet PAH [µg/l]' },
      { field: 'WASHWATER_TURBIDITY', name: 'Washwater outlet turbidity [NTU]' },
      { field: 'WASHWATER_PH_INLET', name: 'Washwater inlet pH' },
      { field: 'WASHWATER_PAH_INLET', name: 'Washwater inlet PAH [µg/l]' },
      { field: 'WASHWATER_TURBIDITY_INLET', name: 'Washwater inlet turbidity [NTU]' },
      { field: 'WASHWATER_FLOW', name: 'Washwater flow [t/h]' },
      { field: 'SCRUBBER_MODE', name: 'Scrubber mode (0 closed, 1 open)' },
      { field: 'SEAWATER_TEMP', name: 'Seawater temperature [°C]' },
    ],
  },
  {
    key: 'opc',
    title: 'OPC UA historian (dotted tags, unit row, date and time columns)',
    delimiter: ',',
    decimalSeparator: '.',
    timestampColumns: ['Date', 'Time'],
    timestampFormat: 'YYYY-MM-DD HH:mm:ss',
    unitRow: true,
    lineEnding: '\r\n',
    fileNamePattern: 'historian_{YYYY}_{MM}_{DD}.csv',
    columns: [
      { field: 'SCRUBBER_RUNNING', name: 'Scrubber.Running', unit: '' },
      { field: 'SCRUBBER_MODE', name: 'Scrubber.Mode', unit: '' },
      { field: 'SCRUBBER_POWER', name: 'Scrubber.PowerConsumption', unit: 'kW' },
      { field: 'SO2_PPM', name: 'EGCS.SO2Out', unit: 'ppm' },
      { field: 'CO2_PCT', name: 'EGCS.CO2Out', unit: '%' },
      { field: 'SCRUBBER_OUTLET_TEMP', name: 'EGCS.GasTempOut', unit: 'degC' },
      { field: 'NAOH_DOSING', name: 'EGCS.NaOHDosing', unit: 'l/h' },
      { field: 'WASHWATER_PH', name: 'WashWater.Outlet.pH', unit: 'pH' },
      { field: 'WASHWATER_PAH', name: 'WashWater.Outlet.PAH', unit: 'ug/l' },
      { field: 'WASHWATER_TURBIDITY', name: 'WashWater.Outlet.Turbidity', unit: 'NTU' },
      { field: 'WASHWATER_PH_INLET', name: 'WashWater.Inlet.pH', unit: 'pH' },
      { field: 'WASHWATER_PAH_INLET', name: 'WashWater.Inlet.PAH', unit: 'ug/l' },
      { field: 'WASHWATER_TURBIDITY_INLET', name: 'WashWater.Inlet.Turbidity', unit: 'NTU' },
      { field: 'WASHWATER_FLOW', name: 'WashWater.Flow', unit: 't/h' },
      { field: 'WASHWATER_PUMP_PRESSURE', name: 'WashWater.Pump.Pressure', unit: 'bar' },
      { field: 'FUEL_FLOW', name: 'ME1.FuelOil.MassFlow', unit: 'kg/h' },
      { field: 'FUEL_SULFUR', name: 'Fuel.SulphurContent', unit: '%m/m' },
      { field: 'ENGINE_LOAD', name: 'ME1.Load', unit: '%' },
      { field: 'ENGINE_RPM', name: 'ME1.Speed', unit: 'rpm' },
      { field: 'LATITUDE', name: 'GNSS.Latitude', unit: 'deg' },
      { field: 'LONGITUDE', name: 'GNSS.Longitude', unit: 'deg' },
      { field: 'HEADING', name: 'Gyro.Heading', unit: 'deg' },
      { field: 'AMBIENT_AIR_TEMP', name: 'Ambient.AirTemp', unit: 'degC' },
    ],
  },
];

export function foreignLogger(key: string): ForeignLogger {
  const logger = FOREIGN_LOGGERS.find((l) => l.key === key);
  if (!logger)
    throw new Error(
      `Unknown foreign logger '${key}' (one of ${FOREIGN_LOGGERS.map((l) => l.key).join(', ')})`,
    );
  return logger;
}

/** The reader configuration that reads a foreign logger's files. */
export function foreignReaderConfiguration(logger: ForeignLogger): DelimitedReaderConfiguration {
  return {
    delimiter: logger.delimiter,
    decimalSeparator: logger.decimalSeparator,
    headerRow: 1,
    unitRow: logger.unitRow ? 2 : null,
    descriptionRow: null,
    firstDataRow: logger.unitRow ? 3 : 2,
    timestampColumns: [...logger.timestampColumns],
    timestampFormat: logger.timestampFormat,
    encoding: 'utf-8',
  };
}

/** The data source settings (as the API takes them) that read a foreign logger's files; channels are left to map. */
export function foreignDataSource(logger: ForeignLogger) {
  return {
    dataSourceReaderId: READER_IDS.delimited,
    dataSourceReaderConfiguration: JSON.stringify(foreignReaderConfiguration(logger)),
    measureFrequencyInSeconds: 60 as const,
    utcTimezoneOffsetInMinutes: 0,
  };
}

/** The right mapping of a foreign logger: column name -> portal channel name. */
export function foreignColumnFields(logger: ForeignLogger): Record<string, ChannelField> {
  return Object.fromEntries(logger.columns.map((c) => [c.name, c.field]));
}

const pad = (n: number) => String(n).padStart(2, '0');

function cell(text: string, delimiter: string): string {
  return text.includes(delimiter) || text.includes('"') ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The file of one UTC day of a demo ship as a foreign logger writes it: the rows are exactly generateShipDay(ship, day). */
export function writeForeignDayFile(ship: DemoShip, day: Date, logger: ForeignLogger): ShipDayFile {
  const samples = generateShipDay(ship, day).samples;
  const { delimiter, lineEnding } = logger;
  const decimalsOf = new Map(CHANNELS.map((c) => [c.field as string, c.decimals]));
  const lines: string[] = [];
  lines.push(
    [...logger.timestampColumns, ...logger.columns.map((c) => c.name)]
      .map((h) => cell(h, delimiter))
      .join(delimiter),
  );
  if (logger.unitRow)
    lines.push(
      [
        ...logger.timestampColumns.map(() => ''),
        ...logger.columns.map((c) => cell(c.unit ?? '', delimiter)),
      ].join(delimiter),
    );
  const formats =
    logger.timestampColumns.length === 2 ? logger.timestampFormat.split(' ') : [logger.timestampFormat];
  const columns = logger.columns.map((c) => channelColumn(samples, c.field));
  const decimals = logger.columns.map((c) => decimalsOf.get(c.field) ?? 2);
  for (let r = 0; r < samples.timestamps.length; r++) {
    const at = samples.timestamps[r]!; // r < length
    const cells = formats.map((f) => formatTimestamp(at, f));
    for (let k = 0; k < columns.length; k++) {
      const value = columns[k]![r]!; // one column per logger column, one value per timestamp
      if (Number.isNaN(value)) cells.push('');
      else {
        const text = value.toFixed(decimals[k]);
        cells.push(logger.decimalSeparator === ',' ? text.replace('.', ',') : text);
      }
    }
    lines.push(cells.join(delimiter));
  }
  const first = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
  const fileName = logger.fileNamePattern
    .replace('{YYYY}', String(first.getUTCFullYear()))
    .replace('{MM}', pad(first.getUTCMonth() + 1))
    .replace('{DD}', pad(first.getUTCDate()));
  return { fileName, content: Buffer.from(lines.join(lineEnding) + lineEnding, 'utf8') };
}

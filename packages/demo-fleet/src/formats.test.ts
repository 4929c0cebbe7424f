import ExcelJS from 'exceljs';
import { parseReaderConfiguration, READER_IDS } from '@portal/contracts/readers';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from './channels';
import { dataSourceDefinition, writeShipDayFile } from './formats';
import { channelColumn, generateShipDay, type DaySamples } from './generate';
import { DEMO_SHIPS, type DemoShip } from './ships';

const DAY = new Date('2026-10-05T00:00:00Z');

/** A deliberately small, independent parse of a logger CSV with the known layout. */
function parseCsv(ship: DemoShip, content: Buffer) {
  if (ship.logger.kind !== 'csv') throw new Error('not a CSV logger');
  const text = content.toString(ship.logger.encoding === 'latin1' ? 'latin1' : 'utf8');
  const lines = text.split(/\r?\n/);
  expect(lines.pop()).toBe(''); // the file ends with a line break
  const cells = lines.map((line) => line.split(ship.logger.kind === 'csv' ? ship.logger.delimiter : ','));
  const header = cells[0];
  if (!header) throw new Error('the file has no header line');
  const units = ship.logger.unitRow ? cells[1] : null;
  const rows = cells.slice(ship.logger.unitRow ? 2 : 1);
  return { header, units, rows };
}

/** xs[i], failing the test when there is nothing at i. */
function at<T>(xs: ArrayLike<T>, i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`nothing at ${i} of ${xs.length}`);
  return x;
}

/** Reads a written timestamp with the reader's tokens (YYYY MM DD HH mm ss) or ISO, in the logger's clock, back to UTC ms. */
function parseTimestamp(text: string, format: string, clockOffsetMinutes: number): number {
  if (format === 'ISO') return Date.parse(text);
  const order: string[] = [];
  const pattern = format.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => {
    order.push(token);
    return token === 'YYYY' ? '(\\d{4})' : '(\\d{2})';
  });
  const match = new RegExp(`^${pattern}$`).exec(text);
  if (!match) throw new Error(`'${text}' does not match ${format}`);
  const part = (token: string) => Number(match[order.indexOf(token) + 1]);
  return (
    Date.UTC(part('YYYY'), part('MM') - 1, part('DD'), part('HH'), part('mm'), part('ss')) -
    clockOffsetMinutes * 60_000
  );
}

function expectCellMatches(
  cell: string,
  sample: number,
  decimals: number,
  decimalSeparator: string,
  where: string,
) {
  if (Number.isNaN(sample)) return expect(cell, where).toBe('');
  expect(cell, where).not.toContain(decimalSeparator === ',' ? '.' : ',');
  const value = Number(decimalSeparator === ',' ? cell.replace(',', '.') : cell);
  expect(Math.abs(value - sample), where).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
}

const csvShips = DEMO_SHIPS.filter((s) => s.logger.kind === 'csv');

describe('CSV logger files', () => {
  it.each(csvShips.map((s) => [s.name, s] as const))(
    '%s: read back to the generated samples',
    async (_name, ship) => {
      if (ship.logger.kind !== 'csv') return;
      const samples: DaySamples = generateShipDay(ship, DAY).samples;
      const file = await writeShipDayFile(ship, DAY);
      const { header, rows } = parseCsv(ship, file.content);
      const definition = dataSourceDefinition(ship);
      expect(header).toEqual([
        ...ship.logger.timestampColumns,
        ...definition.channelMappings.map((m) => m.source),
      ]);
      expect(rows).toHaveLength(samples.timestamps.length);
      const tsCount = ship.logger.timestampColumns.length;
      rows.forEach((row, r) => {
        expect(row).toHaveLength(header.length);
        const written = row.slice(0, tsCount).join(' ');
        expect(
          parseTimestamp(
            written,
            ship.logger.kind === 'csv' ? ship.logger.timestampFormat : '',
            ship.logger.clockOffsetMinutes,
          ),
        ).toBe(samples.timestamps[r]);
      });
      CHANNELS.forEach((c, k) => {
        for (let r = 0; r < rows.length; r += 7) {
          const decimalSeparator = ship.logger.kind === 'csv' ? ship.logger.decimalSeparator : '.';
          expectCellMatches(
            at(at(rows, r), tsCount + k),
            at(channelColumn(samples, c.field), r),
            c.decimals,
            decimalSeparator,
            `${c.field} row ${r}`,
          );
        }
      });
    },
  );

  it('a day of a ship without gaps has 1440 timestamps, one a minute', async () => {
    const ship = DEMO_SHIPS.find((s) => s.scenario === 'none' && s.logger.kind === 'csv') as DemoShip;
    const { rows } = parseCsv(ship, (await writeShipDayFile(ship, DAY)).content);
    const times = rows.map((r) => r[0]);
    expect(times).toHaveLength(1440);
    expect(new Set(times).size).toBe(1440);
  });

  it('decimal-comma files write numbers like 1234,5 under a unit row, date and time in two columns', async () => {
    const ship = DEMO_SHIPS.find(
      (s) => s.logger.kind === 'csv' && s.logger.decimalSeparator === ',' && s.logger.encoding === 'latin1',
    ) as DemoShip;
    const file = await writeShipDayFile(ship, DAY);
    const { header, units, rows } = parseCsv(ship, file.content);
    expect(header.slice(0, 2)).toEqual(['Datum', 'Zeit']);
    expect(rows[0]?.[0]).toBe('05.10.2026');
    expect(rows[0]?.[1]).toBe('00:00:00');
    expect(rows[1439]?.[1]).toBe('23:59:00');
    const fuelColumn = header.indexOf(
      dataSourceDefinition(ship).channelMappings.find((m) => m.name === 'FUEL_FLOW')?.source as string,
    );
    expect(units?.[fuelColumn]).toBe('kg/h');
    expect(rows.every((r) => /^\d+,\d$/.test(at(r, fuelColumn)))).toBe(true);
    // A Windows logger writes its unit symbols in Latin-1: one byte 0xB0 for the degree sign, no UTF-8 pair.
    expect(units).toContain('°C');
    expect(file.content.includes(Buffer.from([0xc2, 0xb0]))).toBe(false);
    expect(file.content.includes(Buffer.from([0xb0]))).toBe(true);
  });

  it('the local-clock ship writes UTC + 8 h and names the file by its local date', async () => {
    const ship = DEMO_SHIPS.find((s) => s.logger.clockOffsetMinutes !== 0) as DemoShip;
    expect(ship.logger.clockOffsetMinutes).toBe(480);
    const samples = generateShipDay(ship, DAY).samples;
    const file = await writeShipDayFile(ship, DAY);
    const { rows } = parseCsv(ship, file.content);
    expect(rows[0]?.[0]).toBe('2026/10/05 08:00:00');
    expect(rows[rows.length - 1]?.[0]).toBe('2026/10/06 07:59:00');
    rows.forEach((row, r) =>
      expect(
        Date.parse(`${at(row, 0).replace(/\//g, '-').replace(' ', 'T')}Z`) - at(samples.timestamps, r),
      ).toBe(8 * 3_600_000),
    );
    expect(file.fileName).toBe('EGC_20261005.csv');
    expect(dataSourceDefinition(ship).utcTimezoneOffsetInMinutes).toBe(480);
  });

  it('the sensor-gap ship leaves SO2 blank and skips rows on some days', async () => {
    const ship = DEMO_SHIPS.find((s) => s.scenario === 'sensorGap') as DemoShip;
    let blanks = 0;
    let rowsTotal = 0;
    for (let d = 0; d < 20; d++) {
      const day = new Date(DAY.getTime() + d * 86_400_000);
      const { header, rows } = parseCsv(ship, (await writeShipDayFile(ship, day)).content);
      const so2 = header.indexOf(
        dataSourceDefinition(ship).channelMappings.find((m) => m.name === 'SO2_PPM')?.source as string,
      );
      blanks += rows.filter((r) => r[so2] === '').length;
      rowsTotal += rows.length;
    }
    expect(blanks).toBeGreaterThan(0);
    expect(rowsTotal).toBeLessThan(20 * 1440);
  });

  it('names files as the loggers do', async () => {
    const names = await Promise.all(DEMO_SHIPS.map(async (s) => (await writeShipDayFile(s, DAY)).fileName));
    expect(names).toContain('EGCS_Log_2026-10-05.csv');
    expect(names).toContain('Scrubber_20261005.csv');
    expect(names).toContain('ScrubberLog_2026-10-05.xlsx');
  });
});

describe('Excel logger files', () => {
  it('hold a header row, Excel date cells and the sample values', async () => {
    const ship = DEMO_SHIPS.find((s) => s.logger.kind === 'xlsx') as DemoShip;
    if (ship.logger.kind !== 'xlsx') return;
    const samples = generateShipDay(ship, DAY).samples;
    const file = await writeShipDayFile(ship, DAY);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.content as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet(ship.logger.sheetName);
    expect(sheet).toBeDefined();
    if (!sheet) return;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      ship.logger.timestampColumns[0],
      ...dataSourceDefinition(ship).channelMappings.map((m) => m.source),
    ]);
    expect(sheet.rowCount).toBe(1 + samples.timestamps.length);
    for (let r = 0; r < samples.timestamps.length; r += 97) {
      const row = sheet.getRow(r + 2);
      const when = row.getCell(1);
      expect(when.type).toBe(ExcelJS.ValueType.Date);
      expect(Math.round((when.value as Date).getTime() / 1000) * 1000).toBe(samples.timestamps[r]);
      CHANNELS.forEach((c, k) => {
        const v = channelColumn(samples, c.field)[r];
        const cell = row.getCell(k + 2).value;
        if (Number.isNaN(v)) expect(cell).toBeNull();
        else expect(cell).toBe(v);
      });
    }
  });
});

describe('files and data source definitions', () => {
  it('are reproducible: the same day gives the same bytes', async () => {
    for (const ship of DEMO_SHIPS) {
      const a = await writeShipDayFile(ship, DAY);
      const b = await writeShipDayFile(ship, DAY);
      expect(a.fileName).toBe(b.fileName);
      expect(a.content.equals(b.content), ship.name).toBe(true);
    }
  });

  it('validate against the reader configuration schema and name every column of the files', async () => {
    for (const ship of DEMO_SHIPS) {
      const definition = dataSourceDefinition(ship);
      expect(definition.name).toMatch(/^[A-Za-z0-9_]+$/);
      expect(Object.values(READER_IDS)).toContain(definition.dataSourceReaderId);
      expect(definition.measureFrequencyInSeconds).toBe(60);
      const parsed = parseReaderConfiguration(
        definition.dataSourceReaderId,
        definition.dataSourceReaderConfiguration,
      );
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (!parsed.ok) continue;
      // The stored JSON already holds every field, with the schema's defaults written out.
      expect(parsed.configuration).toEqual(JSON.parse(definition.dataSourceReaderConfiguration));
      const names = definition.channelMappings.map((m) => m.name);
      expect(new Set(names).size).toBe(names.length);
      for (const mapping of definition.channelMappings) {
        expect(mapping.name).toMatch(/^[A-Za-z0-9_]+$/);
        expect(['Double', 'Integer', 'Boolean', 'String', 'UTCDateTime']).toContain(mapping.dataType);
      }
      expect(names).toEqual(
        expect.arrayContaining([
          'FUEL_FLOW',
          'FUEL_SULFUR',
          'ENGINE_LOAD',
          'SO2_PPM',
          'CO2_PCT',
          'SCRUBBER_RUNNING',
          'SCRUBBER_POWER',
          'LATITUDE',
          'LONGITUDE',
          'WASHWATER_PH',
          'WASHWATER_PAH',
          'WASHWATER_TURBIDITY',
        ]),
      );
      if (ship.logger.kind === 'csv' && 'delimiter' in parsed.configuration) {
        const { header, rows } = parseCsv(ship, (await writeShipDayFile(ship, DAY)).content);
        const config = parsed.configuration;
        for (const column of config.timestampColumns) expect(header).toContain(column);
        expect(header.filter((h) => !config.timestampColumns.includes(h))).toEqual(
          definition.channelMappings.map((m) => m.source),
        );
        // firstDataRow (1-based) points at the first timestamped row
        const firstDataLine = config.firstDataRow - 1 - (config.unitRow ? 1 : 0) - 1;
        expect(firstDataLine).toBe(0);
        expect(rows[firstDataLine]?.[0]).not.toBe('');
      }
    }
  });
});

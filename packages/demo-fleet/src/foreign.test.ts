import { parseReaderConfiguration, READER_IDS } from '@portal/contracts/readers';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from './channels';
import {
  FOREIGN_LOGGERS,
  foreignColumnFields,
  foreignDataSource,
  foreignLogger,
  writeForeignDayFile,
} from './foreign';
import { channelColumn, generateShipDay } from './generate';
import { DEMO_SHIPS } from './ships';

const DAY = new Date('2026-10-05T00:00:00Z');
const DOMAIN_CHANNELS = CHANNELS.slice(0, 12).map((c) => c.field);

/** Splits a line of the file (no quoting: none of the loggers' names contain their delimiter). */
const split = (line: string, delimiter: string) => line.split(delimiter);

describe('foreign loggers', () => {
  it('differ from each other in naming, delimiter and timestamp format', () => {
    expect(FOREIGN_LOGGERS.map((l) => l.key)).toEqual(['ams', 'bridge', 'opc']);
    expect(new Set(FOREIGN_LOGGERS.map((l) => l.delimiter)).size).toBe(3);
    expect(new Set(FOREIGN_LOGGERS.map((l) => l.timestampFormat)).size).toBe(3);
    expect(FOREIGN_LOGGERS.filter((l) => l.unitRow)).toHaveLength(1);
    expect(FOREIGN_LOGGERS.filter((l) => l.decimalSeparator === ',')).toHaveLength(1);
  });

  it('log every DOMAIN channel, and channels the portal does not use', () => {
    for (const logger of FOREIGN_LOGGERS) {
      const fields = logger.columns.map((c) => c.field);
      expect(new Set(fields).size, logger.key).toBe(fields.length);
      expect(fields, logger.key).toEqual(expect.arrayContaining(DOMAIN_CHANNELS));
      expect(fields.length, logger.key).toBeGreaterThan(DOMAIN_CHANNELS.length);
      // Names unlike the demo fleet's: no column is named as a portal channel.
      for (const c of logger.columns) expect(c.name, logger.key).not.toBe(c.field);
    }
  });

  it('come with a reader configuration the contracts accept', () => {
    for (const logger of FOREIGN_LOGGERS) {
      const source = foreignDataSource(logger);
      expect(source.dataSourceReaderId).toBe(READER_IDS.delimited);
      const parsed = parseReaderConfiguration(
        source.dataSourceReaderId,
        source.dataSourceReaderConfiguration,
      );
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    }
  });

  it("write exactly a demo ship's day, in the logger's own format", () => {
    const ship = DEMO_SHIPS[1]!;
    const samples = generateShipDay(ship, DAY).samples;
    for (const logger of FOREIGN_LOGGERS) {
      const file = writeForeignDayFile(ship, DAY, logger);
      const lines = file.content.toString('utf8').split(logger.lineEnding);
      expect(lines.pop(), logger.key).toBe('');
      const header = split(lines[0]!, logger.delimiter);
      expect(header).toEqual([...logger.timestampColumns, ...logger.columns.map((c) => c.name)]);
      if (logger.unitRow)
        expect(split(lines[1]!, logger.delimiter).slice(logger.timestampColumns.length)).toEqual(
          logger.columns.map((c) => c.unit ?? ''),
        );
      const rows = lines.slice(logger.unitRow ? 2 : 1).map((l) => split(l, logger.delimiter));
      expect(rows).toHaveLength(samples.timestamps.length);
      const skip = logger.timestampColumns.length;
      for (let r = 0; r < rows.length; r += 131) {
        const row = rows[r]!;
        logger.columns.forEach((c, k) => {
          const sample = channelColumn(samples, c.field)[r]!;
          const text = row[skip + k]!;
          if (Number.isNaN(sample)) return expect(text).toBe('');
          const value = Number(logger.decimalSeparator === ',' ? text.replace(',', '.') : text);
          expect(value, `${logger.key} ${c.name} row ${r}`).toBe(sample);
        });
      }
    }
  });

  it('write their timestamps in their own formats, in UTC', () => {
    const ship = DEMO_SHIPS[0]!;
    const first = generateShipDay(ship, DAY).samples.timestamps[0]!;
    expect(new Date(first).toISOString()).toBe('2026-10-05T00:00:00.000Z');
    const firstRow = (key: string) => {
      const logger = foreignLogger(key);
      const lines = writeForeignDayFile(ship, DAY, logger).content.toString('utf8').split(logger.lineEnding);
      return split(lines[logger.unitRow ? 2 : 1]!, logger.delimiter).slice(0, logger.timestampColumns.length);
    };
    expect(firstRow('ams')).toEqual(['05.10.2026 00:00:00']);
    expect(firstRow('bridge')).toEqual(['10/05/2026 00:00']);
    expect(firstRow('opc')).toEqual(['2026-10-05', '00:00:00']);
  });

  it('name their files by the day, and know their right mapping', () => {
    expect(writeForeignDayFile(DEMO_SHIPS[0]!, DAY, foreignLogger('bridge')).fileName).toBe(
      'VDR export 2026-10-05.txt',
    );
    expect(foreignColumnFields(foreignLogger('ams'))['ME1_FO_FLOW_KGH']).toBe('FUEL_FLOW');
    expect(() => foreignLogger('nope')).toThrow(/ams, bridge, opc/);
  });
});

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { READER_IDS, type DelimitedReaderConfiguration } from '@portal/contracts/readers';
import { CHANNELS, rawChannelNames } from './channels';
import type { DemoChannelMapping, DemoDataSource } from './formats';
import { formatTimestamp } from './formats';
import { channelColumn, generateShipDay } from './generate';
import { uniform } from './random';
import type { DemoShip } from './ships';

export interface BigCsvOptions {
  /** Approximate size of the file, MB (10^6 bytes); writing stops at the first whole day past it. */
  megabytes: number;
  /** Channel columns besides the timestamp (the 25 logged channels, then more scrubbers' copies of them). */
  channels: number;
  ship: DemoShip;
  /** First UTC day of the data. */
  from: Date;
  onProgress?: (bytesWritten: number) => void;
}

export interface BigCsvResult {
  bytes: number;
  rows: number;
  days: number;
  dataSource: DemoDataSource;
}

const BIG_READER_CONFIGURATION: DelimitedReaderConfiguration = {
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

/** Columns of the big file: the logged channels, then copies for scrubbers 2, 3, ... with a small per-copy bias. */
function bigColumns(
  count: number,
): { source: string; name: string; base: number; scale: number; mapping: DemoChannelMapping }[] {
  const raw = rawChannelNames('plc');
  return Array.from({ length: count }, (_, j) => {
    const base = j % CHANNELS.length;
    const copy = Math.floor(j / CHANNELS.length);
    const c = CHANNELS[base]!; // base = j % CHANNELS.length
    const source = copy === 0 ? raw[c.field] : `${raw[c.field]}_${copy + 1}`;
    const name = copy === 0 ? c.field : `${c.field}_${copy + 1}`;
    const scale = copy === 0 || c.dataType !== 'Double' ? 1 : 0.97 + 0.06 * uniform(7, copy, base);
    return {
      source,
      name,
      base,
      scale,
      mapping: { source, name, dataType: c.dataType, unit: c.unit, description: c.description, fuel: null },
    };
  });
}

/** Writes one large comma/point CSV of consecutive days of a ship (for the ingest benchmark), streaming to `path`. */
export async function writeBigCsv(path: string, options: BigCsvOptions): Promise<BigCsvResult> {
  const columns = bigColumns(options.channels);
  const limit = options.megabytes * 1_000_000;
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let bytes = 0;
  let rows = 0;
  let days = 0;
  const header = `Timestamp,${columns.map((c) => c.source).join(',')}\n`;
  await write(header);
  bytes += Buffer.byteLength(header);
  const from = Date.UTC(options.from.getUTCFullYear(), options.from.getUTCMonth(), options.from.getUTCDate());
  while (bytes < limit) {
    const { samples } = generateShipDay(options.ship, new Date(from + days * 86_400_000));
    const sources = columns.map((c) => channelColumn(samples, CHANNELS[c.base]!.field));
    const decimals = columns.map((c) => CHANNELS[c.base]!.decimals);
    const lines: string[] = [];
    // sources, decimals and columns have one entry per column, and every channel one value per timestamp.
    for (let r = 0; r < samples.timestamps.length; r++) {
      let line = formatTimestamp(samples.timestamps[r]!, BIG_READER_CONFIGURATION.timestampFormat);
      for (let k = 0; k < columns.length; k++) {
        const v = sources[k]![r]!;
        line += Number.isNaN(v) ? ',' : `,${(v * columns[k]!.scale).toFixed(decimals[k])}`;
      }
      lines.push(line);
    }
    const chunk = `${lines.join('\n')}\n`;
    await write(chunk);
    bytes += Buffer.byteLength(chunk);
    rows += samples.timestamps.length;
    days++;
    options.onProgress?.(bytes);
  }
  out.end();
  await once(out, 'finish');
  return {
    bytes,
    rows,
    days,
    dataSource: {
      name: 'Benchmark_Logger',
      dataSourceReaderId: READER_IDS.delimited,
      dataSourceReaderConfiguration: JSON.stringify(BIG_READER_CONFIGURATION),
      measureFrequencyInSeconds: 60,
      utcTimezoneOffsetInMinutes: 0,
      channelMappings: columns.map((c) => c.mapping),
    },
  };
}

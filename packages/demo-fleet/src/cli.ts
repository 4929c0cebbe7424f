#!/usr/bin/env -S npx tsx
/**
 * Writes the demo fleet's logger files: one file per ship and UTC day into <out>/<ship key>/, plus <out>/fleet.json
 * (ships and the data sources to create for them).
 *
 *   npx tsx packages/demo-fleet/src/cli.ts --out <dir> [--ships 6] [--days 60] [--until YYYY-MM-DD]
 *   npx tsx packages/demo-fleet/src/cli.ts --out <dir> --big <MB> [--channels 50]     one large CSV for the ingest benchmark
 *   npx tsx packages/demo-fleet/src/cli.ts --out <dir> --foreign ams|bridge|opc [--ship 1] [--days 7] [--until YYYY-MM-DD]
 *       a week of a demo ship (its number in the fleet, from 1) as a foreign logger writes it, plus datasource.json
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { writeBigCsv } from './big';
import { dataSourceDefinition, writeShipDayFile } from './formats';
import { FOREIGN_LOGGERS, foreignColumnFields, foreignDataSource, writeForeignDayFile } from './foreign';
import { demoShips } from './ships';

const DAY_MS = 86_400_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function positiveInteger(text: string, option: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`--${option} must be a whole number of at least 1`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      ships: { type: 'string', default: '6' },
      days: { type: 'string' },
      until: { type: 'string' },
      big: { type: 'string' },
      channels: { type: 'string', default: '50' },
      foreign: { type: 'string' },
      ship: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.out) {
    console.log(
      'Usage: cli.ts --out <dir> [--ships 6] [--days 60] [--until YYYY-MM-DD]\n       cli.ts --out <dir> --big <MB> [--channels 50]\n' +
        `       cli.ts --out <dir> --foreign ${FOREIGN_LOGGERS.map((l) => l.key).join('|')} [--ship 1] [--days 7] [--until YYYY-MM-DD]`,
    );
    process.exit(values.help ? 0 : 1);
  }
  const out = resolve(values.out);
  await mkdir(out, { recursive: true });

  if (values.big !== undefined) {
    const megabytes = positiveInteger(values.big, 'big');
    const channels = positiveInteger(values.channels, 'channels');
    const path = join(out, `bench_${megabytes}MB_${channels}ch.csv`);
    const bar = new cliProgress.SingleBar(
      { format: 'big CSV [{bar}] {percentage}% | {value}/{total} MB' },
      cliProgress.Presets.shades_classic,
    );
    bar.start(megabytes, 0);
    const began = performance.now();
    const result = await writeBigCsv(path, {
      megabytes,
      channels,
      ship: demoShips(1)[0]!, // demoShips(n) answers n ships
      from: new Date(Date.UTC(2026, 0, 1)),
      onProgress: (bytes) => bar.update(Math.min(megabytes, Math.floor(bytes / 1_000_000))),
    });
    bar.update(megabytes);
    bar.stop();
    await writeFile(`${path}.datasource.json`, JSON.stringify(result.dataSource, null, 2));
    const seconds = (performance.now() - began) / 1000;
    console.log(
      `${path}: ${(result.bytes / 1e6).toFixed(1)} MB, ${result.rows} rows x ${channels} channels (${result.days} days) in ${seconds.toFixed(1)} s`,
    );
    return;
  }

  const now = Date.now();
  const untilMs = values.until
    ? Date.parse(`${values.until}T00:00:00Z`)
    : Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
  if (Number.isNaN(untilMs) || (values.until && !/^\d{4}-\d{2}-\d{2}$/.test(values.until)))
    fail('--until must be a date YYYY-MM-DD');

  if (values.foreign !== undefined) {
    const logger = FOREIGN_LOGGERS.find((l) => l.key === values.foreign);
    if (!logger) fail(`--foreign must be one of ${FOREIGN_LOGGERS.map((l) => l.key).join(', ')}`);
    const number = positiveInteger(values.ship, 'ship');
    const ship = demoShips(Math.max(6, number))[number - 1]!; // demoShips(n) answers n ships
    const dayCount = positiveInteger(values.days ?? '7', 'days');
    let bytes = 0;
    for (let d = dayCount - 1; d >= 0; d--) {
      const file = writeForeignDayFile(ship, new Date(untilMs - d * DAY_MS), logger);
      await writeFile(join(out, file.fileName), file.content);
      bytes += file.content.length;
    }
    const definition = {
      logger: logger.title,
      samplesOf: ship.name,
      from: new Date(untilMs - (dayCount - 1) * DAY_MS).toISOString().slice(0, 10),
      until: new Date(untilMs).toISOString().slice(0, 10),
      ...foreignDataSource(logger),
      rightMappings: foreignColumnFields(logger),
    };
    await writeFile(join(out, 'datasource.json'), JSON.stringify(definition, null, 2));
    console.log(
      `${dayCount} ${logger.key} files of ${ship.name}, ${(bytes / 1e6).toFixed(1)} MB in ${out} (data source: datasource.json)`,
    );
    return;
  }

  const shipCount = positiveInteger(values.ships, 'ships');
  const dayCount = positiveInteger(values.days ?? '60', 'days');
  const ships = demoShips(shipCount);
  const bar = new cliProgress.SingleBar(
    { format: 'demo fleet [{bar}] {percentage}% | {value}/{total} files | {ship}' },
    cliProgress.Presets.shades_classic,
  );
  bar.start(ships.length * dayCount, 0, { ship: '' });
  const began = performance.now();
  let bytes = 0;
  for (const ship of ships) {
    const dir = join(out, ship.key);
    await mkdir(dir, { recursive: true });
    for (let d = dayCount - 1; d >= 0; d--) {
      const file = await writeShipDayFile(ship, new Date(untilMs - d * DAY_MS));
      await writeFile(join(dir, file.fileName), file.content);
      bytes += file.content.length;
      bar.increment(1, { ship: ship.name });
    }
  }
  bar.stop();
  const manifest = {
    generatedFrom: new Date(untilMs - (dayCount - 1) * DAY_MS).toISOString().slice(0, 10),
    generatedUntil: new Date(untilMs).toISOString().slice(0, 10),
    ships: ships.map(({ route, logger, seed, ...ship }) => ({
      ...ship,
      ports: route.map((call) => call.port.name),
      directory: ship.key,
      dataSource: dataSourceDefinition({ ...ship, route, logger, seed }),
    })),
  };
  await writeFile(join(out, 'fleet.json'), JSON.stringify(manifest, null, 2));
  const seconds = (performance.now() - began) / 1000;
  console.log(
    `${ships.length * dayCount} files, ${(bytes / 1e6).toFixed(1)} MB in ${out} (${seconds.toFixed(1)} s)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { randomUUID } from 'node:crypto';
import cliProgress from 'cli-progress';
import { DAY_MS } from '@portal/contracts/rules';
import type { Kysely } from 'kysely';
import { dataSourceDefinition, demoShips, writeShipDayFile, type DemoShip } from '@portal/demo-fleet';
import type { Database } from '../../db/schema';
import { createDataSource, saveSampleFile } from '../datasources/service';
import { importUploadedFile, type ImportTarget } from './import';

export interface DemoSeedProgress {
  ship: string;
  /** Files written and imported so far, over all ships. */
  done: number;
  total: number;
}

export interface DemoSeedResult {
  ships: number;
  dataSources: number;
  channels: number;
  files: number;
  errors: string[];
}

/**
 * The demo fleet's data: for each demo ship (by key) its data source, marked primary, with the channel mappings
 * of its logger, then its logger files of the last `days` days up to the day before `until` (default: today),
 * imported through the same upload service as a user's upload, and its first file kept as the data source's sample
 * file (as a user's SampleFile upload does), so its channels show as in the sample file. A ship that already has
 * its data source is skipped, but gets the sample file when it has none; a ship of `resume` (a start stopped while
 * it imported) gets the files it lacks. Stops between two files when `signal` aborts (each file is imported whole).
 */
export async function seedDemoData(
  target: ImportTarget,
  options: {
    facilityIds: Record<string, string>;
    days: number;
    until?: Date;
    onProgress?: (progress: DemoSeedProgress) => void;
    resume?: ReadonlySet<string>;
    signal?: AbortSignal;
  },
): Promise<DemoSeedResult> {
  const { db } = target;
  const untilMs = Math.floor((options.until ?? new Date()).getTime() / DAY_MS) * DAY_MS;
  const result: DemoSeedResult = { ships: 0, dataSources: 0, channels: 0, files: 0, errors: [] };
  const ships = demoShips(Math.max(6, Object.keys(options.facilityIds).length)).filter(
    (s) => options.facilityIds[s.key],
  );
  const pending: {
    ship: (typeof ships)[number];
    facilityId: string;
    dataSourceId: string;
    imported?: Set<string>;
  }[] = [];
  for (const ship of ships) {
    const facilityId = options.facilityIds[ship.key]!;
    const definition = dataSourceDefinition(ship);
    const existing = await db
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', facilityId)
      .where('name', '=', definition.name)
      .executeTakeFirst();
    if (existing) {
      await ensureSampleFile(db, ship, existing.id, new Date(untilMs - options.days * DAY_MS));
      if (options.resume?.has(facilityId)) {
        const files = await db
          .selectFrom('data_files')
          .select('file_name')
          .where('data_source_id', '=', existing.id)
          .execute();
        pending.push({
          ship,
          facilityId,
          dataSourceId: existing.id,
          imported: new Set(files.map((f) => f.file_name)),
        });
      }
      continue;
    }
    const dataSourceId = await configureDemoDataSource(
      db,
      ship,
      facilityId,
      `Scrubber logger of ${ship.name} (demo)`,
    );
    result.dataSources++;
    result.channels += definition.channelMappings.length;
    pending.push({ ship, facilityId, dataSourceId });
  }
  result.ships = pending.length;

  const total = pending.length * options.days;
  let done = 0;
  for (const { ship, facilityId, dataSourceId, imported: before } of pending) {
    for (let d = options.days; d >= 1; d--) {
      options.signal?.throwIfAborted();
      const file = await writeShipDayFile(ship, new Date(untilMs - d * DAY_MS));
      if (before?.has(file.fileName)) {
        options.onProgress?.({ ship: ship.name, done: ++done, total });
        continue;
      }
      const imported = await importUploadedFile(target, {
        facilityId,
        dataSourceId,
        fileName: file.fileName,
        content: file.content,
        importedBy: null,
      });
      if (d === options.days) await ensureSampleFile(db, ship, dataSourceId, file);
      result.files += imported.ids.length;
      result.errors.push(...imported.errorMessages.map((m) => `${ship.name}: ${m}`));
      options.onProgress?.({ ship: ship.name, done: ++done, total });
    }
  }
  return result;
}

/**
 * The data source's sample file, when it has none: the ship's file of `first` (or that file itself), through the
 * sample file service a user's upload takes.
 */
async function ensureSampleFile(
  db: ImportTarget['db'],
  ship: Parameters<typeof writeShipDayFile>[0],
  dataSourceId: string,
  first: Date | { fileName: string; content: Buffer },
): Promise<void> {
  const dataSource = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'reader_id', 'reader_configuration', 'utc_offset_minutes', 'sample_file_name'])
    .where('id', '=', dataSourceId)
    .executeTakeFirstOrThrow();
  if (dataSource.sample_file_name) return;
  const file = first instanceof Date ? await writeShipDayFile(ship, first) : first;
  await saveSampleFile(db, dataSource, { fileName: file.fileName, content: Buffer.from(file.content) });
}

/** seedDemoData for the start-up: a progress bar on a terminal, a log line per ship otherwise. */
export async function seedDemoDataWithProgress(
  target: ImportTarget,
  options: {
    facilityIds: Record<string, string>;
    days: number;
    log: (message: string) => void;
    onProgress?: (progress: DemoSeedProgress) => void;
    resume?: ReadonlySet<string>;
    signal?: AbortSignal;
  },
): Promise<DemoSeedResult> {
  const started = Date.now();
  const tty = process.stdout.isTTY;
  let bar: cliProgress.SingleBar | null = null;
  let lastShip = '';
  const result = await seedDemoData(target, {
    facilityIds: options.facilityIds,
    days: options.days,
    resume: options.resume,
    signal: options.signal,
    onProgress: ({ ship, done, total }) => {
      options.onProgress?.({ ship, done, total });
      if (tty) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            { format: 'Importing demo logger files {bar} {value}/{total} files | {ship}', hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, 0, { ship });
        }
        bar.update(done, { ship });
      } else if (ship !== lastShip) {
        options.log(`Importing ${options.days} days of logger files of ${ship} (${done}/${total})`);
      }
      lastShip = ship;
    },
  }).finally(() => (bar as cliProgress.SingleBar | null)?.stop());
  if (result.dataSources) {
    options.log(
      `Demo data: ${result.dataSources} data sources, ${result.channels} channel mappings, ${result.files} files imported in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  for (const error of result.errors) options.log(`Demo file not imported: ${error}`);
  return result;
}

/**
 * A demo ship's logger as a data source with its channels mapped as the generator writes them, its fuel flows with
 * their consumer and fuel type (the demo seed, and the tests that build a demo ship by hand). Returns the data
 * source's id.
 */
export async function configureDemoDataSource(
  db: Kysely<Database>,
  ship: DemoShip,
  facilityId: string,
  note: string,
): Promise<string> {
  const definition = dataSourceDefinition(ship);
  const dataSourceId = await createDataSource(db, facilityId, {
    name: definition.name,
    dataSourceReaderId: definition.dataSourceReaderId,
    dataSourceReaderConfiguration: definition.dataSourceReaderConfiguration,
    measureFrequencyInSeconds: definition.measureFrequencyInSeconds,
    utcTimezoneOffsetInMinutes: definition.utcTimezoneOffsetInMinutes,
    note,
    isPrimary: true,
  });
  // Ids chosen here, so that a flow channel can name the fuel type channel it reads in the same insert.
  const ids = new Map(definition.channelMappings.map((m) => [m.name, randomUUID()]));
  await db
    .insertInto('data_source_channels')
    .values(
      definition.channelMappings.map((m) => ({
        id: ids.get(m.name)!,
        facility_id: facilityId,
        data_source_id: dataSourceId,
        source: m.source,
        name: m.name,
        data_type: m.dataType,
        unit: m.unit || null,
        description: m.description || null,
        quality_score: 5,
        consumer: m.fuel?.consumer ?? null,
        fuel_type_source: m.fuel?.fuelTypeSource ?? null,
        fuel_type: m.fuel?.fuelType ?? null,
        fuel_type_channel_id: m.fuel?.fuelTypeChannel ? (ids.get(m.fuel.fuelTypeChannel) ?? null) : null,
      })),
    )
    .execute();
  return dataSourceId;
}

import { afterEach, describe, expect, it } from 'vitest';
import { REPORT_CODES } from '@portal/contracts/reports';
import { loadConfig } from '../src/config';
import { createServer } from '../src/server';
import { openDatabase } from '../src/storage/database';
import type { DatabaseHandle } from '../src/storage/database';
import { DEFAULT_REPORTS } from '../src/features/reports/catalogue';
import { CHANNELS_READ_BY_DEFAULTS, DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';
import { PUBLIC_URL, startTestServer, type TestServer } from './harness';
import { createCsvDataSource } from './upload-helpers';

/**
 * The default reports are product data (decision 0103): every start has them, so a deployment without the demo
 * shows its dashboards once it has data, and an upgrade gets the reports a release adds, once, with the past
 * periods offered for recalculation where values are stored. What a configurator made is kept.
 */

const DEFAULT_FIELDS = DEFAULT_REPORTS.reduce((n, r) => n + r.fields.length, 0);
const WASHWATER = REPORT_CODES.shipWashwaterCompliance;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function started(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer({ jobs: 'none', ...options });
  cleanup.push(() => server.close());
  return server;
}

/** Per default report field: its calculations, approved or not, and whether a recalculation is asked for. */
async function defaultCalculations(database: DatabaseHandle) {
  const rows = await database.db
    .selectFrom('report_fields as f')
    .leftJoin('report_field_calculations as c', 'c.report_field_id', 'f.id')
    .select(['f.report_id', 'f.name', 'c.id', 'c.approved_on', 'c.recalculation_requested_on'])
    .orderBy('f.report_id')
    .orderBy('f.name')
    .execute();
  const byField = new Map<string, typeof rows>();
  for (const r of rows)
    byField.set(`${r.report_id}/${r.name}`, [...(byField.get(`${r.report_id}/${r.name}`) ?? []), r]);
  return byField;
}

/** An earlier release's database: the ship washwater report not there yet. */
async function withoutWashwaterReport(database: DatabaseHandle) {
  const { db } = database;
  const fields = db.selectFrom('report_fields').select('id').where('report_id', '=', WASHWATER);
  await db.deleteFrom('report_field_calculations').where('report_field_id', 'in', fields).execute();
  await db.deleteFrom('report_fields').where('report_id', '=', WASHWATER).execute();
  await db.deleteFrom('reports').where('id', '=', WASHWATER).execute();
}

describe('the default reports, present on every start', () => {
  it('are there on a database that never had the demo, each field with its approved default calculation', async () => {
    const server = await started({ seed: false });
    const reports = await server.services.database.db.selectFrom('reports').select('id').execute();
    expect(reports.map((r) => r.id).sort()).toEqual(DEFAULT_REPORTS.map((r) => r.id).sort());
    const calculations = await defaultCalculations(server.services.database);
    expect(calculations.size).toBe(DEFAULT_FIELDS);
    for (const [field, rows] of calculations) {
      expect(rows, field).toHaveLength(1);
      expect(rows[0]!.approved_on, field).not.toBeNull();
      // Nothing is stored yet: nothing to recalculate.
      expect(rows[0]!.recalculation_requested_on, field).toBeNull();
    }
  });

  it('an upgrade adds a report the release brings, once, and asks for its recalculation where values are stored', async () => {
    const first = await started();
    const database = first.services.database;
    await withoutWashwaterReport(database);
    // A configurator's draft beside a default calculation, and report values of an earlier execution.
    const so2Field = await database.db
      .selectFrom('report_fields')
      .select('id')
      .where('report_id', '=', REPORT_CODES.shipSo2Co2Ratio)
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('report_field_calculations')
      .values({
        report_field_id: so2Field.id,
        transform_algorithm: 'return 1;',
        comment: 'a draft',
        input_ids: JSON.stringify([]),
      })
      .execute();
    await database.db
      .insertInto('report_values')
      .values({
        facility_id: Object.values(first.seed.facilityIds)[0]!,
        report_field_id: so2Field.id,
        span_start: new Date('2025-01-01T00:00:00.000Z'),
        value: 1,
      })
      .execute();
    const before = await defaultCalculations(database);

    // The new release starts on the same database.
    const upgraded = await started({ database, seed: false });
    const after = await defaultCalculations(upgraded.services.database);
    expect(after.size).toBe(DEFAULT_FIELDS);
    for (const [field, rows] of after) {
      if (field.startsWith(`${WASHWATER}/`)) {
        expect(rows, field).toHaveLength(1);
        expect(rows[0]!.approved_on, field).not.toBeNull();
        expect(rows[0]!.recalculation_requested_on, field).not.toBeNull();
      } else {
        // What was there is kept as it was: the draft too, and no default is added beside it.
        expect(rows, field).toEqual(before.get(field));
      }
    }
    const version = await database.db
      .selectFrom('reports_version')
      .select('version')
      .executeTakeFirstOrThrow();

    // A third start adds nothing.
    const again = await started({ database, seed: false });
    expect(await defaultCalculations(again.services.database)).toEqual(after);
    expect(
      (await database.db.selectFrom('reports_version').select('version').executeTakeFirstOrThrow()).version,
    ).toBe(version.version);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'processes starting together on PostgreSQL add each missing calculation once',
    async () => {
      const url = process.env.DATABASE_URL!;
      const first = await started();
      // Fields there without their calculation: no unique index stops a second process adding one; the starts take
      // turns (the seed's advisory lock, and the reports_version row its first insert locks).
      const { db } = first.services.database;
      await db
        .deleteFrom('report_field_calculations')
        .where(
          'report_field_id',
          'in',
          db
            .selectFrom('report_fields')
            .select('id')
            .where('report_id', '=', REPORT_CODES.shipWashwaterCriteria),
        )
        .execute();
      const config = loadConfig(
        { PUBLIC_URL, DATA_DIR: 'memory://', DATABASE_URL: url, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
        [],
      );
      config.dataDir = 'memory://';
      const servers = await Promise.all(
        [1, 2, 3].map(async () => {
          const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
          const server = await createServer(config, { database, webDist: null });
          cleanup.push(async () => {
            await server.close();
            await database.close();
          });
          return server;
        }),
      );
      expect(servers).toHaveLength(3);
      const after = await defaultCalculations(first.services.database);
      for (const [field, rows] of after) expect(rows, field).toHaveLength(1);
      expect(after.size).toBe(DEFAULT_FIELDS);
    },
  );
});

describe("a ship's missing default calculations, added as drafts", () => {
  /** The SO2 channels only: a ship whose washwater channels are not mapped (yet). */
  const SO2_CHANNELS = ['FUEL_FLOW', 'FUEL_SULFUR', 'ENGINE_LOAD', 'SO2_PPM', 'CO2_PCT', 'SCRUBBER_RUNNING'];

  it('gives every field whose channels are mapped a draft to approve, names the others, and keeps what is there', async () => {
    const server = await started();
    const admin = await server.as('admin');
    const db = server.services.database.db;
    const ship = (
      await admin.post('/api/facilities', {
        organizationId: server.seed.organizationIds.north,
        name: 'MV New Logger',
      })
    ).json().id as string;
    const source = await createCsvDataSource(server, ship);
    for (const name of SO2_CHANNELS) {
      const created = await admin.post(
        `/api/algorithm/facilitydatasource/${source}/facilitydatasourcechannels`,
        {
          source: name,
          name,
          dataType: name === 'SCRUBBER_RUNNING' ? 'Boolean' : 'Double',
          description: '',
          unit: '',
          qualityScore: 5,
        },
      );
      expect(created.statusCode, created.body).toBeLessThan(300);
    }
    const url = `/api/algorithm/measurement-fields/facility/${ship}/default-calculations`;

    // Only a SystemAdmin writes calculations; the ship's UserAdmin may see it but not this.
    expect((await (await server.as('north.admin')).post(url)).statusCode).toBe(403);

    const answer = await admin.post(url);
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json() as {
      message: string;
      created: string[];
      existing: string[];
      skipped: string[];
    };
    // The raw fields of the mapped channels, and the derived fields that read only what is there.
    expect(result.created).toEqual([
      ...SO2_CHANNELS,
      'SO2_CO2_RATIO',
      'SO2_CO2_LIMIT',
      'SCRUBBER_REQUIRED',
      'COMPLIANT',
      'RATIO_MARGIN',
      'EXCESS_SULFUR_REMOVED',
    ]);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        'LATITUDE',
        'WASHWATER_PH',
        'WASHWATER_COMPLIANT',
        'OPEN_LOOP_IN_NO_DISCHARGE_ZONE',
      ]),
    );
    expect(result.existing).toEqual([]);
    expect(result.created.length + result.skipped.length).toBe(DEFAULT_MEASUREMENT_FIELDS.length);
    expect(result.message).toBe(
      `Default calculations added as drafts: ${result.created.length}. Approve them to use them. ` +
        `${result.skipped.length} field(s) stay Waiting: the channels they read are not mapped on the ship.`,
    );

    // Drafts: In progress on the ship's list (Approve all takes them from there), the others Waiting.
    const fields = (await admin.get(`/api/algorithm/measurement-fields/facility/${ship}`)).json() as {
      name: string;
      status: string;
    }[];
    const status = Object.fromEntries(fields.map((f) => [f.name, f.status]));
    for (const name of result.created) expect(status[name], name).toBe('In progress');
    for (const name of result.skipped) expect(status[name], name).toBe('Waiting');
    const drafts = await db
      .selectFrom('measurement_field_calculations')
      .select(['approved_on', 'valid_from', 'transform_algorithm'])
      .where('facility_id', '=', ship)
      .execute();
    expect(drafts).toHaveLength(result.created.length);
    expect(drafts.every((d) => d.approved_on === null && d.valid_from === null)).toBe(true);
    const entry = await db
      .selectFrom('audit_log')
      .select(['subject', 'detail'])
      .where('action', '=', 'calculation.add-defaults')
      .executeTakeFirstOrThrow();
    expect(entry.subject).toBe(ship);

    // Again: nothing new, and what was made is kept.
    const again = (await admin.post(url)).json() as typeof result;
    expect(again.created).toEqual([]);
    expect(again.existing.sort()).toEqual([...result.created].sort());
    expect(again.message).toBe(
      `No default calculation was added. ${result.skipped.length} field(s) stay Waiting: the channels they read are not mapped on the ship.`,
    );
    expect(
      await db
        .selectFrom('measurement_field_calculations')
        .select('id')
        .where('facility_id', '=', ship)
        .execute(),
    ).toHaveLength(result.created.length);
  });

  it('adds nothing to a ship that has every default calculation', async () => {
    const server = await started();
    const admin = await server.as('admin');
    const ship = server.seed.facilityIds.baltic_tern!;
    // The demo ship's channels and approved defaults, as the demo makes them.
    const { prepareShips } = await import('./execution-fixtures');
    await prepareShips(server.services.database, { baltic_tern: ship }, 0);
    const result = (
      await admin.post(`/api/algorithm/measurement-fields/facility/${ship}/default-calculations`)
    ).json();
    expect(result).toMatchObject({
      created: [],
      skipped: [],
      message: 'Every measurement field has a calculation already.',
    });
    expect(result.existing).toHaveLength(DEFAULT_MEASUREMENT_FIELDS.length);
    expect(CHANNELS_READ_BY_DEFAULTS.every((c: string) => result.existing.includes(c))).toBe(true);
  });
});

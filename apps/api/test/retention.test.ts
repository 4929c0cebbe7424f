import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData, sendFile } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { applyRetention } from '../src/features/retention/service';
import { ensureMonthPartitions, PARTITIONED_SERIES, replaceReportValues } from '../src/storage';

/**
 * Month partitions and retention (docs/decisions/0125-partitions-and-retention.md), through the real upload and the
 * engine: a ship's data across the end of March 2024 lands in the month partitions of every series; March archived
 * leaves the dashboards, the events list and the storage (writes into it refused with the reason), April unchanged,
 * and the roll-ups follow (the month's monthly rows leave with it, its year's rows sum the months still online, so a
 * year's dashboard read from the yearly roll-up answers what the months online sum to); restored, the dashboards
 * (fleet and ship, of each month, both, the year) and the events answer exactly what they answered before.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
/** 2024-03-31 00:00 UTC to 2024-04-01 24:00: a day of March and a day of April. */
const D0 = Date.UTC(2024, 2, 31);
const DAYS = 2;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
];
/** A 2-hour gap of the logger on the March day (a data-gap event of March), and one on the April day. */
const GAPS = [
  { from: D0 + 10 * HOUR, to: D0 + 12 * HOUR },
  { from: D0 + 34 * HOUR, to: D0 + 36 * HOUR },
];

function csv(): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (let t = D0; t < D0 + DAYS * 24 * HOUR; t += MIN) {
    if (GAPS.some((g) => t >= g.from && t < g.to)) continue;
    const i = (t - D0) / MIN;
    lines.push(
      [
        new Date(t).toISOString().replace('T', ' ').slice(0, 19),
        1000 + (i % 50),
        2.5,
        20 + (i % 13),
        5,
        1,
        50 + i * 0.001,
        -20 + i * 0.001,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let facilityId: string;
let dataSourceId: string;
const MARCH = { from: '2024-03-01T00:00:00.000Z', to: '2024-03-31T23:59:59.999Z' };
const APRIL = { from: '2024-04-01T00:00:00.000Z', to: '2024-04-30T23:59:59.999Z' };
const BOTH = { from: MARCH.from, to: APRIL.to };
/** The calendar year: a dashboard reads it from the yearly roll-up (storage/report-values-daily.ts, periodPieces). */
const YEAR = { from: '2024-01-01T00:00:00.000Z', to: '2024-12-31T23:59:59.999Z' };
/** Nearly the year, an hour short: read from the monthly, daily and hourly rows, never from the yearly ones. */
const YEAR_BY_MONTHS = { from: YEAR.from, to: '2024-12-31T22:59:59.999Z' };
let fleetReports: string[];
let shipReports: string[];

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await csvShipWithData(server, facilityId, {
    channels: CHANNELS,
    fileName: 'two-months.csv',
    content: csv(),
  });
  const { db } = server.services.database;
  const computed = await computePeriod(
    db,
    { facilityId, from: D0, to: D0 + DAYS * 24 * HOUR, measurementFieldIds: 'all', reportFieldIds: 'all' },
    enginePorts(),
  );
  await db.transaction().execute((trx) => storeComputed(trx, computed, enginePorts()));
  const reports = (await (await server.as('admin')).get('/api/algorithm/reports')).json() as {
    id: string;
    target: string;
  }[];
  fleetReports = reports.filter((r) => r.target === 'FacilityGroup').map((r) => r.id);
  shipReports = reports.filter((r) => r.target === 'Facility').map((r) => r.id);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** What the fleet and ship dashboards and the events list answer for a period, as north.anna sees them. */
async function dashboards(period: { from: string; to: string }) {
  const anna = await server.as('north.anna');
  const fleet = await anna.get(
    `/api/reports/data?${query({ ...period, reportIds: fleetReports.join(',') })}`,
  );
  const ship = await anna.get(
    `/api/reports/data?${query({ ...period, facilityId, reportIds: shipReports.join(',') })}`,
  );
  const events = await anna.get(`/api/events?${query({ ...period, facilityId })}`);
  for (const r of [fleet, ship, events]) expect(r.statusCode, r.body).toBe(200);
  return { fleet: fleet.json(), ship: ship.json(), events: events.json() };
}

/** An answer without its lifetime figures (which sum every month online). */
function withoutLifetime(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLifetime);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'Lifetime')
        .map(([key, v]) => [key, withoutLifetime(v)]),
    );
  return value;
}

async function rowsPerPartition() {
  const { db } = server.services.database;
  const counts: Record<string, number> = {};
  for (const { table } of PARTITIONED_SERIES) {
    const { rows } = await sql<{ partition: string; n: number }>`
      SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM ${sql.id(table)}
      WHERE facility_id = ${facilityId} GROUP BY 1`.execute(db);
    for (const r of rows) counts[r.partition] = r.n;
  }
  return counts;
}

describe('month partitions', () => {
  it("keeps each series' rows of a month in that month's partition, made on demand for old data", async () => {
    const counts = await rowsPerPartition();
    for (const { table } of PARTITIONED_SERIES) {
      expect(counts[`${table}_default`], table).toBeUndefined();
    }
    for (const table of ['measurement_values', 'report_values', 'report_values_daily', 'compliance_events']) {
      expect(counts[`${table}_y2024m03`], table).toBeGreaterThan(0);
      expect(counts[`${table}_y2024m04`], table).toBeGreaterThan(0);
    }
    // The file starts in March: the samples' index is March's.
    expect(counts.raw_timestamps_y2024m03).toBe(1);
  });

  it('makes the months ahead, and moves rows that waited in the default partition into their month', async () => {
    const { db } = server.services.database;
    await db.transaction().execute(async (trx) => {
      const field = await trx.selectFrom('report_fields').select('id').executeTakeFirstOrThrow();
      // A month that has no partition (written past the storage module's on-demand step): kept in the default one.
      await replaceReportValues(trx, {
        facilityId,
        from: Date.UTC(2019, 4, 1),
        to: Date.UTC(2019, 4, 1, 1),
        fieldIds: [field.id],
        series: new Map([
          [field.id, { spanStarts: new Float64Array([Date.UTC(2019, 4, 1)]), values: new Float64Array([7]) }],
        ]),
      });
    });
    expect((await rowsPerPartition()).report_values_default).toBe(1);
    // In 2026-11 with every organization keeping 36 months, months before 2023-12 are past every retention.
    const { made, archived } = await applyRetention(db, new Date('2026-11-28T12:00:00Z'));
    expect(made).toEqual(expect.arrayContaining(['report_values_y2019m05', 'measurement_values_y2027m02']));
    const counts = await rowsPerPartition();
    expect(counts.report_values_default).toBeUndefined();
    // ... and 2019-05 went to the archive (kept, not deleted).
    expect(archived).toEqual(['2019-05']);
    expect(counts.report_values_y2019m05).toBeUndefined();
    const kept = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM portal_archive.report_values_y2019m05`.execute(db);
    expect(kept.rows).toEqual([{ n: 1 }]);
    // A second run finds nothing to do.
    expect(await applyRetention(db, new Date('2026-11-28T12:00:00Z'))).toEqual({
      made: [],
      archived: [],
      deleted: 0,
    });
  });
});

describe('archiving and restoring a month', () => {
  it('archives March: its dashboards and events leave, April stays as it was; restored, both answer as before', async () => {
    const before = {
      march: await dashboards(MARCH),
      april: await dashboards(APRIL),
      both: await dashboards(BOTH),
      year: await dashboards(YEAR),
    };
    // The year from its yearly rows answers as the year from the months (the roll-ups agree before anything).
    const byMonths = await dashboards(YEAR_BY_MONTHS);
    expect(withoutLifetime(before.year.fleet)).toEqual(withoutLifetime(byMonths.fleet));
    expect(withoutLifetime(before.year.ship)).toEqual(withoutLifetime(byMonths.ship));
    expect(before.march.events.items.length).toBeGreaterThan(0);
    const admin = await server.as('admin');
    // Only a SystemAdmin archives.
    expect(
      (await (await server.as('north.admin')).post('/api/storage/months/2024-03/archive')).statusCode,
    ).toBe(403);
    expect((await admin.post('/api/storage/months/2024-13/archive')).statusCode).toBe(400);

    const archived = await admin.post('/api/storage/months/2024-03/archive');
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().tables).toContain('report_values_y2024m03');
    expect((await admin.post('/api/storage/months/2024-03/archive')).statusCode).toBe(409);
    const months = (await admin.get('/api/storage/months')).json();
    expect(months.archived).toEqual([
      { month: '2019-05', archivedOn: expect.any(String), reason: 'retention' },
      { month: '2024-03', archivedOn: expect.any(String), reason: 'administrator' },
    ]);
    expect(months.online).not.toContain('2024-03');
    expect(months.online).toContain('2024-04');

    const during = {
      march: await dashboards(MARCH),
      april: await dashboards(APRIL),
      year: await dashboards(YEAR),
      yearByMonths: await dashboards(YEAR_BY_MONTHS),
    };
    // Each answer over March says it is archived (its values are not shown until restored); April's says nothing.
    const archivedMonthsOf = (answer: { reports: Record<string, { archivedMonths?: string[] }> }) => [
      ...new Set(Object.values(answer.reports).map((r) => JSON.stringify(r.archivedMonths ?? null))),
    ];
    for (const period of ['march', 'year', 'yearByMonths'] as const)
      for (const board of ['fleet', 'ship'] as const)
        expect(archivedMonthsOf(during[period][board]), `${period} ${board}`).toEqual(['["2024-03"]']);
    expect(archivedMonthsOf(during.april.fleet)).toEqual(['null']);
    expect(archivedMonthsOf(before.march.ship)).toEqual(['null']);
    const one = await (
      await server.as('north.anna')
    ).get(`/api/reports/FacilitySO2CO2Ratio/data?${query({ ...BOTH, facilityId })}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().archivedMonths).toEqual(['2024-03']);

    // The year's roll-up lost March with it: the year read from its yearly rows answers what the months online sum
    // to (April's alone), not the year before.
    expect(withoutLifetime(during.year.fleet)).toEqual(withoutLifetime(during.yearByMonths.fleet));
    expect(withoutLifetime(during.year.ship)).toEqual(withoutLifetime(during.yearByMonths.ship));
    expect(withoutLifetime(during.year.fleet)).not.toEqual(withoutLifetime(before.year.fleet));
    expect(withoutLifetime(during.year.ship)).not.toEqual(withoutLifetime(before.year.ship));
    expect(during.march.events.items).toEqual([]);
    expect(during.march.ship).not.toEqual(before.march.ship);
    expect(during.march.fleet).not.toEqual(before.march.fleet);
    // April's figures stay; only the lifetime totals (all data online) lose March.
    expect(withoutLifetime(during.april.fleet)).toEqual(withoutLifetime(before.april.fleet));
    expect(withoutLifetime(during.april.ship)).toEqual(withoutLifetime(before.april.ship));
    expect(during.april.fleet).not.toEqual(before.april.fleet);
    // An event belongs to the month it starts in: one that started in March and runs into April leaves with March.
    const startsIn = (month: string) => (e: { start: string }) => e.start.startsWith(month);
    expect(during.april.events.items).toEqual(before.april.events.items.filter(startsIn('2024-04')));
    expect(before.april.events.items.filter(startsIn('2024-03')).length).toBeGreaterThan(0);

    // A file with samples of the archived month is refused with the reason, and nothing of it is stored.
    const refused = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file?execute=false`,
      'late-march.csv',
      `Timestamp,${CHANNELS.join(',')}\n2024-03-15 00:00:00,1,2,3,4,1,50,-20\n`,
    );
    expect(refused.statusCode, refused.body).toBeLessThan(500);
    expect(JSON.stringify(refused.json())).toContain(
      'late-march.csv: The data of 2024-03 is archived. Restore the month (Administration, Data retention) before storing data in it.',
    );
    const { db } = server.services.database;
    expect(
      await db
        .selectFrom('data_files')
        .select('file_name')
        .where('file_name', '=', 'late-march.csv')
        .execute(),
    ).toEqual([]);

    const restored = await admin.post('/api/storage/months/2024-03/restore');
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await admin.post('/api/storage/months/2024-03/restore')).statusCode).toBe(404);
    const after = {
      march: await dashboards(MARCH),
      april: await dashboards(APRIL),
      both: await dashboards(BOTH),
      year: await dashboards(YEAR),
    };
    expect(after).toEqual(before);

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'subject'])
      .where('action', 'in', ['storage.archive', 'storage.restore'])
      .where('subject', '=', '2024-03')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'storage.archive', subject: '2024-03' },
      { action: 'storage.restore', subject: '2024-03' },
    ]);
  });
});

describe('retention per organization', () => {
  it('is at least 18 months, set by an administrator of the organization, audited', async () => {
    const north = server.seed.organizationIds.north;
    const admin = await server.as('north.admin');
    const anna = await server.as('north.anna');
    const read = await anna.get(`/api/organizations/${north}/retention`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ months: 36, expired: 'archive' });
    const tooShort = await admin.put(`/api/organizations/${north}/retention`, {
      months: 12,
      expired: 'archive',
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toBe('Data must be kept at least 18 months (2021 EGCS Guidelines, 7.4)');
    expect(
      (await anna.put(`/api/organizations/${north}/retention`, { months: 24, expired: 'archive' }))
        .statusCode,
    ).toBe(403);
    const south = server.seed.organizationIds.south;
    expect(
      (await admin.put(`/api/organizations/${south}/retention`, { months: 24, expired: 'archive' }))
        .statusCode,
    ).toBe(404);
    const set = await admin.put(`/api/organizations/${north}/retention`, { months: 24, expired: 'delete' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ months: 24, expired: 'delete' });
    const { db } = server.services.database;
    const entry = await db
      .selectFrom('audit_log')
      .select(['action', 'subject', 'detail'])
      .where('action', '=', 'retention.set')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ subject: north, detail: { after: { months: 24, expired: 'delete' } } });
  });
});

describe("the partitions' catalog, known per process", () => {
  it('is read once for months already made, again after an archive or a restore, which still work', async () => {
    const { db } = server.services.database;
    // Every statement through this handle counted (a Kysely plugin sees raw SQL and built queries alike).
    let queries = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const from = new Date('2024-06-03T00:00:00Z');
    const to = new Date('2024-07-28T00:00:00Z');
    const first = await ensureMonthPartitions(counted, from, to);
    expect(first).toContain('report_values_y2024m06');
    expect(queries).toBeGreaterThan(0);

    // The same months again, as every live window of a ship asks: no query at all (8 catalog reads before).
    queries = 0;
    expect(await ensureMonthPartitions(counted, from, to)).toEqual([]);
    expect(await ensureMonthPartitions(counted, new Date('2024-06-30T23:00:00Z'), to)).toEqual([]);
    expect(queries).toBe(0);

    // June archived (through the API, another handle of the same process): the catalog is read again, and the
    // archived month is left alone, as before.
    const admin = await server.as('admin');
    const archived = await admin.post('/api/storage/months/2024-06/archive');
    expect(archived.statusCode, archived.body).toBe(200);
    queries = 0;
    expect(await ensureMonthPartitions(counted, from, to)).toEqual([]);
    expect(queries).toBeGreaterThan(0);
    const attached = async () =>
      (
        await sql<{ name: string }>`
          SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'report_values'`.execute(db)
      ).rows.map((r) => r.name);
    expect(await attached()).not.toContain('report_values_y2024m06');
    expect(await attached()).toContain('report_values_y2024m07');

    // Restored: read again, nothing to make, and a value of June lands in June's partition.
    expect((await admin.post('/api/storage/months/2024-06/restore')).statusCode).toBe(200);
    queries = 0;
    expect(await ensureMonthPartitions(counted, from, to)).toEqual([]);
    expect(queries).toBeGreaterThan(0);
    expect(await attached()).toContain('report_values_y2024m06');
    queries = 0;
    expect(await ensureMonthPartitions(counted, from, to)).toEqual([]);
    expect(queries).toBe(0);
    const june = Date.UTC(2024, 5, 10);
    await db.transaction().execute(async (trx) => {
      const field = await trx.selectFrom('report_fields').select('id').executeTakeFirstOrThrow();
      await replaceReportValues(trx, {
        facilityId,
        from: june,
        to: june + HOUR,
        fieldIds: [field.id],
        series: new Map([
          [field.id, { spanStarts: new Float64Array([june]), values: new Float64Array([7]) }],
        ]),
      });
    });
    expect((await rowsPerPartition()).report_values_y2024m06).toBe(1);
  });
});

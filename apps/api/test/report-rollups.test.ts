import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData } from '@portal/contracts/reports';
import type { Database } from '../src/db/schema';
import {
  deleteReportValues,
  partialKey,
  readReportPartials,
  readShipValuesVersions,
  refreshDailyRollup,
  type ReportPartial,
} from '../src/storage';
import { AnswerCache } from '../src/features/reports/cache';
import { findReport, reportFields } from '../src/features/reports/queries';
import { reportFieldValueSources } from '../src/features/reports/sources';
import {
  directPartials,
  reportData,
  partialsByKey,
  sharedPartials,
  type PartialsLoader,
  type ShipPartials,
} from '../src/features/reports/values';
import { startTestServer, type TestServer } from './harness';

/**
 * Issue 34: the dashboards read whole years and months from the monthly and yearly roll-ups (migration 0036). What
 * they answer must be what the hourly values and the daily roll-up give, for every period, after data is appended,
 * re-executed and deleted. The reference here is the read as it was before the roll-ups (whole days from the daily
 * rows, the hours at the edges from report_values), written out in SQL; lifetime from the daily rows. Sums may
 * differ in the last bits (the months' sums are added instead of the days'): compared to 12 significant digits.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let server: TestServer;
let db: Kysely<Database>;
let ships: string[];
let sources: string[];

/** The read before issue 34: daily rows for whole days, hourly values at the edges (every pair probed). */
async function referencePartials(
  facilityIds: string[],
  fieldIds: string[],
  from: Date | null,
  to: Date | null,
): Promise<Map<string, ReportPartial>> {
  type Row = {
    facility_id: string;
    report_field_id: string;
    s: number;
    c: number;
    mn: number | null;
    mx: number | null;
    latest: number | null;
  };
  let rows: Row[];
  if (!from || !to) {
    rows = (
      await sql<Row>`
      select facility_id, report_field_id, sum(value_sum order by day) as s, sum(value_count)::int as c, min(value_min) as mn, max(value_max) as mx,
             max(case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end) as latest
      from report_values_daily
      where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[])
      group by facility_id, report_field_id`.execute(db)
    ).rows;
  } else {
    const first = Math.ceil(from.getTime() / DAY) * DAY;
    const afterLast = Math.floor((to.getTime() + 1) / DAY) * DAY;
    const whole = afterLast > first;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    rows = (
      await sql<Row>`
      select facility_id, report_field_id, coalesce(sum(s order by t), 0) as s, sum(c)::int as c, min(mn) as mn, max(mx) as mx, max(latest) as latest
      from (
        select facility_id, report_field_id, value as s, (value is not null)::int as c, value as mn, value as mx,
               case when value is not null then extract(epoch from span_start) * 1000 end as latest,
               extract(epoch from span_start) * 1000 as t
        from report_values
        where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[]) and ${
          whole
            ? sql`((span_start >= ${from} and span_start < ${new Date(first)}) or (span_start >= ${new Date(afterLast)} and span_start <= ${to}))`
            : sql`(span_start >= ${from} and span_start <= ${to})`
        }
        ${
          whole
            ? sql`union all
        select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
               case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end,
               extract(epoch from day::timestamp) * 1000
        from report_values_daily
        where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[])
          and day >= ${day(first)}::date and day < ${day(afterLast)}::date`
            : sql``
        }
      ) x
      group by facility_id, report_field_id`.execute(db)
    ).rows;
  }
  return new Map(
    rows.map((r) => [
      partialKey(r.facility_id, r.report_field_id),
      {
        sum: Number(r.s),
        count: Number(r.c),
        min: r.mn,
        max: r.mx,
        latest: r.latest === null ? null : Number(r.latest),
      },
    ]),
  );
}

const reference: PartialsLoader = {
  period: (facilityIds, fieldIds, from, to) =>
    referencePartials(facilityIds, fieldIds, from, to).then(partialsByKey),
  lifetime: (facilityIds, fieldIds) =>
    referencePartials(facilityIds, fieldIds, null, null).then(partialsByKey),
};

/** Numbers rounded to 12 significant digits, everything else as it is: what "equal" means for sums of doubles. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? Number(value.toPrecision(12)) : value;
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

/** Deterministic hourly values of a ship's field: gaps (no row), nulls and values. */
function hourValue(ship: number, field: number, t: number): number | null | undefined {
  const h = t / HOUR;
  if ((h + ship * 7 + field) % 97 < 9) return undefined;
  if ((h * 31 + field) % 41 === 0) return null;
  return 1.1 + ((h * 7919 + field * 104729 + ship * 15485863) % 1000) / 37;
}

/** Writes a ship's hours of [from, to) for every value source (replacing what was there), then refreshes the roll-ups. */
async function executeHours(ship: number, from: number, to: number, shift = 0) {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('report_values')
      .where('facility_id', '=', ships[ship]!)
      .where('span_start', '>=', new Date(from))
      .where('span_start', '<', new Date(to))
      .execute();
    for (const [f, field] of sources.entries()) {
      const starts: number[] = [];
      const values: (number | null)[] = [];
      for (let t = from; t < to; t += HOUR) {
        const v = hourValue(ship, f, t);
        if (v === undefined) continue;
        starts.push(t);
        values.push(v === null ? null : v + shift);
      }
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${ships[ship]!}::uuid, ${field}::uuid, to_timestamp(s / 1000.0), v
        from unnest(${starts}::float8[], ${values}::float8[]) as u(s, v)`.execute(trx);
    }
    await refreshDailyRollup(trx, ships[ship]!, 'all', new Date(from), new Date(to - 1));
  });
}

const PERIODS: [string, string, string][] = [
  ['a calendar year', '2025-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z'],
  ['five years', '2021-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z'],
  ['a month', '2025-03-01T00:00:00.000Z', '2025-03-31T23:59:59.999Z'],
  ['days across a year end', '2024-12-15T00:00:00.000Z', '2025-02-10T23:59:59.999Z'],
  ['days, months and a year', '2024-11-20T00:00:00.000Z', '2026-01-10T23:59:59.999Z'],
  ['hours at both edges', '2024-12-30T05:00:00.000Z', '2026-01-02T17:59:59.999Z'],
  ['a few hours', '2025-06-03T05:00:00.000Z', '2025-06-03T17:59:59.999Z'],
  ['the last 91 days', '2025-10-31T00:00:00.000Z', '2026-01-29T23:59:59.999Z'],
];

async function expectDashboardsEqual() {
  const { sourceOf } = await reportFieldValueSources(db);
  for (const [name, from, to] of PERIODS) {
    // The partial sums themselves.
    const got = await readReportPartials(db, ships, sources, new Date(from), new Date(to));
    const want = await referencePartials(ships, sources, new Date(from), new Date(to));
    expect(rounded(Object.fromEntries(got)), name).toEqual(rounded(Object.fromEntries(want)));
    // Every report (the fleet's and a ship's dashboards among them), each field as the dashboard shows it.
    const reports = await db.selectFrom('reports').select(['id', 'target']).orderBy('id').execute();
    for (const { id, target } of reports) {
      const report = (await findReport(db, id))!;
      const request = {
        report: { id, target, information: report.information },
        fields: await reportFields(db, id),
        sourceOf,
        facilityId: target === 'Facility' ? ships[1]! : null,
        fleet: ships,
        from: new Date(from),
        to: new Date(to),
        duration: 'daily' as const,
      };
      const fromRollups: ReportData = await reportData(db, { ...request, partials: directPartials(db) });
      const fromDays: ReportData = await reportData(db, { ...request, partials: reference });
      expect(rounded(fromRollups), `${name}: ${id}`).toEqual(rounded(fromDays));
    }
  }
  const lifetime = await readReportPartials(db, ships, sources, null, null);
  expect(rounded(Object.fromEntries(lifetime))).toEqual(
    rounded(Object.fromEntries(await referencePartials(ships, sources, null, null))),
  );
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  db = server.services.database.db;
  ships = (await db.selectFrom('facilities').select('id').orderBy('name').limit(3).execute()).map(
    (s) => s.id,
  );
  sources = (await reportFieldValueSources(db)).computed;
  // Ship 0: November 2024 to January 2026; ship 1: from June 2025; ship 2: a fortnight of 2023 (lifetime only).
  await executeHours(0, Date.UTC(2024, 10, 3, 7), Date.UTC(2026, 0, 20, 13));
  await executeHours(1, Date.UTC(2025, 5, 1), Date.UTC(2026, 0, 1));
  await executeHours(2, Date.UTC(2023, 3, 1), Date.UTC(2023, 3, 15));
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe('monthly and yearly roll-ups', () => {
  it('give the dashboards that the hourly values and the daily roll-up give, for every kind of period', async () => {
    const months = await db
      .selectFrom('report_values_monthly')
      .select(sql<number>`count(*)`.as('n'))
      .execute();
    const years = await db
      .selectFrom('report_values_yearly')
      .select(sql<number>`count(*)`.as('n'))
      .execute();
    expect(Number(months[0]!.n)).toBeGreaterThan(0);
    // Ship 0: 2024, 2025 and 2026; ship 1: 2025; ship 2: 2023.
    expect(Number(years[0]!.n)).toBe(sources.length * 5);
    await expectDashboardsEqual();
  });

  it('stay equal after data is appended, a period re-executed with other values, and a range deleted', async () => {
    // Appended: ship 1 goes on into February 2026; re-executed: a week of ship 0 across a month end, other values.
    await executeHours(1, Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 5));
    await executeHours(0, Date.UTC(2025, 4, 28, 3), Date.UTC(2025, 5, 4, 21), 5);
    // Deleted: ship 0's hours of a fortnight, which empties whole days and changes two months and a year.
    await db
      .transaction()
      .execute((trx) =>
        deleteReportValues(trx, ships[0]!, new Date(Date.UTC(2025, 7, 25)), new Date(Date.UTC(2025, 8, 8))),
      );
    await expectDashboardsEqual();
    // Ship 2 deleted whole: its months and year go too.
    await db
      .transaction()
      .execute((trx) =>
        deleteReportValues(trx, ships[2]!, new Date(Date.UTC(2023, 0, 1)), new Date(Date.UTC(2024, 0, 1))),
      );
    const left = await db
      .selectFrom('report_values_yearly')
      .select('year')
      .where('facility_id', '=', ships[2]!)
      .execute();
    expect(left).toEqual([]);
    await expectDashboardsEqual();
  });
});

describe('a dashboard call without the answer cache', () => {
  it('answers what the cached server answers: its reports share one aggregation of the partial sums', async () => {
    const uncached = await startTestServer({
      database: server.services.database,
      jobs: 'none',
      seed: false,
      env: { REPORT_DATA_CACHE_ENTRIES: '0' },
    });
    try {
      expect(uncached.services.config.REPORT_DATA_CACHE_ENTRIES).toBe(0);
      const reports = await db.selectFrom('reports').select(['id', 'target']).orderBy('id').execute();
      for (const target of ['FacilityGroup', 'Facility'] as const) {
        const query = new URLSearchParams({
          from: '2024-11-20T00:00:00.000Z',
          to: '2026-01-10T23:59:59.999Z',
          reportIds: reports
            .filter((r) => r.target === target)
            .map((r) => r.id)
            .join(','),
          ...(target === 'Facility' ? { facilityId: ships[0]!, duration: 'daily' } : {}),
        });
        const cachedAnswer = await (await server.as('admin')).get(`/api/reports/data?${query}`);
        const uncachedAnswer = await (await uncached.as('admin')).get(`/api/reports/data?${query}`);
        expect(uncachedAnswer.statusCode).toBe(200);
        expect(uncachedAnswer.json()).toEqual(cachedAnswer.json());
      }
    } finally {
      await uncached.close();
    }
  });
});

describe("the fleet's partial sums kept per ship (migration 0041)", () => {
  it('read again only the ship whose values changed, and answer its new values', async () => {
    const cache = new AnswerCache<ShipPartials>(1_000);
    const written: string[] = [];
    const recording = {
      get: (key: string) => cache.get(key),
      delete: (key: string) => cache.delete(key),
      set: (key: string, value: ShipPartials) => {
        written.push(key.slice(key.lastIndexOf('|') + 1));
        cache.set(key, value);
      },
    };
    const loader = sharedPartials(db, sources, recording);
    const from = new Date('2025-01-01T00:00:00.000Z');
    const to = new Date('2025-12-31T23:59:59.999Z');
    const read = async () => rounded(Object.fromEntries(await loader.period(ships, sources, from, to)));
    const fresh = async () =>
      rounded(Object.fromEntries(await readReportPartials(db, ships, sources, from, to)));

    const first = (await read()) as Record<string, ReportPartial>;
    expect(first).toEqual(await fresh());
    expect(written.sort()).toEqual([...ships].sort());
    written.length = 0;
    // Nothing changed: nothing read again.
    expect(await read()).toEqual(await fresh());
    expect(written).toEqual([]);

    // Ship 1's July re-executed with other values: its version moves, the others' stay.
    const before = await readShipValuesVersions(db, ships);
    await executeHours(1, Date.UTC(2025, 6, 1), Date.UTC(2025, 7, 1), 11);
    const after = await readShipValuesVersions(db, ships);
    expect(after.get(ships[1]!)).not.toBe(before.get(ships[1]!));
    expect(after.get(ships[0]!)).toBe(before.get(ships[0]!));
    expect(after.get(ships[2]!)).toBe(before.get(ships[2]!));

    const changed = (await read()) as Record<string, ReportPartial>;
    expect(written).toEqual([ships[1]!]);
    expect(changed).toEqual(await fresh());
    const key = partialKey(ships[1]!, sources[0]!);
    expect(changed[key]!.sum).not.toBe(first[key]!.sum);
  });
});

import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema';
import { DAY_MS, HOUR_MS } from './days';
import { partialKey, readDailyPoints, readReportPartials, refreshDailyRollup } from './report-values-daily';
import { carryReportSeries, readHourlyPoints, replaceReportValues, type SpanSeries } from './report-values';
import { reportFieldValueSources } from './report-value-sources';
import { storageGround } from './test-ground';

const D0 = Date.UTC(2025, 2, 1);
const HOURS = 2 * 24;

/** Approved calculations of the ground's fields: A and C the same (A first), B another one. */
async function approve(db: Kysely<Database>, fieldId: string, algorithm: string, inputId: string) {
  await db
    .insertInto('report_field_calculations')
    .values({
      report_field_id: fieldId,
      input_ids: JSON.stringify([inputId]),
      transform_algorithm: algorithm,
      approved_on: new Date(),
      valid_from: new Date('2000-01-01T00:00:00Z'),
    })
    .execute();
}

const seriesOf = (value: (h: number) => number): SpanSeries => ({
  spanStarts: Float64Array.from({ length: HOURS }, (_, h) => D0 + h * HOUR_MS),
  values: Float64Array.from({ length: HOURS }, (_, h) => value(h)),
});

// docs/decisions/0132-report-series-once.md: one stored series per distinct approved calculation and ship.
describe('report values stored once per value source', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  let a: string;
  let b: string;
  let c: string;
  const rowsOf = async (table: 'report_values' | 'report_values_daily', field: string) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from ${sql.table(table)} where report_field_id = ${field}`.execute(
          ground.database.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    ground = await storageGround();
    const { db } = ground.database;
    [a, b] = ground.reportFieldIds;
    c = (
      await sql<{ id: string }>`
        insert into report_fields (report_id, name, position) values ('GroundReport', 'C', 3) returning id`.execute(
        db,
      )
    ).rows[0]!.id;
    const [m] = ground.measurementFieldIds;
    await approve(db, a, ' return GROUND_A * 2; ', m);
    await approve(db, b, 'return GROUND_A;', m);
    await approve(db, c, 'return GROUND_A * 2;', m);
  }, 120_000);
  afterAll(() => ground?.database.close());

  it('writes one series per distinct calculation, and the fields sharing one read the same values', async () => {
    const { db } = ground.database;
    const ship = ground.facilityId;
    const sources = await reportFieldValueSources(db);
    expect(sources.sourceOf.get(c)).toBe(a);
    expect(sources.sourceOf.get(b)).toBe(b);
    expect(sources.computed).toEqual([a, b]);
    const doubled = seriesOf((h) => 2 * h);
    const written = await db.transaction().execute(async (trx) => {
      const rows = await replaceReportValues(trx, {
        facilityId: ship,
        from: D0,
        to: D0 + 2 * DAY_MS,
        fieldIds: 'all',
        series: new Map([
          [a, doubled],
          [b, seriesOf((h) => h)],
          [c, doubled],
        ]),
      });
      await refreshDailyRollup(trx, ship, [a, b, c], new Date(D0), new Date(D0 + 2 * DAY_MS - 1));
      return rows;
    });
    // Three fields, two calculations: two series of 48 hours (there were three before).
    expect(written).toBe(2 * HOURS);
    expect(await rowsOf('report_values', a)).toBe(HOURS);
    expect(await rowsOf('report_values', b)).toBe(HOURS);
    expect(await rowsOf('report_values', c)).toBe(0);
    expect(await rowsOf('report_values_daily', a)).toBe(2);
    expect(await rowsOf('report_values_daily', c)).toBe(0);

    // A and C read the same stored values through their source.
    const source = (field: string) => sources.sourceOf.get(field)!;
    const period = [new Date(D0), new Date(D0 + 2 * DAY_MS - 1)] as const;
    const partials = await readReportPartials(db, [ship], [source(a), source(c)], ...period);
    expect(partials.get(partialKey(ship, source(c)))).toEqual(partials.get(partialKey(ship, source(a))));
    expect(partials.get(partialKey(ship, source(c)))?.sum).toBe((2 * ((HOURS - 1) * HOURS)) / 2);
    expect(await readHourlyPoints(db, [ship], source(c), ...period)).toEqual(
      await readHourlyPoints(db, [ship], source(a), ...period),
    );
    expect(await readDailyPoints(db, [ship], source(c), ...period, 'max')).toEqual([
      { facilityId: ship, t: D0, value: 46 },
      { facilityId: ship, t: D0 + DAY_MS, value: 94 },
    ]);
  });

  it("keeps a field's values when the source of its calculation gets another one", async () => {
    const { db } = ground.database;
    const ship = ground.facilityId;
    const [m] = ground.measurementFieldIds;
    const before = await reportFieldValueSources(db);
    const period = [new Date(D0), new Date(D0 + 2 * DAY_MS - 1)] as const;
    const cBefore = await readHourlyPoints(db, [ship], before.sourceOf.get(c)!, ...period);
    // A (the source of A and C) gets a calculation of its own, from 2025 on: C stays alone with the old one.
    const carried = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('report_field_calculations')
        .set({ valid_to: new Date('2025-01-01T00:00:00Z') })
        .where('report_field_id', '=', a)
        .execute();
      await approve(trx, a, 'return GROUND_A * 3;', m);
      return carryReportSeries(trx, before);
    });
    expect(carried).toEqual([[a, c]]);
    const after = await reportFieldValueSources(db);
    expect(after.sourceOf.get(c)).toBe(c);
    expect(after.sourceOf.get(a)).toBe(a);
    // C reads what it read before, its roll-ups too; A keeps its earlier values until its recalculation.
    expect(await readHourlyPoints(db, [ship], c, ...period)).toEqual(cBefore);
    expect((await readReportPartials(db, [ship], [c], ...period)).get(partialKey(ship, c))?.sum).toBe(
      (2 * ((HOURS - 1) * HOURS)) / 2,
    );
    expect(await rowsOf('report_values', a)).toBe(HOURS);
    // The engine then writes both calculations' series: three series now.
    const written = await db.transaction().execute((trx) =>
      replaceReportValues(trx, {
        facilityId: ship,
        from: D0,
        to: D0 + 2 * DAY_MS,
        fieldIds: [a],
        series: new Map([[a, seriesOf((h) => 3 * h)]]),
      }),
    );
    expect(written).toBe(HOURS);
    expect(
      (await readHourlyPoints(db, [ship], a, new Date(D0 + HOUR_MS), new Date(D0 + HOUR_MS)))[0]?.value,
    ).toBe(3);
    expect(
      (await readHourlyPoints(db, [ship], c, new Date(D0 + HOUR_MS), new Date(D0 + HOUR_MS)))[0]?.value,
    ).toBe(2);
  });
});

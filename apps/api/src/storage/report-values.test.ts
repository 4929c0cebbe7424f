import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from './days';
import {
  partialKey,
  readDailyPartials,
  readDailyPoints,
  readReportPartials,
  refreshDailyRollup,
} from './report-values-daily';
import {
  deleteReportValues,
  hasReportValues,
  readHourlyPartials,
  readHourlyPoints,
  readLastReportValues,
  replaceReportValues,
} from './report-values';
import { storageGround } from './test-ground';

const D0 = Date.UTC(2025, 2, 1);

describe('report values storage and their daily roll-up', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it('writes the hours of a period once per field, rolls them up by day and answers partial sums over days and edge hours alike', async () => {
    const { db } = ground.database;
    const ship = ground.facilityId;
    const [a, b] = ground.reportFieldIds;
    expect(await hasReportValues(db)).toBe(false);
    // Three days of hours: value = hour of the period (0..71), hour 5 without a value. Both fields share the series.
    const hours = 3 * 24;
    const shared = {
      spanStarts: Float64Array.from({ length: hours }, (_, h) => D0 + h * HOUR_MS),
      values: Float64Array.from({ length: hours }, (_, h) => (h === 5 ? NaN : h)),
    };
    const written = await db.transaction().execute(async (trx) => {
      const rows = await replaceReportValues(trx, {
        facilityId: ship,
        from: D0,
        to: D0 + 3 * DAY_MS,
        fieldIds: 'all',
        series: new Map([
          [a, shared],
          [b, shared],
        ]),
      });
      await refreshDailyRollup(trx, ship, 'all', new Date(D0), new Date(D0 + 3 * DAY_MS - 1));
      return rows;
    });
    expect(written).toBe(2 * hours);
    expect(await hasReportValues(db)).toBe(true);

    const sumOf = (from: number, to: number) => {
      let sum = 0;
      for (let h = from; h <= to; h++) if (h !== 5) sum += h;
      return sum;
    };
    // 12:00 on day 1 to 12:00 on day 3: edge hours from the hourly values, day 2 from the roll-up.
    const period = await readReportPartials(
      db,
      [ship],
      [a],
      new Date(D0 + 12 * HOUR_MS),
      new Date(D0 + 60 * HOUR_MS),
    );
    expect(period.get(partialKey(ship, a))).toEqual({
      sum: sumOf(12, 60),
      count: 49,
      min: 12,
      max: 60,
      latest: D0 + 60 * HOUR_MS,
    });
    const lifetime = await readReportPartials(db, [ship], [a, b], null, null);
    expect(lifetime.get(partialKey(ship, b))).toMatchObject({
      sum: sumOf(0, 71),
      count: 71,
      min: 0,
      max: 71,
    });
    const last = await readLastReportValues(db, [ship], [a], new Date(D0), new Date(D0 + 6 * HOUR_MS));
    expect(last.get(partialKey(ship, a))).toMatchObject({ sum: 6, latest: D0 + 6 * HOUR_MS });

    const hourly = await readHourlyPoints(
      db,
      [ship],
      a,
      new Date(D0 + 4 * HOUR_MS),
      new Date(D0 + 6 * HOUR_MS),
    );
    expect(hourly.map((p) => p.value)).toEqual([4, null, 6]);
    const daily = (pick: 'average' | 'min' | 'max') =>
      readDailyPoints(db, [ship], a, new Date(D0 + 30 * HOUR_MS), new Date(D0 + 30 * HOUR_MS), pick);
    expect((await daily('average')).map((p) => [p.t, p.value])).toEqual([[D0 + DAY_MS, sumOf(24, 47) / 24]]);
    expect((await daily('min')).map((p) => p.value)).toEqual([24]);
    expect((await daily('max')).map((p) => p.value)).toEqual([47]);
    const exportHours = await readHourlyPartials(
      db,
      ship,
      [a],
      new Date(D0 + 5 * HOUR_MS),
      new Date(D0 + 5 * HOUR_MS),
    );
    expect(exportHours).toEqual([
      { t: D0 + 5 * HOUR_MS, fieldId: a, sum: null, count: 0, min: null, max: null },
    ]);
    const exportDays = await readDailyPartials(db, ship, [a], new Date(D0), new Date(D0 + 12 * HOUR_MS));
    expect(exportDays).toEqual([{ t: D0, fieldId: a, sum: sumOf(0, 23), count: 23, min: 0, max: 23 }]);

    // Deleting day 2's hours rolls day 2 up again: it has no spans left, so no roll-up row.
    const deleted = await db
      .transaction()
      .execute((trx) =>
        deleteReportValues(trx, ship, new Date(D0 + DAY_MS), new Date(D0 + 2 * DAY_MS - HOUR_MS)),
      );
    expect(deleted).toBe(2 * 24);
    expect(
      (await readDailyPartials(db, ship, [a], new Date(D0), new Date(D0 + 3 * DAY_MS - 1))).map((d) => d.t),
    ).toEqual([D0, D0 + 2 * DAY_MS]);
  });
});

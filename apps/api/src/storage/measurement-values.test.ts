import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from './days';
import {
  deleteMeasurementValues,
  readLastDayValues,
  readMeasurementValues,
  replaceMeasurementValues,
} from './measurement-values';
import { storageGround } from './test-ground';

const D0 = Date.UTC(2025, 2, 1);
const H = 3_600_000;

describe('measurement values storage', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  const read = async (fieldId: string, from = D0, to = D0 + 3 * DAY_MS) => {
    const s = await readMeasurementValues(ground.database.db, ground.facilityId, fieldId, from, to);
    return { t: Array.from(s.timestamps).map((t) => (t - D0) / H), v: Array.from(s.values) };
  };

  it("replaces whole days of the recomputed fields, leaves the others' and cuts a deleted range out of its edge days", async () => {
    const { db } = ground.database;
    const [a, b] = ground.measurementFieldIds;
    // Three days, a value every 12 hours; both fields on the same targets.
    const timestamps = Float64Array.from([0, 12, 24, 36, 48, 60].map((h) => D0 + h * H));
    const series = (k: number) => ({ timestamps, values: timestamps.map((_, i) => i * k) });
    const replace = (fieldIds: 'all' | string[], values: Map<string, ReturnType<typeof series>>) =>
      db.transaction().execute((trx) =>
        replaceMeasurementValues(trx, {
          facilityId: ground.facilityId,
          from: D0,
          to: D0 + 3 * DAY_MS,
          fieldIds,
          series: values,
        }),
      );
    expect(
      await replace(
        'all',
        new Map([
          [a, series(1)],
          [b, series(10)],
        ]),
      ),
    ).toBe(6);
    expect(await read(b)).toEqual({ t: [0, 12, 24, 36, 48, 60], v: [0, 10, 20, 30, 40, 50] });
    // Only field a recomputed, now without values: b keeps its chunks.
    expect(await replace([a], new Map())).toBe(0);
    expect((await read(a)).t).toEqual([]);
    expect((await read(b)).v).toEqual([0, 10, 20, 30, 40, 50]);

    // The last day of each field at the latest: day 3.
    const last = await readLastDayValues(db, [ground.facilityId], b, [b], D0, D0 + 3 * DAY_MS);
    expect(Array.from(last.get(ground.facilityId)!.get(b)!.values)).toEqual([40, 50]);

    // From 12:00 on day 1 to 00:00 on day 3, both included: day 2 goes whole, days 1 and 3 keep the rest.
    const changed = await db
      .transaction()
      .execute((trx) =>
        deleteMeasurementValues(trx, ground.facilityId, new Date(D0 + 12 * H), new Date(D0 + 48 * H)),
      );
    expect(changed).toBe(3);
    expect(await read(b)).toEqual({ t: [0, 60], v: [0, 50] });
  });

  it('replaces a window of minutes inside the days it cuts, keeping the stored values outside it', async () => {
    const { db } = ground.database;
    const [a, b] = ground.measurementFieldIds;
    const hours = (...h: number[]) => Float64Array.from(h.map((x) => D0 + x * H));
    const replace = (
      from: number,
      to: number,
      fieldIds: 'all' | string[],
      series: Map<string, { timestamps: Float64Array; values: Float64Array }>,
    ) =>
      db
        .transaction()
        .execute((trx) =>
          replaceMeasurementValues(trx, { facilityId: ground.facilityId, from, to, fieldIds, series }),
        );
    // Two days, a value every 6 hours, for both fields.
    const all = hours(0, 6, 12, 18, 24, 30, 36, 42);
    await replace(
      D0,
      D0 + 2 * DAY_MS,
      'all',
      new Map([
        [a, { timestamps: all, values: all.map((_, i) => i) }],
        [b, { timestamps: all, values: all.map((_, i) => 10 * i) }],
      ]),
    );
    // A window from 10:00 on day 1 to 26:00 (day 2, 02:00): a's values inside it are replaced, across midnight.
    expect(
      await replace(
        D0 + 10 * H,
        D0 + 26 * H,
        [a],
        new Map([[a, { timestamps: hours(11, 12, 24), values: Float64Array.from([-1, -2, -3]) }]]),
      ),
    ).toBe(2);
    expect(await read(a, D0, D0 + 2 * DAY_MS)).toEqual({
      t: [0, 6, 11, 12, 24, 30, 36, 42],
      v: [0, 1, -1, -2, -3, 5, 6, 7],
    });
    expect((await read(b, D0, D0 + 2 * DAY_MS)).v).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    // 'all' inside one day: b, not recomputed in the window, loses its values inside it and keeps the others.
    await replace(
      D0 + 5 * H,
      D0 + 7 * H,
      'all',
      new Map([[a, { timestamps: hours(6), values: Float64Array.from([9]) }]]),
    );
    expect(await read(b, D0, D0 + 2 * DAY_MS)).toEqual({
      t: [0, 12, 18, 24, 30, 36, 42],
      v: [0, 20, 30, 40, 50, 60, 70],
    });
    expect((await read(a, D0, D0 + 2 * DAY_MS)).v).toEqual([0, 9, -1, -2, -3, 5, 6, 7]);
  });
});

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
});

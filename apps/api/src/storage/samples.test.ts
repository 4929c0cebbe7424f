import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf } from './measurement-values';
import { packFloat64 } from './packed';
import { deleteFileSamples, readRawSamples, storeSampleColumns, storeSampleTimestamps } from './samples';
import { storageGround } from './test-ground';

const T0 = Date.UTC(2025, 2, 1);
const M = 60_000;

describe('raw samples storage', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("stores a file's timestamps and columns, reads them back by period and channel, and deletes them with the file", async () => {
    const { db } = ground.database;
    const file = { facilityId: ground.facilityId, dataFileId: ground.dataFileId };
    const timestamps = Float64Array.from([0, 1, 2, 3].map((i) => T0 + i * M));
    // Columns arrive one at a time, as a parse packs them; one is packed, one plain doubles.
    async function* columns() {
      yield { channel: 'SO2', dataType: 'Double', values: packFloat64(Float64Array.from([1, 2, NaN, 4])) };
      yield { channel: 'CO2', dataType: 'Double', values: bytesOf(Float64Array.from([0.5, 0.25, 1, 2])) };
    }
    const stored = await db.transaction().execute(async (trx) => {
      await storeSampleTimestamps(trx, file, {
        timeStampMin: new Date(timestamps[0]!),
        timeStampMax: new Date(timestamps[3]!),
        rowCount: 4,
        timestamps: packFloat64(timestamps),
      });
      return storeSampleColumns(trx, file, columns());
    });
    expect(stored).toEqual(['SO2', 'CO2']);

    const [samples, ...others] = await readRawSamples(db, ground.facilityId, {
      from: new Date(T0 + M),
      to: new Date(T0 + 2 * M),
      channels: ['SO2'],
    });
    expect(others).toEqual([]);
    expect(samples!.dataSourceId).toBe(ground.dataSourceId);
    expect(Array.from(samples!.timestamps)).toEqual([T0 + M, T0 + 2 * M]);
    expect(Object.keys(samples!.columns)).toEqual(['SO2']);
    expect(Array.from(samples!.columns.SO2!)).toEqual([2, NaN]);

    await db.transaction().execute((trx) => deleteFileSamples(trx, file));
    expect(
      await readRawSamples(db, ground.facilityId, { from: new Date(T0), to: new Date(T0 + 3 * M) }),
    ).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  packFloat64,
  readRawSamples,
  storeSampleColumns,
  storeSampleTimestamps,
  storeStreamSamples,
  type StreamSample,
} from '../src/storage';
import { startTestServer, type TestServer } from './harness';
import { streamDataSource } from './live-fixtures';

/**
 * The one rule where a file and the stream carry the same ship, channel and time (docs/decisions/0120): where a file
 * of the data source covers a time (its first to its last timestamp), the file's samples count and the stream's do
 * not; outside the files' spans the stream's count. So a day streamed live and later uploaded as the logger's file
 * is counted once, even when the stream's times are not exactly the file's (milliseconds against whole seconds).
 */
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 20, 8);

describe('a file and the stream of the same ship and time', () => {
  let server: TestServer;
  let ship: string;
  let source: string;
  const db = () => server.services.database.db;

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    ship = Object.values(server.seed.facilityIds)[0]!;
    source = await streamDataSource(server, ship);
  });
  afterAll(async () => server?.close());

  const stream = (from: number, minutes: number, value: number, offsetMs = 0): StreamSample[] =>
    Array.from({ length: minutes }, (_, i) => ({
      facilityId: ship,
      dataSourceId: source,
      channel: 'FUEL_FLOW_ME',
      time: from + i * MINUTE + offsetMs,
      value,
      isHistorical: false,
    }));

  async function importFile(from: number, minutes: number, value: number) {
    const timestamps = Float64Array.from({ length: minutes }, (_, i) => from + i * MINUTE);
    await db()
      .transaction()
      .execute(async (trx) => {
        const file = await trx
          .insertInto('data_files')
          .values({
            facility_id: ship,
            data_source_id: source,
            file_name: `logger-${randomUUID()}.csv`,
            content_sha256: randomUUID(),
            byte_size: 1,
            row_count: minutes,
            time_stamp_min: new Date(from),
            time_stamp_max: new Date(timestamps.at(-1)!),
            imported_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const key = { facilityId: ship, dataFileId: file.id };
        await storeSampleTimestamps(trx, key, {
          timeStampMin: new Date(from),
          timeStampMax: new Date(timestamps.at(-1)!),
          rowCount: minutes,
          timestamps: packFloat64(timestamps),
        });
        await storeSampleColumns(trx, key, [
          {
            channel: 'FUEL_FLOW_ME',
            dataType: 'Double',
            values: packFloat64(new Float64Array(minutes).fill(value)),
          },
        ]);
      });
  }

  it('counts the file where it covers the time, the stream elsewhere, never both', async () => {
    // Three hours streamed live, at a few milliseconds past each minute (a gateway's clock, not the logger's).
    await storeStreamSamples(db(), stream(T0, 180, 500, 7));
    // Then the logger's file of the middle hour arrives, on whole minutes, with its own (corrected) values.
    await importFile(T0 + 60 * MINUTE, 60, 480);
    const [series] = await readRawSamples(db(), ship, {
      from: new Date(T0),
      to: new Date(T0 + 180 * MINUTE),
      dataSourceId: source,
    });
    const values = series!.columns.FUEL_FLOW_ME!;
    expect(series!.timestamps.length).toBe(180);
    const sum = values.reduce((a, b) => a + b, 0);
    expect(sum).toBe(120 * 500 + 60 * 480);
    // The middle hour is the file's, whole minutes; the hours around it the stream's.
    expect(series!.timestamps[60]).toBe(T0 + 60 * MINUTE);
    expect(values[60]).toBe(480);
    expect(series!.timestamps[0]).toBe(T0 + 7);
    expect(values[179]).toBe(500);
  });

  it('streamed samples of a time a file covers stay stored but do not count', async () => {
    const stored = await storeStreamSamples(db(), stream(T0 + 90 * MINUTE, 1, 9999, 30_000));
    expect(stored.inserted).toBe(1);
    const [series] = await readRawSamples(db(), ship, {
      from: new Date(T0 + 90 * MINUTE),
      to: new Date(T0 + 91 * MINUTE),
      dataSourceId: source,
    });
    expect([...series!.columns.FUEL_FLOW_ME!]).toEqual([480, 480]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeStreamSamples, type StreamSample } from '../src/storage';
import { onStreamSamplesStored, widen, type TouchedRanges } from '../src/features/live/execute';
import { startTestServer, type TestServer } from './harness';
import { streamDataSource } from './live-fixtures';

/**
 * What the stream asks to execute after a batch (features/live/execute.ts, docs/decisions/0122-live-windows.md):
 * per data source, the minutes its new samples touched, not the ship's data range nor another data source's minutes.
 * The queue sends and no worker runs, so the requested windows stay in execution_windows to be read.
 */
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let server: TestServer;
const db = () => server.services.database.db;

beforeAll(async () => {
  server = await startTestServer({ jobs: 'send' });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const minutes = (facilityId: string, dataSourceId: string, from: number, count: number): StreamSample[] =>
  Array.from({ length: count }, (_, i) => ({
    facilityId,
    dataSourceId,
    channel: 'SO2_ppm',
    time: from + i * MIN,
    value: 10 + i,
    isHistorical: false,
  }));

describe('the windows a batch of streamed samples asks for', () => {
  it('are the minutes each data source touched, on a day that already holds a day of samples', async () => {
    const ship = Object.values(server.seed.facilityIds)[0]!;
    const logger = await streamDataSource(server, ship, 'Scrubber logger');
    const engine = await streamDataSource(server, ship, 'Engine logger');
    const day = Date.UTC(2025, 5, 2);
    // A day of the logger's samples, stored before: not this batch's.
    await storeStreamSamples(db(), minutes(ship, logger, day, 1440));
    const first = day + 10 * 60 * MIN;
    const second = day + 15 * 60 * MIN;
    // One batch of two messages, as the host gathers them: two new minutes of each data source, hours apart.
    const batch = new Map<string, TouchedRanges>();
    for (const samples of [
      minutes(ship, logger, day + DAY - 2 * MIN, 2),
      minutes(ship, logger, first + 30_000, 2),
      minutes(ship, engine, second, 2),
    ]) {
      const stored = await storeStreamSamples(db(), samples);
      for (const [facilityId, ranges] of stored.touched) widen(batch, facilityId, ranges);
    }
    // The first message replayed two stored minutes of the logger: nothing new; the second brought two half-minutes.
    expect([...batch.get(ship)!.entries()]).toEqual([
      [logger, { from: first + 30_000, to: first + 90_000 }],
      [engine, { from: second, to: second + MIN }],
    ]);
    await onStreamSamplesStored(server.services, ship, batch.get(ship)!);

    const rows = await db()
      .selectFrom('execution_windows')
      .select(['data_source_id', 'windows'])
      .where('facility_id', '=', ship)
      .execute();
    const windows = Object.fromEntries(rows.map((r) => [r.data_source_id, r.windows]));
    // Each data source's own minutes ([from, to) in epoch ms), not the logger's day and not the span of both.
    expect(windows).toEqual({
      [logger]: [[first + 30_000, first + 90_001]],
      [engine]: [[second, second + MIN + 1]],
    });
  }, 300_000);
});

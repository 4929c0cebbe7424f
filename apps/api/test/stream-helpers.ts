import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { dataSourceDefinition, generateShipDay, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import type { Database } from '../src/db/schema';
import { packFloat64, storeSampleColumns, storeSampleTimestamps } from '../src/storage';

const DAY = 86_400_000;

/** A demo ship's generated samples (one a minute) in [from, to), over as many days as it spans. */
export function samplesBetween(ship: DemoShip, from: number, to: number): DaySamples {
  const days: DaySamples[] = [];
  for (let day = Math.floor(from / DAY) * DAY; day < to; day += DAY)
    days.push(generateShipDay(ship, new Date(day)).samples);
  const timestamps: number[] = [];
  const channels: Record<string, number[]> = {};
  for (const d of days)
    for (let i = 0; i < d.timestamps.length; i++) {
      const t = d.timestamps[i]!;
      if (t < from || t >= to) continue;
      timestamps.push(t);
      for (const [name, column] of Object.entries(d.channels)) (channels[name] ??= []).push(column[i]!);
    }
  return {
    timestamps: Float64Array.from(timestamps),
    channels: Object.fromEntries(Object.entries(channels).map(([k, v]) => [k, Float64Array.from(v)])),
  };
}

/** The rows of `samples` in [from, to). */
export function sliceSamples(samples: DaySamples, from: number, to: number): DaySamples {
  let lo = 0;
  while (lo < samples.timestamps.length && samples.timestamps[lo]! < from) lo++;
  let hi = lo;
  while (hi < samples.timestamps.length && samples.timestamps[hi]! < to) hi++;
  return {
    timestamps: samples.timestamps.slice(lo, hi),
    channels: Object.fromEntries(Object.entries(samples.channels).map(([k, v]) => [k, v.slice(lo, hi)])),
  };
}

/**
 * Stores a batch of streamed samples as a stream stores them, through storage/samples.ts: one data file row for
 * the batch (no original), its timestamps and a raw column per mapped channel of the demo logger (its source name).
 * Answers the first and last sample's time, or null for an empty batch.
 */
export async function storeStreamedSamples(
  db: Kysely<Database>,
  ship: DemoShip,
  target: { facilityId: string; dataSourceId: string },
  samples: DaySamples,
): Promise<{ from: number; to: number } | null> {
  const n = samples.timestamps.length;
  if (n === 0) return null;
  const from = samples.timestamps[0]!;
  const to = samples.timestamps[n - 1]!;
  const mappings = dataSourceDefinition(ship).channelMappings;
  await db.transaction().execute(async (trx) => {
    const file = await trx
      .insertInto('data_files')
      .values({
        facility_id: target.facilityId,
        data_source_id: target.dataSourceId,
        file_name: `stream ${new Date(from).toISOString()}`,
        content_sha256: `stream:${randomUUID()}`,
        byte_size: 0,
        row_count: n,
        time_stamp_min: new Date(from),
        time_stamp_max: new Date(to),
        imported_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = { facilityId: target.facilityId, dataFileId: file.id };
    await storeSampleTimestamps(trx, key, {
      timeStampMin: new Date(from),
      timeStampMax: new Date(to),
      rowCount: n,
      timestamps: packFloat64(samples.timestamps),
    });
    await storeSampleColumns(
      trx,
      key,
      mappings
        .filter((m) => samples.channels[m.name] && m.source)
        .map((m) => ({
          channel: m.source as string,
          dataType: 'Double',
          values: packFloat64(samples.channels[m.name]!),
        })),
    );
  });
  return { from, to };
}

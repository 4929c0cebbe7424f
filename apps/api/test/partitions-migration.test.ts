import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { migrations } from '../src/db/migrations';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { resetPostgres } from './harness';

/**
 * Migration 0037 converts a deployment's large tables into month partitions in place: every row is kept, each in
 * its month's partition, and an event keeps its acknowledgements.
 */
let database: DatabaseHandle;

beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (url) await resetPostgres(url);
  database = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 1 });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

describe('migration 0037 (month partitions)', () => {
  it('keeps every row, each in the partition of its month, and the annotations of the events', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0036_report_rollups')).error).toBeUndefined();
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Partition test', link_key: 'PART37', email: null, phone: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ship = await db
      .insertInto('facilities')
      .values({ name: 'Ship', primary_organization_id: org.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const field = await db
      .insertInto('measurement_fields')
      .values({ name: 'SO2', data_type: 'Double' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const days = ['2024-01-31', '2024-02-01', '2024-02-29', '2025-07-15'];
    await db
      .insertInto('measurement_values')
      .values(
        days.map((day) => ({
          facility_id: ship.id,
          measurement_field_id: field.id,
          day,
          row_count: 1,
          timestamps: new Uint8Array([1]),
          values: new Uint8Array([2]),
        })) as never,
      )
      .execute();
    const event = await db
      .insertInto('compliance_events')
      .values({
        facility_id: ship.id,
        type: 'data-gap',
        start_on: new Date('2024-02-29T23:30:00Z'),
        end_on: new Date('2024-03-01T01:00:00Z'),
        rules: JSON.stringify(DEFAULT_EVENT_RULES),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('compliance_event_annotations')
      .values({
        event_id: event.id,
        revision: 1,
        cause: 'other',
        actions_taken: 'Logger restarted',
        comment: '',
        acknowledged_on: new Date('2024-03-02T00:00:00Z'),
      })
      .execute();

    // The stream's samples (migration 0033), one per source time.
    const source = await db
      .insertInto('facility_data_sources')
      .values({
        facility_id: ship.id,
        name: 'Stream',
        reader_id: 'delimited',
        reader_configuration: '{}',
        measure_frequency_seconds: 60,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const streamTimes = ['2024-02-29T23:59:59.999Z', '2024-03-01T00:00:00.000Z', '2024-03-01T00:01:00.000Z'];
    await db
      .insertInto('stream_samples')
      .values(
        streamTimes.map((t) => ({
          facility_id: ship.id,
          data_source_id: source.id,
          channel: 'SO2_PPM',
          source_time: new Date(t),
          value: 1,
        })) as never,
      )
      .execute();

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();

    const perPartition = await sql<{ partition: string; n: number }>`
      SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM measurement_values GROUP BY 1 ORDER BY 1`.execute(
      db,
    );
    expect(perPartition.rows).toEqual([
      { partition: 'measurement_values_y2024m01', n: 1 },
      { partition: 'measurement_values_y2024m02', n: 2 },
      { partition: 'measurement_values_y2025m07', n: 1 },
    ]);
    const stream = await sql<{ partition: string; n: number }>`
      SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM stream_samples GROUP BY 1 ORDER BY 1`.execute(
      db,
    );
    expect(stream.rows).toEqual([
      { partition: 'stream_samples_y2024m02', n: 1 },
      { partition: 'stream_samples_y2024m03', n: 2 },
    ]);
    // A replayed sample still inserts nothing (ON CONFLICT on its key, which holds the partition key).
    const replay = await sql`
      INSERT INTO stream_samples (facility_id, data_source_id, channel, source_time, value)
      VALUES (${ship.id}, ${source.id}, 'SO2_PPM', ${new Date(streamTimes[1]!)}, 2) ON CONFLICT DO NOTHING`.execute(
      db,
    );
    expect(Number(replay.numAffectedRows)).toBe(0);
    const events = await sql<{ partition: string; id: string; attention: number }>`
      SELECT tableoid::regclass::text AS partition, id, attention FROM compliance_events`.execute(db);
    expect(events.rows).toEqual([{ partition: 'compliance_events_y2024m02', id: event.id, attention: 1 }]);
    expect(await db.selectFrom('compliance_event_annotations').select('event_id').execute()).toEqual([
      { event_id: event.id },
    ]);
    // The annotations' reference is kept by triggers: none for an event that does not exist, and gone with it.
    await expect(
      db
        .insertInto('compliance_event_annotations')
        .values({
          event_id: '00000000-0000-4000-8000-000000000000',
          revision: 1,
          cause: 'other',
          actions_taken: '',
          comment: '',
          acknowledged_on: new Date(),
        })
        .execute(),
    ).rejects.toThrow(/violates its reference/);
    await db.deleteFrom('compliance_events').where('id', '=', event.id).execute();
    expect(await db.selectFrom('compliance_event_annotations').select('event_id').execute()).toEqual([]);
    // A row of a month with no partition is kept in the default partition.
    await db
      .insertInto('measurement_values')
      .values({
        facility_id: ship.id,
        measurement_field_id: field.id,
        day: '2019-05-05',
        row_count: 1,
        timestamps: new Uint8Array([1]),
        values: new Uint8Array([2]),
      } as never)
      .execute();
    const kept = await sql<{ partition: string }>`
      SELECT tableoid::regclass::text AS partition FROM measurement_values WHERE day = '2019-05-05'`.execute(
      db,
    );
    expect(kept.rows).toEqual([{ partition: 'measurement_values_default' }]);
  });
});

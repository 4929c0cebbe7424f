import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { resetPostgres } from './harness';

/**
 * Migration 0038 keeps report values once per value source (docs/decisions/0132-report-series-once.md): the copies
 * of the fields that read another field's values go, from the hours and the three roll-ups, each kept row stays in
 * its month's partition, and down writes the copies back.
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

const TABLES = ['report_values', 'report_values_daily', 'report_values_monthly', 'report_values_yearly'];

describe('migration 0038 (report series once per value source)', () => {
  it('deletes the copies of the fields that share a calculation and keeps the sources in their partitions', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0037_month_partitions')).error).toBeUndefined();
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Series test', link_key: 'SER38', email: null, phone: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ship = await db
      .insertInto('facilities')
      .values({ name: 'Ship', primary_organization_id: org.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const input = await db
      .insertInto('measurement_fields')
      .values({ name: 'SO2', data_type: 'Double' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into reports (id, name, target, position) values ('R1', 'First', 'Facility', 1), ('R2', 'Second', 'Facility', 2)`.execute(
      db,
    );
    // B (first report) and A (second report) share a calculation: B is the source. C has its own; D has none.
    const field = async (report: string, name: string, position: number) =>
      (
        await sql<{
          id: string;
        }>`insert into report_fields (report_id, name, position) values (${report}, ${name}, ${position}) returning id`.execute(
          db,
        )
      ).rows[0]!.id;
    const a = await field('R2', 'A', 1);
    const b = await field('R1', 'B', 2);
    const c = await field('R1', 'C', 3);
    const d = await field('R1', 'D', 4);
    for (const [id, algorithm] of [
      [a, 'return SO2 * 2;'],
      [b, '  return SO2 * 2;\n'],
      [c, 'return SO2;'],
    ] as const)
      await sql`insert into report_field_calculations (report_field_id, input_ids, transform_algorithm, approved_on, valid_from)
                values (${id}, ${JSON.stringify([input.id])}, ${algorithm}, now(), '2000-01-01')`.execute(db);
    for (const id of [a, b, c, d]) {
      await sql`insert into report_values (facility_id, report_field_id, span_start, value)
                values (${ship.id}, ${id}, '2024-01-31T23:00:00Z', 1), (${ship.id}, ${id}, '2024-02-01T00:00:00Z', 2)`.execute(
        db,
      );
      await sql`insert into report_values_daily (facility_id, report_field_id, day, value_sum, value_count, value_min, value_max, span_count)
                values (${ship.id}, ${id}, '2024-01-31', 1, 1, 1, 1, 1), (${ship.id}, ${id}, '2024-02-01', 2, 1, 2, 2, 1)`.execute(
        db,
      );
      await sql`insert into report_values_monthly (facility_id, report_field_id, month, value_sum, value_count, value_min, value_max, span_count, latest_day)
                values (${ship.id}, ${id}, '2024-01-01', 1, 1, 1, 1, 1, '2024-01-31'), (${ship.id}, ${id}, '2024-02-01', 2, 1, 2, 2, 1, '2024-02-01')`.execute(
        db,
      );
      await sql`insert into report_values_yearly (facility_id, report_field_id, year, value_sum, value_count, value_min, value_max, span_count, latest_day)
                values (${ship.id}, ${id}, '2024-01-01', 3, 2, 1, 2, 2, '2024-02-01')`.execute(db);
    }
    const rowsOf = async () => {
      const counts: Record<string, Record<string, number>> = {};
      for (const table of TABLES) {
        const { rows } = await sql<{ field: string; n: number }>`
          select report_field_id as field, count(*)::int as n from ${sql.table(table)} group by 1`.execute(
          db,
        );
        counts[table] = Object.fromEntries(rows.map((r) => [r.field, r.n]));
      }
      return counts;
    };
    const every = (n: Record<string, number>) => ({
      report_values: n,
      report_values_daily: n,
      report_values_monthly: n,
    });
    const all = { [a]: 2, [b]: 2, [c]: 2, [d]: 2 };
    expect(await rowsOf()).toEqual({
      ...every(all),
      report_values_yearly: { [a]: 1, [b]: 1, [c]: 1, [d]: 1 },
    });

    // Where each row lies (its month's partition, or the default one): the same for the rows kept.
    const placed = async () =>
      (
        await sql<{ partition: string; field: string; n: number }>`
          select tableoid::regclass::text as partition, report_field_id as field, count(*)::int as n
          from report_values group by 1, 2 order by 1, 2`.execute(db)
      ).rows;
    const placedBefore = await placed();
    expect((await migrator.migrateTo('0038_report_series_once')).error).toBeUndefined();
    const kept = { [b]: 2, [c]: 2, [d]: 2 };
    expect(await rowsOf()).toEqual({ ...every(kept), report_values_yearly: { [b]: 1, [c]: 1, [d]: 1 } });
    expect(await placed()).toEqual(placedBefore.filter((r) => r.field !== a));

    // Down writes the copies back: every field has its rows again.
    expect((await migrator.migrateTo('0037_month_partitions')).error).toBeUndefined();
    expect(await rowsOf()).toEqual({
      ...every(all),
      report_values_yearly: { [a]: 1, [b]: 1, [c]: 1, [d]: 1 },
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});

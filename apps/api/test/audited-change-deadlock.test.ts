import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource } from './upload-helpers';

/**
 * An audited change that PostgreSQL ends to break a deadlock (SQLSTATE 40P01; seen in CI when a data source was
 * created beside the storage-months job's partition DDL, decision 0125) runs again, whole: the caller gets its
 * answer, and the change and its audit entry are there once. The deadlock is raised by the database itself (a
 * trigger on audit_log, once: a sequence keeps counting through the rollback), on PGlite and PostgreSQL alike.
 */
let server: TestServer;
const db = () => server.services.database.db;

beforeAll(async () => {
  server = await startTestServer();
  await sql`
    CREATE SEQUENCE deadlock_once;
    CREATE FUNCTION deadlock_once_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = 'datasource.create' AND nextval('deadlock_once') = 1 THEN
        RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER deadlock_once BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION deadlock_once_raise();
  `.execute(db());
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe('an audited change ended by a deadlock', () => {
  it('runs again: the data source is created once, with one audit entry', async () => {
    const ship = server.seed.facilityIds.baltic_tern!;
    const before = await db()
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', ship)
      .execute();
    const id = await createCsvDataSource(server, ship);
    const { rows } = await sql<{ n: number }>`SELECT last_value::int AS n FROM deadlock_once`.execute(db());
    // The first try met the deadlock, the second committed.
    expect(rows[0]!.n).toBe(2);
    const sources = await db()
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', ship)
      .execute();
    expect(sources.map((s) => s.id).sort()).toEqual([...before.map((s) => s.id), id].sort());
    const entries = await db()
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'datasource.create')
      .execute();
    expect(entries).toHaveLength(1);
  });
});

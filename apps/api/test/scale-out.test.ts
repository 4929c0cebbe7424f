import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CODES } from '@portal/contracts/reports';
import { DEMO_USERS } from '../src/seed/platform';
import { deleteDerivedValues } from '../src/features/executions/derived';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';
import { DAY, UNTIL, prepareShips, waitForExecutions } from './execution-fixtures';
import {
  call,
  killAll,
  signInOverHttp,
  spawnServer,
  waitUntilServing,
  type ServerProcess,
} from './processes';

/**
 * Scale-out (issue 9, point 6; docs/operations.md): two API processes (--services=web) and two workers
 * (--services=worker) against one PostgreSQL, as behind a load balancer without sticky sessions. Needs a PostgreSQL
 * database of your own in DATABASE_URL (its public schema is emptied).
 */
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL)
  console.info(
    'scale-out.test.ts skipped: it needs PostgreSQL (DATABASE_URL=postgres://.../<a database of your own>)',
  );
const DAYS = 2;
const PORTS = [18471, 18472];
const password = (username: string) => DEMO_USERS.find((u) => u.username === username)!.password;

describe.skipIf(!DATABASE_URL)(
  'two API processes and two workers on one PostgreSQL (skipped without DATABASE_URL)',
  () => {
    let server: TestServer;
    let apis: ServerProcess[];
    const tokens: Record<string, string> = {};
    let northOnly: string;
    let southOnly: string;
    const db = () => server.services.database.db;

    beforeAll(async () => {
      // This process seeds the database and reads it; the portal runs in the child processes.
      server = await startTestServer({ jobs: 'none' });
      await prepareShips(server.services.database, server.seed.facilityIds, DAYS);
      apis = PORTS.map((port) => spawnServer({ databaseUrl: DATABASE_URL, services: 'web', port }));
      spawnServer({ databaseUrl: DATABASE_URL, services: 'worker' });
      spawnServer({ databaseUrl: DATABASE_URL, services: 'worker' });
      await Promise.all(apis.map((api) => waitUntilServing(api)));
      // Signed in on the first API only: the second must accept its tokens.
      for (const username of ['admin', 'north.admin', 'north.anna', 'south.maria'])
        tokens[username] = await signInOverHttp(apis[0]!.url!, username, password(username));
      const owned = async (org: string) =>
        (
          await db()
            .selectFrom('facilities')
            .select('id')
            .where('primary_organization_id', '=', server.seed.organizationIds[org]!)
            .execute()
        ).map((f) => f.id);
      const shared = await db().selectFrom('organization_facility_access').select('facility_id').execute();
      const notShared = (ids: string[]) => ids.filter((id) => !shared.some((s) => s.facility_id === id));
      northOnly = notShared(await owned('north'))[0]!;
      southOnly = notShared(await owned('south'))[0]!;
    }, 300_000);

    afterAll(async () => {
      await killAll();
      await server?.close();
    });

    it('a token from the sign-in on one API is accepted by the other', async () => {
      for (const api of apis) {
        const ships = await call(api.url!, tokens['north.anna']!, 'GET', '/api/facilities');
        expect(ships.status).toBe(200);
        expect((ships.json as { id: string }[]).map((s) => s.id)).toContain(northOnly);
      }
    });

    it('through either API, a User of North cannot read or execute a South ship, nor a South User a North one', async () => {
      for (const api of apis) {
        for (const [username, foreign] of [
          ['north.anna', southOnly],
          ['south.maria', northOnly],
        ] as const) {
          const token = tokens[username]!;
          const ships = await call(api.url!, token, 'GET', '/api/facilities');
          expect((ships.json as { id: string }[]).map((s) => s.id)).not.toContain(foreign);
          expect(
            (await call(api.url!, token, 'GET', `/api/algorithm/facility/${foreign}/datasource`)).status,
          ).toBe(404);
          const files = await db()
            .selectFrom('data_files')
            .select('id')
            .where('facility_id', '=', foreign)
            .execute();
          const executed = await call(
            api.url!,
            token,
            'POST',
            '/api/algorithm/calculations/measurement-field/execute',
            {
              facilityId: foreign,
              from: new Date(UNTIL.getTime() - DAY).toISOString(),
              to: new Date(UNTIL.getTime() - 1).toISOString(),
              facilityDataSourceFileIds: files.map((f) => f.id),
            },
          );
          expect(executed.status).toBe(404);
        }
      }
      expect(await db().selectFrom('executions').select('id').execute()).toEqual([]);
    });

    it('access revoked on one API is refused on the next call to the other, and given back likewise', async () => {
      const anna = server.seed.userIds['north.anna']!;
      const link = `/api/organizations/facilities/${anna}/${northOnly}/user-facility-link`;
      const datasource = `/api/algorithm/facility/${northOnly}/datasource`;
      expect((await call(apis[1]!.url!, tokens['north.anna']!, 'GET', datasource)).status).toBe(200);
      expect((await call(apis[0]!.url!, tokens['north.admin']!, 'DELETE', link)).status).toBe(204);
      expect((await call(apis[1]!.url!, tokens['north.anna']!, 'GET', datasource)).status).toBe(404);
      expect((await call(apis[1]!.url!, tokens['north.admin']!, 'POST', link)).status).toBe(204);
      expect((await call(apis[0]!.url!, tokens['north.anna']!, 'GET', datasource)).status).toBe(200);
    });

    it('executions requested through both APIs by different users are each run exactly once by the two workers', async () => {
      const requests: { api: ServerProcess; username: string; ship: string; day: number }[] = [];
      const ships = Object.values(server.seed.facilityIds);
      for (const [i, ship] of ships.entries())
        for (let day = 0; day < DAYS; day++)
          requests.push({ api: apis[(i + day) % 2]!, username: 'admin', ship, day });
      for (let day = 0; day < DAYS; day++)
        requests.push({ api: apis[day % 2]!, username: 'north.anna', ship: northOnly, day });
      const ids = await Promise.all(
        requests.map(async (r) => {
          const files = await db()
            .selectFrom('data_files')
            .select('id')
            .where('facility_id', '=', r.ship)
            .execute();
          const from = new Date(UNTIL.getTime() - (DAYS - r.day) * DAY);
          const answer = await call(
            r.api.url!,
            tokens[r.username]!,
            'POST',
            '/api/algorithm/calculations/measurement-field/execute',
            {
              facilityId: r.ship,
              from: from.toISOString(),
              to: new Date(from.getTime() + DAY - 1).toISOString(),
              facilityDataSourceFileIds: files.map((f) => f.id),
            },
          );
          expect(answer.status).toBe(202);
          return (answer.json as { id: string }).id;
        }),
      );
      const rows = await waitForExecutions(db(), ids, 240_000);
      // Two of them are the same ship's same day (admin's and north.anna's), run at once by the two workers.
      // A failed first attempt names its error here.
      expect(rows.map((r) => `${r.state} ${r.attempts}${r.error ? ` ${r.error}` : ''}`)).toEqual(
        ids.map(() => 'done 1'),
      );
      // An execution row is done in the run's own transaction; pg-boss completes its job just after the handler
      // returns: wait until no job is still active, then none was retried.
      const jobs = await waitFor(
        () =>
          sql<{
            state: string;
            retry_count: number;
          }>`select state, retry_count from pgboss.job where id = any(${rows.map((r) => r.job_id)}::uuid[])`.execute(
            db(),
          ),
        {
          what: "the executions' jobs to be completed",
          until: (result) => result.rows.every((j) => j.state !== 'active'),
          show: (result) => result.rows.map((j) => j.state).join(', '),
          timeoutMs: 60_000,
        },
      );
      expect(jobs.rows.map((j) => `${j.state} ${j.retry_count}`)).toEqual(ids.map(() => 'completed 0'));
      // Nothing doubled: one chunk per field and day, one value per report field and hour.
      const counts = await sql<{
        chunks: number;
        distinct_chunks: number;
        values: number;
        distinct_values: number;
      }>`
      select (select count(*) from measurement_values)::int as chunks,
             (select count(distinct (facility_id, measurement_field_id, day)) from measurement_values)::int as distinct_chunks,
             (select count(*) from report_values)::int as values,
             (select count(distinct (facility_id, report_field_id, span_start)) from report_values)::int as distinct_values`.execute(
        db(),
      );
      const c = counts.rows[0]!;
      expect(c.chunks).toBeGreaterThan(0);
      expect(c.chunks).toBe(c.distinct_chunks);
      expect(c.values).toBe(c.distinct_values);
      // Every ship has values for both days.
      const days = await sql<{
        facility_id: string;
        days: number;
      }>`select facility_id, count(distinct day)::int as days from measurement_values group by facility_id`.execute(
        db(),
      );
      expect(days.rows.map((d) => d.days)).toEqual(ships.map(() => DAYS));
    }, 300_000);

    it("shows a done execution's values on the very next report call to the other API", async () => {
      const [a, b] = apis as [ServerProcess, ServerProcess];
      const token = tokens.admin!;
      const from = new Date(UNTIL.getTime() - DAY);
      const to = new Date(UNTIL.getTime() - 1);
      const report = `/api/reports/${REPORT_CODES.shipCo2Reduction}/data?${new URLSearchParams({
        from: from.toISOString(),
        to: to.toISOString(),
        facilityId: northOnly,
      })}`;
      const reportOf = async (api: ServerProcess) => {
        const answer = await call(api.url!, token, 'GET', report);
        expect(answer.status).toBe(200);
        return JSON.stringify(answer.json);
      };
      // The day's values go, then come back through an execution requested on A and run by a worker.
      await deleteDerivedValues(db(), northOnly, from, to);
      const emptied = await reportOf(b);
      const files = await db()
        .selectFrom('data_files')
        .select('id')
        .where('facility_id', '=', northOnly)
        .execute();
      const executed = await call(
        a.url!,
        token,
        'POST',
        '/api/algorithm/calculations/measurement-field/execute',
        {
          facilityId: northOnly,
          from: from.toISOString(),
          to: to.toISOString(),
          facilityDataSourceFileIds: files.map((f) => f.id),
        },
      );
      expect(executed.status).toBe(202);
      const id = (executed.json as { id: string }).id;
      // B answers report calls all along (a dashboard open there), A is asked for the execution's state; the call to
      // B right after A says done must show the values. With a version cached for 0.5 s B answered the old values.
      const deadline = Date.now() + 120_000;
      for (;;) {
        await reportOf(b);
        const state = (await call(a.url!, token, 'GET', `/api/executions/${id}`)).json as { state: string };
        if (state.state === 'done') break;
        expect(state.state).not.toBe('failed');
        if (Date.now() > deadline) throw new Error('the execution did not finish');
      }
      const next = await reportOf(b);
      expect(next).not.toBe(emptied);
      // And it stays: B reads the version on every call (no cache of it to outlast).
      expect(next).toBe(await reportOf(b));

      // The same without the race of the worker's timing: this process stands in for the worker. B reads the
      // version, the values are committed here with their execution marked done, and B's very next answer (well
      // within 0.5 s of its read) has them.
      const request = {
        facilityId: northOnly,
        from: from.getTime(),
        to: UNTIL.getTime(),
        measurementFieldIds: 'all' as const,
        reportFieldIds: 'all' as const,
      };
      const computed = await computePeriod(db(), request, enginePorts());
      await deleteDerivedValues(db(), northOnly, from, to);
      expect(await reportOf(b)).toBe(emptied);
      await db()
        .transaction()
        .execute(async (trx) => {
          await storeComputed(trx, computed, enginePorts());
          await trx
            .insertInto('executions')
            .values({
              facility_id: northOnly,
              kind: 'execute',
              period_from: from,
              period_to: to,
              state: 'done',
              finished_on: new Date(),
            })
            .execute();
        });
      expect(await reportOf(b)).toBe(next);
    }, 180_000);
  },
);

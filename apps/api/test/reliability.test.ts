import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/storage/database';
import { createServer } from '../src/server';
import { seedPlatform } from '../src/seed/platform';
import type { Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { enqueueExecution } from '../src/features/executions/derived';
import { PUBLIC_URL, startTestServer, type TestServer } from './harness';
import { DAY, FAST_QUEUE, UNTIL, prepareShips, snapshot, waitForExecutions } from './execution-fixtures';
import {
  PAUSED_BEFORE_COMMIT,
  WORKER_WITH_HOOKS,
  killAll,
  killServer,
  spawnServer,
  until,
  type ServerProcess,
  type SpawnOptions,
} from './processes';

/**
 * Reliability of the execution jobs (ARCHITECTURE section 8). The multi-process cases need a PostgreSQL server
 * (DATABASE_URL): workers are child processes (processes.ts, `src/main.ts --services=worker`) killed with SIGKILL.
 * The restart case also runs on PGlite, where one process owns the database.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const DAYS = 4;

/** A server process on DATABASE_URL; when it exits with an error of its own (not our SIGKILL), its output is printed. */
function start(
  services: 'worker' | 'web',
  options: Pick<SpawnOptions, 'port' | 'env' | 'entry'> = {},
): ServerProcess {
  const server = spawnServer({ databaseUrl: DATABASE_URL!, services, ...options });
  server.child.once('exit', (code) => {
    if (code) console.error(`server child exited with ${code}:\n${server.output().slice(-2000)}`);
  });
  return server;
}

describe.skipIf(!DATABASE_URL)('execution jobs across processes (PostgreSQL)', () => {
  let server: TestServer;
  let queue: Queue;
  let ships: string[];
  const FROM = new Date(UNTIL.getTime() - DAYS * DAY);
  const TO = new Date(UNTIL.getTime() - 1);

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    await prepareShips(server.services.database, server.seed.facilityIds, DAYS);
    ships = Object.values(server.seed.facilityIds);
    // This process only sends jobs; the workers are the child processes.
    queue = await startJobs(server.services, { work: false, tuning: FAST_QUEUE });
  }, 180_000);

  afterAll(async () => {
    await killAll();
    await queue?.stop();
    await server?.close();
  });

  const db = () => server.services.database.db;
  const jobOf = async (executionId: string) => {
    const row = await db()
      .selectFrom('executions')
      .select('job_id')
      .where('id', '=', executionId)
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{
      state: string;
      retry_count: number;
    }>`select state, retry_count from pgboss.job where id = ${row.job_id}::uuid`.execute(db());
    return rows[0]!;
  };

  let undisturbed: Awaited<ReturnType<typeof snapshot>>;

  it('a worker killed in the middle of an execution: the job is retried and the values equal an undisturbed run', async () => {
    const ship = ships[0]!;
    const worker = start('worker');
    const first = await enqueueExecution(server.services, { facilityId: ship, from: FROM, to: TO });
    expect((await waitForExecutions(db(), [first], 90_000))[0]!.state).toBe('done');
    undisturbed = await snapshot(db(), ship);
    expect(undisturbed.measurement.length).toBe(DEFAULT_MEASUREMENT_FIELDS.length * DAYS);
    await killServer(worker);

    // This worker holds its transaction open for 60 s after deleting the period's rows: killed inside it, once it
    // says it holds it.
    const slow = start('worker', { entry: WORKER_WITH_HOOKS, env: { EXECUTION_TEST_PAUSE_MS: '60000' } });
    const id = await enqueueExecution(server.services, { facilityId: ship, from: FROM, to: TO });
    await until(
      async () => slow.output().includes(PAUSED_BEFORE_COMMIT),
      90_000,
      'the execution to hold its transaction open',
    );
    expect(
      (await db().selectFrom('executions').select('state').where('id', '=', id).executeTakeFirstOrThrow())
        .state,
    ).toBe('running');
    await killServer(slow);
    // The killed transaction rolled back: the earlier values are all there meanwhile.
    expect(await snapshot(db(), ship)).toEqual(undisturbed);

    start('worker');
    const [row] = await waitForExecutions(db(), [id], 120_000);
    expect(row!.state).toBe('done');
    expect(row!.attempts).toBe(2);
    expect((await jobOf(id)).retry_count).toBeGreaterThanOrEqual(1);
    expect(await snapshot(db(), ship)).toEqual(undisturbed);
  }, 240_000);

  it('a crash after the values are committed but before the job is marked done: the rerun changes nothing', async () => {
    const ship = ships[0]!;
    await killAll();
    const crashing = start('worker', {
      entry: WORKER_WITH_HOOKS,
      env: { EXECUTION_TEST_CRASH_AFTER_COMMIT: '1' },
    });
    const id = await enqueueExecution(server.services, { facilityId: ship, from: FROM, to: TO });
    await crashing.exited;
    const committed = await db()
      .selectFrom('executions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(committed.state).toBe('done');
    expect((await jobOf(id)).state).toBe('active');
    expect(await snapshot(db(), ship)).toEqual(undisturbed);

    start('worker');
    await until(async () => (await jobOf(id)).state === 'completed', 120_000, 'the rerun of the job');
    const after = await db()
      .selectFrom('executions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.finished_on).toEqual(committed.finished_on);
    expect(after.attempts).toBe(committed.attempts);
    expect(await snapshot(db(), ship)).toEqual(undisturbed);
  }, 240_000);

  it('two workers and two API processes: 20 executions for different ships and periods, each done exactly once', async () => {
    await killAll();
    const ports = [18311, 18312];
    for (const port of ports) start('web', { port });
    start('worker');
    start('worker');
    const token = await server.tokenFor('admin');
    await until(
      async () =>
        (
          await Promise.all(
            ports.map((p) =>
              fetch(`http://127.0.0.1:${p}/api/algorithm/calculations`, {
                headers: { authorization: `Bearer ${token}` },
              }).then(
                (r) => r.ok,
                () => false,
              ),
            ),
          )
        ).every(Boolean),
      90_000,
      'the API processes',
    );
    const files = new Map<string, string[]>();
    for (const ship of ships)
      files.set(
        ship,
        (await db().selectFrom('data_files').select('id').where('facility_id', '=', ship).execute()).map(
          (f) => f.id,
        ),
      );
    const requests = Array.from({ length: 20 }, (_, i) => {
      const ship = ships[i % ships.length]!;
      const day = Math.floor(i / ships.length) % DAYS;
      const from = new Date(FROM.getTime() + day * DAY);
      return { ship, from, to: new Date(from.getTime() + DAY - 1), port: ports[i % 2]! };
    });
    const ids = await Promise.all(
      requests.map(async (r) => {
        const response = await fetch(
          `http://127.0.0.1:${r.port}/api/algorithm/calculations/measurement-field/execute`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              facilityId: r.ship,
              from: r.from.toISOString(),
              to: r.to.toISOString(),
              facilityDataSourceFileIds: files.get(r.ship),
            }),
          },
        );
        expect(response.status).toBe(202);
        return ((await response.json()) as { id: string }).id;
      }),
    );
    const rows = await waitForExecutions(db(), ids, 180_000);
    expect(rows.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
    const jobs = await sql<{
      state: string;
      retry_count: number;
    }>`select state, retry_count from pgboss.job where id = any(${rows.map((r) => r.job_id)}::uuid[])`.execute(
      db(),
    );
    expect(jobs.rows).toHaveLength(20);
    expect(jobs.rows.every((j) => j.state === 'completed' && j.retry_count === 0)).toBe(true);
    // Nothing doubled: one chunk per field and day, one value per report field and hour.
    const counts = await sql<{
      n: number;
      distinct_n: number;
    }>`select count(*)::int as n, count(distinct (facility_id, measurement_field_id, day))::int as distinct_n from measurement_values`.execute(
      db(),
    );
    expect(counts.rows[0]!.n).toBe(counts.rows[0]!.distinct_n);
    expect(await snapshot(db(), ships[0]!)).toEqual(undisturbed);
  }, 300_000);

  it('jobs queued while no worker runs are run after the restart', async () => {
    await killAll();
    const ship = ships[1]!;
    const id = await enqueueExecution(server.services, { facilityId: ship, from: FROM, to: TO });
    // No worker runs (killAll waited for every exit, this process only sends): the job waits, nobody fetched it.
    expect(
      (await db().selectFrom('executions').select('state').where('id', '=', id).executeTakeFirstOrThrow())
        .state,
    ).toBe('queued');
    expect((await jobOf(id)).state).toBe('created');
    start('worker');
    expect((await waitForExecutions(db(), [id], 120_000))[0]!.state).toBe('done');
  }, 180_000);
});

describe.skipIf(!!DATABASE_URL || !!process.env.SKIP_PGLITE_RESTART)(
  'restart with jobs queued (PGlite, one process)',
  () => {
    it('runs the queued executions after the server restarts on the same data directory', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restart-'));
      try {
        const config = loadConfig(
          { PUBLIC_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
          [],
        );
        let ids: string[];
        let facilityId: string;
        {
          const server = await createServer(config, { webDist: null });
          const seed = await seedPlatform(server.services.database.db);
          const [key, id] = Object.entries(seed.facilityIds)[0]!;
          facilityId = id;
          await prepareShips(server.services.database, { [key]: id }, 2);
          const queue = await startJobs(server.services, { work: false, tuning: FAST_QUEUE });
          ids = [
            await enqueueExecution(server.services, {
              facilityId,
              from: new Date(UNTIL.getTime() - 2 * DAY),
              to: new Date(UNTIL.getTime() - DAY - 1),
            }),
            await enqueueExecution(server.services, {
              facilityId,
              from: new Date(UNTIL.getTime() - DAY),
              to: new Date(UNTIL.getTime() - 1),
            }),
          ];
          await queue.stop();
          await server.close();
        }
        const database = await openDatabase({ dataDir });
        const server = await createServer(config, { webDist: null, database });
        const queue = await startJobs(server.services, { work: true, tuning: FAST_QUEUE });
        try {
          const rows = await waitForExecutions(database.db, ids, 60_000);
          expect(rows.map((r) => r.state)).toEqual(['done', 'done']);
          // A chunk per default measurement field and day, for both days.
          expect((await snapshot(database.db, facilityId)).measurement).toHaveLength(
            DEFAULT_MEASUREMENT_FIELDS.length * 2,
          );
        } finally {
          await queue.stop();
          await server.close();
          await database.close();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }, 300_000);
  },
);

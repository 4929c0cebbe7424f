import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './wait';
import { afterAll, describe, expect, it } from 'vitest';
import type { Health } from '@portal/contracts/health';
import { openDatabase } from '../src/storage/database';
import { resetPostgres } from './harness';
import { isRunning, killAll, spawnServer, type ServerProcess } from './processes';

/**
 * `npm start`'s server process on a first start (src/main.ts, src/starting.ts): its port answers at once, the
 * starting page and GET /api/health say how far the demo fleet is, then the portal; SIGINT at any moment stops it
 * cleanly, and the next start finishes the demo where the stopped one left it.
 */

const databaseUrl = process.env.DATABASE_URL;
const dirs: string[] = [];
const SHIPS = 2;
const DAYS = 6;

afterAll(async () => {
  await killAll();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** An empty store: a new data directory (PGlite), or the PostgreSQL database emptied. */
async function emptyStore(): Promise<Record<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-first-start-'));
  dirs.push(dir);
  if (databaseUrl) await resetPostgres(databaseUrl);
  return { DATA_DIR: dir };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** As `npm start` on a first start: DEMO unset (the demo is loaded on an empty database). */
async function startWithDemo(store: Record<string, string>): Promise<ServerProcess> {
  return spawnServer({
    databaseUrl,
    services: 'web,worker',
    port: await freePort(),
    env: { ...store, DEMO: undefined, DEMO_SHIPS: String(SHIPS), DEMO_DAYS: String(DAYS), LOG_LEVEL: 'info' },
  });
}

async function health(server: ServerProcess): Promise<{ status: number; body: Health } | null> {
  try {
    const response = await fetch(`${server.url}/api/health`);
    return { status: response.status, body: (await response.json()) as Health };
  } catch {
    return null;
  }
}

/** Polls GET /api/health until `done` says so; every answer seen, in order. */
async function follow(
  server: ServerProcess,
  done: (answer: { status: number; body: Health }) => boolean,
  timeoutMs = 240_000,
): Promise<{ status: number; body: Health }[]> {
  const seen: { status: number; body: Health }[] = [];
  await waitFor(
    async () => {
      if (!isRunning(server)) throw new Error(`the server exited:\n${server.output().slice(-3000)}`);
      const answer = await health(server);
      if (answer) seen.push(answer);
      return answer;
    },
    {
      what: 'GET /api/health to answer as asked',
      until: (answer) => answer !== null && done(answer),
      show: () => `last answer ${JSON.stringify(seen.at(-1))}`,
      timeoutMs,
    },
  );
  return seen;
}

/** SIGINT as a Ctrl-C sends it; the exit code. */
async function interrupt(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGINT');
  await server.exited;
  return server.child.exitCode;
}

const isDemoStep = (body: Health) => body.step === 'demo-data' || body.step === 'demo-calculation';

/** What a stopped start must never print: a stack trace, an error entry. */
function expectNoError(output: string) {
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(output).not.toMatch(/"level":50|ERROR|The parse worker/);
}

describe('a first start with the demo fleet', () => {
  it('answers at once: the starting page and GET /api/health follow the demo, then the portal is ready', async () => {
    const server = await startWithDemo(await emptyStore());
    const seen = await follow(server, ({ body }) => isDemoStep(body));
    // The first answer: starting, before anything else was ready.
    expect(seen[0]).toMatchObject({ status: 503, body: { state: 'starting' } });

    // While the demo loads: the root page is the starting page, the API says it is starting.
    const page = await fetch(`${server.url}/`);
    const html = await page.text();
    expect(page.status).toBe(503);
    expect(html).toContain('The portal is starting');
    expect(html).toMatch(/Loading the demo fleet \(\d of 2 ships\)/);
    const api = await fetch(`${server.url}/api/version`);
    expect(api.status).toBe(503);
    expect(await api.json()).toMatchObject({ code: 'UNAVAILABLE' });

    seen.push(...(await follow(server, ({ status }) => status === 200)));
    const demo = seen.filter(({ body }) => isDemoStep(body));
    expect(demo.length).toBeGreaterThan(0);
    for (const { status, body } of demo) {
      expect(status).toBe(503);
      expect(body.progress?.total).toBe(SHIPS);
      expect(body.message).toBe(`Loading the demo fleet (${body.progress!.done} of ${SHIPS} ships)`);
    }
    // The steps in their order, each count never going back within its step.
    const steps = seen.map(({ body }) => body.step).filter((step, i, all) => step !== all[i - 1]);
    expect(steps.filter((s) => s !== 'loading' && s !== 'database')).toEqual(
      expect.arrayContaining(['demo-data', 'demo-calculation', null]),
    );
    expect(seen.at(-1)).toMatchObject({ status: 200, body: { state: 'ready', message: 'Ready' } });

    // Ready: the app answers everything.
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain('data-starting');
    expect(server.output()).toContain('is running');
    expect(server.output()).toContain('Listening on this machine only (127.0.0.1)');

    // Stopped just after it became ready (the parse workers still starting): a clean stop.
    expect(await interrupt(server)).toBe(0);
    expect(server.output()).toContain('SIGINT: stopping');
    expectNoError(server.output());
  }, 300_000);

  it('stops cleanly at any moment, and the next start goes on where the stopped one left the demo', async () => {
    const store = await emptyStore();

    // In its first second: as soon as the port answers.
    const first = await startWithDemo(store);
    await follow(first, () => true);
    expect(await interrupt(first)).toBe(0);
    expectNoError(first.output());

    // While it imports the demo ships' logger files.
    const second = await startWithDemo(store);
    const seen = await follow(second, ({ body }) => body.step === 'demo-data' && body.progress!.done >= 1);
    expect(seen.at(-1)!.body.progress).toEqual({ done: 1, total: SHIPS });
    expect(await interrupt(second)).toBe(0);
    expectNoError(second.output());
    // It stopped, not finished first: the demo is not all imported (a stop that waited for the import would be).
    const stopped = await openDatabase({ databaseUrl, dataDir: store.DATA_DIR! });
    try {
      const files = await stopped.db
        .selectFrom('data_files')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(files.n)).toBeLessThan(SHIPS * DAYS);
    } finally {
      await stopped.close();
    }

    // The next start (DEMO still unset, the database no longer empty) imports what is missing, calculates every ship,
    // and is ready.
    const third = await startWithDemo(store);
    const resumed = await follow(third, ({ status }) => status === 200);
    expect(resumed.some(({ body }) => body.step === 'demo-calculation')).toBe(true);
    expect(await interrupt(third)).toBe(0);
    expectNoError(third.output());

    const database = await openDatabase({ databaseUrl, dataDir: store.DATA_DIR! });
    try {
      const ships = await database.db
        .selectFrom('facility_data_sources as s')
        .leftJoin('data_files as f', 'f.data_source_id', 's.id')
        .select(['s.facility_id', (eb) => eb.fn.count<string>('f.id').as('files')])
        .groupBy('s.facility_id')
        .execute();
      expect(ships).toHaveLength(SHIPS);
      // Each ship's days, once (a file imported before the stop is not imported twice).
      for (const ship of ships) expect(Number(ship.files)).toBeGreaterThanOrEqual(DAYS);
      for (const ship of ships) expect(Number(ship.files)).toBeLessThanOrEqual(DAYS + 1);
      const executions = await database.db
        .selectFrom('executions')
        .select(['facility_id', 'state'])
        .execute();
      expect(new Set(executions.map((e) => e.facility_id)).size).toBe(SHIPS);
      expect(executions.every((e) => e.state === 'done')).toBe(true);
    } finally {
      await database.close();
    }
  }, 600_000);
});

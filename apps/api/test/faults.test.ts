import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { DEMO_USERS, seedPlatform } from '../src/seed/platform';
import { createServer } from '../src/server';
import { PUBLIC_URL, signIn, startTestServer, type TestServer } from './harness';
import {
  call,
  killAll,
  killServer,
  signInOverHttp,
  spawnServer,
  until,
  waitUntilServing,
  type ServerProcess,
} from './processes';
import { CSV_CONFIGURATION, createCsvDataSource, csvFile, multipartFile } from './upload-helpers';

/**
 * Faults (issue 9, point 5): the database connection lost during an upload, the server killed (SIGKILL) during a
 * transfer or an access change, and a full disk under the embedded database. The PostgreSQL cases need DATABASE_URL
 * (a database of your own: the connections of that database are terminated; the server itself is never restarted,
 * others share it). The worker killed mid-job is in reliability.test.ts.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const CHANNELS = Array.from({ length: 20 }, (_, i) => `CH${i + 1}`);
const password = (username: string) => DEMO_USERS.find((u) => u.username === username)!.password;

/** Everything an upload writes, and whether it is whole: each file with its original, timestamps and every channel; no part without its file; the ship's range covering its files. */
async function ingestionState(
  { db, originals }: Pick<DatabaseHandle, 'db' | 'originals'>,
  facilityId: string,
) {
  const { rows } = await sql<{
    files: number;
    files_without_timestamps: number;
    files_with_missing_channels: number;
    orphan_timestamps: number;
    orphan_values: number;
  }>`
    select (select count(*) from data_files)::int as files,
           (select count(*) from data_files f where not exists (select 1 from raw_timestamps t where t.data_file_id = f.id))::int as files_without_timestamps,
           (select count(*) from data_files f where (select count(*) from raw_values v where v.data_file_id = f.id) <> ${CHANNELS.length})::int as files_with_missing_channels,
           (select count(*) from raw_timestamps t where not exists (select 1 from data_files f where f.id = t.data_file_id))::int as orphan_timestamps,
           (select count(*) from raw_values v where not exists (select 1 from data_files f where f.id = v.data_file_id))::int as orphan_values`.execute(
    db,
  );
  const range = await sql<{ stale: boolean }>`
    select coalesce(fa.data_timestamp_max is distinct from r.max or fa.data_timestamp_min is distinct from r.min, false) as stale
    from facilities fa, (select min(time_stamp_min) as min, max(time_stamp_max) as max from data_files where facility_id = ${facilityId} and has_samples) r
    where fa.id = ${facilityId}`.execute(db);
  // Originals are in the database on PostgreSQL, in files beside PGlite (storage/originals.ts).
  const fileIds = new Set((await db.selectFrom('data_files').select('id').execute()).map((f) => f.id));
  const originalIds = new Set(await originals.storedFileIds(db));
  const files_without_original = [...fileIds].filter((id) => !originalIds.has(id)).length;
  const orphan_originals = [...originalIds].filter((id) => !fileIds.has(id)).length;
  return {
    ...rows[0]!,
    files_without_original,
    orphan_originals,
    stale_ship_range: range.rows[0]!.stale ? 1 : 0,
  };
}
const WHOLE = {
  files_without_original: 0,
  files_without_timestamps: 0,
  files_with_missing_channels: 0,
  orphan_originals: 0,
  orphan_timestamps: 0,
  orphan_values: 0,
  stale_ship_range: 0,
};

describe.skipIf(!DATABASE_URL)('faults on PostgreSQL', () => {
  let server: TestServer;
  /** A connection of the test's own, outside the server's pool: it terminates the others. */
  let terminator: pg.Client;
  const db = () => server.services.database.db;

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    terminator = new pg.Client({ connectionString: DATABASE_URL });
    await terminator.connect();
  }, 120_000);

  afterAll(async () => {
    await killAll();
    await terminator?.end();
    await server?.close();
  });

  /** Ends every other connection to our database, as a database restart or a network cut would. */
  const terminateConnections = async () => {
    const { rows } = await terminator.query<{ pid: number }>(
      'select pid, pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const ended = rows.map((r) => r.pid);
    await until(
      async () => {
        // Inside a transaction of the test's (stopImportsAtTheirSamples) the view keeps its first snapshot.
        await terminator.query('select pg_stat_clear_snapshot()');
        const { rows: left } = await terminator.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where pid = any($1::int[])',
          [ended],
        );
        return left[0]!.n === 0;
      },
      30_000,
      'the ended connections to be gone',
    );
    // The test's own queries share the server's pool: a query through it fails on each ended connection (which the
    // pool then drops) until one opened since answers: none of the ended ones is lent out again.
    await until(
      async () => {
        await sql`select 1`.execute(db());
        return true;
      },
      30_000,
      "the server's pool to drop the ended connections",
    );
    return rows.length;
  };
  /**
   * The test's connection holds a lock on raw_values that lets reads through but stops inserts: an import then waits
   * inside its transaction, after its file row, at its samples. Answers once an import waits there.
   */
  const stopImportsAtTheirSamples = async () => {
    await terminator.query('begin');
    await terminator.query('lock table raw_values in share mode');
  };
  const importWaiting = () =>
    until(
      async () => {
        // Inside the lock's transaction pg_stat_activity keeps its first snapshot unless cleared.
        await terminator.query('select pg_stat_clear_snapshot()');
        const { rows } = await terminator.query(
          `select query, backend_xid is not null as wrote from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows.some((r: { query: string; wrote: boolean }) => r.wrote && /raw_values/.test(r.query));
      },
      60_000,
      'an import waiting at its samples',
    );
  const releaseImports = () => terminator.query('commit');

  describe('the database connection is lost during an upload', () => {
    // A failed test must not leave the imports stopped.
    afterEach(async () => {
      await terminator.query('rollback');
    });
    let facilityId: string;
    let uploadUrl: string;
    let day = 0;

    beforeAll(async () => {
      facilityId = server.seed.facilityIds.atlantic_meridian!;
      // The files only (execute=false): this server starts no job queue, and the cuts are about storing them.
      uploadUrl = `/api/algorithm/facilitydatasource/${await createCsvDataSource(server, facilityId)}/file?execute=false`;
    });

    /** A logger file of `days` days a minute apart, 20 channels, never uploaded before. */
    const loggerFile = (days: number) => {
      const start = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      day += days;
      return csvFile({
        start,
        rows: days * 1440,
        channels: CHANNELS,
        value: (r, c) => ((r * 7 + c * 13) % 1000).toFixed(2),
      });
    };
    const send = async (fileName: string, content: Buffer | string) => {
      const { payload, headers } = multipartFile(fileName, content);
      const response = await server.app.inject({
        method: 'POST',
        url: uploadUrl,
        payload,
        headers: { ...headers, authorization: `Bearer ${await server.tokenFor('admin')}` },
      });
      return {
        statusCode: response.statusCode,
        json: () => response.json() as { ids: string[]; errorMessages: string[] },
      };
    };

    /**
     * After a cut: the upload is whole or absent, never half. The answer may be an error although the file was
     * committed (the connection was lost after the commit): sending it again then says it is already imported.
     */
    const checkAfterCut = async (
      before: Awaited<ReturnType<typeof ingestionState>>,
      response: Awaited<ReturnType<typeof send>>,
      fileName: string,
      content: string,
    ) => {
      const after = await ingestionState(server.services.database, facilityId);
      expect(after).toEqual({ ...before, files: after.files, ...WHOLE });
      if (response.statusCode === 200) {
        expect(response.json().ids).toHaveLength(1);
        expect(after.files).toBe(before.files + 1);
        return 'completed';
      }
      expect(response.statusCode).toBe(500);
      const again = await send(fileName, content);
      expect(again.statusCode).toBe(200);
      expect(await ingestionState(server.services.database, facilityId)).toEqual({
        ...before,
        files: before.files + 1,
        ...WHOLE,
      });
      if (after.files === before.files) {
        expect(again.json()).toMatchObject({ ids: [expect.any(String)], errorMessages: [] });
        return 'failed, nothing stored';
      }
      expect(again.json()).toMatchObject({
        ids: [],
        errorMessages: [expect.stringMatching(/already imported/)],
      });
      return 'failed after the commit, stored whole';
    };

    it('cut while a file is being written: the upload fails and nothing of it is stored; sent again, it is imported whole', async () => {
      const before = await ingestionState(server.services.database, facilityId);
      const content = loggerFile(30);
      await stopImportsAtTheirSamples();
      const pending = send('month.csv', content);
      await importWaiting();
      expect(await terminateConnections()).toBeGreaterThan(0);
      await releaseImports();
      const response = await pending;
      expect(await checkAfterCut(before, response, 'month.csv', content)).toBe('failed, nothing stored');
    }, 120_000);

    it("cut during a zip's import: none of its files is kept (one transaction: features/files/import.ts importUploads), the ship's range as before, and the zip sent again imports them all", async () => {
      const before = await ingestionState(server.services.database, facilityId);
      const zip = Buffer.from(
        zipSync({
          'a.csv': strToU8(loggerFile(10)),
          'b.csv': strToU8(loggerFile(10)),
          'c.csv': strToU8(loggerFile(10)),
        }),
      );
      await stopImportsAtTheirSamples();
      const pending = send('three.zip', zip);
      await importWaiting();
      await terminateConnections();
      await releaseImports();
      const response = await pending;
      expect(response.statusCode).toBe(500);
      expect(await ingestionState(server.services.database, facilityId)).toEqual({ ...before, ...WHOLE });

      const again = await send('three.zip', zip);
      expect(again.statusCode).toBe(200);
      expect(again.json().ids).toHaveLength(3);
      expect(await ingestionState(server.services.database, facilityId)).toEqual({
        ...before,
        files: before.files + 3,
        ...WHOLE,
      });
    }, 180_000);

    it('cut at other moments (reading, parsing, writing, answering): every upload is either whole or absent, and the server keeps serving', async () => {
      const outcomes: string[] = [];
      for (const delayMs of [0, 150, 400, 900, 1600]) {
        const before = await ingestionState(server.services.database, facilityId);
        const content = loggerFile(10);
        const pending = send(`cut-${delayMs}.csv`, content);
        await new Promise((r) => setTimeout(r, delayMs));
        await terminateConnections();
        outcomes.push(
          `${delayMs} ms: ${await checkAfterCut(before, await pending, `cut-${delayMs}.csv`, content)}`,
        );
        expect((await (await server.as('admin')).get(uploadUrl)).statusCode).toBe(200);
      }
      console.info(`uploads cut at: ${outcomes.join('; ')}`);
    }, 300_000);
  });

  describe('the server is killed during a transfer or an access change', () => {
    const port = 18461;
    let web: ServerProcess;
    const tokens: Record<string, string> = {};
    let ship: string;
    let north: string;
    let south: string;

    /** Ownership, organization and user access of the ship, and the audit entries of the action. */
    const state = async (action: string) => {
      const facility = await db()
        .selectFrom('facilities')
        .select('primary_organization_id')
        .where('id', '=', ship)
        .executeTakeFirstOrThrow();
      const organizations = await db()
        .selectFrom('organization_facility_access')
        .select('organization_id')
        .where('facility_id', '=', ship)
        .orderBy('organization_id')
        .execute();
      const users = await db()
        .selectFrom('user_facility_access')
        .select('user_id')
        .where('facility_id', '=', ship)
        .orderBy('user_id')
        .execute();
      const audited = await db()
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', action)
        .where('subject', '=', ship)
        .execute();
      return {
        owner: facility.primary_organization_id,
        organizations: organizations.map((o) => o.organization_id),
        users: users.map((u) => u.user_id),
        audited: audited.length,
      };
    };
    type State = Awaited<ReturnType<typeof state>>;
    const restore = async (s: State, action: string) => {
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('facilities')
            .set({ primary_organization_id: s.owner })
            .where('id', '=', ship)
            .execute();
          await trx.deleteFrom('organization_facility_access').where('facility_id', '=', ship).execute();
          if (s.organizations.length)
            await trx
              .insertInto('organization_facility_access')
              .values(s.organizations.map((o) => ({ organization_id: o, facility_id: ship })))
              .execute();
          await trx.deleteFrom('user_facility_access').where('facility_id', '=', ship).execute();
          if (s.users.length)
            await trx
              .insertInto('user_facility_access')
              .values(s.users.map((u) => ({ user_id: u, facility_id: ship })))
              .execute();
          await trx
            .deleteFrom('audit_log')
            .where('action', '=', action)
            .where('subject', '=', ship)
            .execute();
        });
    };
    const start = async () => {
      web = spawnServer({ databaseUrl: DATABASE_URL, services: 'web', port });
      await waitUntilServing(web);
    };

    beforeAll(async () => {
      north = server.seed.organizationIds.north!;
      south = server.seed.organizationIds.south!;
      // The demo's North ship shared with South.
      ship = (
        await db()
          .selectFrom('organization_facility_access')
          .select('facility_id')
          .where('organization_id', '=', south)
          .executeTakeFirstOrThrow()
      ).facility_id;
      await start();
      for (const username of ['admin', 'north.admin', 'north.anna', 'south.maria'])
        tokens[username] = await signInOverHttp(web.url!, username, password(username));
    }, 180_000);

    const operations = [
      {
        name: 'transfer of the ship from North to South',
        action: 'facility.transfer',
        username: 'admin',
        send: () =>
          call(web.url!, tokens.admin!, 'POST', `/api/organizations/${south}/${ship}/migrate-facility`),
      },
      {
        name: "North taking back South's access to the ship",
        action: 'access.organization.revoke',
        username: 'north.admin',
        send: () =>
          call(
            web.url!,
            tokens['north.admin']!,
            'DELETE',
            `/api/organizations/${south}/${ship}/organization-facility-link`,
          ),
      },
    ];

    /**
     * Moments to kill at. A lock held by the test stops the request at a known statement: a row lock on the ship's
     * user access stops it inside its transaction, a lock on the audit log at its audit entry.
     */
    const moments: {
      name: string;
      hold?: (client: pg.Client) => Promise<unknown>;
      waitingOn?: RegExp;
      delayMs?: number;
    }[] = [
      {
        name: 'inside the transaction',
        hold: (c) => c.query('select 1 from user_facility_access where facility_id = $1 for update', [ship]),
        waitingOn: /user_facility_access/,
      },
      {
        name: 'at the audit entry',
        hold: (c) => c.query('lock table audit_log in exclusive mode'),
        waitingOn: /audit_log/,
      },
      { name: 'right after sending', delayMs: 0 },
      { name: '30 ms after sending', delayMs: 30 },
      { name: '120 ms after sending', delayMs: 120 },
    ];

    for (const operation of operations) {
      it(`${operation.name}: all or nothing after a restart, at every moment`, async () => {
        const initial = await state(operation.action);
        expect(initial.owner).toBe(north);
        expect(initial.organizations).toEqual([south]);
        // The outcome of the undisturbed request.
        expect((await operation.send()).status).toBeLessThan(300);
        const done = await state(operation.action);
        expect(done).not.toEqual(initial);
        expect(done.audited).toBe(1);
        await restore(initial, operation.action);

        const outcomes: string[] = [];
        for (const moment of moments) {
          const holder = new pg.Client({ connectionString: DATABASE_URL });
          await holder.connect();
          try {
            if (moment.hold) {
              await holder.query('begin');
              await moment.hold(holder);
            }
            const pending = operation.send().catch(() => null);
            if (moment.waitingOn) {
              const waitingOn = moment.waitingOn;
              await until(
                async () =>
                  (
                    await terminator.query(
                      `select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
                    )
                  ).rows.some((r: { query: string }) => waitingOn.test(r.query)),
                30_000,
                `the request to reach ${moment.name}`,
              );
            } else {
              await new Promise((r) => setTimeout(r, moment.delayMs));
            }
            await killServer(web);
            await pending;
            // A backend waiting on a lock notices its client is gone only when it next talks to it: end it, as the
            // database does once it does.
            if (moment.hold)
              await terminator.query(
                `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
              );
          } finally {
            await holder.end();
          }
          await start();
          const after = await state(operation.action);
          const outcome =
            JSON.stringify(after) === JSON.stringify(initial)
              ? 'nothing'
              : JSON.stringify(after) === JSON.stringify(done)
                ? 'all'
                : 'half';
          outcomes.push(`${moment.name}: ${outcome}`);
          expect(after, `killed ${moment.name}`).toSatisfy(
            (s: State) =>
              JSON.stringify(s) === JSON.stringify(initial) || JSON.stringify(s) === JSON.stringify(done),
          );
          // The restarted server answers by the stored state: North's user sees the ship exactly when North still has it.
          const ships = (await call(web.url!, tokens['north.anna']!, 'GET', '/api/facilities')).json as {
            id: string;
          }[];
          expect(ships.some((s) => s.id === ship)).toBe(after.owner === north);
          await restore(initial, operation.action);
        }
        console.info(`${operation.name}: ${outcomes.join('; ')}`);
      }, 300_000);
    }
  });
});

/** A small tmpfs to fill (needs root and mount); without it the case is skipped with the reason. */
function mountSmallDisk(megabytes: number): { dir: string; unmount(): void } | { reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!!DATABASE_URL)('the disk under the embedded database fills up (PGlite)', () => {
  it('an upload that does not fit is answered with an error; after a restart the database opens, holds what it held, and takes the upload', async (context) => {
    const disk = mountSmallDisk(160);
    if ('reason' in disk) {
      context.skip(disk.reason);
      return;
    }
    const filler = path.join(disk.dir, 'filler');
    try {
      const config = loadConfig(
        { PUBLIC_URL, DATA_DIR: disk.dir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
        [],
      );
      const content = csvFile({
        start: '2025-02-01 00:00:00',
        rows: 20 * 1440,
        channels: CHANNELS,
        value: (r, c) => ((r * 7 + c * 13) % 1000).toFixed(2),
      });
      let facilityId: string;
      let uploadUrl: string;
      let before: Awaited<ReturnType<typeof ingestionState>>;
      {
        const server = await createServer(config, { webDist: null });
        const seed = await seedPlatform(server.services.database.db);
        facilityId = seed.facilityIds.atlantic_meridian!;
        const token = await signIn(server.app, 'admin', password('admin'));
        const headers = { authorization: `Bearer ${token}` };
        const created = await server.app.inject({
          method: 'POST',
          url: `/api/algorithm/facility/${facilityId}/datasource`,
          headers,
          payload: {
            name: 'Logger',
            dataSourceReaderId: 'delimited-text',
            dataSourceReaderConfiguration: CSV_CONFIGURATION,
            measureFrequencyInSeconds: 60,
            utcTimezoneOffsetInMinutes: 0,
            note: '',
            isPrimary: true,
          },
        });
        expect(created.statusCode).toBe(201);
        uploadUrl = `/api/algorithm/facilitydatasource/${created.json().id}/file`;
        const small = multipartFile(
          'small.csv',
          csvFile({ start: '2025-01-01 00:00:00', rows: 1440, channels: CHANNELS }),
        );
        expect(
          (
            await server.app.inject({
              method: 'POST',
              url: `${uploadUrl}?execute=false`,
              payload: small.payload,
              headers: { ...small.headers, ...headers },
            })
          ).statusCode,
        ).toBe(200);
        before = await ingestionState(server.services.database, facilityId);
        expect(before).toEqual({ ...WHOLE, files: 1 });

        // Leave about 2 MB free: the upload needs far more (original, timestamps and 20 columns of 28,800 samples).
        const free = fs.statfsSync(disk.dir);
        fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free.bavail * free.bsize - 2 * 1024 * 1024)));
        const { payload, headers: multipart } = multipartFile('big.csv', content);
        const response = await server.app.inject({
          method: 'POST',
          url: `${uploadUrl}?execute=false`,
          payload,
          headers: { ...multipart, ...headers },
        });
        expect(response.statusCode).toBeGreaterThanOrEqual(500);
        const list = await server.app.inject({ method: 'GET', url: uploadUrl, headers });
        console.info(
          `disk full: the upload was answered ${response.statusCode} ${response.body.slice(0, 200)}; the file list then ${list.statusCode}`,
        );
        await server
          .close()
          .catch((error: Error) => console.info(`closing after the disk filled: ${error.message}`));
      }
      fs.rmSync(filler);

      const database = await openDatabase({ dataDir: disk.dir });
      const server = await createServer(config, { webDist: null, database });
      try {
        expect(await ingestionState(database, facilityId)).toEqual(before);
        const token = await signIn(server.app, 'admin', password('admin'));
        const { payload, headers } = multipartFile('big.csv', content);
        const response = await server.app.inject({
          method: 'POST',
          url: `${uploadUrl}?execute=false`,
          payload,
          headers: { ...headers, authorization: `Bearer ${token}` },
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ ids: [expect.any(String)], errorMessages: [] });
        expect(await ingestionState(database, facilityId)).toEqual({ ...before, files: 2 });
      } finally {
        await server.close();
        await database.close();
      }
    } finally {
      fs.rmSync(filler, { force: true });
      disk.unmount();
    }
  }, 300_000);
});

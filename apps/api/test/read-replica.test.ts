import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CODES } from '@portal/contracts/reports';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { startTestServer, type TestServer } from './harness';
import { postgresBinaries, startReplicaCluster, type ReplicaCluster } from './replica-cluster';
import { waitFor } from './wait';

/**
 * Reads off the primary (docs/decisions/0126-reads-off-the-primary.md) against a real streaming replica: a primary
 * and its replica made by the test (replica-cluster.ts) on ports of their own, and two portal instances on them, as
 * two API nodes behind a load balancer. It needs the PostgreSQL server binaries (Debian's postgresql package,
 * /usr/lib/postgresql/<version>/bin); only without them is it skipped.
 */
const bin = postgresBinaries();
if (!bin)
  console.warn(
    'read-replica.test.ts skipped: no PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) in /usr/lib/postgresql/<version>/bin',
  );

const FLEET_REPORT = REPORT_CODES.fleetCo2Reduction;
const PERIOD = { from: '2025-01-01T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z' };
const dashboardUrl = `/api/reports/${FLEET_REPORT}/data?${new URLSearchParams(PERIOD)}`;

describe.skipIf(!bin)('dashboard and list reads on a streaming replica (DATABASE_READ_URL)', () => {
  let cluster: ReplicaCluster;
  const handles: DatabaseHandle[] = [];
  const nodes: TestServer[] = [];
  const logged: string[][] = [[], []];
  let replica: pg.Client;

  /** The fleet dashboard's report text as `username` sees it through node `node`. */
  const information = async (node: number, username: string) => {
    const response = await (await nodes[node]!.as(username)).get(dashboardUrl);
    expect(response.statusCode).toBe(200);
    return (response.json() as { information: string | null }).information;
  };
  const writeInformation = async (node: number, text: string) => {
    const response = await (
      await nodes[node]!.as('admin')
    ).put(`/api/algorithm/reports/${FLEET_REPORT}/update-report`, { information: text });
    expect(response.statusCode).toBe(200);
  };
  const replayed = async () =>
    (await replica.query<{ lsn: string }>('select pg_last_wal_replay_lsn()::text as lsn')).rows[0]!.lsn;

  beforeAll(async () => {
    cluster = await startReplicaCluster(bin!);
    for (const node of [0, 1]) {
      const handle = await openDatabase({
        databaseUrl: cluster.primaryUrl,
        readUrl: cluster.replicaUrl,
        dataDir: 'memory://',
        log: { warn: (m) => logged[node]!.push(`warn: ${m}`), info: (m) => logged[node]!.push(`info: ${m}`) },
      });
      handles.push(handle);
      // The first node migrates and seeds; the second starts on the same database, as a second API process does.
      nodes.push(
        await startTestServer({
          database: handle,
          jobs: 'none',
          seed: node === 0,
          env: { DATABASE_URL: cluster.primaryUrl, DATABASE_READ_URL: cluster.replicaUrl },
        }),
      );
    }
    replica = new pg.Client({ connectionString: cluster.replicaUrl });
    // The last test stops the replica: this connection ends then (its queries after that fail, and are not made).
    replica.on('error', () => undefined);
    await replica.connect();
    // Everyone signs in before the test pauses replay (sign-in writes to the primary, and must not be in the way).
    for (const node of [0, 1])
      for (const username of ['admin', 'north.anna']) await nodes[node]!.tokenFor(username);
  }, 300_000);

  afterAll(async () => {
    await replica?.query('select pg_wal_replay_resume()').catch(() => undefined);
    await replica?.end().catch(() => undefined);
    for (const node of nodes) await node.close();
    for (const handle of handles) await handle.close();
    await cluster?.stop();
  });

  it('serves dashboards from the replica: with its replay paused, a reader sees the old text while the writer sees its own, on either node', async () => {
    await writeInformation(0, '<p>Before the pause</p>');
    await waitFor(() => information(1, 'north.anna'), {
      what: 'the replica to show North Anna the text written before the pause',
      until: (text) => text === '<p>Before the pause</p>',
    });

    await replica.query('select pg_wal_replay_pause()');
    await waitFor(
      async () => (await replica.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s,
      {
        what: 'replay to pause',
        until: (state) => state === 'paused',
      },
    );
    const pausedAt = await replayed();
    await writeInformation(0, '<p>Written during the pause</p>');

    // The writer reads its own write on the node it wrote through at once, and on the other node as soon as that
    // node has heard of the write (NOTIFY, within milliseconds).
    expect(await information(0, 'admin')).toBe('<p>Written during the pause</p>');
    await waitFor(() => information(1, 'admin'), {
      what: "the other node to send the writer's reads to the primary",
      until: (text) => text === '<p>Written during the pause</p>',
    });
    // The audit log (a list) shows the writer its own change too.
    const audit = await (await nodes[1]!.as('admin')).get('/api/audit-log?action=report.update&pageSize=25');
    expect(audit.statusCode).toBe(200);
    expect((audit.json() as { items: { detail: unknown }[] }).items.length).toBe(2);

    // Anyone else reads the replica, which has not replayed the write: the lagging answer proves where it came from.
    for (const node of [0, 1]) expect(await information(node, 'north.anna')).toBe('<p>Before the pause</p>');
    expect(await replayed()).toBe(pausedAt);

    await replica.query('select pg_wal_replay_resume()');
    // Replayed: the readers see it, and the answer cached under the old version is not served again on any node.
    for (const node of [0, 1])
      await waitFor(() => information(node, 'north.anna'), {
        what: `node ${node} to show North Anna the new text once the replica replayed it`,
        until: (text) => text === '<p>Written during the pause</p>',
      });
  });

  it('sends the writer back to the replica once it has replayed past the write', async () => {
    await writeInformation(1, '<p>Third text</p>');
    await waitFor(() => information(0, 'north.anna'), {
      what: 'the replica to replay the third text',
      until: (text) => text === '<p>Third text</p>',
    });
    // The writer's reads go back to the replica once it has replayed past the WAL location noted at the write, which
    // may lie beyond the report's change (other commits after it): wait for all the primary has written so far.
    const written = new pg.Client({ connectionString: cluster.primaryUrl });
    await written.connect();
    const lsn = (await written.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]!
      .lsn;
    await written.end();
    await waitFor(
      async () =>
        (await replica.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn]))
          .rows[0]!.ok,
      { what: 'the replica to replay past the write', until: (ok) => ok },
    );
    // Then, with replay paused, a change made behind the portal's back (so no read-your-writes for anyone) is not
    // seen by the writer either.
    await replica.query('select pg_wal_replay_pause()');
    await waitFor(
      async () => (await replica.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s,
      {
        what: 'replay to pause',
        until: (state) => state === 'paused',
      },
    );
    const primary = new pg.Client({ connectionString: cluster.primaryUrl });
    await primary.connect();
    try {
      await primary.query('update reports set information = $1 where id = $2', [
        '<p>Behind the back</p>',
        FLEET_REPORT,
      ]);
    } finally {
      await primary.end();
    }
    expect(await information(0, 'admin')).toBe('<p>Third text</p>');
    expect(await information(1, 'admin')).toBe('<p>Third text</p>');
    await replica.query('select pg_wal_replay_resume()');
    await waitFor(() => information(0, 'admin'), {
      what: 'the replica to replay the change behind the back',
      until: (text) => text === '<p>Behind the back</p>',
    });
  });

  it('keeps the portal working when the replica is down: reads go to the primary, with a warning', async () => {
    await cluster.stopReplica();
    await writeInformation(0, '<p>While the replica is down</p>');
    // North Anna did not write: her reads would go to the replica, which is down.
    for (const node of [0, 1]) {
      expect(await information(node, 'north.anna')).toBe('<p>While the replica is down</p>');
      const events = await (
        await nodes[node]!.as('north.anna')
      ).get(`/api/events?${new URLSearchParams(PERIOD)}`);
      expect(events.statusCode).toBe(200);
      expect(logged[node]!.some((line) => line.startsWith('warn: The read replica does not answer'))).toBe(
        true,
      );
    }

    await cluster.startReplica();
    await waitFor(
      async () => {
        await information(0, 'north.anna');
        return logged[0]!.some((line) => line.startsWith('info: The read replica answers again'));
      },
      {
        what: 'the portal to read from the replica again once it is back',
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
  });
});

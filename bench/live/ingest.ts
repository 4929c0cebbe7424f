/**
 * Samples per second through the broker into storage (issue 33, docs/decisions/0120-live-sparkplug-host.md; several
 * ships and PostgreSQL: issue 34, docs/decisions/0128-where-one-postgresql-stops.md): SHIPS edge nodes (raw mqtt +
 * sparkplug-payload, as the contract says), each its own Sparkplug edge node id = a bench ship, publish DDATA of
 * CHANNELS channels at once, one timestamp per message, each publish awaited before the ship's next (QoS 1), into the
 * embedded broker (or the machine's Mosquitto); the portal's host decodes, checks and stores them through
 * storage/samples.ts in stream_samples (PGlite in memory, or the PostgreSQL database DATABASE_URL names, emptied
 * first). Measured from the first publish until the host has handled the last message and every sample is stored.
 * Executions are not run (onStored counts only).
 *
 * The edge nodes run in a child process of their own, so that the CPU this process uses is the portal's (host,
 * and the embedded broker when there is no --mosquitto): the run reports CPU seconds per second of wall time of this
 * process, of the publishers, of the PostgreSQL backends of this database (pg_stat_activity's pids, /proc/<pid>/stat)
 * and of the machine as a whole (/proc/stat), so that the line says which one is the bottleneck.
 *
 * Run: npx tsx bench/live/ingest.ts [--smoke] [--mosquitto] [--ships N] [--messages M (per ship)] [--channels C]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import pg from 'pg';
import { startTestServer } from '../../apps/api/test/harness';
import {
  TestEdgeNode,
  streamDataSource,
  uploadToken,
  uniqueGroup,
  MOSQUITTO_URL,
} from '../../apps/api/test/live-fixtures';
import { waitFor } from '../../apps/api/test/wait';
import { startLive } from '../../apps/api/src/features/live';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

/** Channels per DDATA message (one sample of each per message); 20 unless --channels says. */
const CHANNELS = Number(option('--channels') ?? 20);

interface ShipPlan {
  facilityId: string;
  token: string;
  source: string;
}
type ToPublisher =
  | { kind: 'connect'; brokerUrl: string; groupId: string; ships: ShipPlan[]; messages: number }
  | { kind: 'publish' };
type FromPublisher = { kind: 'born' } | { kind: 'published'; seconds: number; cpuSeconds: number };

if (process.argv.includes('--publisher')) await publisher();
else await main();

/** The child: one TestEdgeNode per ship; on 'publish' every ship sends its messages, the ships at once. */
async function publisher() {
  const [plan] = (await once(process, 'message')) as [Extract<ToPublisher, { kind: 'connect' }>];
  const nodes = await Promise.all(
    plan.ships.map((s) => TestEdgeNode.connect(plan.brokerUrl, plan.groupId, s.facilityId, s.token)),
  );
  const channels = Array.from({ length: CHANNELS }, (_, i) => ({ name: `CH_${i}`, alias: i + 1 }));
  for (const [k, node] of nodes.entries()) {
    await node.nbirth();
    await node.dbirth(plan.ships[k]!.source, channels);
  }
  process.send!({ kind: 'born' } satisfies FromPublisher);
  await once(process, 'message');
  const t0 = Date.now() - 24 * 3600_000;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  await Promise.all(
    nodes.map(async (node, k) => {
      for (let m = 0; m < plan.messages; m++)
        await node.ddata(
          plan.ships[k]!.source,
          Array.from({ length: CHANNELS }, (_, i) => ({
            alias: i + 1,
            time: t0 + m * 1000,
            value: m + i / 10,
          })),
        );
    }),
  );
  const cpu = process.cpuUsage(cpuStart);
  process.send!({
    kind: 'published',
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  } satisfies FromPublisher);
  await Promise.all(nodes.map((n) => n.close()));
  process.disconnect();
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it has ended. */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (man proc) -> indexes 11 and 12 here.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Seconds a process's main thread has run on a core and waited in the run queue for one (/proc/<pid>/schedstat). */
function processSched(pid: number): { run: number; wait: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { run: run! / 1e9, wait: wait! / 1e9 };
  } catch {
    return { run: 0, wait: 0 };
  }
}

/** The machine's busy and total CPU seconds, from /proc/stat's first line. */
function machineCpu(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = ticks.map(Number);
  const idle = n[3]! + n[4]!;
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / 100, total: total / 100 };
}

async function main() {
  const smoke = process.argv.includes('--smoke');
  const mosquitto = process.argv.includes('--mosquitto');
  const ships = Number(option('--ships') ?? (smoke ? 2 : 1));
  // About 1 500 messages in all unless given: the run stays near the same length at any fleet size.
  const messages = Number(option('--messages') ?? (smoke ? 25 : Math.max(100, Math.ceil(1500 / ships))));
  const postgres = Boolean(process.env.DATABASE_URL);
  const loadStart = loadavg();

  const server = await startTestServer({ jobs: 'none' });
  const db = server.services.database.db;
  const organizationId = (
    await db
      .selectFrom('facilities')
      .select('primary_organization_id')
      .where('id', '=', Object.values(server.seed.facilityIds)[0]!)
      .executeTakeFirstOrThrow()
  ).primary_organization_id;
  const facilities = await db
    .insertInto('facilities')
    .values(
      Array.from({ length: ships }, (_, s) => ({
        name: `Bench live ship ${String(s + 1).padStart(3, '0')}`,
        imo: String(9_700_000 + s),
        primary_organization_id: organizationId,
      })),
    )
    .returning('id')
    .execute();
  const plan: ShipPlan[] = [];
  for (const { id } of facilities)
    plan.push({
      facilityId: id,
      token: (await uploadToken(server, id)).token,
      source: await streamDataSource(server, id),
    });

  const groupId = uniqueGroup();
  const live = await startLive(
    server.services,
    {
      MQTT_URL: mosquitto ? MOSQUITTO_URL : undefined,
      MQTT_PORT: 0,
      MQTT_HOST: '127.0.0.1',
      MQTT_GROUP_ID: groupId,
      MQTT_HOST_ID: `bench-${groupId}`,
      LIVE_EXECUTION_BATCH_SECONDS: 10,
    },
    pino({ level: 'silent' }),
    { onStored: async () => undefined },
  );
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    [...process.argv.slice(2), '--publisher'],
    {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    },
  );
  const fromChild = (kind: FromPublisher['kind']) =>
    new Promise<FromPublisher>((resolve, reject) => {
      const onMessage = (m: FromPublisher) => {
        if (m.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code: number | null) => reject(new Error(`the publishers ended (exit ${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const born = fromChild('born');
  child.send({
    kind: 'connect',
    brokerUrl: live.brokerUrl,
    groupId,
    ships: plan,
    messages,
  } satisfies ToPublisher);
  await born;
  const births = 2 * ships;
  await waitFor(() => live.host.counts.messages >= births, { what: `the host to receive ${births} births` });
  await live.host.idle();

  // The sampler below asks on a connection of its own, left out of the backends measured.
  const samplerClient = postgres ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : null;
  await samplerClient?.connect();
  const samplerPid = samplerClient
    ? (await samplerClient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    : 0;
  // The PostgreSQL backends serving the portal's pool on this database, for their CPU.
  const backends = async () =>
    samplerClient
      ? (
          await samplerClient.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1
               AND backend_type = 'client backend'`,
            [samplerPid],
          )
        ).rows.map((r) => r.pid)
      : [];
  const pgStart = new Map((await backends()).map((pid) => [pid, processCpu(pid)]));
  const pgSchedStart = new Map((await backends()).map((pid) => [pid, processSched(pid)]));
  const selfStart = processCpu(process.pid);
  const selfSchedStart = processSched(process.pid);
  const machineStart = machineCpu();
  // Where the host's statement is, sampled every 50 ms while the host works: in PostgreSQL ('active', with its
  // wait_event if it waits: WALSync = the commit's flush, Lock, IO ...) or not (no backend of this database active:
  // the portal is decoding, checking, or waiting for a core). The host sends one statement at a time.
  const states = new Map<string, number>();
  let sampling = postgres;
  const sampler = (async () => {
    while (sampling) {
      const rows = await samplerClient!.query<{ wait: string | null }>(
        `SELECT wait_event_type || ':' || wait_event AS wait FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> $1 AND backend_type = 'client backend' AND state = 'active'`,
        [samplerPid],
      );
      const key =
        rows.rows.length === 0
          ? 'none active'
          : `active${rows.rows[0]!.wait ? ` (${rows.rows[0]!.wait})` : ''}`;
      states.set(key, (states.get(key) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  const total = ships * messages;
  const published = fromChild('published');
  const started = performance.now();
  child.send({ kind: 'publish' } satisfies ToPublisher);
  const { seconds: publishSeconds, cpuSeconds: childCpu } = (await published) as Extract<
    FromPublisher,
    { kind: 'published' }
  >;
  await waitFor(() => live.host.counts.messages >= births + total, {
    what: `the host to receive ${births + total} messages (has ${live.host.counts.messages})`,
    timeoutMs: 30 * 60_000,
  });
  await live.host.idle();
  const seconds = (performance.now() - started) / 1000;

  const selfCpu = processCpu(process.pid) - selfStart;
  const selfSched = processSched(process.pid);
  const selfWait = selfSched.wait - selfSchedStart.wait;
  sampling = false;
  await sampler;
  let pgCpu = 0;
  let pgWait = 0;
  for (const pid of await backends()) {
    pgCpu += processCpu(pid) - (pgStart.get(pid) ?? 0);
    pgWait += processSched(pid).wait - (pgSchedStart.get(pid)?.wait ?? 0);
  }
  const machineEnd = machineCpu();
  const machineBusy = (machineEnd.busy - machineStart.busy) / seconds;

  const stored = live.host.counts.stored;
  if (stored !== total * CHANNELS) throw new Error(`stored ${stored} samples, expected ${total * CHANNELS}`);
  const rows = Number(
    (
      await db
        .selectFrom('stream_samples')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (rows !== total * CHANNELS)
    throw new Error(`stream_samples holds ${rows} rows, expected ${total * CHANNELS}`);

  const perSecond = stored / seconds;
  const core = (s: number) => `${((s / seconds) * 100).toFixed(0)} %`;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const sampled = [...states.values()].reduce((a, b) => a + b, 0);
  const backendStates = [...states]
    .sort((a, b) => b[1] - a[1])
    .map(([state, n]) => `${state} ${((n / sampled) * 100).toFixed(0)} %`)
    .join(', ');
  console.log(
    `live/ingest (${mosquitto ? 'Mosquitto' : 'embedded broker'}, ${postgres ? 'PostgreSQL' : 'PGlite'}): ` +
      `${ships} ship(s) x ${messages} messages x ${CHANNELS} channels = ${stored} samples in ${seconds.toFixed(2)} s ` +
      `(published in ${publishSeconds.toFixed(2)} s): ${Math.round(perSecond)} samples/s in all, ` +
      `${Math.round(perSecond / ships)} per ship (${Math.round(total / seconds)} messages/s); ` +
      `CPU of one core: portal process ${core(selfCpu)} (its main thread waited for a core ${core(selfWait)} ` +
      `of the time), publishers ${core(childCpu)}, ` +
      `${postgres ? `PostgreSQL backends ${core(pgCpu)} (waited for a core ${core(pgWait)}; sampled: ${backendStates}), ` : ''}machine ${(machineBusy * 100).toFixed(0)} % of ` +
      `${cpus().length} cores; CPU ${cpus()[0]?.model ?? '?'} x${cpus().length}, ` +
      `load ${load(loadStart)} -> ${load(loadavg())}`,
  );
  await samplerClient?.end();
  if (child.connected) await once(child, 'exit');
  await live.close();
  await server.close();
}

/**
 * Live alerts (issue 33, step 6; docs/decisions/0122-live-windows.md): from a sample **published on the ship** that
 * exceeds the limit to the e-mail in a real SMTP server's inbox (smtp-server) and the organization's webhook received
 * (a local HTTP receiver). The ship is a demo ship's gateway: an edge node (packages/edge, its disk buffer, signed in
 * with the ship's upload token) publishing the demo logger's samples over MQTT Sparkplug B to the broker: the
 * machine's Mosquitto (MQTT_URL, mqtt://127.0.0.1:1883 unless set; a group of its own) or, with `--embedded`, the
 * portal's embedded broker (aedes). The portal's host application (features/live) takes them in with the portal's
 * defaults (LIVE_EXECUTION_BATCH_SECONDS = 10 s: the touched ranges handed on by a timer), stores them and requests
 * the window execution; the workers run in this process on the real job queue with its default settings (polling
 * every QUEUE_POLLING_SECONDS = 1 s, LIVE_WINDOW_DEBOUNCE_SECONDS = 2 s).
 *
 * Each exceedance: ten minutes of normal samples published and executed, then the one sample (a minute) with SO2 at
 * 2,000 ppm while the scrubber runs: the clock starts when the edge node is handed it (`publish`), and runs until the
 * e-mail and the webhook of the event it opens arrive. Then the rest of its cycle (two more high minutes, then
 * normal) so the next exceedance is an event of its own; those phases are not timed and the host's batch is flushed
 * at once for them. Anna subscribes to every classification (a transient alerts at once; the default settings alert
 * on a malfunction, i.e. when the 15th minute of exceedance is stored: the same path from that sample). The samples
 * are the last hours before now, so the alerts are not backfills.
 *
 * Then the execute time of a window of 1 minute and of 10 minutes in a day of samples, against the whole day.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/live/alerts.ts [--runs 20] [--embedded]
 *      (its public schema is emptied; without DATABASE_URL: the embedded database in memory)
 * The table goes to bench/.work/live-alerts.md; bench/results/live-alerts.md records the runs.
 * --smoke: two exceedances and one timing of each window; fails when an e-mail or a webhook does not come.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALERT_CLASSIFICATIONS, DEFAULT_ALERT_SETTINGS } from '@portal/contracts/alerts';
import { EVENT_TYPES } from '@portal/contracts/events';
import { demoShips, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import { startTestServer, type TestServer } from '../../apps/api/test/harness';
import { startSmtpServer } from '../../apps/api/test/smtp-helpers';
import { samplesBetween, sliceSamples, storeStreamedSamples } from '../../apps/api/test/stream-helpers';
import {
  demoEdgeNode,
  startTestLive,
  uniqueGroup,
  uploadToken,
  type HandedRange,
} from '../../apps/api/test/live-fixtures';
import { startJobs } from '../../apps/api/src/features/jobs';
import { enginePortsOf } from '../../apps/api/src/features/engine-ports';
import { configureDemoDataSource } from '../../apps/api/src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../../apps/api/src/features/calculations/seed';
import { computePeriod, storeComputed } from '../../apps/api/src/features/executions/engine';
import { requestWindowExecution, runWindowExecution } from '../../apps/api/src/features/executions/live';
import { JOB_NAMES } from '../../apps/api/src/jobs';

const here = path.dirname(fileURLToPath(import.meta.url));
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const runsArg = process.argv.indexOf('--runs');
const RUNS = smoke ? 2 : runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;
const TIMINGS = smoke ? 1 : 5;
const embedded = process.argv.includes('--embedded');
const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const CYCLE = 15 * MIN;
const ADDRESS = 'anna@nordic.test';

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

async function startReceiver() {
  const received: { at: number; body: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ at: performance.now(), body: Buffer.concat(chunks).toString() });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/portal-alerts`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitUntil(
  check: () => boolean,
  what: string,
  timeoutMs = 120_000,
  meanwhile: () => Promise<void> = () => new Promise((r) => setTimeout(r, 20)),
) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not come within ${timeoutMs / 1000} s`);
    await meanwhile();
  }
}

/** A demo ship of the portal made ready to stream (its logger data source mapped, the default calculations). */
async function configuredShip(server: TestServer, ship: DemoShip, from: number) {
  const db = server.services.database.db;
  const facilityId = server.seed.facilityIds[ship.key]!;
  const dataSourceId = await configureDemoDataSource(db, ship, facilityId, `Gateway of ${ship.name}`);
  await seedDefaultMeasurementCalculations(db, facilityId, new Date(from));
  return { facilityId, dataSourceId };
}

const exceeding = (samples: DaySamples) => {
  samples.channels.SO2_PPM = samples.channels.SO2_PPM!.map(() => 2000);
  if (samples.channels.SCRUBBER_RUNNING)
    samples.channels.SCRUBBER_RUNNING = samples.channels.SCRUBBER_RUNNING.map(() => 1);
  return samples;
};

async function main() {
  const started = Date.now();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const server = await startTestServer({ jobs: 'none', env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  const smtp = await startSmtpServer();
  const receiver = await startReceiver();
  const db = server.services.database.db;
  const config = server.services.config;
  config.SMTP_URL = smtp.url;
  config.MAIL_FROM = 'Portal alerts <alerts@portal.test>';
  const queue = await startJobs(server.services, { work: true });
  const north = server.seed.organizationIds.north!;
  const anna = await server.as('north.anna');
  const subscribed = await anna.put('/api/profile/alert-subscription', {
    email: ADDRESS,
    settings: {
      ...DEFAULT_ALERT_SETTINGS,
      eventTypes: [...EVENT_TYPES],
      classifications: [...ALERT_CLASSIFICATIONS],
    },
  });
  if (subscribed.statusCode !== 200) throw new Error(`subscription: ${subscribed.body}`);
  const hook = await (
    await server.as('north.admin')
  ).post(`/api/organizations/${north}/webhooks`, {
    url: receiver.url,
    eventTypes: [...EVENT_TYPES],
  });
  if (hook.statusCode !== 201) throw new Error(`webhook: ${hook.body}`);
  const drained = () =>
    queue.drained(
      [JOB_NAMES.windowExecution, JOB_NAMES.alertFanOut, JOB_NAMES.alertEmail, JOB_NAMES.webhookDelivery],
      {
        timeoutMs: 300_000,
      },
    );

  // The portal's host on the broker, with the portal's own batch (LIVE_EXECUTION_BATCH_SECONDS).
  const groupId = uniqueGroup();
  const { live, requested } = await startTestLive(server, embedded ? 'embedded' : 'mosquitto', groupId, {
    mqttUrl: MQTT_URL,
    batchSeconds: config.LIVE_EXECUTION_BATCH_SECONDS,
  });
  const brokerUrl = embedded ? live.brokerUrl : MQTT_URL;
  const broker = embedded ? `the embedded broker (aedes, ${brokerUrl})` : `Mosquitto at ${live.brokerUrl}`;

  // The live ship and its edge node: the cycles end a minute before now.
  const ship = demoShips(6)[2]!;
  const now = Math.floor(Date.now() / MIN) * MIN;
  const start = now - RUNS * CYCLE - 30 * MIN;
  const target = await configuredShip(server, ship, start - DAY);
  const { token } = await uploadToken(server, target.facilityId);
  const edge = demoEdgeNode(ship, target, { mqttUrl: brokerUrl, groupId, token });
  const requestedThrough = (time: number) =>
    requested.some(
      (r: HandedRange) =>
        r.facilityId === target.facilityId && [...r.touched.values()].some((range) => range.to >= time),
    );
  /** An untimed phase: everything published reaches the host, its batch handed on at once, executed. */
  const settle = async (to: number | undefined) => {
    await edge.node.drained();
    if (to !== undefined)
      await waitUntil(
        () => requestedThrough(to),
        'the host to store and hand on the samples',
        60_000,
        // The host's batch flushed at once; then a pause, so that the sockets are read (idle() alone may not wait).
        async () => {
          await live.host.idle();
          await new Promise((r) => setTimeout(r, 20));
        },
      ).catch((error: Error) => {
        throw new Error(
          `${error.message} (the host's counts ${JSON.stringify(live.host.counts)}, the edge node's ${JSON.stringify(edge.node.stats)})`,
        );
      });
    await drained();
  };
  const samples = samplesBetween(ship, start, now);
  await settle(edge.publish(sliceSamples(samples, start, start + 30 * MIN))?.to);
  const setupSeconds = (Date.now() - started) / 1000;

  const mails: number[] = [];
  const hooks: number[] = [];
  const both: number[] = [];
  const handedOn: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const cycle = start + 30 * MIN + k * CYCLE;
    // Ten normal minutes, executed, then the first exceeding sample.
    await settle(edge.publish(sliceSamples(samples, cycle, cycle + 10 * MIN))?.to);
    const mailsBefore = smtp.received.filter((m) => m.to.includes(ADDRESS)).length;
    const hooksBefore = receiver.received.length;
    const high = exceeding(sliceSamples(samples, cycle + 10 * MIN, cycle + 11 * MIN));
    const t0 = performance.now();
    const published = edge.publish(high)!;
    let requestedAt = 0;
    let mailAt = 0;
    let hookAt = 0;
    await waitUntil(
      () => {
        if (!requestedAt && requestedThrough(published.to)) requestedAt = performance.now();
        if (!mailAt && smtp.received.filter((m) => m.to.includes(ADDRESS)).length > mailsBefore)
          mailAt = performance.now();
        if (!hookAt && receiver.received.length > hooksBefore) hookAt = receiver.received[hooksBefore]!.at;
        return requestedAt > 0 && mailAt > 0 && hookAt > 0;
      },
      `exceedance ${k + 1}'s e-mail and webhook`,
    );
    handedOn.push((requestedAt - t0) / 1000);
    mails.push((mailAt - t0) / 1000);
    hooks.push((hookAt - t0) / 1000);
    both.push((Math.max(mailAt, hookAt) - t0) / 1000);
    // The rest of the cycle: two more high minutes, then normal (the event ends; the next is another).
    edge.publish(exceeding(sliceSamples(samples, cycle + 11 * MIN, cycle + 13 * MIN)));
    await settle(edge.publish(sliceSamples(samples, cycle + 13 * MIN, cycle + CYCLE))?.to);
    console.log(
      `exceedance ${k + 1}/${RUNS}: requested ${handedOn.at(-1)!.toFixed(2)} s, e-mail ${mails.at(-1)!.toFixed(2)} s, webhook ${hooks.at(-1)!.toFixed(2)} s`,
    );
  }
  await edge.stop();
  await live.close();

  // Execute time: a day of samples of another ship, the whole day against windows of 1 and 10 minutes in it.
  const timed = demoShips(6)[0]!;
  const day = Math.floor(now / DAY) * DAY - 2 * DAY;
  const other = await configuredShip(server, timed, day);
  await storeStreamedSamples(db, timed, other, samplesBetween(timed, day, day + DAY));
  const ports = enginePortsOf(server.services);
  const wholeDay: number[] = [];
  for (let i = 0; i < TIMINGS; i++) {
    const t = performance.now();
    const computed = await computePeriod(
      db,
      {
        facilityId: other.facilityId,
        from: day,
        to: day + DAY,
        measurementFieldIds: 'all',
        reportFieldIds: 'all',
      },
      ports,
    );
    await db.transaction().execute((trx) => storeComputed(trx, computed, ports));
    wholeDay.push((performance.now() - t) / 1000);
  }
  const windowTimes = async (minutes: number) => {
    const times: number[] = [];
    const timings: Record<string, number> = {};
    const executed: { from: number; to: number }[] = [];
    // Windows no job takes meanwhile (a long debounce): executed here, timed.
    config.LIVE_WINDOW_DEBOUNCE_SECONDS = 60;
    for (let i = 0; i < TIMINGS; i++) {
      const from = day + 12 * HOUR + i * 17 * MIN;
      await requestWindowExecution(server.services, {
        facilityId: other.facilityId,
        dataSourceId: other.dataSourceId,
        from,
        to: from + minutes * MIN - 1,
      });
      const t = performance.now();
      const outcome = await runWindowExecution(
        server.services,
        ports,
        { facilityId: other.facilityId },
        { jobId: 'bench', retryCount: 0, retryLimit: 0 },
        { executed, timings },
      );
      if (outcome.status !== 'done') throw new Error(`window: ${JSON.stringify(outcome)}`);
      times.push((performance.now() - t) / 1000);
    }
    config.LIVE_WINDOW_DEBOUNCE_SECONDS = 2;
    const span = median(executed.map((w) => (w.to - w.from) / MIN));
    const steps = Object.entries(timings)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, ms]) => `${name} ${(ms / TIMINGS / 1000).toFixed(2)} s`)
      .join(', ');
    return { median: median(times), span, steps };
  };
  const oneMinute = await windowTimes(1);
  const tenMinutes = await windowTimes(10);

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const [r, m, h, b] = [sorted(handedOn), sorted(mails), sorted(hooks), sorted(both)];
  const row = (what: string, xs: number[]) =>
    `| ${what} | ${quantile(xs, 0.5).toFixed(2)} s | ${quantile(xs, 0.95).toFixed(2)} s | ${xs.at(-1)!.toFixed(2)} s |`;
  const kind = server.services.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const report = [
    `${kind}; an edge node publishing to ${broker}; the host's batch ${config.LIVE_EXECUTION_BATCH_SECONDS} s; workers in this process (polling ${config.QUEUE_POLLING_SECONDS} s, debounce 2 s); ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${load}, at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (a shared machine)`,
    '',
    `| exceeding sample published on the ship to (${RUNS} exceedances) | p50 | p95 | max |`,
    `| --- | --- | --- | --- |`,
    row('stored by the host, its window execution requested', r),
    row("e-mail in the SMTP server's inbox", m),
    row('webhook received', h),
    row('both', b),
    '',
    `| execute (median of ${TIMINGS}) | executed period | time | longest steps (mean) |`,
    `| --- | --- | --- | --- |`,
    `| window of 1 minute | ${oneMinute.span} min | ${oneMinute.median.toFixed(2)} s | ${oneMinute.steps} |`,
    `| window of 10 minutes | ${tenMinutes.span} min | ${tenMinutes.median.toFixed(2)} s | ${tenMinutes.steps} |`,
    `| whole day | 1440 min | ${median(wholeDay).toFixed(2)} s | |`,
    '',
    `setup ${setupSeconds.toFixed(1)} s, all ${((Date.now() - started) / 1000).toFixed(1)} s`,
  ].join('\n');
  console.log(report);
  mkdirSync(path.join(here, '..', '.work'), { recursive: true });
  writeFileSync(
    path.join(here, '..', '.work', smoke ? 'live-alerts-smoke.md' : 'live-alerts.md'),
    `${report}\n`,
  );
  await queue.stop();
  await server.close();
  await smtp.close();
  await receiver.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

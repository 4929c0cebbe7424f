/**
 * Live alerts (issue 33, step 6; docs/decisions/0122-live-windows.md): from a streamed sample that exceeds the limit
 * to the e-mail in a real SMTP server's inbox (smtp-server) and the organization's webhook received (a local HTTP
 * receiver). A demo ship streams as the MQTT host's ingest will: each batch stored through storage/samples.ts (the
 * API tests' storeStreamedSamples), then requestWindowExecution; the workers run in this process on the real job
 * queue with its default settings (polling every QUEUE_POLLING_SECONDS = 1 s, LIVE_WINDOW_DEBOUNCE_SECONDS = 2 s).
 *
 * Each exceedance: ten minutes of normal samples (one batch, executed), then the one sample (a minute) with SO2 at
 * 2,000 ppm while the scrubber runs, stored, the clock started, its window requested; the time until the e-mail and
 * the webhook of the event it opens arrive. Then the rest of its cycle (two more high minutes, then normal) so the
 * next exceedance is an event of its own. Anna subscribes to every classification (a transient alerts at once; the
 * default settings alert on a malfunction, i.e. when the 15th minute of exceedance is stored: the same path from
 * that sample). The samples are the last hours before now, so the alerts are not backfills.
 *
 * Then the execute time of a window of 1 minute and of 10 minutes in a day of samples, against the whole day.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/live/alerts.ts [--runs 20]
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

async function waitUntil(check: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not come within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function streamingShip(server: TestServer, ship: DemoShip, from: number) {
  const db = server.services.database.db;
  const facilityId = server.seed.facilityIds[ship.key]!;
  const dataSourceId = await configureDemoDataSource(db, ship, facilityId, `Gateway of ${ship.name}`);
  await seedDefaultMeasurementCalculations(db, facilityId, new Date(from));
  const target = { facilityId, dataSourceId };
  return {
    ...target,
    store: (samples: DaySamples) => storeStreamedSamples(db, ship, target, samples),
    request: (stored: { from: number; to: number }) =>
      requestWindowExecution(server.services, { ...target, ...stored }),
  };
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
  server.services.config.SMTP_URL = smtp.url;
  server.services.config.MAIL_FROM = 'Portal alerts <alerts@portal.test>';
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

  // The live ship: the cycles end a minute before now.
  const ship = demoShips(6)[2]!;
  const now = Math.floor(Date.now() / MIN) * MIN;
  const start = now - RUNS * CYCLE - 30 * MIN;
  const live = await streamingShip(server, ship, start - DAY);
  const samples = samplesBetween(ship, start, now);
  const first = await live.store(sliceSamples(samples, start, start + 30 * MIN));
  await live.request(first!);
  await drained();
  const setupSeconds = (Date.now() - started) / 1000;

  const mails: number[] = [];
  const hooks: number[] = [];
  const both: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const cycle = start + 30 * MIN + k * CYCLE;
    // Ten normal minutes, executed, then the first exceeding sample.
    const normal = await live.store(sliceSamples(samples, cycle, cycle + 10 * MIN));
    if (normal) await live.request(normal);
    await drained();
    const mailsBefore = smtp.received.filter((m) => m.to.includes(ADDRESS)).length;
    const hooksBefore = receiver.received.length;
    const high = exceeding(sliceSamples(samples, cycle + 10 * MIN, cycle + 11 * MIN));
    const stored = await live.store(high);
    const t0 = performance.now();
    await live.request(stored!);
    let mailAt = 0;
    let hookAt = 0;
    await waitUntil(
      () => {
        if (!mailAt && smtp.received.filter((m) => m.to.includes(ADDRESS)).length > mailsBefore)
          mailAt = performance.now();
        if (!hookAt && receiver.received.length > hooksBefore) hookAt = receiver.received[hooksBefore]!.at;
        return mailAt > 0 && hookAt > 0;
      },
      `exceedance ${k + 1}'s e-mail and webhook`,
    );
    mails.push((mailAt - t0) / 1000);
    hooks.push((hookAt - t0) / 1000);
    both.push((Math.max(mailAt, hookAt) - t0) / 1000);
    // The rest of the cycle: two more high minutes, then normal (the event ends; the next is another).
    const rest = await live.store(exceeding(sliceSamples(samples, cycle + 11 * MIN, cycle + 13 * MIN)));
    const tail = await live.store(sliceSamples(samples, cycle + 13 * MIN, cycle + CYCLE));
    if (rest) await live.request(rest);
    if (tail) await live.request(tail);
    await drained();
    console.log(
      `exceedance ${k + 1}/${RUNS}: e-mail ${mails.at(-1)!.toFixed(2)} s, webhook ${hooks.at(-1)!.toFixed(2)} s`,
    );
  }

  // Execute time: a day of samples of another ship, the whole day against windows of 1 and 10 minutes in it.
  const timed = demoShips(6)[0]!;
  const day = Math.floor(now / DAY) * DAY - 2 * DAY;
  const other = await streamingShip(server, timed, day);
  await other.store(samplesBetween(timed, day, day + DAY));
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
    server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 60;
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
    server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 2;
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
  const [m, h, b] = [sorted(mails), sorted(hooks), sorted(both)];
  const row = (what: string, xs: number[]) =>
    `| ${what} | ${quantile(xs, 0.5).toFixed(2)} s | ${quantile(xs, 0.95).toFixed(2)} s | ${xs.at(-1)!.toFixed(2)} s |`;
  const kind = server.services.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const report = [
    `${kind}; workers in this process (polling ${server.services.config.QUEUE_POLLING_SECONDS} s, debounce 2 s); ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${load}, at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (a shared machine)`,
    '',
    `| stored exceeding sample to (${RUNS} exceedances) | p50 | p95 | max |`,
    `| --- | --- | --- | --- |`,
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

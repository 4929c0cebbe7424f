/**
 * Alert latency (issue 19): from the upload of a logger file that contains a malfunction to the e-mail in a real
 * SMTP server's inbox and the organization's webhook received. Each run uploads one day of Straits Pioneer's logger
 * file (the demo fleet generator) with SO2 at the outlet eight times higher for 90 minutes while the scrubber is
 * required, through the API with an API key (scope files:upload), as the onboard uploader would: the upload queues
 * its execution, the engine derives the emission exceedance (a malfunction, report required), its alert commits with
 * it, the fan-out sends the e-mail job and the webhook delivery, the workers send them. The job queue runs with its
 * default settings (config.ts: polling every QUEUE_POLLING_SECONDS = 1 s), in this process.
 *
 * Each run is a different day (the last RUNS days), so each makes a new event; ALERTS_MAX_AGE_HOURS is raised to
 * cover them (the default, 72 h, would keep the older days quiet as backfills).
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/alerts/latency.ts [--runs 20]
 *      (its public schema is emptied; without DATABASE_URL: the embedded database in memory)
 * The run's table goes to bench/.work/alerts-latency.md; bench/results/alerts.md records the runs.
 * --smoke: one run, the same path; fails when the e-mail or the webhook does not come (its table to
 * bench/.work/alerts-latency-smoke.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoShips, generateShipDay, writeSamplesFile } from '@portal/demo-fleet';
import { startTestServer } from '../../apps/api/test/harness';
import { startSmtpServer } from '../../apps/api/test/smtp-helpers';
import { multipartFile } from '../../apps/api/test/upload-helpers';
import { prepareShips } from '../../apps/api/test/execution-fixtures';
import { startJobs } from '../../apps/api/src/features/jobs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DAY_MS = 86_400_000;
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const RUNS = Number(arg('--runs', smoke ? '1' : '20'));
const SHIP_KEY = 'straits_pioneer';
const ADDRESS = 'anna.latency@nordic.example';

/** The ship's logger file of `day` with a 90-minute SO2 excursion while the scrubber is required and running. */
async function excursionFile(day: number) {
  const ship = demoShips().find((s) => s.key === SHIP_KEY)!;
  const { samples } = generateShipDay(ship, new Date(day));
  const c = samples.channels as Record<string, Float64Array>;
  const required = (i: number) =>
    c.FUEL_FLOW![i]! > 100 && c.FUEL_SULFUR![i]! > 0.5 && c.SCRUBBER_RUNNING![i] === 1;
  let start = -1;
  for (let i = 0; i + 90 < samples.timestamps.length && start < 0; i++) {
    let all = true;
    for (let k = i; k < i + 90 && all; k++) all = required(k);
    if (all) start = i;
  }
  if (start < 0) return null;
  for (let k = start; k < start + 90; k++) c.SO2_PPM![k] = c.SO2_PPM![k]! * 8 + 60;
  return writeSamplesFile(ship, samples);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

async function main() {
  const smtp = await startSmtpServer();
  const arrivals: { at: number; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString() });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/portal`;

  const server = await startTestServer({
    jobs: 'none',
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Portal alerts <alerts@portal.test>',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      ALERTS_MAX_AGE_HOURS: String((RUNS + 3) * 24),
    },
  });
  const seenMails = () => smtp.received.filter((m) => m.to.includes(ADDRESS));
  const facilityId = server.seed.facilityIds[SHIP_KEY]!;
  const north = server.seed.organizationIds.north!;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  // The ship's data source and default calculations, with no data yet (the runs upload theirs).
  await prepareShips(server.services.database, { [SHIP_KEY]: facilityId }, 0, new Date(today));
  const queue = await startJobs(server.services, { work: true });

  const anna = await server.as('north.anna');
  const subscribed = await anna.put('/api/profile/alert-subscription', { email: ADDRESS, useDefaults: true });
  if (subscribed.statusCode !== 200) throw new Error(`subscription: ${subscribed.body}`);
  const admin = await server.as('north.admin');
  const hook = await admin.post(`/api/organizations/${north}/webhooks`, {
    url: hookUrl,
    eventTypes: ['emission-exceedance'],
  });
  if (hook.statusCode !== 201) throw new Error(`webhook: ${hook.body}`);
  const created = await admin.post(`/api/organizations/${north}/api-keys`, {
    name: 'Onboard uploader (latency bench)',
    scopes: ['files:upload'],
  });
  if (created.statusCode !== 201) throw new Error(`API key: ${created.body}`);
  const apiKey = (created.json() as { key: string }).key;
  const dataSource = await server.services.database.db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();

  const rows: { day: string; mailS: number; hookS: number }[] = [];
  for (let run = 0, day = today - DAY_MS; rows.length < RUNS && run < RUNS * 3; run++, day -= DAY_MS) {
    const file = await excursionFile(day);
    if (!file) continue; // a day in port: no 90 minutes with the scrubber required
    const mailsBefore = seenMails().length;
    const hooksBefore = arrivals.length;
    const { payload, headers } = multipartFile(file.fileName, file.content);
    const began = Date.now();
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/algorithm/facilitydatasource/${dataSource.id}/file`,
      payload,
      headers: { ...headers, authorization: `Bearer ${apiKey}` },
    });
    if (response.statusCode >= 300) throw new Error(`upload: ${response.statusCode} ${response.body}`);
    const deadline = began + 120_000;
    let mailAt = 0;
    let hookAt = 0;
    while ((!mailAt || !hookAt) && Date.now() < deadline) {
      const mails = seenMails();
      if (!mailAt && mails.length > mailsBefore) mailAt = Date.now();
      if (!hookAt && arrivals.length > hooksBefore) hookAt = arrivals.at(-1)!.at;
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!mailAt || !hookAt)
      throw new Error(`run ${rows.length + 1}: no ${mailAt ? 'webhook' : 'e-mail'} in 120 s`);
    const row = {
      day: new Date(day).toISOString().slice(0, 10),
      mailS: (mailAt - began) / 1000,
      hookS: (hookAt - began) / 1000,
    };
    rows.push(row);
    console.log(
      `run ${rows.length}: ${row.day} e-mail ${row.mailS.toFixed(2)} s, webhook ${row.hookS.toFixed(2)} s`,
    );
    // Let the run's other alerts (a resolution, transients) go out before the next upload starts its clock.
    if (rows.length < RUNS) await new Promise((r) => setTimeout(r, 3000));
  }
  if (rows.length < RUNS)
    throw new Error(`only ${rows.length} of ${RUNS} days had 90 minutes with the scrubber required`);
  const mails = rows.map((r) => r.mailS).sort((a, b) => a - b);
  const hooks = rows.map((r) => r.hookS).sort((a, b) => a - b);
  const both = rows.map((r) => Math.max(r.mailS, r.hookS)).sort((a, b) => a - b);
  const kind = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');
  const report = [
    `# Alert latency: upload to e-mail and webhook (${kind})`,
    '',
    `${new Date().toISOString().slice(0, 16)}Z, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ` +
      `load ${load}; ${rows.length} runs, the job queue's default polling (1 s).`,
    '',
    '| | p50 | p95 | max |',
    '|---|---|---|---|',
    `| e-mail in the SMTP server's inbox | ${quantile(mails, 0.5).toFixed(2)} s | ${quantile(mails, 0.95).toFixed(2)} s | ${mails.at(-1)!.toFixed(2)} s |`,
    `| webhook received | ${quantile(hooks, 0.5).toFixed(2)} s | ${quantile(hooks, 0.95).toFixed(2)} s | ${hooks.at(-1)!.toFixed(2)} s |`,
    `| both | ${quantile(both, 0.5).toFixed(2)} s | ${quantile(both, 0.95).toFixed(2)} s | ${both.at(-1)!.toFixed(2)} s |`,
    '',
    'Goal: under 30 s.',
    '',
  ].join('\n');
  mkdirSync(path.join(here, '..', '.work'), { recursive: true });
  writeFileSync(
    path.join(here, '..', '.work', smoke ? 'alerts-latency-smoke.md' : 'alerts-latency.md'),
    report,
  );
  console.log(report);
  await queue.stop();
  await server.close();
  await smtp.close();
  receiver.closeAllConnections();
  receiver.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

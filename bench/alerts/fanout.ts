/**
 * Alert fan-out under a fleet-wide event storm (issue 19): 100 ships with 10 subscribers each (Users of the ship's
 * organization, assigned to it, with an e-mail address and the default settings: malfunctions and reports due, by
 * e-mail and in the portal), then 1,000 malfunction events (10 per ship) written through the engine's store step
 * (storeComplianceEvents in one transaction per ship, the fan-out job sent in it, as run.ts does). The workers run
 * in this process on the real job queue and send to a real SMTP server (smtp-server) started here. Every e-mail must
 * arrive, none twice (counted by Message-ID and by idempotency key).
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/alerts/fanout.ts [--smoke]
 *      (without DATABASE_URL: the embedded database in memory)
 * The run's table goes to bench/.work/alerts.md; bench/results/alerts.md records the runs.
 * --smoke: 3 ships x 2 subscribers x 2 events, the same path and the same check (its table to
 * bench/.work/alerts-smoke.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { startTestServer } from '../../apps/api/test/harness';
import { startJobs } from '../../apps/api/src/features/jobs';
import { storeComplianceEvents } from '../../apps/api/src/features/executions/store-events';
import type { DerivedEvent } from '../../apps/api/src/features/executions/compliance-events';
import { JOB_NAMES } from '../../apps/api/src/jobs';
import { alertOutbox } from '../../apps/api/src/features/alerts/outbox';

const here = path.dirname(fileURLToPath(import.meta.url));
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const SHIPS = smoke ? 3 : 100;
const SUBSCRIBERS = smoke ? 2 : 10;
const EVENTS_PER_SHIP = smoke ? 2 : 10;
/** How long after the last e-mail a duplicate would still be noticed. */
const QUIET_MS = smoke ? 2000 : 5000;
const MIN = 60_000;
const HOUR = 60 * MIN;

async function main() {
  const started = Date.now();
  // The SMTP server: reads the headers that count (Message-ID, the idempotency key) of every message it takes.
  const messageIds: string[] = [];
  const keys: string[] = [];
  let lastArrival = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const headers = head.split(/\r?\n\r?\n/)[0] ?? '';
        messageIds.push(/^message-id:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '');
        keys.push(/^x-portal-idempotency-key:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '');
        lastArrival = Date.now();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as { port: number }).port;

  const server = await startTestServer({ jobs: 'none' });
  const { db } = server.services.database;
  server.services.config.SMTP_URL = `smtp://127.0.0.1:${port}`;

  // 100 ships of a bench organization, each with 10 Users assigned to it and an address each.
  const organization = await db
    .insertInto('organizations')
    .values({ name: 'Bench Shipping', link_key: 'BENCH01', email: 'ops@bench.example' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const hash = (
    await db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'north.anna')
      .executeTakeFirstOrThrow()
  ).password_hash;
  const ships = await db
    .insertInto('facilities')
    .values(
      Array.from({ length: SHIPS }, (_, s) => ({
        name: `Bench ship ${String(s + 1).padStart(3, '0')}`,
        imo: String(9_800_000 + s),
        primary_organization_id: organization.id,
      })),
    )
    .returning('id')
    .execute();
  for (const [s, ship] of ships.entries()) {
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: SUBSCRIBERS }, (_, k) => ({
          username: `bench.s${s}.u${k}`,
          password_hash: hash,
          role: 'User' as const,
          organization_id: organization.id,
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('user_facility_access')
      .values(users.map((u) => ({ user_id: u.id, facility_id: ship.id })))
      .execute();
    await db
      .insertInto('alert_subscriptions')
      .values(users.map((u, k) => ({ user_id: u.id, email: `s${s}.u${k}@bench.example`, settings: null })))
      .execute();
  }
  // The demo's SystemAdmin sees every ship: it gets the alerts in the portal too (it has no address, so no e-mail).
  const queue = await startJobs(server.services, { work: true });
  const setupSeconds = (Date.now() - started) / 1000;

  // The storm: 10 malfunctions per ship in the last hours, one store step per ship.
  const now = Date.now();
  const from = Math.floor(now / HOUR) * HOUR - 12 * HOUR;
  const stormStart = performance.now();
  for (const ship of ships) {
    const events: DerivedEvent[] = Array.from({ length: EVENTS_PER_SHIP }, (_, i) => ({
      type: i % 2 ? 'scrubber-off' : 'emission-exceedance',
      start: from + i * HOUR,
      end: from + i * HOUR + (20 + i * 10) * MIN,
      ongoing: false,
      worstValue: i % 2 ? null : 30 + i,
      limit: i % 2 ? null : 21.7,
      startPosition: null,
      endPosition: null,
      classification: 'malfunction',
      reportRequired: 20 + i * 10 > 60,
      channel: null,
      fault: null,
    }));
    await db.transaction().execute((trx) =>
      storeComplianceEvents(
        trx,
        ship.id,
        { windowFrom: from, windowTo: from + 12 * HOUR, events, rules: DEFAULT_EVENT_RULES },
        alertOutbox({
          maxAgeHours: 72,
          notify: async (t) => {
            await queue.sendInTransaction(t, JOB_NAMES.alertFanOut, {});
          },
        }),
      ),
    );
  }
  const stored = performance.now();
  const expected = SHIPS * EVENTS_PER_SHIP * SUBSCRIBERS;
  const deadline = Date.now() + (smoke ? 2 : 30) * 60_000;
  let fannedOutAt = 0;
  while (messageIds.length < expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    if (!fannedOutAt) {
      const left = await db
        .selectFrom('alerts')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('fanned_out_on', 'is', null)
        .executeTakeFirstOrThrow();
      if (left.n === 0) fannedOutAt = performance.now();
    }
  }
  const done = performance.now();
  // A while longer: anything sent twice would arrive now.
  await new Promise((r) => setTimeout(r, QUIET_MS));

  const counts = (
    await sql<{ alerts: number; email: number; sent: number; inApp: number; messages: number }>`
      select (select count(*) from alerts)::int as alerts,
             (select count(*) from alert_deliveries where channel = 'email')::int as email,
             (select count(*) from alert_deliveries where channel = 'email' and status = 'sent')::int as sent,
             (select count(*) from alert_deliveries where channel = 'in-app')::int as "inApp",
             (select count(*) from messages where type = 'Alert')::int as messages`.execute(db)
  ).rows[0]!;
  const uniqueIds = new Set(messageIds).size;
  const uniqueKeys = new Set(keys).size;
  const seconds = (done - stormStart) / 1000;
  const lines = [
    `| measure | value |`,
    `| --- | --- |`,
    `| ships × subscribers | ${SHIPS} × ${SUBSCRIBERS} |`,
    `| events stored (malfunctions, one store step per ship) | ${SHIPS * EVENTS_PER_SHIP} in ${((stored - stormStart) / 1000).toFixed(1)} s |`,
    `| alerts in the outbox | ${counts.alerts} |`,
    `| all alerts fanned out after | ${fannedOutAt ? ((fannedOutAt - stormStart) / 1000).toFixed(1) : '–'} s |`,
    `| e-mails expected / received | ${expected} / ${messageIds.length} |`,
    `| distinct Message-IDs / idempotency keys received | ${uniqueIds} / ${uniqueKeys} |`,
    `| e-mail deliveries sent / written | ${counts.sent} / ${counts.email} |`,
    `| in-app deliveries / personal messages | ${counts.inApp} / ${counts.messages} |`,
    `| storm to last e-mail | ${seconds.toFixed(1)} s (${(messageIds.length / seconds).toFixed(0)} e-mails/s; last arrival ${((lastArrival - started) / 1000).toFixed(1)} s after start) |`,
    `| setup (database, ${SHIPS} ships, ${(SHIPS * SUBSCRIBERS).toLocaleString('en-US')} users) | ${setupSeconds.toFixed(1)} s |`,
  ];
  const context = `${server.services.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}; workers in this process (QUEUE_CONCURRENCY 1 per queue, polling ${server.services.config.QUEUE_POLLING_SECONDS} s); ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${loadavg()[0]!.toFixed(2)}`;
  const report = `${context}\n\n${lines.join('\n')}\n`;
  console.log(report);
  mkdirSync(path.join(here, '..', '.work'), { recursive: true });
  writeFileSync(path.join(here, '..', '.work', smoke ? 'alerts-smoke.md' : 'alerts.md'), report);
  const ok = messageIds.length === expected && uniqueIds === expected && uniqueKeys === expected;
  await queue.stop();
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  if (!ok) {
    console.error('FAILED: not every e-mail arrived exactly once');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

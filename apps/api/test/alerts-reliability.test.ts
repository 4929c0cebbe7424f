import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './harness';
import { FAST_QUEUE } from './execution-fixtures';
import { WORKER_WITH_HOOKS, killAll, spawnServer, until, type ServerProcess } from './processes';
import { startSmtpServer, type TestSmtpServer } from './smtp-helpers';
import { csvShipWithData } from './upload-helpers';
import { JOB_NAMES, type Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { enqueueExecution } from '../src/features/executions/derived';

/**
 * Alerts are never lost and never sent twice when a worker dies (ARCHITECTURE "Compliance: events, record book,
 * alerts"): workers are real processes (src/main.ts --services=worker with test hooks) on PostgreSQL, killed with
 * SIGKILL between the event and the send; a fresh worker delivers the e-mail, once, to a real SMTP server.
 */
const DATABASE_URL = process.env.DATABASE_URL;
/** The jobs between an execution and its alert's e-mail (the barrier before "exactly once" is counted). */
const ALERT_PATH = [JOB_NAMES.execution, JOB_NAMES.alertFanOut, JOB_NAMES.alertEmail, JOB_NAMES.alertSweep];
const MIN = 60_000;
const HOUR = 60 * MIN;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
];

/** Six recent hours a minute apart, at sea and compliant, but for a 90-minute scrubber stop while required. */
function loggerFile(from: number): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (let i = 0; i < 6 * 60; i++) {
    const t = from + i * MIN;
    const running = i >= 120 && i < 210 ? 0 : 1;
    const row = [1000, 2.5, 20 + (i % 5) * 0.1, 5 + (i % 3) * 0.01, running, 40 + i * 1e-5, -30 + i * 1e-5];
    lines.push([new Date(t).toISOString().replace('T', ' ').slice(0, 19), ...row].join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe.skipIf(!DATABASE_URL)('alert delivery across worker crashes (PostgreSQL)', () => {
  let server: TestServer;
  let queue: Queue;
  let smtp: TestSmtpServer;
  let northShips: string[];

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    smtp = await startSmtpServer();
    // This process sends jobs only; the workers are the child processes.
    queue = await startJobs(server.services, { work: false, tuning: FAST_QUEUE });
    const anna = await server.as('north.anna');
    const subscribed = await anna.put('/api/profile/alert-subscription', {
      email: 'anna@crash.test',
      useDefaults: true,
    });
    expect(subscribed.statusCode).toBe(200);
    northShips = ((await anna.get('/api/facilities')).json() as { id: string }[]).map((f) => f.id);
  }, 180_000);

  afterAll(async () => {
    await killAll();
    await queue?.stop();
    await server?.close();
    await smtp?.close();
  });

  const db = () => server.services.database.db;

  /** A ship's logger file with the stop, uploaded through the API, and its execution queued. */
  async function uploadAndExecute(facilityId: string): Promise<string> {
    const from = Math.floor(Date.now() / HOUR) * HOUR - 7 * HOUR;
    // The test queues the execution itself, once the default calculations are there.
    await csvShipWithData(server, facilityId, {
      channels: CHANNELS,
      fileName: 'stop.csv',
      content: loggerFile(from),
    });
    return enqueueExecution(server.services, {
      facilityId,
      from: new Date(from),
      to: new Date(from + 6 * HOUR - 1),
    });
  }

  const worker = (env: Record<string, string> = {}, entry?: string): ServerProcess =>
    spawnServer({
      databaseUrl: DATABASE_URL!,
      services: 'worker',
      env: { SMTP_URL: smtp.url, ...env },
      ...(entry ? { entry } : {}),
    });

  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  it('killed right after the events and their alert commit: after a restart, exactly one e-mail', async () => {
    const ship = northShips[0]!;
    const crashing = worker({ EXECUTION_TEST_CRASH_AFTER_COMMIT: '1' }, WORKER_WITH_HOOKS);
    const executionId = await uploadAndExecute(ship);
    await crashing.exited;
    // Committed: the execution, the event and its alert; nothing sent yet.
    const execution = await db()
      .selectFrom('executions')
      .select('state')
      .where('id', '=', executionId)
      .executeTakeFirstOrThrow();
    expect(execution.state).toBe('done');
    const alerts = await db()
      .selectFrom('alerts')
      .select(['id', 'kind', 'fanned_out_on'])
      .where('facility_id', '=', ship)
      .execute();
    expect(alerts.filter((a) => a.kind === 'opened')).toHaveLength(1);
    expect(alerts.every((a) => a.fanned_out_on === null)).toBe(true);
    expect(mailsTo('anna@crash.test')).toHaveLength(0);

    worker();
    await until(async () => mailsTo('anna@crash.test').length >= 1, 90_000, 'the e-mail after the restart');
    // Every job of the alert's way has run, the killed worker's execution job too (retried once its heartbeat
    // stopped): no second e-mail came.
    await queue.drained(ALERT_PATH, { timeoutMs: 120_000 });
    const mails = mailsTo('anna@crash.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Scrubber off while required (malfunction, report required)');
    expect(mails[0]!.text).toContain('Duration: 1 h 30 min');
  }, 240_000);

  it('killed when the e-mail is about to be sent: the retried job sends it, once', async () => {
    await killAll();
    const ship = northShips[1]!;
    const crashing = worker({ ALERTS_TEST_CRASH_BEFORE_SEND: '1' }, WORKER_WITH_HOOKS);
    const before = mailsTo('anna@crash.test').length;
    await uploadAndExecute(ship);
    await crashing.exited;
    const pending = await sql<{ status: string; n: number }>`
      select d.status, count(*)::int as n from alert_deliveries d join alerts a on a.id = d.alert_id
      where a.facility_id = ${ship} and d.channel = 'email' group by d.status`.execute(db());
    expect(pending.rows).toEqual([{ status: 'pending', n: 1 }]);

    worker();
    await until(
      async () => mailsTo('anna@crash.test').length > before,
      120_000,
      'the e-mail after the restart',
    );
    await queue.drained(ALERT_PATH, { timeoutMs: 120_000 });
    expect(mailsTo('anna@crash.test')).toHaveLength(before + 1);
    const sent = await sql<{ status: string; attempts: number }>`
      select d.status, d.attempts from alert_deliveries d join alerts a on a.id = d.alert_id
      where a.facility_id = ${ship} and d.channel = 'email'`.execute(db());
    expect(sent.rows).toEqual([{ status: 'sent', attempts: 1 }]);
    // One Message-ID per delivery, whatever the retries.
    const ids = smtp.received.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  }, 240_000);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@portal/contracts/events';
import { demoShips, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import { startTestServer, type TestServer } from './harness';
import { FAST_QUEUE, snapshot } from './execution-fixtures';
import { startSmtpServer, type TestSmtpServer } from './smtp-helpers';
import { samplesBetween, sliceSamples, storeStreamedSamples } from './stream-helpers';
import { waitFor } from './wait';
import { MOSQUITTO_URL, demoEdgeNode, requestedThrough, startTestLive, uploadToken } from './live-fixtures';
import { JOB_NAMES, type Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { enginePortsOf } from '../src/features/engine-ports';
import { configureDemoDataSource } from '../src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { requestWindowExecution, runWindowExecution, type TimeWindow } from '../src/features/executions/live';

/**
 * Live windows (issue 33, step 6; docs/decisions/0122-live-windows.md): samples stored as a stream stores them,
 * then requestWindowExecution, the window-execution job on the real queue, the alert path to a real SMTP
 * conversation and a local webhook receiver. No fixed sleeps: each wait is for a condition or the queue's drain.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let server: TestServer;
let queue: Queue;
let smtp: TestSmtpServer;
let receiver: { url: string; received: string[]; close: () => Promise<void> };
const ships = demoShips(6);
const db = () => server.services.database.db;

async function startReceiver() {
  const received: string[] = [];
  const http_ = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString());
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => http_.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http_.address() as AddressInfo).port}/portal-alerts`,
    received,
    close: () => {
      http_.closeAllConnections();
      return new Promise<void>((resolve) => http_.close(() => resolve()));
    },
  };
}

/** A demo ship made ready to stream: its logger data source with the channels mapped, the default calculations. */
async function configuredShip(ship: DemoShip, from: number) {
  const facilityId = server.seed.facilityIds[ship.key]!;
  const dataSourceId = await configureDemoDataSource(db(), ship, facilityId, `Gateway of ${ship.name}`);
  await seedDefaultMeasurementCalculations(db(), facilityId, new Date(from));
  return { facilityId, dataSourceId };
}

/** A configured demo ship whose batches are stored as the stream's ingest stores them, then their window asked for. */
async function streamingShip(ship: DemoShip, from: number) {
  const target = await configuredShip(ship, from);
  /** Stores a batch and asks for its window, as the stream's ingest does. */
  const stream = async (samples: DaySamples) => {
    const stored = await storeStreamedSamples(db(), ship, target, samples);
    if (stored) await requestWindowExecution(server.services, { ...target, ...stored });
    return stored;
  };
  return { ...target, stream };
}

const windowJobs = async (facilityId: string) => {
  const { rows } = await sql<{ state: string; count: number }>`
    select state::text as state, count(*)::int as count from pgboss.job
    where name = ${JOB_NAMES.windowExecution} and singleton_key = ${facilityId} group by state`.execute(db());
  return Object.fromEntries(rows.map((r) => [r.state, r.count]));
};

const drained = () =>
  queue.drained(
    [JOB_NAMES.windowExecution, JOB_NAMES.alertFanOut, JOB_NAMES.alertEmail, JOB_NAMES.webhookDelivery],
    {
      timeoutMs: 240_000,
    },
  );

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none', env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  server.services.config.SMTP_URL = smtp.url;
  server.services.config.MAIL_FROM = 'Portal alerts <alerts@portal.test>';
  server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 1;
  queue = await startJobs(server.services, { work: true, tuning: FAST_QUEUE });
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await server?.close();
  await smtp?.close();
  await receiver?.close();
});

describe('live windows', () => {
  it('windows executed as the samples arrive store what executing the whole day stores; late data re-derives its window only', async () => {
    const ship = ships[0]!;
    const day = Date.UTC(2025, 2, 9);
    const live = await streamingShip(ship, day);
    const samples = samplesBetween(ship, day, day + 6 * HOUR);
    // An exceedance from 01:50 to 02:30, across the batches' edges and the late batch's.
    samples.timestamps.forEach((t, i) => {
      if (t >= day + HOUR + 50 * MIN && t < day + 2 * HOUR + 30 * MIN) {
        samples.channels.SO2_PPM![i] = 2000;
        if (samples.channels.SCRUBBER_RUNNING) samples.channels.SCRUBBER_RUNNING[i] = 1;
      }
    });
    // Six hours in batches of 20 minutes, each executed before the next arrives; 02:00-02:20 held back (late).
    const late = { from: day + 2 * HOUR, to: day + 2 * HOUR + 20 * MIN };
    for (let t = day; t < day + 6 * HOUR; t += 20 * MIN) {
      if (t === late.from) continue;
      await live.stream(sliceSamples(samples, t, t + 20 * MIN));
      await drained();
    }
    // The late batch, with the job held off (a long debounce): executed here, to see which window it re-derives.
    server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 60;
    await live.stream(sliceSamples(samples, late.from, late.to));
    const executed: TimeWindow[] = [];
    const ports = enginePortsOf(server.services);
    const outcome = await runWindowExecution(
      server.services,
      ports,
      { facilityId: live.facilityId },
      { jobId: 'test', retryCount: 0, retryLimit: 0 },
      { executed },
    );
    server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 1;
    expect(outcome).toEqual({ status: 'done' });
    // The touched 20 minutes, from the hour that holds them to the hour the calculations' reach ends in.
    expect(executed).toHaveLength(1);
    expect(executed[0]!.from).toBe(late.from);
    expect(executed[0]!.to).toBeLessThanOrEqual(late.to + 2 * HOUR);
    expect(
      await db()
        .selectFrom('execution_windows')
        .where('facility_id', '=', live.facilityId)
        .selectAll()
        .execute(),
    ).toEqual([]);
    const liveSnapshot = await snapshot(db(), live.facilityId);
    const recordBook = async () =>
      Number(
        (
          await db()
            .selectFrom('record_book_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('facility_id', '=', live.facilityId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const entries = await recordBook();
    expect(liveSnapshot.measurement.length).toBeGreaterThan(0);
    expect(liveSnapshot.report.length).toBeGreaterThan(0);
    expect(liveSnapshot.events.length).toBeGreaterThan(0);

    // The whole day at once over the same samples replaces everything and stores exactly the same.
    const computed = await computePeriod(
      db(),
      {
        facilityId: live.facilityId,
        from: day,
        to: day + DAY,
        measurementFieldIds: 'all',
        reportFieldIds: 'all',
      },
      ports,
    );
    await db()
      .transaction()
      .execute((trx) => storeComputed(trx, computed, ports));
    const daySnapshot = await snapshot(db(), live.facilityId);
    expect(liveSnapshot.report).toEqual(daySnapshot.report);
    expect(liveSnapshot.daily).toEqual(daySnapshot.daily);
    expect(liveSnapshot.events).toEqual(daySnapshot.events);
    // The values: the same chunks per field and day, the same timestamps and values (hashed).
    expect(liveSnapshot.measurement).toEqual(daySnapshot.measurement);
    // The events matched the stored ones: the record book got nothing new.
    expect(await recordBook()).toBe(entries);
  }, 600_000);

  it("coalesces a busy ship's requests: one window row per data source, one job waiting and one running at most", async () => {
    const ship = ships[1]!;
    const day = Date.UTC(2025, 2, 9);
    const live = await streamingShip(ship, day);
    const samples = samplesBetween(ship, day, day + HOUR);
    // Sixty batches of a minute, as fast as they come, with no wait for the executions.
    let most = 0;
    for (let t = day; t < day + HOUR; t += MIN) {
      await live.stream(sliceSamples(samples, t, t + MIN));
      const jobs = await windowJobs(live.facilityId);
      most = Math.max(most, (jobs.created ?? 0) + (jobs.retry ?? 0));
      expect(jobs.active ?? 0).toBeLessThanOrEqual(1);
      const rows = await db()
        .selectFrom('execution_windows')
        .select('windows')
        .where('facility_id', '=', live.facilityId)
        .execute();
      expect(rows.length).toBeLessThanOrEqual(1);
    }
    expect(most).toBe(1);
    await drained();
    const jobs = await windowJobs(live.facilityId);
    // Far fewer executions than batches (each request joined the waiting job's windows).
    expect(jobs.completed ?? 0).toBeGreaterThanOrEqual(1);
    expect(jobs.completed ?? 0).toBeLessThan(60);
    expect(
      await db()
        .selectFrom('execution_windows')
        .where('facility_id', '=', live.facilityId)
        .selectAll()
        .execute(),
    ).toEqual([]);
    // Every minute streamed got its values.
    const stored = await db()
      .selectFrom('measurement_values')
      .select(['row_count'])
      .where('facility_id', '=', live.facilityId)
      .execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(Math.max(...stored.map((s) => s.row_count))).toBeGreaterThanOrEqual(samples.timestamps.length - 1);
  }, 600_000);

  it("a live exceedance published by the ship's edge node to Mosquitto produces an event, an e-mail and a webhook within a minute", async () => {
    const ship = ships[2]!;
    const north = server.seed.organizationIds.north!;
    const admin = await server.as('north.admin');
    const hook = await admin.post(`/api/organizations/${north}/webhooks`, {
      url: receiver.url,
      eventTypes: [...EVENT_TYPES],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const subscribed = await (
      await server.as('north.anna')
    ).put('/api/profile/alert-subscription', {
      email: 'anna@nordic.test',
      useDefaults: true,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const now = Math.floor(Date.now() / MIN) * MIN;
    const start = now - 2 * HOUR;
    const target = await configuredShip(ship, start - DAY);
    // The ship's gateway: an edge node (packages/edge) signed in with the ship's upload token, publishing to the
    // machine's Mosquitto; the portal's host reads the group and requests the windows' execution.
    const started = await startTestLive(server, 'mosquitto');
    const { token } = await uploadToken(server, target.facilityId);
    const edge = demoEdgeNode(ship, target, { mqttUrl: MOSQUITTO_URL, groupId: started.groupId, token });
    try {
      const samples = samplesBetween(ship, start, now);
      const normal = edge.publish(sliceSamples(samples, start, now - 30 * MIN))!;
      await requestedThrough(started.requested, target.facilityId, normal.to, 120_000);
      await drained();
      const recent = () =>
        db()
          .selectFrom('compliance_events')
          .select(['id', 'type'])
          .where('facility_id', '=', target.facilityId)
          .where('start_on', '>=', new Date(now - 31 * MIN))
          .execute();
      expect(await recent()).toEqual([]);
      // The last half hour: the scrubber running, SO2 far above any limit for 30 minutes.
      const exceeding = sliceSamples(samples, now - 30 * MIN, now);
      exceeding.channels.SO2_PPM = exceeding.channels.SO2_PPM!.map(() => 2000);
      if (exceeding.channels.SCRUBBER_RUNNING)
        exceeding.channels.SCRUBBER_RUNNING = exceeding.channels.SCRUBBER_RUNNING.map(() => 1);
      const mails = smtp.received.length;
      const hooks = receiver.received.length;
      edge.publish(exceeding);
      // Each within a minute of the publish (the budget; bench/live/alerts.ts measures the path).
      const opened = await waitFor(recent, {
        what: 'an event of the exceedance',
        until: (rows) => rows.length > 0,
        timeoutMs: 60_000,
      });
      const event = opened[0]!;
      expect(EVENT_TYPES).toContain(event.type);
      await waitFor(
        () =>
          Promise.resolve(
            smtp.received
              .slice(mails)
              .filter((m) => m.to.includes('anna@nordic.test') && m.text.includes(event.id)),
          ),
        {
          what: "the exceedance's e-mail",
          until: (m) => m.length > 0,
          timeoutMs: 60_000,
        },
      );
      await waitFor(
        () => Promise.resolve(receiver.received.slice(hooks).filter((b) => b.includes(event.id))),
        {
          what: "the exceedance's webhook",
          until: (b) => b.length > 0,
          timeoutMs: 60_000,
        },
      );
      // The samples came over the stream: stored as the ship's stream samples, not as files.
      const streamed = await db()
        .selectFrom('stream_samples')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('facility_id', '=', target.facilityId)
        .executeTakeFirstOrThrow();
      expect(Number(streamed.n)).toBeGreaterThan(0);
    } finally {
      await edge.stop();
      await started.live.close();
    }
  }, 600_000);

  it('refuses a window that ends before it starts, and stores no request', async () => {
    const ship = ships[3]!;
    const facilityId = server.seed.facilityIds[ship.key]!;
    const dataSourceId = await configureDemoDataSource(db(), ship, facilityId, `Gateway of ${ship.name}`);
    await expect(
      requestWindowExecution(server.services, { facilityId, dataSourceId, from: 2 * MIN, to: MIN }),
    ).rejects.toThrow("A window's end must not be before its start");
    expect(
      await db().selectFrom('execution_windows').where('facility_id', '=', facilityId).selectAll().execute(),
    ).toEqual([]);
    expect(await windowJobs(facilityId)).toEqual({});
  });
});

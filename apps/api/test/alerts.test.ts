import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { DEFAULT_ALERT_SETTINGS, UNSUBSCRIBE_MESSAGES, type AlertSettings } from '@portal/contracts/alerts';
import { startTestServer, type TestServer } from './harness';
import { FAST_QUEUE } from './execution-fixtures';
import { closedPort, startSmtpServer, type TestSmtpServer } from './smtp-helpers';
import { waitFor } from './wait';
import { JOB_NAMES, type Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { storeComplianceEvents } from '../src/features/executions/store-events';
import type { DerivedEvent } from '../src/features/executions/compliance-events';
import { fanOutPending } from '../src/features/alerts/fan-out';
import { alertOutbox } from '../src/features/alerts/outbox';
import { sweepAlerts, writeDueReminders } from '../src/features/alerts/sweep';
import { utcDay } from '../src/features/alerts/digest';

/**
 * Alerts end to end on a real database, the real job queue and a real SMTP server (smtp-server) started here:
 * events stored through the engine's store step (storeComplianceEvents, in its transaction with the fan-out job),
 * then fanned out, e-mailed and put in the bell by the workers; subscriptions, defaults, digests, reminders and
 * the failures of the SMTP server.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;

let server: TestServer;
let smtp: TestSmtpServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** An organization's webhook receiver: every request kept, each answered 200. */
async function startReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const http_ = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
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
let queue: Queue;
let ships: { id: string; name: string; organization: string }[];
let users: Record<string, string>;
/** Each test's events in an hour of their own, so the store step's window replaces nothing of another test. */
let slot = 0;
const base = Math.floor(Date.now() / HOUR) * HOUR - 40 * HOUR;

const db = () => server.services.database.db;

function event(start: number, minutes: number, over: Partial<DerivedEvent> = {}): DerivedEvent {
  return {
    type: 'scrubber-off',
    start,
    end: start + minutes * MIN,
    ongoing: false,
    worstValue: null,
    limit: null,
    startPosition: null,
    endPosition: null,
    classification: minutes >= 15 ? 'malfunction' : 'transient',
    reportRequired: minutes > 60,
    channel: null,
    fault: null,
    ...over,
  };
}

/** The engine's store step for one ship's window, with the fan-out job sent in its transaction (as run.ts does). */
async function store(facilityId: string, from: number, events: DerivedEvent[], windowTo = from + HOUR) {
  await db()
    .transaction()
    .execute((trx) =>
      storeComplianceEvents(
        trx,
        facilityId,
        { windowFrom: from, windowTo, events, rules: DEFAULT_EVENT_RULES },
        alertOutbox({
          maxAgeHours: 72,
          notify: async (t) => {
            await queue.sendInTransaction(t, JOB_NAMES.alertFanOut, {});
          },
        }),
      ),
    );
}

const nextSlot = () => base + slot++ * HOUR;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  await waitFor(check, { what, timeoutMs });
}

/** The jobs an alert goes through: after they drained, nothing more of it arrives (the barrier of "once"). */
const ALERT_PATH = [
  JOB_NAMES.alertFanOut,
  JOB_NAMES.alertEmail,
  JOB_NAMES.alertDigest,
  JOB_NAMES.webhookDelivery,
];

/** Waits until every alert is fanned out and no e-mail is pending. */
async function settled() {
  await until(async () => {
    const { rows } = await sql<{ alerts: number; pending: number }>`
      select (select count(*) from alerts where fanned_out_on is null)::int as alerts,
             (select count(*) from alert_deliveries where status = 'pending')::int as pending`.execute(db());
    return rows[0]!.alerts === 0 && rows[0]!.pending === 0;
  }, 'the alerts to be delivered');
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

async function subscribe(username: string, email: string | null, settings?: Partial<AlertSettings>) {
  const response = await (
    await server.as(username)
  ).put(
    '/api/profile/alert-subscription',
    settings ? { email, settings: { ...DEFAULT_ALERT_SETTINGS, ...settings } } : { email, useDefaults: true },
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function bell(username: string) {
  const response = await (await server.as(username)).get('/api/messages?isActive=true');
  return (
    response.json() as { title: string; text: string; type: string; isPersonal: boolean; id: string }[]
  ).filter((m) => m.type === 'Alert');
}

beforeAll(async () => {
  // The organizations' webhooks may reach this test's receiver on 127.0.0.1 (the default refuses loopback).
  server = await startTestServer({ jobs: 'none', env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  server.services.config.SMTP_URL = smtp.url;
  server.services.config.MAIL_FROM = 'Portal alerts <alerts@portal.test>';
  queue = await startJobs(server.services, {
    work: true,
    tuning: { ...FAST_QUEUE, ALERTS_EMAIL_RETRY_LIMIT: 2 },
  });
  ships = (
    await db()
      .selectFrom('facilities as f')
      .innerJoin('organizations as o', 'o.id', 'f.primary_organization_id')
      .select(['f.id', 'f.name', 'o.name as organization'])
      .orderBy('f.name')
      .execute()
  ).map((s) => ({ id: s.id, name: s.name, organization: s.organization }));
  users = server.seed.userIds;
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await server?.close();
  await smtp?.close();
  await receiver?.close();
});

beforeEach(async () => {
  await settled();
});

/** Ships a user sees, by the API. */
async function shipsOf(username: string): Promise<string[]> {
  const response = await (await server.as(username)).get('/api/facilities');
  return (response.json() as { id: string }[]).map((f) => f.id);
}

describe('alerts on event changes', () => {
  it('an opened malfunction reaches, by default, those who see the ship: e-mail and the bell, once each', async () => {
    const annaShips = await shipsOf('north.anna');
    const lee = await shipsOf('south.lee');
    const ship = ships.find((s) => annaShips.includes(s.id) && !lee.includes(s.id))!;
    await subscribe('north.anna', 'anna@nordic.test');
    await subscribe('south.lee', 'lee@southern.test');
    const start = nextSlot();
    await store(ship.id, start, [event(start + 5 * MIN, 90, { worstValue: 9.123, limit: 4.3 })]);
    await settled();

    const mails = mailsTo('anna@nordic.test');
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`${ship.name}: Scrubber off while required (malfunction, report required)`);
    expect(mail.from).toContain('alerts@portal.test');
    // The alert names the ship, the event, its start, duration, value and limit, and links to the event.
    const eventRow = await db()
      .selectFrom('compliance_events')
      .select('id')
      .where('facility_id', '=', ship.id)
      .where('start_on', '=', new Date(start + 5 * MIN))
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(`Ship: ${ship.name}`);
    expect(mail.text).toContain('Event: Scrubber off while required');
    expect(mail.text).toContain('Duration: 1 h 30 min');
    expect(mail.text).toContain('Value: 9.12 (limit 4.30)');
    expect(mail.text).toMatch(/Start: \d{4}\.\d{2}\.\d{2} \d{2}:\d{2} UTC/);
    expect(mail.text).toContain(`http://localhost:18080/events/${eventRow.id}`);
    expect(mail.html).toContain(`href="http://localhost:18080/events/${eventRow.id}"`);
    expect(mail.html).toContain('<th');
    expect(mail.idempotencyKey).toMatch(new RegExp(`:${users['north.anna']}:email$`));

    // The bell: a personal message to Anna (and the SystemAdmin, who sees every ship), none to Lee.
    const annaBell = await bell('north.anna');
    expect(annaBell.filter((m) => m.text.includes(eventRow.id))).toHaveLength(1);
    expect(annaBell[0]!.isPersonal).toBe(true);
    expect((await bell('admin')).some((m) => m.text.includes(eventRow.id))).toBe(true);
    expect((await bell('south.lee')).some((m) => m.text.includes(eventRow.id))).toBe(false);
    expect(mailsTo('lee@southern.test')).toHaveLength(0);

    // Marked read like the other messages; the administrators' message list does not show people's alerts.
    const read = await (await server.as('north.anna')).post(`/api/messages/${annaBell[0]!.id}/mark-as-read`);
    expect(read.statusCode).toBe(204);
    expect((await (await server.as('north.anna')).get('/api/messages?isActive=true')).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: annaBell[0]!.id, isRead: true })]),
    );
    const adminList = (await (await server.as('admin')).get('/api/messages')).json() as { type: string }[];
    expect(adminList.some((m) => m.type === 'Alert')).toBe(false);

    // The same period stored again (a rerun): nothing new, nothing sent twice.
    await store(ship.id, start, [event(start + 5 * MIN, 90, { worstValue: 9.123, limit: 4.3 })]);
    await fanOutPending(server.services);
    await settled();
    expect(mailsTo('anna@nordic.test')).toHaveLength(1);
    expect((await bell('north.anna')).filter((m) => m.text.includes(eventRow.id))).toHaveLength(1);
  });

  it('transient, then malfunction, then report required, then ended: one alert each, to the subscribers of each', async () => {
    const ship = ships.find((s) => s.organization === 'Southern Cross Tankers')!;
    // Maria wants transients too; Lee keeps the defaults (malfunctions and reports due).
    await subscribe('south.maria', 'maria@southern.test', {
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
    });
    await subscribe('south.lee', 'lee@southern.test');
    const leeSees = (await shipsOf('south.lee')).includes(ship.id);
    const start = nextSlot();
    const at = start + 2 * MIN;
    const ongoing = (minutes: number) =>
      event(at, minutes, { ongoing: true, type: 'emission-exceedance', worstValue: 30, limit: 21.7 });
    await store(ship.id, start, [ongoing(10)]);
    await settled();
    await store(ship.id, start, [ongoing(20)]);
    await settled();
    await store(ship.id, start, [ongoing(70)]);
    await settled();
    await store(ship.id, start, [{ ...ongoing(80), ongoing: false }]);
    await settled();
    const subjects = mailsTo('maria@southern.test').map((m) => m.subject);
    expect(subjects).toEqual([
      `${ship.name}: Emission exceedance (transient)`,
      `${ship.name}: Emission exceedance is now malfunction`,
      `${ship.name}: Emission exceedance is now malfunction, report required`,
      `${ship.name}: Emission exceedance ended`,
    ]);
    const ended = mailsTo('maria@southern.test')[3]!;
    expect(ended.text).toContain('The event has ended.');
    expect(ended.text).toContain('Duration: 1 h 20 min');
    // Lee (defaults: no transients) hears of it from the malfunction on, if he sees the ship.
    expect(mailsTo('lee@southern.test').map((m) => m.subject)).toEqual(leeSees ? subjects.slice(1) : []);
    const kinds = await db()
      .selectFrom('alerts')
      .select(['kind', 'level'])
      .where('facility_id', '=', ship.id)
      .where('occurred_on', '>=', new Date(start))
      .orderBy('created_on')
      .execute();
    expect(kinds).toEqual([
      { kind: 'opened', level: 1 },
      { kind: 'classified-up', level: 2 },
      { kind: 'classified-up', level: 3 },
      { kind: 'resolved', level: 3 },
    ]);
  });

  it("an alert reaches the organization's webhook too: signed, with the event and its link, once", async () => {
    const annaShips = await shipsOf('north.anna');
    const ship = ships.find((s) => annaShips.includes(s.id))!;
    const north = server.seed.organizationIds.north!;
    const created = await (
      await server.as('north.admin')
    ).post(`/api/organizations/${north}/webhooks`, { url: receiver.url, eventTypes: ['scrubber-off'] });
    expect(created.statusCode, created.body).toBe(201);
    const { secret } = created.json() as { secret: string };
    try {
      const start = nextSlot();
      await store(ship.id, start, [event(start + 10 * MIN, 120)]);
      await settled();
      const eventRow = await db()
        .selectFrom('compliance_events')
        .select('id')
        .where('facility_id', '=', ship.id)
        .where('start_on', '=', new Date(start + 10 * MIN))
        .executeTakeFirstOrThrow();
      const forEvent = () => receiver.received.filter((r) => r.body.includes(eventRow.id));
      await until(async () => forEvent().length > 0, 'the webhook delivery');
      const [delivery] = forEvent();
      const body = JSON.parse(delivery!.body) as { event: { id: string; type: string }; link: string };
      expect(body.event).toMatchObject({ id: eventRow.id, type: 'scrubber-off' });
      expect(body.link).toBe(`http://localhost:18080/events/${eventRow.id}`);
      const timestamp = String(delivery!.headers['x-portal-timestamp']);
      const expected = createHmac('sha256', secret).update(`${timestamp}.${delivery!.body}`).digest('hex');
      expect(delivery!.headers['x-portal-signature']).toBe(`sha256=${expected}`);

      // A rerun of the period and a second fan-out: nothing new reaches the receiver.
      await store(ship.id, start, [event(start + 10 * MIN, 120)]);
      await fanOutPending(server.services);
      await settled();
      await queue.drained(ALERT_PATH);
      expect(forEvent()).toHaveLength(1);
    } finally {
      const { id } = created.json() as { id: string };
      await (await server.as('north.admin')).delete(`/api/organizations/${north}/webhooks/${id}`);
    }
  });

  it('a historical backfill alerts nobody: only changes within ALERTS_MAX_AGE_HOURS of now are alerts', async () => {
    const ship = ships[0]!;
    const old = Math.floor(Date.now() / HOUR) * HOUR - 30 * 24 * HOUR;
    const before = await db()
      .selectFrom('alerts')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    await store(ship.id, old, [
      event(old + MIN, 120),
      event(old + 30 * MIN, 5, { type: 'emission-exceedance' }),
    ]);
    // 73 hours ago and ended then: too old too.
    const edge = Math.floor(Date.now() / MIN) * MIN - 75 * HOUR;
    await store(ship.id, edge, [event(edge, 60)]);
    const after = await db()
      .selectFrom('alerts')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // The events themselves are stored as ever.
    const stored = await db()
      .selectFrom('compliance_events')
      .select('id')
      .where('facility_id', '=', ship.id)
      .where('start_on', '<', new Date(edge + HOUR))
      .execute();
    expect(stored.length).toBeGreaterThanOrEqual(3);
  });
});

describe('subscriptions', () => {
  it("own settings: a selection of ships and event types; a user's choice of a ship not seen is refused", async () => {
    const olavShips = await shipsOf('north.olav');
    const [chosen, other] = olavShips;
    const body = await subscribe('north.olav', 'olav@nordic.test', {
      ships: { mode: 'selected', facilityIds: [chosen!] },
      eventTypes: ['data-gap'],
      classifications: [],
    });
    expect(body.source).toBe('own');
    const start = nextSlot();
    const gap = (from: number) =>
      event(from, 90, { type: 'data-gap', classification: null, reportRequired: false });
    await store(chosen!, start, [gap(start + MIN)]);
    await store(other!, start, [gap(start + MIN), event(start + 3 * MIN, 90)]);
    await settled();
    const mails = mailsTo('olav@nordic.test');
    expect(mails.map((m) => m.subject)).toEqual([`${ships.find((s) => s.id === chosen)!.name}: Data gap`]);

    // A ship Olav does not see.
    const unseen = ships.find((s) => !olavShips.includes(s.id))!;
    const refused = await (
      await server.as('north.olav')
    ).put('/api/profile/alert-subscription', {
      email: 'olav@nordic.test',
      settings: { ...DEFAULT_ALERT_SETTINGS, ships: { mode: 'selected', facilityIds: [unseen.id] } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('settings.ships: One of the chosen ships is not one you see');
  });

  it("the organization's defaults apply to its users without their own; a user who may not see the ship gets nothing", async () => {
    const admin = await server.as('north.admin');
    const orgId = server.seed.organizationIds.north!;
    const defaults = await admin.put(`/api/organizations/${orgId}/alert-defaults`, {
      settings: {
        ...DEFAULT_ALERT_SETTINGS,
        eventTypes: ['sensor-fault'],
        classifications: [],
        channels: ['in-app'],
      },
      reminderHours: 6,
    });
    expect(defaults.statusCode, defaults.body).toBe(200);
    expect(defaults.json()).toMatchObject({ isDefault: false, reminderHours: 6 });
    // Anna goes back to the defaults: now the organization's.
    const anna = await subscribe('north.anna', 'anna@nordic.test');
    expect(anna).toMatchObject({ source: 'organization', settings: { eventTypes: ['sensor-fault'] } });
    const annaShips = await shipsOf('north.anna');
    const olavShips = await shipsOf('north.olav');
    const onlyAnna = annaShips.find((id) => !olavShips.includes(id))!;
    await subscribe('north.olav', null);
    const start = nextSlot();
    await store(onlyAnna, start, [
      event(start + MIN, 30, {
        type: 'sensor-fault',
        classification: null,
        reportRequired: false,
        channel: 'SO2_PPM',
        fault: 'stale',
      }),
    ]);
    await settled();
    const shipName = ships.find((s) => s.id === onlyAnna)!.name;
    // The bell's title is the event's (its channel and fault), its text starts with the ship.
    const faultAlert = (m: { title: string; text: string }) =>
      m.title === 'Sensor fault (SO2 stale)' && m.text.startsWith(`${shipName}\n`);
    expect((await bell('north.anna')).some(faultAlert)).toBe(true);
    expect((await bell('north.olav')).some(faultAlert)).toBe(false);
    // In-app only by the defaults: no e-mail to Anna for it.
    expect(mailsTo('anna@nordic.test').some((m) => m.subject === `${shipName}: Sensor fault`)).toBe(false);

    // Back to the portal's defaults for the next tests.
    const reset = await admin.put(`/api/organizations/${orgId}/alert-defaults`, {
      useDefaults: true,
      reminderHours: 4,
    });
    expect(reset.json()).toMatchObject({
      isDefault: true,
      reminderHours: 4,
      settings: DEFAULT_ALERT_SETTINGS,
    });
  });

  it('refuses bad settings with a 400 naming the problem, and keeps other organizations apart', async () => {
    const anna = await server.as('north.anna');
    const put = (body: unknown) => anna.put('/api/profile/alert-subscription', body);
    const cases: [unknown, string][] = [
      [
        { email: 'x@y.test', settings: { ...DEFAULT_ALERT_SETTINGS, eventTypes: [] } },
        'Choose at least one event type',
      ],
      [{ email: 'not an address', useDefaults: true }, 'E-mail must be valid'],
      [
        { email: 'x@y.test', settings: { ...DEFAULT_ALERT_SETTINGS, classifications: [] } },
        'Choose at least one classification for emission exceedances and scrubber stops',
      ],
      [
        { email: null, settings: DEFAULT_ALERT_SETTINGS },
        'email: Provide the e-mail address alerts go to, or untick E-mail',
      ],
      [
        {
          email: 'x@y.test',
          settings: {
            ...DEFAULT_ALERT_SETTINGS,
            ships: { mode: 'organizations', organizationIds: [server.seed.organizationIds.north] },
          },
        },
        'settings.ships: Only a system administrator chooses ships by organization',
      ],
      [
        { email: 'x@y.test', settings: { ...DEFAULT_ALERT_SETTINGS, delivery: 'weekly' } },
        'Choose As they happen or Daily digest',
      ],
      [
        {
          email: 'x@y.test',
          settings: {
            ...DEFAULT_ALERT_SETTINGS,
            quietHours: { from: '22:00', to: '06:00', timeZone: 'Atlantis/Capital' },
          },
        },
        'Choose a time zone',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await put(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const south = server.seed.organizationIds.south!;
    expect((await anna.get(`/api/organizations/${south}/alert-defaults`)).statusCode).toBe(404);
    const northAdmin = await server.as('north.admin');
    expect(
      (
        await northAdmin.put(`/api/organizations/${south}/alert-defaults`, {
          useDefaults: true,
          reminderHours: 4,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await anna.put(`/api/organizations/${server.seed.organizationIds.north}/alert-defaults`, {
          useDefaults: true,
          reminderHours: 4,
        })
      ).statusCode,
    ).toBe(403);
    const hours = await northAdmin.put(
      `/api/organizations/${server.seed.organizationIds.north}/alert-defaults`,
      {
        useDefaults: true,
        reminderHours: 0,
      },
    );
    expect(hours.statusCode).toBe(400);
    expect(hours.json().message).toContain('Must be a whole number of hours from 1 to 168');

    // Changes are audited.
    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'in', ['alert-subscription.update', 'alert-defaults.update'])
      .execute();
    expect(audited.length).toBeGreaterThan(3);
  });
});

describe('digest, reminders and failures', () => {
  it("a daily digest: one e-mail listing the day's alerts, once", async () => {
    await subscribe('south.maria', 'maria.digest@southern.test', {
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
      delivery: 'digest',
    });
    const ship = ships.find((s) => s.organization === 'Southern Cross Tankers')!;
    const start = nextSlot();
    await store(ship.id, start, [
      event(start + MIN, 5, { type: 'emission-exceedance', worstValue: 25, limit: 21.7 }),
      event(start + 20 * MIN, 30),
      event(start + 40 * MIN, 6),
    ]);
    await settled();
    expect(mailsTo('maria.digest@southern.test')).toHaveLength(0);
    const held = await db()
      .selectFrom('alert_deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', users['south.maria']!)
      .where('status', '=', 'held')
      .executeTakeFirstOrThrow();
    expect(held.n).toBe(3);

    const day = utcDay(Date.now());
    await queue.send(JOB_NAMES.alertDigest, { day });
    await until(async () => mailsTo('maria.digest@southern.test').length === 1, 'the digest');
    const digest = mailsTo('maria.digest@southern.test')[0]!;
    expect(digest.subject).toBe(`Alert digest ${day.replace(/-/g, '.')}: 3 alerts`);
    expect(digest.text.match(/^\d+\. /gm)).toHaveLength(3);
    expect(digest.text).toContain(`${ship.name}: Emission exceedance (transient)`);
    expect(digest.text).toContain(`${ship.name}: Scrubber off while required (malfunction)`);
    expect(digest.html.match(/Open the event in the portal/g)).toHaveLength(3);
    // The digest job again: nothing more.
    await queue.send(JOB_NAMES.alertDigest, { day });
    await queue.drained(ALERT_PATH);
    await settled();
    expect(mailsTo('maria.digest@southern.test')).toHaveLength(1);
    await subscribe('south.maria', 'maria@southern.test', {
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
    });
  });

  it('a report-required event nobody acknowledges: a reminder after the hours, escalated to the UserAdmins, once', async () => {
    const orgId = server.seed.organizationIds.south!;
    await (
      await server.as('south.admin')
    ).put(`/api/organizations/${orgId}/alert-defaults`, {
      useDefaults: true,
      reminderHours: 2,
    });
    // The organization's administrator chose no alerts at all; the reminder still reaches them (in the portal).
    await subscribe('south.admin', null, { channels: [] });
    await subscribe('south.lee', 'lee@southern.test');
    const ship = ships.find((s) => s.organization === 'Southern Cross Tankers')!;
    const start = nextSlot();
    await store(ship.id, start, [
      event(start + MIN, 120),
      event(start + 10 * MIN, 100, { type: 'emission-exceedance' }),
    ]);
    await settled();
    const [first, second] = await db()
      .selectFrom('compliance_events')
      .select('id')
      .where('facility_id', '=', ship.id)
      .where('start_on', '>=', new Date(start))
      .where('start_on', '<', new Date(start + HOUR))
      .orderBy('start_on')
      .execute();
    // The second is acknowledged in time: no reminder for it.
    const ack = await (
      await server.as('south.admin')
    ).post(`/api/events/${second!.id}/acknowledge`, {
      cause: 'sensor',
      actionsTaken: 'Probe cleaned',
    });
    expect(ack.statusCode, ack.body).toBe(200);

    expect(await writeDueReminders(server.services, Date.now() + HOUR)).toBe(0);
    const later = Date.now() + 2 * HOUR + MIN;
    const swept = await sweepAlerts(server.services, later);
    expect(swept.reminders).toBeGreaterThanOrEqual(1);
    await settled();
    const reminded = await db()
      .selectFrom('alerts')
      .select('event_id')
      .where('kind', '=', 'reminder')
      .where('event_id', 'in', [first!.id, second!.id])
      .execute();
    expect(reminded).toEqual([{ event_id: first!.id }]);
    const reminder = `Reminder: ${ship.name}: Scrubber off while required (malfunction, report required) is not acknowledged`;
    const bellReminder = 'Reminder: Scrubber off while required is not acknowledged';
    expect(
      (await bell('south.admin')).filter(
        (m) =>
          m.title === bellReminder &&
          m.text.includes(first!.id) &&
          m.text.includes('not acknowledged for 2 h') &&
          m.text.startsWith(`${ship.name}\n`),
      ),
    ).toHaveLength(1);
    const leeSees = (await shipsOf('south.lee')).includes(ship.id);
    if (leeSees) {
      const mail = mailsTo('lee@southern.test').find((m) => m.subject === reminder)!;
      expect(mail.text).toContain('has not been acknowledged for 2 h');
    }
    // Once per event.
    expect((await sweepAlerts(server.services, later + HOUR)).reminders).toBe(0);
    await settled();
    expect((await bell('south.admin')).filter((m) => m.title === bellReminder)).toHaveLength(1);
  });

  it('quiet hours hold the e-mails that come as they happen until they end; the bell rings at once', async () => {
    const now = Date.now();
    const clock = (t: number) => new Date(t).toISOString().slice(11, 16);
    // From an hour ago to two hours on, on UTC's clock (across midnight when it comes to that).
    const quietHours = { from: clock(now - HOUR), to: clock(now + 2 * HOUR), timeZone: 'UTC' };
    await subscribe('south.maria', 'maria.quiet@southern.test', {
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
      quietHours,
    });
    const ship = ships.find((s) => s.organization === 'Southern Cross Tankers')!;
    const start = nextSlot();
    await store(ship.id, start, [event(start + MIN, 30)]);
    const delivery = async () =>
      db()
        .selectFrom('alert_deliveries')
        .select(['id', 'status'])
        .where('user_id', '=', users['south.maria']!)
        .where('channel', '=', 'email')
        .where('address', '=', 'maria.quiet@southern.test')
        .executeTakeFirst();
    await until(async () => (await delivery()) !== undefined, 'the fan-out');
    const held = (await delivery())!;
    expect((await bell('south.maria')).some((m) => m.text.includes(ship.name))).toBe(true);
    const job = async () =>
      (
        await sql<{ id: string; start_after: Date; state: string }>`
          select id, start_after, state from pgboss.job
          where name = ${JOB_NAMES.alertEmail} and data->'deliveryIds' ? ${held.id}`.execute(db())
      ).rows[0]!;
    // The job waits until the quiet hours end (the minute of their end on the clock), the e-mail with it.
    const waiting = await job();
    expect(new Date(waiting.start_after).getTime()).toBeGreaterThan(now + 2 * HOUR - 2 * MIN);
    expect(new Date(waiting.start_after).getTime()).toBeLessThanOrEqual(now + 2 * HOUR);
    // Everything due has run (the held job, two hours on, is not due): the e-mail still waits.
    await queue.drained(ALERT_PATH);
    expect(held.status).toBe('pending');
    expect((await delivery())!.status).toBe('pending');
    expect(mailsTo('maria.quiet@southern.test')).toHaveLength(0);
    // The outbox says why it waits, and until when.
    const outbox = (await (await server.as('admin')).get('/api/admin/outbox?status=pending')).json() as {
      items: { to: string; sendAfter: string | null }[];
    };
    expect(outbox.items.find((m) => m.to === 'maria.quiet@southern.test')?.sendAfter).toBe(
      new Date(waiting.start_after).toISOString(),
    );
    // The quiet hours are over (the job's time moved to now, as the clock would): the e-mail goes, once.
    await sql`update pgboss.job set start_after = now() where id = ${waiting.id}`.execute(db());
    await until(async () => mailsTo('maria.quiet@southern.test').length === 1, 'the held e-mail');
    await settled();
    expect((await delivery())!.status).toBe('sent');
    await subscribe('south.maria', 'maria@southern.test', {
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
    });
  });

  it("the e-mail's link stops the user's alert e-mails in one click, without signing in; the bell stays", async () => {
    await subscribe('north.olav', 'olav.stop@nordic.test');
    const ship = (await shipsOf('north.olav'))[0]!;
    const first = nextSlot();
    await store(ship, first, [event(first + MIN, 70)]);
    await settled();
    const mail = mailsTo('olav.stop@nordic.test').at(-1)!;
    // The mail program's own Unsubscribe (RFC 8058) and the footer's link name the same token.
    const header = /^<(http:\/\/localhost:18080\/api\/alerts\/unsubscribe\?token=([^>]+))>$/.exec(
      mail.listUnsubscribe ?? '',
    );
    expect(header, mail.listUnsubscribe ?? 'no List-Unsubscribe').not.toBeNull();
    expect(mail.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    const token = header![2]!;
    expect(mail.text).toContain(`Stop alert e-mails: http://localhost:18080/unsubscribe?token=${token}`);
    const oneClick = new URL(header![1]!);
    const call = (method: 'GET' | 'POST', search: string) =>
      server.app.inject({
        method,
        url: `/api/alerts/unsubscribe${search}`,
        ...(method === 'POST'
          ? {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: 'List-Unsubscribe=One-Click',
            }
          : {}),
      });

    // Opening the link changes nothing; a changed token is refused with the page's words.
    expect((await call('GET', oneClick.search)).json()).toEqual({
      email: 'olav.stop@nordic.test',
      emailsOn: true,
    });
    const forged = await call('POST', `?token=${users['north.anna']}.${token.split('.')[1]}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(UNSUBSCRIBE_MESSAGES.invalid);
    expect((await call('GET', '?token=nonsense')).statusCode).toBe(400);

    // One click, as a mail program does it: no sign-in, a form body.
    const stop = await call('POST', oneClick.search);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().message).toBe(UNSUBSCRIBE_MESSAGES.stopped);
    const profile = (await (await server.as('north.olav')).get('/api/profile/alert-subscription')).json();
    expect(profile).toMatchObject({ email: 'olav.stop@nordic.test', source: 'own' });
    expect(profile.settings.channels).toEqual(['in-app']);
    expect(profile.settings.eventTypes).toEqual(DEFAULT_ALERT_SETTINGS.eventTypes);
    expect((await call('POST', oneClick.search)).json().message).toBe(UNSUBSCRIBE_MESSAGES.alreadyStopped);
    const audited = await db()
      .selectFrom('audit_log')
      .select(['user_id', 'subject'])
      .where('action', '=', 'alert-subscription.unsubscribe')
      .execute();
    expect(audited).toEqual([{ user_id: users['north.olav'], subject: users['north.olav'] }]);

    // The next alert: in the bell, no e-mail.
    const sent = mailsTo('olav.stop@nordic.test').length;
    const next = nextSlot();
    await store(ship, next, [event(next + MIN, 75)]);
    await settled();
    expect(mailsTo('olav.stop@nordic.test')).toHaveLength(sent);
    expect((await bell('north.olav')).filter((m) => m.text.includes('1 h 15 min'))).not.toHaveLength(0);
    await subscribe('north.olav', null);
  });

  it('an address the SMTP server refuses (550): the delivery fails with its answer, and the user sees it', async () => {
    smtp.reject.add('bounce@nordic.test');
    await subscribe('north.anna', 'bounce@nordic.test');
    const ship = (await shipsOf('north.anna'))[0]!;
    const start = nextSlot();
    await store(ship, start, [event(start + MIN, 75)]);
    await settled();
    const row = await db()
      .selectFrom('alert_deliveries')
      .select(['status', 'last_error', 'attempts'])
      .where('user_id', '=', users['north.anna']!)
      .where('address', '=', 'bounce@nordic.test')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.last_error).toMatch(/^550 5\.1\.1 <bounce@nordic\.test>: Recipient address rejected/);
    const profile = (await (await server.as('north.anna')).get('/api/profile/alert-subscription')).json();
    expect(profile.failures[0]).toMatchObject({ address: 'bounce@nordic.test' });
    expect(profile.failures[0].error).toContain('550');
    // The SystemAdmin sees it in the outbox, failed.
    const outbox = (await (await server.as('admin')).get('/api/admin/outbox?status=failed')).json();
    expect(
      outbox.items.some(
        (m: { to: string; error: string }) => m.to === 'bounce@nordic.test' && m.error.includes('550'),
      ),
    ).toBe(true);
    smtp.reject.clear();
    await subscribe('north.anna', 'anna@nordic.test');
  });

  it('an unreachable SMTP server: retried with backoff through the queue, then failed, visible, nothing lost; a SystemAdmin sends it again', async () => {
    const port = await closedPort();
    server.services.config.SMTP_URL = `smtp://127.0.0.1:${port}`;
    try {
      await subscribe('north.anna', 'anna.unreachable@nordic.test');
      const ship = (await shipsOf('north.anna'))[0]!;
      const start = nextSlot();
      await store(ship, start, [event(start + MIN, 80)]);
      await until(
        async () =>
          (
            await db()
              .selectFrom('alert_deliveries')
              .select('status')
              .where('address', '=', 'anna.unreachable@nordic.test')
              .executeTakeFirst()
          )?.status === 'failed',
        'the delivery to fail',
        60_000,
      );
      const row = await db()
        .selectFrom('alert_deliveries')
        .select(['attempts', 'last_error', 'subject'])
        .where('address', '=', 'anna.unreachable@nordic.test')
        .executeTakeFirstOrThrow();
      // The first try and two retries (ALERTS_EMAIL_RETRY_LIMIT 2 here).
      expect(row.attempts).toBe(3);
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(row.subject).toContain('Scrubber off while required');
      const outbox = (await (await server.as('admin')).get('/api/admin/outbox')).json();
      expect(outbox.transport).toBe('smtp');
      expect(outbox.items.find((m: { to: string }) => m.to === 'anna.unreachable@nordic.test')).toMatchObject(
        {
          status: 'failed',
          attempts: 3,
        },
      );
      expect(outbox.failed).toBeGreaterThanOrEqual(2); // this one and the refused one of the test before

      // The server is back: a SystemAdmin sends it again, through the queue, once; an administrator may not.
      server.services.config.SMTP_URL = smtp.url;
      const failed = outbox.items.find((m: { to: string }) => m.to === 'anna.unreachable@nordic.test');
      const resend = (user: string, body: object) =>
        server.as(user).then((c) => c.post('/api/admin/outbox/resend', body));
      expect((await resend('north.admin', { ids: [failed.id] })).statusCode).toBe(403);
      expect((await resend('admin', { ids: [] })).statusCode).toBe(400);
      const again = await resend('admin', { ids: [failed.id, 'not-an-id'] });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ resent: 1, message: '1 e-mail queued to be sent again.' });
      await until(
        async () => mailsTo('anna.unreachable@nordic.test').length > 0,
        'the e-mail sent again',
        30_000,
      );
      await settled();
      const sent = mailsTo('anna.unreachable@nordic.test');
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toBe(row.subject);
      expect(sent[0]!.messageId).toBe(`<${failed.id}@localhost>`);
      const after = await db()
        .selectFrom('alert_deliveries')
        .select(['status', 'attempts', 'last_error'])
        .where('id', '=', failed.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ status: 'sent', attempts: 4, last_error: null });
      // Sent is sent: asking again queues nothing.
      expect((await resend('admin', { ids: [failed.id] })).json().resent).toBe(0);
      const audit = await db()
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('action', '=', 'alert-email.resend')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.detail).toMatchObject({ resent: 0 });

      // Every failed one at once: the address the server refused before is accepted now.
      const all = (await resend('admin', { allFailed: true })).json();
      expect(all.resent).toBeGreaterThanOrEqual(1);
      await until(
        async () => mailsTo('bounce@nordic.test').length > 0,
        'the refused e-mail sent again',
        30_000,
      );
      await settled();
      expect((await (await server.as('admin')).get('/api/admin/outbox')).json().failed).toBe(0);
    } finally {
      server.services.config.SMTP_URL = smtp.url;
      await subscribe('north.anna', 'anna@nordic.test');
    }
  }, 90_000);

  it('without SMTP_URL mail goes to the embedded outbox, read by a SystemAdmin only, newest first', async () => {
    server.services.config.SMTP_URL = undefined;
    try {
      await subscribe('north.anna', 'anna.outbox@nordic.test');
      const ship = (await shipsOf('north.anna'))[0]!;
      const start = nextSlot();
      await store(ship, start, [event(start + MIN, 65)]);
      await settled();
      expect(mailsTo('anna.outbox@nordic.test')).toHaveLength(0);
      const outbox = (await (await server.as('admin')).get('/api/admin/outbox?limit=5')).json();
      expect(outbox.transport).toBe('outbox');
      const mail = outbox.items[0];
      expect(mail).toMatchObject({
        to: 'anna.outbox@nordic.test',
        status: 'sent',
        transport: 'outbox',
        kind: 'alert',
      });
      expect(mail.text).toContain('Open the event: http://localhost:18080/events/');
      expect(mail.html).toContain('<a href="http://localhost:18080/events/');
      expect((await (await server.as('north.admin')).get('/api/admin/outbox')).statusCode).toBe(403);
      expect((await (await server.as('north.anna')).get('/api/admin/outbox')).statusCode).toBe(403);
    } finally {
      server.services.config.SMTP_URL = smtp.url;
      await subscribe('north.anna', 'anna@nordic.test');
    }
  });
});

describe('never lost, never twice', () => {
  it('alerts committed without their fan-out job (a crash in between) go out once, at the next sweep', async () => {
    await subscribe('north.anna', 'anna.crash@nordic.test');
    const ship = (await shipsOf('north.anna'))[0]!;
    const start = nextSlot();
    // The engine's transaction commits the events and their alerts; the process "dies" before any job is sent.
    await db()
      .transaction()
      .execute((trx) =>
        storeComplianceEvents(
          trx,
          ship,
          {
            windowFrom: start,
            windowTo: start + HOUR,
            events: [event(start + MIN, 95)],
            rules: DEFAULT_EVENT_RULES,
          },
          alertOutbox({ maxAgeHours: 72 }),
        ),
      );
    await queue.drained(ALERT_PATH);
    expect(mailsTo('anna.crash@nordic.test')).toHaveLength(0);
    // Two sweeps at once (two workers): one claims the alert, the other skips it.
    await Promise.all([queue.send(JOB_NAMES.alertSweep, {}), fanOutPending(server.services)]);
    await settled();
    await fanOutPending(server.services);
    await settled();
    expect(mailsTo('anna.crash@nordic.test')).toHaveLength(1);
    const keys = await db()
      .selectFrom('alert_deliveries')
      .select(['idempotency_key'])
      .where('address', '=', 'anna.crash@nordic.test')
      .execute();
    expect(keys).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '@portal/contracts/alerts';
import { webhookPayloadSchema } from '@portal/contracts/webhooks';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { fanOutPending } from '../src/features/alerts/fan-out';

/**
 * The texts of a washwater pH event (the event description, packages/contracts/src/rules/event-description.ts),
 * end to end: logged samples with the discharge pH at 6.0 for 90 minutes, the default calculations and the engine
 * derive the event (criterion WASHWATER_PH, worst 6.0 against the minimum 6.5); its report to the flag State and the
 * port State, its record book entry, the alert's e-mail, the bell and the webhook's payload all say pH, the minimum
 * and the unit, and none of them says SO2/CO2.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Yesterday (UTC): recent enough for the engine to write its alerts. */
const D0 = Math.floor(Date.now() / DAY) * DAY - DAY;
const LOW_PH_FROM = D0 + 2 * HOUR;
const LOW_PH_TO = LOW_PH_FROM + 90 * MIN;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
  'ENGINE_LOAD',
  'SCRUBBER_MODE',
  'WASHWATER_FLOW',
  'WASHWATER_PH',
  'WASHWATER_PH_INLET',
  'WASHWATER_PAH',
  'WASHWATER_PAH_INLET',
  'WASHWATER_TURBIDITY',
  'WASHWATER_TURBIDITY_INLET',
];

/** Six hours at sea (mid-Atlantic: no ECA, no no-discharge zone), open loop, compliant but for the low pH. */
function csv(): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (let t = D0; t < D0 + 6 * HOUR; t += MIN) {
    const i = (t - D0) / MIN;
    const ph = t >= LOW_PH_FROM && t < LOW_PH_TO ? 6 : 7.6 + (i % 3) * 0.01;
    const row = [
      1000, // FUEL_FLOW kg/h
      2.5, // FUEL_SULFUR % m/m
      20 + (i % 5) * 0.1, // SO2 ppm: ratio about 4, well within 21.7
      5 + (i % 3) * 0.01, // CO2 % v/v
      1, // SCRUBBER_RUNNING
      40 + i * 1e-5,
      -30 + i * 1e-5,
      80, // ENGINE_LOAD %: not manoeuvring, the pH minimum is 6.5
      1, // SCRUBBER_MODE: open loop
      500, // WASHWATER_FLOW t/h
      ph,
      8.1, // inlet pH
      5 + (i % 4) * 0.1, // PAH ug/L
      1,
      3 + (i % 4) * 0.1, // turbidity NTU
      1,
    ];
    lines.push([new Date(t).toISOString().replace('T', ' ').slice(0, 19), ...row].join(','));
  }
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let facilityId: string;
let shipName: string;
let username: string;
let eventId: string;

beforeAll(async () => {
  // The webhook's receiver is never called (the jobs are only queued), but its address must pass the save check.
  server = await startTestServer({ jobs: 'send', env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  const { db } = server.services.database;
  const north = server.seed.organizationIds.north!;
  const ship = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', north)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  facilityId = ship.id;
  shipName = ship.name;
  username = 'north.admin';
  await csvShipWithData(server, facilityId, {
    channels: CHANNELS,
    fileName: 'washwater.csv',
    content: csv(),
    booleanChannels: ['SCRUBBER_RUNNING'],
  });
  const user = await server.as(username);
  const subscribed = await user.put('/api/profile/alert-subscription', {
    email: 'washwater@nordic.test',
    settings: {
      ...DEFAULT_ALERT_SETTINGS,
      eventTypes: ['washwater-exceedance'],
      classifications: ['transient', 'malfunction', 'repeated', 'report-required'],
    },
  });
  expect(subscribed.statusCode, subscribed.body).toBe(200);
  const webhook = await user.post(`/api/organizations/${north}/webhooks`, {
    url: 'http://127.0.0.1:9/portal-alerts',
    eventTypes: ['washwater-exceedance'],
  });
  expect(webhook.statusCode, webhook.body).toBe(201);

  const computed = await computePeriod(
    db,
    {
      facilityId,
      from: D0,
      to: D0 + 6 * HOUR,
      measurementFieldIds: 'all',
      reportFieldIds: 'all',
    },
    enginePorts(),
  );
  await db.transaction().execute((trx) => storeComputed(trx, computed, enginePorts({ maxAgeHours: 72 })));
  await fanOutPending(server.services);

  const events = await user.get(`/api/events?facilityId=${facilityId}&type=washwater-exceedance`);
  expect(events.statusCode, events.body).toBe(200);
  const items = events.json().items as { id: string; channel: string; worstValue: number; limit: number }[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ channel: 'WASHWATER_PH', worstValue: 6, limit: 6.5 });
  eventId = items[0]!.id;
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('the texts of a washwater pH event', () => {
  it("prefill the report's instrument and readings with pH, its minimum and the unit", async () => {
    const report = await (await server.as(username)).get(`/api/events/${eventId}/report`);
    expect(report.statusCode, report.body).toBe(200);
    const { instrument } = report.json() as { instrument: string };
    expect(instrument).toBe(
      'Washwater pH monitoring at the overboard discharge. Washwater exceedance (pH below its minimum), ' +
        'malfunction. Lowest reading: pH 6.00 (minimum 6.50).',
    );
    expect(instrument).not.toContain('SO2');
  });

  it('say pH and the minimum in the record book entry of the event', async () => {
    const book = await (await server.as(username)).get(`/api/facilities/${facilityId}/record-book`);
    expect(book.statusCode, book.body).toBe(200);
    const entry = (book.json() as { kind: string; eventId: string | null; text: string }[]).find(
      (e) => e.kind === 'event' && e.eventId === eventId,
    )!;
    expect(entry.text).toMatch(/^Washwater exceedance \(pH below its minimum\) from /);
    expect(entry.text).toContain('lowest reading pH 6.00 (minimum 6.50)');
  });

  it("carry the value with its unit in the alert's e-mail and the webhook's payload", async () => {
    const { db } = server.services.database;
    const mail = await db
      .selectFrom('alert_deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .select(['d.subject', 'd.text_body'])
      .where('a.event_id', '=', eventId)
      .where('d.channel', '=', 'email')
      .where('a.kind', '=', 'opened')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('Event: Washwater exceedance (pH below its minimum)');
    expect(mail.text_body).toContain('Value: pH 6.00 (minimum 6.50)');
    expect(mail.text_body).not.toContain('SO2');

    const delivery = await db
      .selectFrom('webhook_deliveries')
      .select('body')
      .where('event_id', '=', eventId)
      .where('kind', '=', 'opened')
      .executeTakeFirstOrThrow();
    const payload = webhookPayloadSchema.parse(JSON.parse(delivery.body));
    expect(payload.event).toMatchObject({
      type: 'washwater-exceedance',
      channel: 'WASHWATER_PH',
      worstValue: 6,
      limit: 6.5,
      unit: 'pH',
    });
  });

  it('show in the bell as a short title, the ship, the value with its unit and the link, not the e-mail', async () => {
    const messages = (await (await server.as(username)).get('/api/messages?isActive=true')).json() as {
      title: string;
      text: string;
      type: string;
    }[];
    const alert = messages.find((m) => m.type === 'Alert' && m.text.includes(eventId))!;
    expect(alert.title).toBe('Washwater exceedance (pH below its minimum)');
    expect(alert.text.split('\n')).toEqual([
      shipName,
      'pH 6.00 (minimum 6.50)',
      'Malfunction, report required · 1 h 30 min',
      `http://localhost:18080/events/${eventId}`,
    ]);
  });

  it('chart the discharge pH against its minimum around the event, not the SO2/CO2 ratio', async () => {
    const inputs = await (await server.as(username)).get(`/api/events/${eventId}/inputs`);
    expect(inputs.statusCode, inputs.body).toBe(200);
    const { series } = inputs.json() as {
      series: { field: string; timestamps: number[]; values: (number | null)[] }[];
    };
    expect(series.map((s) => s.field)).toEqual([
      'WASHWATER_PH_DISCHARGING',
      'WASHWATER_PH_LIMIT',
      'SCRUBBER_RUNNING',
      'SCRUBBER_REQUIRED',
    ]);
    const ph = series[0]!;
    const at = (t: number) => ph.values[ph.timestamps.indexOf(t)];
    expect([at(LOW_PH_FROM - MIN), at(LOW_PH_FROM), at(LOW_PH_TO - MIN), at(LOW_PH_TO)]).toEqual([
      7.6 + (((LOW_PH_FROM - MIN - D0) / MIN) % 3) * 0.01,
      6,
      6,
      7.6 + (((LOW_PH_TO - D0) / MIN) % 3) * 0.01,
    ]);
    expect(new Set(series[1]!.values)).toEqual(new Set([6.5]));
  });
});

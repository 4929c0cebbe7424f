import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationPoint } from '@portal/contracts/rules/zone-approach';
import type { ShipZoneWarnings } from '@portal/contracts/zone-warnings';
import { DEFAULT_ALERT_SETTINGS } from '@portal/contracts/alerts';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData, sendFile } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { fanOutPending } from '../src/features/alerts/fan-out';

/**
 * Zone warnings before arrival (issue 33, docs/decisions/0123-zone-warnings.md), through the real upload, the
 * default calculations and the engine: a ship steaming east at 13 knots in open loop 40 minutes from Singapore port
 * waters is warned once (the ship's warnings and track ahead, the bell, the e-mail), only to those who see it; the
 * warning clears when it turns away, and a new approach warns again; the horizon is an organization's setting.
 */
const MIN = 60_000;
const CHANNELS = ['FUEL_FLOW', 'FUEL_SULFUR', 'SCRUBBER_RUNNING', 'LATITUDE', 'LONGITUDE', 'SCRUBBER_MODE'];
/** Singapore port waters begin at 103.6°E on 1.25°N (packages/contracts/src/discharge-zones.ts). */
const EDGE: [number, number] = [1.25, 103.6];
const KNOTS = 13;

let server: TestServer;
let facilityId: string;
let dataSourceId: string;

/** The last whole minute when the test started: the last step's file ends there, the earlier ones before it. */
const NOW = Math.floor(Date.now() / MIN) * MIN;
/** Each step is a file of 20 minutes (longer than the 15 minutes course and speed are taken over), one after the other. */
const STEP_MINUTES = 20;
const STEPS = 5;
const stepEnd = (step: number) => NOW - (STEPS - 1 - step) * STEP_MINUTES * MIN;

/**
 * A step's minutes of a ship steaming at 13 knots on `courseDeg`, its last fix `toEdgeMinutes` of steaming from the
 * edge (negative: past it, heading away).
 */
function csv(options: { step: number; courseDeg: number; toEdgeMinutes: number; mode: number }): {
  content: string;
  from: number;
  to: number;
} {
  const end = stepEnd(options.step);
  const count = STEP_MINUTES;
  // The last fix: back from the edge along the course, then the earlier ones further back.
  const back = (options.courseDeg + 180) % 360;
  const last = destinationPoint(EDGE[0], EDGE[1], back, (KNOTS * options.toEdgeMinutes) / 60);
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (let i = count - 1; i >= 0; i--) {
    const [lat, lon] = destinationPoint(last[0], last[1], back, (KNOTS * i) / 60);
    const t = end - i * MIN;
    lines.push(
      [new Date(t).toISOString().replace('T', ' ').slice(0, 19), 1000, 2.5, 1, lat, lon, options.mode].join(
        ',',
      ),
    );
  }
  return { content: `${lines.join('\n')}\n`, from: end - (count - 1) * MIN, to: end };
}

/**
 * Executes the ship's days around [from, to] as the worker does (this server's queue has no worker), the zone warnings
 * evaluated at `to` (the step's clock).
 */
async function execute(from: number, to: number) {
  const ports = enginePorts({ maxAgeHours: 72, now: to });
  const { db } = server.services.database;
  const day = 86_400_000;
  const computed = await computePeriod(
    db,
    {
      facilityId,
      from: Math.floor(from / day) * day,
      to: Math.floor(to / day) * day + day,
      measurementFieldIds: 'all',
      reportFieldIds: 'all',
    },
    ports,
  );
  await db.transaction().execute((trx) => storeComputed(trx, computed, ports));
}

async function upload(file: ReturnType<typeof csv>, name: string) {
  const sent = await sendFile(
    server,
    'admin',
    'POST',
    `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
    name,
    file.content,
  );
  expect(sent.statusCode, sent.body).toBeLessThan(300);
  await execute(file.from, file.to);
}

const warningsOf = async (user: string) =>
  (await server.as(user)).get(`/api/facilities/${facilityId}/zone-warnings`);
const db = () => server.services.database.db;

beforeAll(async () => {
  // The queue started to send (the e-mail jobs), no worker: the test executes and fans out itself.
  server = await startTestServer({ jobs: 'send' });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  const first = csv({ step: 0, courseDeg: 90, toEdgeMinutes: 40, mode: 1 });
  dataSourceId = await csvShipWithData(server, facilityId, {
    channels: CHANNELS,
    fileName: 'approach-1.csv',
    content: first.content,
  });
  await execute(first.from, first.to);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a ship in open loop 40 minutes from Singapore port waters', () => {
  it('is warned: the zone, what it bans, the entry in 40 minutes and where', async () => {
    const answer = await warningsOf('north.anna');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as ShipZoneWarnings;
    expect(body.horizonMinutes).toBe(120);
    expect(body.warnings).toHaveLength(1);
    const [warning] = body.warnings;
    expect(warning!.zoneName).toBe('Singapore port waters');
    expect(warning!.mode).toBe('open-loop');
    expect(warning!.minutes).toBeCloseTo(40, 0);
    expect(warning!.text).toBe(
      'open-loop discharge banned in Singapore port waters in 40 min: switch to closed loop or to compliant fuel',
    );
    expect(warning!.entry[1]).toBeCloseTo(EDGE[1], 2);
  });

  it('is never shown to another organization (the ship answers as missing)', async () => {
    const answer = await warningsOf('south.lee');
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ message: 'Ship not found' });
  });

  it('rings the bell and writes the e-mail of those who see the ship, once', async () => {
    // Anna gives her address and keeps the portal's alert settings (zone warnings on).
    const subscribed = await (
      await server.as('north.anna')
    ).put('/api/profile/alert-subscription', {
      email: 'anna@nordic.test',
      settings: DEFAULT_ALERT_SETTINGS,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    await fanOutPending(server.services);
    const alerts = await db().selectFrom('alerts').selectAll().where('kind', '=', 'zone-warning').execute();
    expect(alerts).toHaveLength(1);
    const bell = async (user: string) =>
      (
        (await (await server.as(user)).get('/api/messages?isActive=true')).json() as {
          title: string;
          text: string;
        }[]
      ).filter((m) => m.title === 'Zone ahead: Singapore port waters');
    const anna = await bell('north.anna');
    expect(anna).toHaveLength(1);
    expect(anna[0]!.text).toContain(
      'Open-loop discharge banned in Singapore port waters in 40 min: switch to closed loop or to compliant fuel',
    );
    expect(anna[0]!.text).toContain(`/ship/${facilityId}/map`);
    expect(await bell('south.lee')).toHaveLength(0);
    // The e-mails, to those who gave an address: the subject names the ship and the warning, the text links the map.
    const mails = await db()
      .selectFrom('alert_deliveries')
      .select(['subject', 'text_body', 'user_id'])
      .where('alert_id', '=', alerts[0]!.id)
      .where('channel', '=', 'email')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(
      /^Zone warning, .+: open-loop discharge banned in Singapore port waters in 40 min$/,
    );
    expect(mails[0]!.text_body).toContain(`/ship/${facilityId}/map`);
    expect(mails[0]!.user_id).toBe(server.seed.userIds['north.anna']);

    // Executed again with the same data: the approach goes on, nobody is warned twice.
    const again = csv({ step: 0, courseDeg: 90, toEdgeMinutes: 40, mode: 1 });
    await execute(again.from, again.to);
    await fanOutPending(server.services);
    expect(
      await db().selectFrom('alerts').select('id').where('kind', '=', 'zone-warning').execute(),
    ).toHaveLength(1);
    expect(await bell('north.anna')).toHaveLength(1);
  });

  it('clears when the ship switches to closed loop, and warns again on a new approach in open loop', async () => {
    await upload(csv({ step: 1, courseDeg: 90, toEdgeMinutes: 30, mode: 0 }), 'closed.csv');
    expect(((await warningsOf('north.anna')).json() as ShipZoneWarnings).warnings).toEqual([]);
    const cleared = await db()
      .selectFrom('zone_warnings')
      .select(['clearance'])
      .where('facility_id', '=', facilityId)
      .execute();
    expect(cleared).toEqual([{ clearance: 'mode-changed' }]);

    await upload(csv({ step: 2, courseDeg: 90, toEdgeMinutes: 25, mode: 1 }), 'open-again.csv');
    const warnings = ((await warningsOf('north.anna')).json() as ShipZoneWarnings).warnings;
    expect(warnings.map((w) => [w.zoneName, Math.round(w.minutes)])).toEqual([['Singapore port waters', 25]]);
    expect(
      await db().selectFrom('alerts').select('id').where('kind', '=', 'zone-warning').execute(),
    ).toHaveLength(2);
  });

  it('clears when the ship turns away', async () => {
    // Heading west now (course 270), 25 minutes of steaming from the edge behind it.
    await upload(csv({ step: 3, courseDeg: 270, toEdgeMinutes: -25, mode: 1 }), 'away.csv');
    expect(((await warningsOf('north.anna')).json() as ShipZoneWarnings).warnings).toEqual([]);
    const rows = await db()
      .selectFrom('zone_warnings')
      .select('clearance')
      .where('facility_id', '=', facilityId)
      .orderBy('raised_on')
      .execute();
    expect(rows.map((r) => r.clearance)).toEqual(['mode-changed', 'turned-away']);
  });
});

describe('live: the last positions of the last 30 minutes', () => {
  it('give the course and speed over ground and the track ahead to the horizon, and the warning', async () => {
    await upload(csv({ step: 4, courseDeg: 90, toEdgeMinutes: 40, mode: 1 }), 'live.csv');
    const body = (await warningsOf('north.anna')).json() as ShipZoneWarnings;
    expect(body.motion!.at).toBe(new Date(NOW).toISOString());
    expect(body.motion!.speedKn).toBeCloseTo(KNOTS, 3);
    expect(body.motion!.courseDeg).toBeCloseTo(90, 1);
    // Every 5 minutes over 2 hours from the last position: 25 points, the first the ship's position.
    expect(body.projected).toHaveLength(25);
    expect(body.projected[0]).toEqual([body.motion!.latitude, body.motion!.longitude]);
    expect(body.warnings.map((w) => [w.zoneName, Math.round(w.minutes)])).toEqual([
      ['Singapore port waters', 40],
    ]);
  });
});

describe('the horizon, an organization setting', () => {
  it('defaults to 2 hours; its administrator changes it (audited); a user may not; a bad value is refused', async () => {
    const north = server.seed.organizationIds.north!;
    const admin = await server.as('north.admin');
    expect((await admin.get(`/api/organizations/${north}/zone-warning-settings`)).json()).toEqual({
      horizonMinutes: 120,
    });
    const set = await admin.put(`/api/organizations/${north}/zone-warning-settings`, { horizonMinutes: 30 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ horizonMinutes: 30 });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'zone-warning-settings.update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(
      (
        await (
          await server.as('north.anna')
        ).put(`/api/organizations/${north}/zone-warning-settings`, {
          horizonMinutes: 60,
        })
      ).statusCode,
    ).toBe(403);
    const bad = await admin.put(`/api/organizations/${north}/zone-warning-settings`, { horizonMinutes: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Must be a whole number of minutes from 15 to 720');
    const south = server.seed.organizationIds.south!;
    expect((await admin.get(`/api/organizations/${south}/zone-warning-settings`)).statusCode).toBe(404);

    // With 30 minutes, a ship 40 minutes out is not warned (the approach ends); the track ahead is 30 minutes long.
    const live = csv({ step: 4, courseDeg: 90, toEdgeMinutes: 40, mode: 1 });
    await execute(live.from, live.to);
    const body = (await warningsOf('north.anna')).json() as ShipZoneWarnings;
    expect(body.horizonMinutes).toBe(30);
    expect(body.projected).toHaveLength(7);
    expect(body.warnings).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { deleteDerivedValues } from '../src/features/executions/derived';

/**
 * An event keeps its identity, whatever its type: executing its days again over unchanged data writes nothing (no
 * change to the stored events, no record book entry, no alert), and an acknowledged event stays the same event with
 * its acknowledgement. One ship logs a scenario with one event of each type (and of each washwater criterion),
 * through the real upload, the default calculations and the engine.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const D0 = Date.UTC(2025, 4, 5);
const DAYS = 2;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'ENGINE_LOAD',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
  'SCRUBBER_MODE',
  'WASHWATER_FLOW',
  'WASHWATER_PH',
  'WASHWATER_PH_INLET',
  'WASHWATER_PAH',
  'WASHWATER_PAH_INLET',
  'WASHWATER_TURBIDITY',
  'WASHWATER_TURBIDITY_INLET',
] as const;
type Channel = (typeof CHANNELS)[number];
const AT_SEA = { lat: 40, lon: -30 }; // mid-Atlantic: no ECA, no discharge ban
const NORTH_SEA = { lat: 56, lon: 3 }; // inside the North Sea ECA
const SUEZ = { lat: 30.9, lon: 32.3 }; // in the Suez Canal: open-loop discharge banned

/** Two days, minute by minute: at sea in open loop, compliant, except the episodes named here. */
function csv(): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  const within = (t: number, from: number, to: number) => t >= D0 + from && t < D0 + to;
  for (let t = D0; t < D0 + DAYS * DAY; t += MIN) {
    // Data gap: day 1, 90 minutes without a row.
    if (within(t, DAY + 14 * HOUR, DAY + 15.5 * HOUR)) continue;
    const i = (t - D0) / MIN;
    let position = AT_SEA;
    // Day 0 14:00-16:00 through the Suez Canal in open loop; day 1 07:00-12:00 in the North Sea ECA.
    if (within(t, 14 * HOUR, 16 * HOUR)) position = SUEZ;
    if (within(t, DAY + 7 * HOUR, DAY + 12 * HOUR)) position = NORTH_SEA;
    const m: Record<Channel, number> = {
      FUEL_FLOW: 1000,
      FUEL_SULFUR: 2.5,
      ENGINE_LOAD: 80,
      SO2_PPM: 20 + (i % 5) * 0.1,
      CO2_PCT: 5 + (i % 3) * 0.01,
      SCRUBBER_RUNNING: 1,
      LATITUDE: position.lat + i * 1e-5,
      LONGITUDE: position.lon + i * 1e-5,
      SCRUBBER_MODE: 1,
      WASHWATER_FLOW: 500,
      WASHWATER_PH: 7 + (i % 4) * 0.05,
      WASHWATER_PH_INLET: 8.1,
      WASHWATER_PAH: 3 + (i % 3) * 0.1,
      WASHWATER_PAH_INLET: 1,
      WASHWATER_TURBIDITY: 4 + (i % 3) * 0.1,
      WASHWATER_TURBIDITY_INLET: 1,
    };
    // Day 0: an SO2/CO2 exceedance (01:00, 20 min), the scrubber off while required (04:00, 2 h), a pH (08:00,
    // 30 min), a PAH (10:00, 30 min) and a turbidity exceedance (12:00, 40 min), CO2 out of range (20:00, 20 min),
    // and a pH exceedance across midnight (23:00 to 01:00).
    if (within(t, 1 * HOUR, 1 * HOUR + 20 * MIN)) m.SO2_PPM = 150;
    if (within(t, 4 * HOUR, 6 * HOUR)) m.SCRUBBER_RUNNING = 0;
    if (within(t, 8 * HOUR, 8 * HOUR + 30 * MIN)) m.WASHWATER_PH = 5.5;
    if (within(t, 10 * HOUR, 10 * HOUR + 30 * MIN)) m.WASHWATER_PAH = 2000;
    if (within(t, 12 * HOUR, 12 * HOUR + 40 * MIN)) m.WASHWATER_TURBIDITY = 80;
    if (within(t, 20 * HOUR, 20 * HOUR + 20 * MIN)) m.CO2_PCT = 30;
    if (within(t, 23 * HOUR, DAY + 1 * HOUR)) m.WASHWATER_PH = 5.5;
    lines.push(
      [new Date(t).toISOString().replace('T', ' ').slice(0, 19), ...CHANNELS.map((c) => m[c])].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let facilityId: string;
/** The alerts' clock: an hour after the data, so every event is recent enough to alert. */
const ALERTS = { maxAgeHours: 24 * 30, now: D0 + DAYS * DAY + HOUR };

async function execute(from: number, to: number) {
  const { db } = server.services.database;
  const computed = await computePeriod(
    db,
    {
      facilityId,
      from,
      to,
      measurementFieldIds: 'all',
      reportFieldIds: 'all',
    },
    enginePorts(),
  );
  await db.transaction().execute((trx) => storeComputed(trx, computed, enginePorts(ALERTS)));
}

/** What a rerun must leave as it is: the ship's events (every column), its record book and its alerts. */
async function state() {
  const { db } = server.services.database;
  const events = await db
    .selectFrom('compliance_events')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .orderBy('start_on')
    .orderBy('id')
    .execute();
  const book = await db
    .selectFrom('record_book_entries')
    .select(['sequence', 'hash'])
    .where('facility_id', '=', facilityId)
    .orderBy('sequence', 'desc')
    .execute();
  const alerts = await db
    .selectFrom('alerts')
    .select(['id', 'event_id', 'kind', 'dedupe_key'])
    .where('facility_id', '=', facilityId)
    .orderBy('id')
    .execute();
  return {
    events,
    recordBook: { entries: book.length, lastHash: book[0]?.hash ?? null },
    alerts,
  };
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'send' });
  const shared = await server.services.database.db
    .selectFrom('organization_facility_access')
    .select('facility_id')
    .execute();
  facilityId = Object.values(server.seed.facilityIds).find(
    (id) => !shared.some((s) => s.facility_id === id),
  )!;
  await csvShipWithData(server, facilityId, { channels: CHANNELS, fileName: 'identity.csv', content: csv() });
  await execute(D0, D0 + DAYS * DAY);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

/** Each type of event (and each washwater criterion), by where the scenario puts it. */
const CASES = [
  { name: 'SO2/CO2 exceedance', type: 'emission-exceedance', channel: null, at: 1 * HOUR },
  { name: 'scrubber off while required', type: 'scrubber-off', channel: null, at: 4 * HOUR },
  { name: 'washwater pH', type: 'washwater-exceedance', channel: 'WASHWATER_PH', at: 8 * HOUR },
  { name: 'washwater PAH', type: 'washwater-exceedance', channel: 'WASHWATER_PAH', at: 10 * HOUR },
  {
    name: 'washwater turbidity',
    type: 'washwater-exceedance',
    channel: 'WASHWATER_TURBIDITY',
    at: 12 * HOUR,
  },
  {
    name: 'open loop in a no-discharge zone',
    type: 'open-loop-in-no-discharge-zone',
    channel: null,
    at: 14 * HOUR,
  },
  { name: 'sensor fault', type: 'sensor-fault', channel: 'CO2_PCT', at: 20 * HOUR },
  { name: 'ECA entry', type: 'eca-entry', channel: null, at: DAY + 7 * HOUR },
  { name: 'ECA exit', type: 'eca-exit', channel: null, at: DAY + 12 * HOUR },
  { name: 'data gap', type: 'data-gap', channel: null, at: DAY + 14 * HOUR },
] as const;

describe('an event keeps its identity when its days are executed again', () => {
  it('has one event of each type in the scenario, each alerted once', async () => {
    const { events, alerts } = await state();
    for (const c of CASES)
      expect(
        events.filter(
          (e) =>
            e.type === c.type &&
            e.channel === c.channel &&
            new Date(e.start_on).getTime() >= D0 + c.at &&
            new Date(e.start_on).getTime() < D0 + c.at + HOUR,
        ),
        c.name,
      ).toHaveLength(1);
    expect(alerts.filter((a) => a.kind === 'opened')).toHaveLength(events.length);
  });

  it.each(CASES)(
    '$name: a rerun writes nothing, and after an acknowledgement the event keeps it',
    async ({ type, channel, at }) => {
      const before = await state();
      const event = before.events.find(
        (e) =>
          e.type === type &&
          e.channel === channel &&
          new Date(e.start_on).getTime() >= D0 + at &&
          new Date(e.start_on).getTime() < D0 + at + HOUR,
      )!;
      expect(event).toBeDefined();
      // The UTC days the event spans.
      const from = Math.floor(new Date(event.start_on).getTime() / DAY) * DAY;
      const to = Math.min(D0 + DAYS * DAY, (Math.floor(new Date(event.end_on).getTime() / DAY) + 1) * DAY);
      await execute(from, to);
      expect(await state()).toEqual(before);
      await execute(from, to);
      expect(await state()).toEqual(before);

      const admin = await server.as('admin');
      const acknowledged = await admin.post(`/api/events/${event.id}/acknowledge`, {
        cause: 'sensor',
        actionsTaken: `Checked the ${type} event`,
        comment: 'Nothing else to add',
      });
      expect(acknowledged.statusCode, acknowledged.body).toBe(200);
      const after = await state();
      expect(after.recordBook.entries).toBe(before.recordBook.entries + 1);
      const detail = (await admin.get(`/api/events/${event.id}`)).json();
      expect(detail).toMatchObject({
        id: event.id,
        state: 'acknowledged',
        cause: 'sensor',
        actionsTaken: `Checked the ${type} event`,
        comment: 'Nothing else to add',
      });
      await execute(from, to);
      expect(await state()).toEqual(after);
      expect((await admin.get(`/api/events/${event.id}`)).json()).toEqual(detail);
    },
  );

  it('keeps the acknowledgement and report of a washwater event whose end moves, and notes the move', async () => {
    const { db } = server.services.database;
    const admin = await server.as('admin');
    const stored = (await state()).events.find(
      (e) =>
        e.type === 'washwater-exceedance' &&
        e.channel === 'WASHWATER_PH' &&
        new Date(e.start_on).getTime() === D0 + 23 * HOUR,
    )!;
    expect(stored).toMatchObject({ report_required: true, end_on: new Date(D0 + DAY + HOUR) });
    const id = stored.id;
    expect(
      (
        await admin.post(`/api/events/${id}/acknowledge`, {
          cause: 'sensor',
          actionsTaken: 'pH probe cleaned and calibrated',
          comment: 'Fouled by marine growth',
        })
      ).statusCode,
    ).toBe(200);
    const draft = (await admin.get(`/api/events/${id}/report`)).json();
    const saved = await admin.put(`/api/events/${id}/report`, {
      ...draft,
      sentOn: undefined,
      expectedRepair: 'Probe replaced at the next port',
    });
    expect(saved.statusCode, saved.body).toBe(200);

    // The second day's values are deleted and the first day executed again: the event now lasts to the data's end.
    await deleteDerivedValues(db, facilityId, new Date(D0 + DAY), new Date(D0 + DAYS * DAY - 1));
    await execute(D0, D0 + DAY);
    expect((await admin.get(`/api/events/${id}`)).json()).toMatchObject({
      state: 'acknowledged',
      cause: 'sensor',
      comment: 'Fouled by marine growth',
      end: null,
      ongoing: true,
    });
    await execute(D0, D0 + DAYS * DAY);
    expect((await admin.get(`/api/events/${id}`)).json()).toMatchObject({
      state: 'acknowledged',
      actionsTaken: 'pH probe cleaned and calibrated',
      end: new Date(D0 + DAY + HOUR).toISOString(),
      ongoing: false,
    });
    expect((await admin.get(`/api/events/${id}/report`)).json()).toMatchObject({
      expectedRepair: 'Probe replaced at the next port',
    });
    const entries = await db
      .selectFrom('record_book_entries')
      .select(['kind', 'body'])
      .where('event_id', '=', id)
      .orderBy('sequence')
      .execute();
    // Cut at the data's end it lasted 60 minutes (no report needed); whole again, it is 2 hours (report needed).
    expect(entries.map((e) => e.kind)).toEqual([
      'event',
      'event-acknowledged',
      'event-changed',
      'event-changed',
      'event-ended',
    ]);
    expect(entries[2]!.body).toMatchObject({
      annotationsKept: true,
      channel: 'WASHWATER_PH',
      end: null,
      reportRequired: false,
    });
    expect(entries[3]!.body).toMatchObject({ annotationsKept: true, reportRequired: true });
  });
});

describe('acknowledging an event again', () => {
  it('keeps each acknowledgement as a revision: the event shows the latest, its detail all of them in order, the record book each', async () => {
    const { db } = server.services.database;
    const admin = await server.as('admin');
    const crew = await db
      .selectFrom('user_facility_access as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('u.username')
      .where('a.facility_id', '=', facilityId)
      .where('u.role', '=', 'User')
      .executeTakeFirstOrThrow();
    const user = await server.as(crew.username);
    const event = (await state()).events.find(
      (e) => e.type === 'washwater-exceedance' && e.channel === 'WASHWATER_TURBIDITY',
    )!;
    const before = (await admin.get(`/api/events/${event.id}`)).json() as {
      annotations: { revision: number }[];
    };
    const n = before.annotations.length;

    const first = await admin.post(`/api/events/${event.id}/acknowledge`, {
      cause: 'sensor',
      actionsTaken: 'Turbidity meter window cleaned',
      comment: 'Suspected fouling',
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await user.post(`/api/events/${event.id}/acknowledge`, {
      cause: 'scrubber-equipment',
      actionsTaken: 'Washwater treatment unit filter replaced',
      comment: 'The meter was right: the filter had clogged',
    });
    expect(second.statusCode, second.body).toBe(200);

    const detail = (await user.get(`/api/events/${event.id}`)).json();
    expect(second.json()).toEqual(detail);
    // The event shows the latest acknowledgement; who acknowledged it first, and when, stays.
    expect(detail).toMatchObject({
      state: 'acknowledged',
      cause: 'scrubber-equipment',
      actionsTaken: 'Washwater treatment unit filter replaced',
      comment: 'The meter was right: the filter had clogged',
    });
    expect(detail.annotations).toHaveLength(n + 2);
    expect(detail.annotations.slice(0, n)).toEqual(before.annotations);
    expect(detail.annotations.slice(n)).toEqual([
      {
        revision: n + 1,
        acknowledgedOn: expect.any(String),
        acknowledgedBy: 'admin',
        cause: 'sensor',
        actionsTaken: 'Turbidity meter window cleaned',
        comment: 'Suspected fouling',
      },
      {
        revision: n + 2,
        acknowledgedOn: expect.any(String),
        acknowledgedBy: crew.username,
        cause: 'scrubber-equipment',
        actionsTaken: 'Washwater treatment unit filter replaced',
        comment: 'The meter was right: the filter had clogged',
      },
    ]);
    const [a, b] = detail.annotations.slice(n) as { acknowledgedOn: string }[];
    expect(Date.parse(a!.acknowledgedOn)).toBeLessThanOrEqual(Date.parse(b!.acknowledgedOn));
    if (n === 0) expect(detail.acknowledgedOn).toBe(a!.acknowledgedOn);

    // The record book has an entry for each, in the same order, and the audit log each change.
    const book = (await user.get(`/api/facilities/${facilityId}/record-book`)).json() as {
      kind: string;
      eventId: string | null;
      recordedBy: string;
      body: { cause?: string; comment?: string };
    }[];
    const acknowledgements = book.filter((e) => e.eventId === event.id && e.kind === 'event-acknowledged');
    expect(acknowledgements.map((e) => [e.recordedBy, e.body.cause, e.body.comment])).toEqual(
      (detail.annotations as { acknowledgedBy: string; cause: string; comment: string }[]).map((r) => [
        r.acknowledgedBy,
        r.cause,
        r.comment,
      ]),
    );
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', event.id)
      .where('action', '=', 'event.acknowledge')
      .execute();
    expect(audit).toHaveLength(n + 2);

    // A rerun of its day keeps every revision.
    await execute(D0, D0 + DAY);
    expect((await user.get(`/api/events/${event.id}`)).json()).toEqual(detail);
  });
});

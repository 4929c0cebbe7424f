import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isInEca } from '@portal/contracts/eca';
import { DEFAULT_EVENT_RULES, FUEL_SULFUR_MESSAGES } from '@portal/contracts/events';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { deleteDerivedValues } from '../src/features/executions/derived';
import { verifyRecordBook } from '../src/storage/record-book';

/**
 * Compliance events from generated samples with known episodes, through the real upload, the default calculations
 * and the engine, compared with the events derived here straight from DOMAIN.md "Compliance events".
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const D0 = Date.UTC(2025, 4, 5);
const DAYS = 3;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
];
const AT_SEA = { lat: 40, lon: -30 }; // mid-Atlantic: no ECA
const NORTH_SEA = { lat: 56, lon: 3 }; // inside the North Sea ECA

interface Minute {
  t: number;
  flow: number;
  sulfur: number;
  so2: number;
  co2: number;
  running: number;
  lat: number;
  lon: number;
}

/** The three days, minute by minute: at sea, scrubber running and compliant, except the episodes named here. */
function samples(): Minute[] {
  const rows: Minute[] = [];
  const within = (t: number, from: number, to: number) => t >= D0 + from && t < D0 + to;
  for (let t = D0; t < D0 + DAYS * 24 * HOUR; t += MIN) {
    // A 2-hour data gap: the logger wrote nothing.
    if (within(t, 2 * 24 * HOUR + 14 * HOUR, 2 * 24 * HOUR + 16 * HOUR)) continue;
    // Sensors move a little from minute to minute, and the ship moves; a stuck value is a sensor fault.
    const i = (t - D0) / MIN;
    const wobble = (i % 5) * 0.1;
    const m: Minute = {
      t,
      flow: 1000,
      sulfur: 2.5,
      so2: 20 + wobble,
      co2: 5 + (i % 3) * 0.01,
      running: 1,
      lat: AT_SEA.lat + i * 1e-5,
      lon: AT_SEA.lon + i * 1e-5,
    };
    // Transient excursions (10 min) and a short malfunction (20 min) on day 0.
    if (within(t, 1 * HOUR, 1 * HOUR + 10 * MIN)) m.so2 = 150;
    if (within(t, 3 * HOUR, 3 * HOUR + 20 * MIN)) m.so2 = 150;
    // A 10-hour scrubber stop while required, across midnight of day 1 to day 2.
    if (within(t, 24 * HOUR + 20 * HOUR, 2 * 24 * HOUR + 6 * HOUR)) m.running = 0;
    // Day 1: into the North Sea ECA at 07:00 and out at 12:00; a 3-hour SO2 excursion inside it.
    if (within(t, 24 * HOUR + 7 * HOUR, 24 * HOUR + 12 * HOUR))
      Object.assign(m, { lat: NORTH_SEA.lat + i * 1e-5, lon: NORTH_SEA.lon + i * 1e-5 });
    if (within(t, 24 * HOUR + 8 * HOUR, 24 * HOUR + 11 * HOUR)) m.so2 = 40 + wobble;
    // Sensor faults on day 0: SO2 stuck at 21.0 for 3 hours while the engine runs; CO2 reading 30 % for 20 min.
    if (within(t, 14 * HOUR, 17 * HOUR)) m.so2 = 21;
    if (within(t, 20 * HOUR, 20 * HOUR + 20 * MIN)) m.co2 = 30;
    // Three transients within a day: day 1 14:00, day 2 08:00 and 09:00 (the third is repeated).
    if (within(t, 24 * HOUR + 14 * HOUR, 24 * HOUR + 14 * HOUR + 10 * MIN)) m.so2 = 150;
    if (within(t, 2 * 24 * HOUR + 8 * HOUR, 2 * 24 * HOUR + 8 * HOUR + 10 * MIN)) m.so2 = 150;
    if (within(t, 2 * 24 * HOUR + 9 * HOUR, 2 * 24 * HOUR + 9 * HOUR + 10 * MIN)) m.so2 = 150;
    // A port stay: engine idle, scrubber off, SO2 high: nothing required, nothing to report.
    if (within(t, 2 * 24 * HOUR + 18 * HOUR, 3 * 24 * HOUR))
      Object.assign(m, { flow: 20, running: 0, so2: 300 });
    rows.push(m);
  }
  return rows;
}

interface Expected {
  type: string;
  start: string;
  end: string;
  classification: string | null;
  reportRequired: boolean;
}

/** The events of DOMAIN.md's rules, derived here minute by minute without the engine's code. */
function expectedEvents(rows: Minute[]): Expected[] {
  const out: (Expected & { startMs: number })[] = [];
  const iso = (t: number) => new Date(t).toISOString();
  const flags = rows.map((m) => {
    const eca = isInEca(m.lat, m.lon, m.t);
    const required = m.flow > 50 && m.sulfur > (eca ? 0.1 : 0.5);
    const ratio = m.running && m.co2 >= 0.5 ? m.so2 / m.co2 : null;
    const limit = eca ? 4.3 : 21.7;
    return {
      t: m.t,
      eca,
      exceeding: required && m.running === 1 && ratio !== null && ratio > limit,
      off: required && m.running === 0,
    };
  });
  const runs = (key: 'exceeding' | 'off') => {
    const result: { start: number; end: number }[] = [];
    for (const f of flags) {
      if (!f[key]) continue;
      const last = result[result.length - 1];
      // A break of at most 2 samples (3 minutes from one counting sample to the next) does not split an episode.
      if (last && f.t - (last.end - MIN) <= 3 * MIN) last.end = f.t + MIN;
      else result.push({ start: f.t, end: f.t + MIN });
    }
    return result;
  };
  const episodes = [
    ...runs('exceeding').map((r) => ({ ...r, type: 'emission-exceedance' })),
    ...runs('off').map((r) => ({ ...r, type: 'scrubber-off' })),
  ].sort((a, b) => a.start - b.start);
  const transients: number[] = [];
  for (const e of episodes) {
    const minutes = (e.end - e.start) / MIN;
    let classification: string;
    if (minutes >= 15) classification = 'malfunction';
    else {
      const earlier = transients.filter((t) => t > e.start - 24 * HOUR).length;
      classification = earlier >= 2 ? 'repeated' : 'transient';
      transients.push(e.start);
    }
    out.push({
      type: e.type,
      start: iso(e.start),
      end: iso(e.end),
      startMs: e.start,
      classification,
      reportRequired: classification === 'repeated' || (classification === 'malfunction' && minutes > 60),
    });
  }
  // Sensor faults (DOMAIN.md: a compliance channel flat-lined or out of range, data health's defaults: SO2 stuck for
  // 2 hours or more while the engine runs, CO2 outside 0-25 %), each from its first sample to a minute after its last.
  const runsOf = (counts: (m: Minute, previous: Minute | undefined) => boolean) => {
    const result: { start: number; last: number }[] = [];
    rows.forEach((m, k) => {
      if (!counts(m, rows[k - 1])) return;
      const last = result[result.length - 1];
      if (last && rows[k - 1]?.t === last.last && counts(rows[k - 1]!, rows[k - 2])) last.last = m.t;
      else result.push({ start: m.t, last: m.t });
    });
    return result;
  };
  const stuck = runsOf((m, previous) => m.flow > 50 && previous !== undefined && previous.so2 === m.so2)
    .map((r) => ({ start: r.start - MIN, last: r.last }))
    .filter((r) => r.last - r.start >= 2 * HOUR);
  const outOfRange = runsOf((m) => m.co2 > 25);
  for (const r of [...stuck, ...outOfRange])
    out.push({
      type: 'sensor-fault',
      start: iso(r.start),
      end: iso(r.last + MIN),
      startMs: r.start,
      classification: null,
      reportRequired: false,
    });
  for (let i = 1; i < flags.length; i++) {
    const a = flags[i - 1]!;
    const b = flags[i]!;
    if (b.t - a.t > 60 * MIN)
      out.push({
        type: 'data-gap',
        start: iso(a.t + MIN),
        end: iso(b.t),
        startMs: a.t + MIN,
        classification: null,
        reportRequired: false,
      });
    if (a.eca !== b.eca)
      out.push({
        type: b.eca ? 'eca-entry' : 'eca-exit',
        start: iso(b.t),
        end: iso(b.t),
        startMs: b.t,
        classification: null,
        reportRequired: false,
      });
  }
  return out
    .sort((a, b) => a.startMs - b.startMs || a.type.localeCompare(b.type))
    .map(({ startMs: _, ...e }) => e);
}

function csv(rows: Minute[]): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (const m of rows)
    lines.push(
      [
        new Date(m.t).toISOString().replace('T', ' ').slice(0, 19),
        m.flow,
        m.sulfur,
        m.so2,
        m.co2,
        m.running,
        m.lat,
        m.lon,
      ].join(','),
    );
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let facilityId: string;

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
  await db.transaction().execute((trx) => storeComputed(trx, computed, enginePorts()));
}

async function storedEvents(): Promise<Expected[]> {
  const rows = await server.services.database.db
    .selectFrom('compliance_events')
    .select(['type', 'start_on', 'end_on', 'classification', 'report_required'])
    .where('facility_id', '=', facilityId)
    .orderBy('start_on')
    .orderBy('type')
    .execute();
  return rows.map((r) => ({
    type: r.type,
    start: new Date(r.start_on).toISOString(),
    end: new Date(r.end_on).toISOString(),
    classification: r.classification,
    reportRequired: r.report_required,
  }));
}

beforeAll(async () => {
  // The queue takes jobs (a recorded fuel change-over asks for its days again); no worker runs them: the tests
  // execute periods themselves.
  server = await startTestServer({ jobs: 'send' });
  // A ship its organization shares with nobody.
  const shared = await server.services.database.db
    .selectFrom('organization_facility_access')
    .select('facility_id')
    .execute();
  facilityId = Object.values(server.seed.facilityIds).find(
    (id) => !shared.some((s) => s.facility_id === id),
  )!;
  await csvShipWithData(server, facilityId, {
    channels: CHANNELS,
    fileName: 'episodes.csv',
    content: csv(samples()),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('compliance events derived by the engine', () => {
  it('match the events of DOMAIN.md rules for a ship with known episodes', async () => {
    await execute(D0, D0 + DAYS * 24 * HOUR);
    const expected = expectedEvents(samples());
    // The scenario holds what it claims: every kind and class appears.
    expect(new Set(expected.map((e) => `${e.type} ${e.classification}`))).toEqual(
      new Set([
        'emission-exceedance transient',
        'emission-exceedance malfunction',
        'emission-exceedance repeated',
        'scrubber-off malfunction',
        'data-gap null',
        'eca-entry null',
        'eca-exit null',
        'sensor-fault null',
      ]),
    );
    expect(await storedEvents()).toEqual(expected);
  });

  it('derives the same events when the days are executed in two parts, and again without duplicates', async () => {
    const whole = await storedEvents();
    const { db } = server.services.database;
    await sql`delete from compliance_events where facility_id = ${facilityId}`.execute(db);
    await execute(D0, D0 + 2 * 24 * HOUR);
    await execute(D0 + 2 * 24 * HOUR, D0 + DAYS * 24 * HOUR);
    expect(await storedEvents()).toEqual(whole);
    await execute(D0 + 24 * HOUR, D0 + 2 * 24 * HOUR);
    await execute(D0, D0 + DAYS * 24 * HOUR);
    expect(await storedEvents()).toEqual(whole);
  });

  it('removes the events of deleted values and notes it in the record book', async () => {
    const { db } = server.services.database;
    const day2 = D0 + 2 * 24 * HOUR;
    await deleteDerivedValues(db, facilityId, new Date(day2), new Date(D0 + DAYS * 24 * HOUR - 1));
    const left = await storedEvents();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((e) => Date.parse(e.start) < day2)).toBe(true);
    const withdrawn = await db
      .selectFrom('record_book_entries')
      .select('kind')
      .where('facility_id', '=', facilityId)
      .where('kind', '=', 'event-withdrawn')
      .execute();
    expect(withdrawn.length).toBeGreaterThan(0);
    await execute(D0, D0 + DAYS * 24 * HOUR);
  });

  it('are listed, acknowledged, closed and reported through the API, each step in the record book', async () => {
    const { db } = server.services.database;
    const ship = await db
      .selectFrom('facilities as f')
      .innerJoin('organizations as o', 'o.id', 'f.primary_organization_id')
      .select(['o.id'])
      .where('f.id', '=', facilityId)
      .executeTakeFirstOrThrow();
    const org = ship.id === server.seed.organizationIds.north ? 'north' : 'south';
    const access = await db
      .selectFrom('user_facility_access as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('u.username')
      .where('a.facility_id', '=', facilityId)
      .where('u.role', '=', 'User')
      .executeTakeFirstOrThrow();
    const user = await server.as(access.username);
    const userAdmin = await server.as(`${org}.admin`);
    const other = await server.as(org === 'north' ? 'south.admin' : 'north.admin');

    const list = await user.get(`/api/events?facilityId=${facilityId}&reportRequired=true`);
    expect(list.statusCode, list.body).toBe(200);
    const due = list.json() as {
      items: { id: string; type: string; state: string; start: string }[];
      reportsDue: number;
    };
    expect(due.items.length).toBeGreaterThan(0);
    expect(due.reportsDue).toBe(due.items.length);
    const event = due.items.find((e) => e.type === 'scrubber-off')!;
    expect(event.state).toBe('open');
    // Another organization sees neither the event nor the ship's book.
    expect((await other.get(`/api/events/${event.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/facilities/${facilityId}/record-book`)).statusCode).toBe(404);
    expect((await other.get(`/api/events?facilityId=${facilityId}`)).json().items).toEqual([]);
    expect((await other.get(`/api/events/${event.id}/inputs`)).statusCode).toBe(404);

    // The ship's badge: its events needing attention that nobody acknowledged or whose report is due.
    const badge = (await user.get(`/api/events?facilityId=${facilityId}&limit=1`)).json() as {
      openByFacility: Record<string, unknown>;
    };
    const count = async (classifications?: string[]) => {
      let q = db
        .selectFrom('compliance_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('facility_id', '=', facilityId)
        .where('attention', '<=', 1);
      if (classifications) q = q.where('classification', 'in', classifications);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const malfunctions = { total: await count(['malfunction', 'repeated']) };
    expect(badge.openByFacility).toEqual({
      [facilityId]: { open: await count(), malfunctions: malfunctions.total, reportsDue: due.reportsDue },
    });
    expect(malfunctions.total).toBeGreaterThan(0);
    // The event's chart: its inputs from 6 h before to 6 h after, the scrubber stopped inside it only.
    const inputs = await user.get(`/api/events/${event.id}/inputs`);
    expect(inputs.statusCode, inputs.body).toBe(200);
    const chart = inputs.json() as {
      from: string;
      series: { field: string; timestamps: number[]; values: (number | null)[] }[];
    };
    const start = Date.parse(event.start);
    expect(chart.from).toBe(new Date(start - 6 * HOUR).toISOString());
    const running = chart.series.find((s) => s.field === 'SCRUBBER_RUNNING')!;
    const runningAt = (t: number) => running.values[running.timestamps.indexOf(t)];
    expect([runningAt(start - HOUR), runningAt(start), runningAt(start + 9 * HOUR)]).toEqual([1, 0, 0]);
    expect(chart.series.map((s) => s.field)).toEqual(
      expect.arrayContaining(['SO2_CO2_RATIO', 'SO2_CO2_LIMIT', 'SCRUBBER_REQUIRED']),
    );

    const refused = await user.post(`/api/events/${event.id}/acknowledge`, {
      cause: 'wrong',
      actionsTaken: '',
    });
    expect(refused.statusCode).toBe(400);
    const acknowledged = await user.post(`/api/events/${event.id}/acknowledge`, {
      cause: 'scrubber-equipment',
      actionsTaken: 'Circulation pump 2 restarted after its breaker tripped',
      comment: 'Breaker replaced in port',
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json()).toMatchObject({ state: 'acknowledged', cause: 'scrubber-equipment' });
    expect((await user.post(`/api/events/${event.id}/close`, {})).statusCode).toBe(403);

    const draft = await user.get(`/api/events/${event.id}/report`);
    expect(draft.json()).toMatchObject({
      actionsTaken: 'Circulation pump 2 restarted after its breaker tripped',
    });
    const edited = await user.put(`/api/events/${event.id}/report`, {
      ...draft.json(),
      sentOn: undefined,
      expectedRepair: 'Repaired',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const pdf = await user.get(`/api/events/${event.id}/report/download`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    expect(
      (await user.post(`/api/events/${event.id}/report/sent`, { sentOn: '2025-05-07' })).json(),
    ).toMatchObject({
      sentOn: '2025-05-07',
      expectedRepair: 'Repaired',
    });

    const closed = await userAdmin.post(`/api/events/${event.id}/close`, {
      comment: 'Repaired and reported',
    });
    expect(closed.json()).toMatchObject({ state: 'closed', reportSentOn: '2025-05-07' });

    const note = await user.post(`/api/facilities/${facilityId}/record-book`, {
      kind: 'calibration',
      occurredOn: '2025-05-07T10:00:00.000Z',
      text: 'CEMS span calibration',
    });
    expect(note.statusCode, note.body).toBe(201);
    const correction = await user.post(`/api/facilities/${facilityId}/record-book`, {
      kind: 'correction',
      occurredOn: '2025-05-07T10:00:00.000Z',
      text: 'Zero and span calibration',
      correctsId: note.json().id,
    });
    expect(correction.statusCode, correction.body).toBe(201);
    const book = (await user.get(`/api/facilities/${facilityId}/record-book`)).json() as {
      kind: string;
      eventId: string | null;
      recordedBy: string;
      text: string;
    }[];
    expect(book.filter((e) => e.eventId === event.id).map((e) => e.kind)).toEqual(
      expect.arrayContaining(['event', 'event-acknowledged', 'report-sent', 'event-closed']),
    );
    expect(book.at(-1)).toMatchObject({ kind: 'correction', recordedBy: access.username });
    expect((await user.get(`/api/facilities/${facilityId}/record-book/verify`)).json()).toMatchObject({
      valid: true,
    });
    const xlsx = await user.get(`/api/facilities/${facilityId}/record-book/export?from=2025-05-01T00:00:00Z`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.body.startsWith('PK')).toBe(true);
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', 'in', [event.id, facilityId])
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['event.acknowledge', 'event.close', 'event.report.sent', 'recordbook.correct']),
    );
  });
  it('keeps what people added when a rerun moves the event, and notes the move in the record book', async () => {
    const { db } = server.services.database;
    const stop = await db
      .selectFrom('compliance_events')
      .select(['id', 'end_on'])
      .where('facility_id', '=', facilityId)
      .where('type', '=', 'scrubber-off')
      .where('classification', '=', 'malfunction')
      .executeTakeFirstOrThrow();
    // Acknowledged, reported and closed by the test before.
    const admin = await server.as('admin');
    // The second day's values are deleted and the first executed again: the stop now ends where the data ends.
    const day2 = D0 + 2 * 24 * HOUR;
    await deleteDerivedValues(db, facilityId, new Date(day2), new Date(D0 + DAYS * 24 * HOUR - 1));
    await execute(D0 + 24 * HOUR, day2);
    const moved = await admin.get(`/api/events/${stop.id}`);
    expect(moved.json()).toMatchObject({
      state: 'closed',
      cause: 'scrubber-equipment',
      end: null,
      ongoing: true,
    });
    await execute(D0, D0 + DAYS * 24 * HOUR);
    const back = await admin.get(`/api/events/${stop.id}`);
    expect(back.json()).toMatchObject({
      state: 'closed',
      actionsTaken: 'Circulation pump 2 restarted after its breaker tripped',
      end: new Date(stop.end_on).toISOString(),
    });
    const entries = await db
      .selectFrom('record_book_entries')
      .select(['kind', 'body'])
      .where('event_id', '=', stop.id)
      .orderBy('sequence')
      .execute();
    expect(entries.map((e) => e.kind)).toEqual([
      'event',
      'event-acknowledged',
      'report-sent',
      'event-closed',
      'event-changed',
      'event-ended',
    ]);
    expect(entries[4]!.body).toMatchObject({ annotationsKept: true, end: null });
  });

  it("derives with the organization's own thresholds, set by its administrator", async () => {
    const { db } = server.services.database;
    const owner = await db
      .selectFrom('facilities')
      .select('primary_organization_id')
      .where('id', '=', facilityId)
      .executeTakeFirstOrThrow();
    const org = owner.primary_organization_id === server.seed.organizationIds.north ? 'north' : 'south';
    const orgId = owner.primary_organization_id;
    const userAdmin = await server.as(`${org}.admin`);
    const other = await server.as(org === 'north' ? 'south.admin' : 'north.admin');
    const user = await server.as(org === 'north' ? 'north.anna' : 'south.maria');
    expect((await userAdmin.get(`/api/organizations/${orgId}/event-rules`)).json()).toMatchObject({
      isDefault: true,
      rules: { transientMinutes: 15 },
    });
    const rules = { ...DEFAULT_EVENT_RULES, transientMinutes: 30 };
    expect((await user.put(`/api/organizations/${orgId}/event-rules`, { rules })).statusCode).toBe(403);
    expect((await other.put(`/api/organizations/${orgId}/event-rules`, { rules })).statusCode).toBe(404);
    expect(
      (
        await userAdmin.put(`/api/organizations/${orgId}/event-rules`, {
          rules: { ...rules, joinSamples: -1 },
        })
      ).statusCode,
    ).toBe(400);
    const saved = await userAdmin.put(`/api/organizations/${orgId}/event-rules`, { rules });
    expect(saved.json()).toMatchObject({ isDefault: false, rules: { transientMinutes: 30 } });
    // The 20-minute excursion of day 0 is a transient under the organization's 30 minutes.
    const twentyMinutes = () =>
      db
        .selectFrom('compliance_events')
        .select(['classification', 'rules'])
        .where('facility_id', '=', facilityId)
        .where('start_on', '=', new Date(D0 + 3 * HOUR))
        .executeTakeFirstOrThrow();
    expect((await twentyMinutes()).classification).toBe('malfunction');
    await execute(D0, D0 + 24 * HOUR);
    expect(await twentyMinutes()).toMatchObject({
      classification: 'transient',
      rules: { transientMinutes: 30 },
    });
    await userAdmin.put(`/api/organizations/${orgId}/event-rules`, { useDefaults: true });
    await execute(D0, D0 + 24 * HOUR);
    expect((await twentyMinutes()).classification).toBe('malfunction');
  });

  it('ends "scrubber off while required" at a change-over to compliant fuel recorded in the record book, until its correction says it did not happen', async () => {
    const { db } = server.services.database;
    const iso = (t: number) => new Date(t).toISOString();
    await execute(D0, D0 + DAYS * 24 * HOUR);
    const off = async () => (await storedEvents()).filter((e) => e.type === 'scrubber-off');
    // The 10-hour stop from day 1 20:00 to day 2 06:00 on 2.5 % fuel.
    const stop = {
      type: 'scrubber-off',
      start: iso(D0 + 44 * HOUR),
      end: iso(D0 + 54 * HOUR),
      classification: 'malfunction',
      reportRequired: true,
    };
    expect(await off()).toEqual([stop]);
    const user = await server.as('admin');
    const path = `/api/facilities/${facilityId}/record-book`;
    const changeOver = {
      kind: 'fuel-change-over',
      occurredOn: iso(D0 + 48 * HOUR),
      text: 'Changed over to MGO',
    };
    const missing = await user.post(path, changeOver);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({ fuelSulfurPct: FUEL_SULFUR_MESSAGES.required });
    const queued = async () =>
      (
        await db
          .selectFrom('executions')
          .select(['period_from', 'period_to'])
          .where('facility_id', '=', facilityId)
          .where('state', '=', 'queued')
          .orderBy('requested_on')
          .execute()
      ).map((e) => `${iso(new Date(e.period_from).getTime())} ${iso(new Date(e.period_to).getTime())}`);
    const waiting = await queued();

    const entry = await user.post(path, { ...changeOver, fuelSulfurPct: 0.08 });
    expect(entry.statusCode, entry.body).toBe(201);
    expect(entry.json()).toMatchObject({
      kind: 'fuel-change-over',
      fuelSulfurPct: 0.08,
      text: 'Changed over to MGO (fuel of 0.08 % m/m sulfur from then on)',
    });
    // Its days, from the change-over to the ship's last data, are asked for with the entry.
    expect(await queued()).toEqual([...waiting, `${iso(D0 + 2 * 24 * HOUR)} ${iso(D0 + 3 * 24 * HOUR - 1)}`]);
    // As the worker runs it: the stop ends at the change-over, 4 hours, still to be reported.
    await execute(D0 + 2 * 24 * HOUR, D0 + 3 * 24 * HOUR);
    expect(await off()).toEqual([{ ...stop, end: iso(D0 + 48 * HOUR) }]);

    // Only a fuel change-over's correction records a sulfur content.
    const note = await user.post(path, {
      kind: 'note',
      occurredOn: iso(D0 + 49 * HOUR),
      text: 'Pump inspected',
    });
    const wrong = await user.post(path, {
      kind: 'correction',
      occurredOn: iso(D0 + 49 * HOUR),
      text: 'Pump and nozzles inspected',
      correctsId: note.json().id,
      fuelSulfurPct: 0.08,
    });
    expect(wrong.statusCode).toBe(400);
    // The correction without a sulfur content: the change-over did not happen; the whole stop counts again.
    const corrected = await user.post(path, {
      kind: 'correction',
      occurredOn: iso(D0 + 48 * HOUR),
      text: 'No change-over: the MGO service tank was not lined up',
      correctsId: entry.json().id,
    });
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect((await queued()).length).toBe(waiting.length + 2);
    await execute(D0 + 2 * 24 * HOUR, D0 + 3 * 24 * HOUR);
    expect(await off()).toEqual([stop]);
  });

  it('keeps a record book whose chain verifies, and finds a row changed by hand', async () => {
    const { db } = server.services.database;
    const verified = await verifyRecordBook(db, facilityId);
    expect(verified).toMatchObject({ valid: true });
    expect(verified.entries).toBeGreaterThan(0);
    const changed = await db.transaction().execute(async (trx) => {
      await sql`alter table record_book_entries disable trigger record_book_entries_append_only`.execute(trx);
      const row = await sql<{ id: string; sequence: string }>`
        update record_book_entries set body = jsonb_set(body, '{classification}', '"transient"')
        where facility_id = ${facilityId} and sequence = 3 returning id, sequence`.execute(trx);
      await sql`alter table record_book_entries enable trigger record_book_entries_append_only`.execute(trx);
      return row.rows[0]!;
    });
    expect(await verifyRecordBook(db, facilityId)).toMatchObject({
      valid: false,
      firstInvalid: { id: changed.id, sequence: 3 },
    });
    await expect(
      sql`update record_book_entries set kind = 'x' where facility_id = ${facilityId}`.execute(db),
    ).rejects.toThrow(/append-only/);
  });
});

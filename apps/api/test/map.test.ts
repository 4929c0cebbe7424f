import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACK_MAX_POINTS, type ShipPosition, type Track } from '@portal/contracts/map';
import { startTestServer, type TestServer } from './harness';
import { csvShipWithData } from './upload-helpers';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';

/**
 * The map's API (issue 20, docs/decisions/0102-map.md): a ship's track from its stored positions, through the real
 * upload, the default calculations and the engine, and the fleet's last positions, each only for those who see the
 * ship.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const D0 = Date.UTC(2025, 4, 5);
const DAYS = 2;
const CHANNELS = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
  'SCRUBBER_MODE',
];
/** The 2-hour gap of the logger: from 10:00 to 12:00 on the first day. */
const GAP = { from: D0 + 10 * HOUR, to: D0 + 12 * HOUR };
/** The scrubber runs in open loop but from 04:00 to 06:00 on the first day (closed loop). */
const CLOSED = { from: D0 + 4 * HOUR, to: D0 + 6 * HOUR };

interface Minute {
  t: number;
  lat: number;
  lon: number;
  mode: number;
}

/** Two days of a ship steaming north-east from the mid-Atlantic, a position a minute, but for the gap. */
function minutes(): Minute[] {
  const rows: Minute[] = [];
  for (let t = D0; t < D0 + DAYS * 24 * HOUR; t += MIN) {
    if (t >= GAP.from && t < GAP.to) continue;
    const i = (t - D0) / MIN;
    rows.push({
      t,
      lat: 40 + i * 0.002,
      lon: -30 + i * 0.003,
      mode: t >= CLOSED.from && t < CLOSED.to ? 0 : 1,
    });
  }
  return rows;
}

function csv(rows: Minute[]): string {
  const lines = [['Timestamp', ...CHANNELS].join(',')];
  for (const m of rows)
    lines.push(
      [
        new Date(m.t).toISOString().replace('T', ' ').slice(0, 19),
        1000,
        2.5,
        20,
        5,
        1,
        m.lat,
        m.lon,
        m.mode,
      ].join(','),
    );
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let facilityId: string;
const iso = (t: number) => new Date(t).toISOString();
const trackUrl = (id: string, from: number, to: number) =>
  `/api/facilities/${id}/track?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;
const positionsUrl = (from: number, to: number) =>
  `/api/facilities/positions?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  // North's Atlantic Meridian: not shared with South; north.anna and north.olav are assigned to it.
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  // This server runs no job queue: the test executes the period itself, after the default calculations.
  await csvShipWithData(server, facilityId, {
    channels: CHANNELS,
    fileName: 'track.csv',
    content: csv(minutes()),
  });
  const { db } = server.services.database;
  const computed = await computePeriod(
    db,
    {
      facilityId,
      from: D0,
      to: D0 + DAYS * 24 * HOUR,
      measurementFieldIds: 'all',
      reportFieldIds: 'all',
    },
    enginePorts(),
  );
  await db.transaction().execute((trx) => storeComputed(trx, computed, enginePorts()));
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('GET /api/facilities/{id}/track', () => {
  it('gives the first day in segments split where the mode changes and at the gap, each position where it was logged', async () => {
    const anna = await server.as('north.anna');
    const answer = await anna.get(trackUrl(facilityId, D0, D0 + 24 * HOUR));
    expect(answer.statusCode, answer.body).toBe(200);
    const track = answer.json() as Track;
    const logged = minutes().filter((m) => m.t < D0 + 24 * HOUR);
    expect(track.samples).toBe(logged.length);
    expect(track.hasScrubberMode).toBe(true);
    // A stretch ends where the next begins (the line goes on in the new mode), but not across the gap.
    expect(track.segments.map((s) => [s.from, s.to, s.mode])).toEqual([
      [iso(D0), iso(CLOSED.from), 'open'],
      [iso(CLOSED.from), iso(CLOSED.to), 'closed'],
      [iso(CLOSED.to), iso(GAP.from - MIN), 'open'],
      [iso(GAP.to), iso(D0 + 24 * HOUR - MIN), 'open'],
    ]);
    // A day of minutes is under the budget: every position is kept, the two where the mode changes twice.
    expect(track.points).toBe(logged.length + 2);
    const first = logged[0]!;
    const afterGap = logged.find((m) => m.t === GAP.to)!;
    expect(track.segments[0]!.points[0]).toEqual([first.lat, first.lon]);
    expect(track.segments[3]!.points[0]![0]).toBeCloseTo(afterGap.lat, 9);
    expect(track.segments[3]!.points[0]![1]).toBeCloseTo(afterGap.lon, 9);
  });

  it('thins both days to the point budget, keeping the last position', async () => {
    const anna = await server.as('north.anna');
    const track = (await anna.get(trackUrl(facilityId, D0, D0 + DAYS * 24 * HOUR))).json() as Track;
    const logged = minutes();
    expect(track.samples).toBe(logged.length);
    expect(logged.length).toBeGreaterThan(TRACK_MAX_POINTS);
    expect(track.points).toBeLessThanOrEqual(TRACK_MAX_POINTS + 2 * track.segments.length);
    expect(track.points).toBeGreaterThan(TRACK_MAX_POINTS * 0.8);
    const last = logged.at(-1)!;
    const end = track.segments.at(-1)!.points.at(-1)!;
    expect(end[0]).toBeCloseTo(last.lat, 9);
    expect(end[1]).toBeCloseTo(last.lon, 9);
  });

  it('gives an empty track for a period without positions', async () => {
    const anna = await server.as('north.anna');
    const track = (await anna.get(trackUrl(facilityId, D0 - 10 * 24 * HOUR, D0))).json() as Track;
    expect(track).toMatchObject({ samples: 0, points: 0, segments: [] });
  });

  it('answers another organization’s ship, a ship not assigned and an unknown one as not found', async () => {
    const period = [D0, D0 + 24 * HOUR] as const;
    for (const [user, id] of [
      ['south.admin', facilityId],
      ['south.maria', facilityId],
      ['north.olav', server.seed.facilityIds.straits_pioneer!],
      ['north.anna', '5f1d7a43-8f0e-4c61-9a7e-000000000000'],
      ['north.anna', 'not-a-uuid'],
    ] as const) {
      const answer = await (await server.as(user)).get(trackUrl(id, ...period));
      expect(answer.statusCode, `${user} ${id}`).toBe(404);
      expect(answer.json().message).toBe('Ship not found');
    }
  });

  it('refuses a period that is not one, with the problem named', async () => {
    const anna = await server.as('north.anna');
    const backwards = await anna.get(trackUrl(facilityId, D0 + HOUR, D0));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('The period must end after it starts');
    const long = await anna.get(trackUrl(facilityId, D0 - 1200 * 24 * HOUR, D0));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('The period may span at most 1100 days');
    const notADate = await anna.get(`/api/facilities/${facilityId}/track?from=yesterday&to=today`);
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().message).toMatch(/from/);
    const missing = await anna.get(`/api/facilities/${facilityId}/track`);
    expect(missing.statusCode).toBe(400);
  });
});

describe('the OpenAPI document', () => {
  it('describes both routes with their query and answer', async () => {
    const doc = (await server.app.inject({ url: '/api/docs/json' })).json();
    const track = doc.paths['/api/facilities/{id}/track'].get;
    expect(track.tags).toEqual(['map']);
    expect(track.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['from', 'id', 'to']);
    const answer = track.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties)).toEqual(
      expect.arrayContaining(['segments', 'samples', 'points', 'hasScrubberMode']),
    );
    expect(doc.paths['/api/facilities/positions'].get.responses['200']).toBeDefined();
  });
});

describe('GET /api/facilities/positions', () => {
  it('gives each visible ship’s last position in the period, and nothing of ships the caller does not see', async () => {
    const last = minutes().at(-1)!;
    const anna = (
      await (await server.as('north.anna')).get(positionsUrl(D0, D0 + DAYS * 24 * HOUR))
    ).json() as ShipPosition[];
    expect(anna).toHaveLength(1);
    expect(anna[0]).toMatchObject({ facilityId, timestamp: iso(last.t), mode: 'open' });
    expect(anna[0]!.latitude).toBeCloseTo(last.lat, 9);
    expect(anna[0]!.longitude).toBeCloseTo(last.lon, 9);

    // The first day only: its last position before the day's end.
    const day = (
      await (await server.as('north.anna')).get(positionsUrl(D0, D0 + 24 * HOUR))
    ).json() as ShipPosition[];
    expect(day[0]!.timestamp).toBe(iso(D0 + 24 * HOUR - MIN));

    for (const user of ['south.admin', 'south.maria', 'north.olav'] as const) {
      const other = await (await server.as(user)).get(positionsUrl(D0, D0 + DAYS * 24 * HOUR));
      expect(other.statusCode).toBe(200);
      const ids = (other.json() as ShipPosition[]).map((p) => p.facilityId);
      // north.olav is assigned to Atlantic Meridian too; South sees nothing of it.
      expect(ids.includes(facilityId), user).toBe(user === 'north.olav');
    }
  });
});

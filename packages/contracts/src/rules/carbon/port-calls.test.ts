import { describe, expect, it } from 'vitest';
import { derivePortCalls, PortIndex, portIn, type PortArea } from './port-calls';
import { prepareTrack, type PositionSeries } from './track';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 1);

/** One row a minute: `spans` of [minutes, latitude, longitude, sog]; NaN latitude = no fix; sog null = not logged. */
function series(spans: [number, number, number, number | null][], start = T0): PositionSeries {
  const t: number[] = [];
  const lat: number[] = [];
  const lon: number[] = [];
  const sog: number[] = [];
  let time = start;
  for (const [minutes, la, lo, s] of spans)
    for (let i = 0; i < minutes; i++) {
      t.push(time);
      lat.push(la);
      lon.push(lo);
      sog.push(s ?? NaN);
      time += MIN;
    }
  return { timestamps: t, latitude: lat, longitude: lon, sog };
}

const ROTTERDAM: PortArea = { id: 'NLRTM', name: 'Rotterdam', latitude: 51.9167, longitude: 4.5 };
const ANTWERP: PortArea = { id: 'BEANR', name: 'Antwerp', latitude: 51.2167, longitude: 4.4167 };
// A point 3 nm east of Rotterdam's (inside its 5 nm), and one 8 nm west (outside: an anchorage).
const BERTH: [number, number] = [51.9167, 4.5 + 3 / 60 / Math.cos((51.9167 * Math.PI) / 180)];
const ANCHORAGE: [number, number] = [51.9167, 4.5 - 8 / 60 / Math.cos((51.9167 * Math.PI) / 180)];
const SEA: [number, number] = [52.5, 3.0];

const index = new PortIndex([ROTTERDAM, ANTWERP]);

describe('port calls', () => {
  it('is a stay within the radius below 1 kn for at least 2 h, from the first stopped fix to the last', () => {
    const s = series([
      [60, ...SEA, 12],
      [150, ...BERTH, 0.2],
      [60, ...SEA, 12],
    ]);
    const calls = derivePortCalls(s, index);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      portId: 'NLRTM',
      arrival: T0 + 60 * MIN,
      departure: T0 + 209 * MIN,
      gapMs: 0,
      openStart: false,
      openEnd: false,
    });
  });

  it('asks the lookup at the time of each fix (a port an organization added from a day on)', () => {
    const s = series([
      [60, ...SEA, 12],
      [300, ...BERTH, 0.2],
      [60, ...SEA, 12],
    ]);
    const activeFrom = T0 + 180 * MIN;
    const asked: number[] = [];
    const fromThen = {
      ports: [ROTTERDAM],
      portAt: (lat: number, lon: number, atMs?: number) => {
        asked.push(atMs!);
        return atMs !== undefined && atMs >= activeFrom ? index.portAt(lat, lon) : -1;
      },
    };
    const calls = derivePortCalls(s, fromThen);
    expect(calls.map((c) => [c.arrival, c.departure])).toEqual([[activeFrom, T0 + 359 * MIN]]);
    expect(asked[0]).toBe(T0);
  });

  it('does not count a stop shorter than 2 h, nor one outside every port (anchorage, drifting)', () => {
    const short = series([
      [60, ...SEA, 12],
      [119, ...BERTH, 0.1],
      [60, ...SEA, 12],
    ]);
    expect(derivePortCalls(short, index)).toEqual([]);
    const anchored = series([
      [60, ...SEA, 12],
      [600, ...ANCHORAGE, 0.2],
      [600, ...SEA, 0.3],
    ]);
    expect(derivePortCalls(anchored, index)).toEqual([]);
  });

  it('does not split a stay at one port by a gap of rows or of positions, and says how long the gap was', () => {
    const withGap = series([
      [60, ...SEA, 12],
      [60, ...BERTH, 0.2],
      [300, NaN, NaN, null],
      [60, ...BERTH, 0.2],
      [60, ...SEA, 12],
    ]);
    const calls = derivePortCalls(withGap, index);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.arrival).toBe(T0 + 60 * MIN);
    expect(calls[0]!.departure).toBe(T0 + (60 + 60 + 300 + 59) * MIN);
    // From the last fix before the gap to the first after it.
    expect(calls[0]!.gapMs).toBe(301 * MIN);

    // Missing rows are the same as empty ones.
    const rows = series([
      [60, ...SEA, 12],
      [60, ...BERTH, 0.2],
    ]);
    const after = series([[60, ...BERTH, 0.2]], T0 + 420 * MIN);
    const joined: PositionSeries = {
      timestamps: [...Array.from(rows.timestamps), ...Array.from(after.timestamps)],
      latitude: [...Array.from(rows.latitude), ...Array.from(after.latitude)],
      longitude: [...Array.from(rows.longitude), ...Array.from(after.longitude)],
      sog: [...Array.from(rows.sog!), ...Array.from(after.sog!)],
    };
    const fromRows = derivePortCalls(joined, index);
    expect(fromRows).toHaveLength(1);
    expect(fromRows[0]!.departure - fromRows[0]!.arrival).toBe(419 * MIN);
  });

  it('keeps a shift of berth inside the port in the same call, and splits when the ship leaves the port in between', () => {
    const shift = series([
      [90, ...BERTH, 0.1],
      [30, 51.9167, 4.5, 4],
      [90, 51.9167, 4.5, 0.1],
    ]);
    expect(derivePortCalls(shift, index)).toHaveLength(1);
    const leaves = series([
      [150, ...BERTH, 0.1],
      [30, ...SEA, 10],
      [150, ...BERTH, 0.1],
    ]);
    const calls = derivePortCalls(leaves, index);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.openStart).toBe(true);
    expect(calls[1]!.openEnd).toBe(true);
  });

  it('derives the speed from the fixes where speed over ground is not logged', () => {
    // Stopped at the berth without SOG, then under way at ~12 kn (0.2 nm a minute) without SOG.
    const spans: [number, number, number, number | null][] = [[180, ...BERTH, null]];
    for (let i = 1; i <= 60; i++) spans.push([1, BERTH[0] + (0.2 * i) / 60, BERTH[1], null]);
    const s = series(spans);
    const track = prepareTrack(s);
    expect(track.speed[100]).toBeCloseTo(0, 9);
    expect(track.speed[200]).toBeCloseTo(12, 1);
    const calls = derivePortCalls(track, index);
    expect(calls).toHaveLength(1);
    // The first fix has no speed (nothing before it): the stay starts at the second.
    expect(calls[0]!.arrival).toBe(T0 + MIN);
    expect(calls[0]!.departure).toBe(T0 + 179 * MIN);
  });

  it("takes an organization's polygon over the circles, and the nearest point among circles", () => {
    const box: PortArea = {
      id: 'ORG-MAASVLAKTE',
      name: 'Maasvlakte (our terminal)',
      latitude: 51.96,
      longitude: 4.03,
      polygon: [
        [3.95, 51.93],
        [4.1, 51.93],
        [4.1, 52.0],
        [3.95, 52.0],
      ],
    };
    const big: PortArea = { id: 'WIDE', name: 'Wide', latitude: 51.96, longitude: 4.2, radiusNm: 20 };
    const idx = new PortIndex([big, box, ROTTERDAM]);
    expect(idx.ports[idx.portAt(51.96, 4.03)]!.id).toBe('ORG-MAASVLAKTE');
    // Inside both circles (Rotterdam's 5 nm and Wide's 20 nm): Rotterdam's point is the nearer.
    expect(idx.ports[idx.portAt(51.9167, 4.45)]!.id).toBe('NLRTM');
    expect(idx.portAt(50, 0)).toBe(-1);
  });

  it('finds ports across the antimeridian', () => {
    const suva: PortArea = { id: 'FJSUV', name: 'Suva', latitude: -18.13, longitude: 179.95, radiusNm: 10 };
    const idx = new PortIndex([suva]);
    expect(idx.portAt(-18.13, -179.98)).toBe(0);
  });

  it("tells a port's regime memberships on a day, with their dates", () => {
    const dover: PortArea = {
      id: 'GBDVR',
      name: 'Dover',
      latitude: 51.1167,
      longitude: 1.3167,
      memberships: [
        { membership: 'EU_EEA', from: '1973-01-01', to: '2020-12-31' },
        { membership: 'UK', from: '1973-01-01', to: null },
      ],
    };
    expect(portIn(dover, 'EU_EEA', Date.UTC(2020, 11, 31, 23))).toBe(true);
    expect(portIn(dover, 'EU_EEA', Date.UTC(2021, 0, 1))).toBe(false);
    expect(portIn(dover, 'UK', Date.UTC(2026, 6, 1))).toBe(true);
    expect(portIn(dover, 'UK_NORTHERN_IRELAND', Date.UTC(2026, 6, 1))).toBe(false);
  });
});

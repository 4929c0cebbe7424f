import { beforeAll, describe, expect, it } from 'vitest';
import { ciiForYear, ciiRating, type CiiDay } from './cii';
import { dcsReport, type VoyageCargo } from './dcs';
import { integrateKg, scrubberFuelKgPerHour, type FlowChannel } from './fuel';
import { CONSUMERS, FUEL_TYPES, IMO_FUELS, type Consumer, type FuelType } from './fuels';
import { buildLedger, sumLegs, type Leg } from './ledger';
import { derivePortCalls, PortIndex, portIn, type PortArea } from './port-calls';
import { prepareTrack } from './track';

/**
 * A month of a bulk carrier (76,000 DWT, scrubber fitted): Hamburg -> Rotterdam (intra-EEA) -> Baltimore (to the
 * US), a drifting stop in the Atlantic, an anchorage off Annapolis before Baltimore, a gap of rows at Rotterdam and
 * one at sea, then out to sea again until the month ends. The expected port calls, voyages, fuel, DCS items and CII
 * are computed here by plain loops straight from DOMAIN.md's definitions (a call: within 5 nm of the port's point
 * below 1 kn, at least 2 h; fuel: per UTC hour the average of the non-null values times one hour, no value below 30
 * samples; CII = sum(fuel x Cf) / (DWT x distance), required (1 - Z) x 4745 x DWT^-0.622) and compared with the
 * rules': times exactly (they are sample times), sums within 0.01 %.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 2, 1);
const T_END = Date.UTC(2026, 3, 1);
const DWT = 76_000;

// UN/LOCODE points (function 1, sea ports): DEHAM 5333N 00958E, NLRTM 5155N 00430E, USBAL 3917N 07637W.
const EEA = [{ membership: 'EU_EEA' as const, from: '1958-01-01', to: null }];
const HAMBURG: PortArea = {
  id: 'DEHAM',
  locode: 'DEHAM',
  name: 'Hamburg',
  country: 'DE',
  latitude: 53 + 33 / 60,
  longitude: 9 + 58 / 60,
  memberships: EEA,
};
const ROTTERDAM: PortArea = {
  id: 'NLRTM',
  locode: 'NLRTM',
  name: 'Rotterdam',
  country: 'NL',
  latitude: 51 + 55 / 60,
  longitude: 4.5,
  memberships: EEA,
};
const BALTIMORE: PortArea = {
  id: 'USBAL',
  locode: 'USBAL',
  name: 'Baltimore',
  country: 'US',
  latitude: 39 + 17 / 60,
  longitude: -(76 + 37 / 60),
};
const PORTS = [HAMBURG, ROTTERDAM, BALTIMORE];

// ---- an independent great circle, as DOMAIN.md defines the distance ----
const R_NM = 6_371_008.8 / 1_852;
function gcNm(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
    Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * R_NM * Math.asin(Math.sqrt(h));
}

// ---- the generator ----
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mode = 'stay' | 'river' | 'sea' | 'drift' | 'anchor';
interface Row {
  t: number;
  lat: number;
  lon: number;
  sog: number;
  mode: Mode;
  me: number;
  ae: number;
  /** The fuel-type channel of the auxiliary engines: index in FUEL_TYPES. */
  aeFuel: number;
  boiler: number;
  scrubberKw: number;
  euBerth: boolean;
}

interface Phase {
  mode: Mode;
  /** stay / anchor: the position and hours; sail: the waypoints and speed; drift: hours. */
  at?: [number, number];
  hours?: number;
  route?: [number, number][];
  speedKn?: number;
  euBerth?: boolean;
  mark?: string;
}

const HAMBURG_BERTH: [number, number] = [53.535, 9.93];
const ROTTERDAM_BERTH: [number, number] = [51.9, 4.42];
const BALTIMORE_BERTH: [number, number] = [39.265, -76.58];
const ANNAPOLIS_ANCHORAGE: [number, number] = [38.95, -76.4];

const PHASES: Phase[] = [
  { mode: 'stay', at: HAMBURG_BERTH, hours: 34, euBerth: true },
  { mode: 'river', route: [HAMBURG_BERTH, [53.6, 9.75], [53.83, 9.3], [53.88, 8.7]], speedKn: 8 },
  {
    mode: 'sea',
    route: [
      [53.88, 8.7],
      [54.0, 7.8],
      [53.6, 6.0],
      [52.6, 4.2],
      [52.0, 3.95],
    ],
    speedKn: 12.5,
  },
  { mode: 'river', route: [[52.0, 3.95], [51.97, 4.1], [51.9, 4.3], ROTTERDAM_BERTH], speedKn: 8 },
  { mode: 'stay', at: ROTTERDAM_BERTH, hours: 60, euBerth: true, mark: 'rotterdam' },
  {
    mode: 'river',
    route: [ROTTERDAM_BERTH, [51.9, 4.3], [51.97, 4.1], [52.0, 3.95]],
    speedKn: 8,
    mark: 'leave-rotterdam',
  },
  {
    mode: 'sea',
    route: [
      [52.0, 3.95],
      [51.3, 1.9],
      [50.6, 0.0],
      [50.0, -2.5],
      [49.8, -5.3],
      [47.5, -15.0],
    ],
    speedKn: 12.5,
  },
  { mode: 'drift', hours: 14 },
  {
    mode: 'sea',
    route: [
      [44.0, -35.0],
      [40.0, -55.0],
      [37.5, -70.0],
      [36.95, -75.95],
    ],
    speedKn: 12.5,
    mark: 'atlantic',
  },
  { mode: 'river', route: [[36.95, -75.95], [37.4, -76.1], [38.0, -76.2], ANNAPOLIS_ANCHORAGE], speedKn: 10 },
  { mode: 'anchor', at: ANNAPOLIS_ANCHORAGE, hours: 18 },
  {
    mode: 'river',
    route: [ANNAPOLIS_ANCHORAGE, [39.15, -76.45], [39.22, -76.53], BALTIMORE_BERTH],
    speedKn: 8,
  },
  { mode: 'stay', at: BALTIMORE_BERTH, hours: 40, mark: 'baltimore' },
  {
    mode: 'river',
    route: [
      BALTIMORE_BERTH,
      [39.22, -76.53],
      [39.15, -76.45],
      ANNAPOLIS_ANCHORAGE,
      [38.0, -76.2],
      [37.4, -76.1],
      [36.95, -75.95],
    ],
    speedKn: 10,
  },
  {
    mode: 'sea',
    route: [
      [36.95, -75.95],
      [37.5, -70.0],
      [40.0, -55.0],
      [44.0, -35.0],
      [48.0, -10.0],
    ],
    speedKn: 12.5,
  },
];

function generate() {
  const rnd = prng(31);
  const rows: Row[] = [];
  const marks: Record<string, number> = {};
  let t = T0;
  let pos: [number, number] = HAMBURG_BERTH;
  const jitter = () => (rnd() - 0.5) * 0.00006;
  const push = (mode: Mode, lat: number, lon: number, sog: number, euBerth: boolean) => {
    const sea = mode === 'sea';
    const moving = mode === 'sea' || mode === 'river';
    rows.push({
      t,
      lat,
      lon,
      sog,
      mode,
      me: sea ? 1150 + 40 * (rnd() - 0.5) : moving ? 600 + 20 * (rnd() - 0.5) : 0,
      ae: (mode === 'stay' ? 170 : 150) + 6 * (rnd() - 0.5),
      aeFuel: euBerth ? 2 : 0,
      boiler: (mode === 'stay' ? 90 : 20) + 2 * (rnd() - 0.5),
      scrubberKw: sea ? 260 + 10 * (rnd() - 0.5) : moving ? 180 : mode === 'stay' ? 0 : 60,
      euBerth,
    });
    t += MIN;
  };
  for (const phase of PHASES) {
    if (t >= T_END) break;
    if (phase.mark) marks[phase.mark] = t;
    if (phase.mode === 'stay' || phase.mode === 'anchor') {
      pos = phase.at!;
      for (let k = 0; k < phase.hours! * 60 && t < T_END; k++)
        push(phase.mode, pos[0] + jitter(), pos[1] + jitter(), 0.05 + 0.3 * rnd(), phase.euBerth ?? false);
    } else if (phase.mode === 'drift') {
      for (let k = 0; k < phase.hours! * 60 && t < T_END; k++) {
        // 0.4 kn to the south-west.
        pos = [
          pos[0] - (0.4 / 60 / 60) * 0.94,
          pos[1] - ((0.4 / 60 / 60) * 0.34) / Math.cos((pos[0] * Math.PI) / 180),
        ];
        push('drift', pos[0], pos[1], 0.25 + 0.3 * rnd(), false);
      }
    } else {
      const route = [pos, ...phase.route!.slice(phase.route![0]![0] === pos[0] ? 1 : 0)];
      const legs = route.slice(1).map((p, i) => gcNm(route[i]!, p));
      const total = legs.reduce((s, x) => s + x, 0);
      const n = Math.round((total / phase.speedKn!) * 60);
      for (let k = 1; k <= n && t < T_END; k++) {
        let s = (total * k) / n;
        let i = 0;
        while (i < legs.length - 1 && s > legs[i]!) s -= legs[i++]!;
        const f = Math.min(1, s / legs[i]!);
        const a = route[i]!;
        const b = route[i + 1]!;
        pos = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
        push(phase.mode, pos[0], pos[1], phase.speedKn! + 0.6 * (rnd() - 0.5), false);
      }
    }
  }
  if (t < T_END) throw new Error('the phases end before the month');
  // Nulls the dashboard skips, and two gaps of rows: 5 h 20 min at Rotterdam, 6 h at sea.
  rows.forEach((r, i) => {
    if (i % 101 === 0) r.me = NaN;
    if (i % 211 === 0) r.ae = NaN;
  });
  // The first gap leaves 40 samples in its first hour (a value, from fewer samples) and 20 in its last (no value);
  // the second 10 in its first (no value) and 45 in its last.
  const hourOf = (t: number) => Math.floor(t / HOUR) * HOUR;
  const gaps = [
    [hourOf(marks.rotterdam! + 20 * HOUR) + 40 * MIN, 5 * HOUR],
    [hourOf(marks.atlantic! + 60 * HOUR) + 10 * MIN, 6 * HOUR + 5 * MIN],
  ] as const;
  const kept = rows.filter((r) => !gaps.some(([from, len]) => r.t >= from && r.t < from + len));
  return { rows: kept, marks, gaps };
}

// ---- the expected values, by plain loops ----
const STOP_KN = 1;
const RADIUS_NM = 5;
const GAP_MS = 60 * MIN;

describe('a month of a bulk carrier', () => {
  const { rows, marks, gaps } = generate();
  // Boiler change-overs in the record book: on MGO until 3 h after leaving Rotterdam, HFO on the crossing, MGO
  // again from 1 h after berthing at Baltimore.
  const changeOvers = [
    { at: marks['leave-rotterdam']! + 3 * HOUR, fuelType: 'HFO' as const },
    { at: marks.baltimore! + HOUR, fuelType: 'MDO_MGO' as const },
  ];
  const boilerFuel = (t: number): FuelType =>
    t < changeOvers[0]!.at ? 'MDO_MGO' : t < changeOvers[1]!.at ? 'HFO' : 'MDO_MGO';
  const aeFuel = (r: Row): FuelType => FUEL_TYPES[r.aeFuel]!;

  const column = (f: (r: Row) => number) => rows.map(f);
  const timestamps = column((r) => r.t);
  const channels: FlowChannel[] = [
    {
      id: 'ME',
      consumer: 'MAIN_ENGINE',
      fuel: { kind: 'fixed', fuelType: 'HFO' },
      series: { timestamps, values: column((r) => r.me) },
    },
    {
      id: 'AE',
      consumer: 'AUX_ENGINE',
      fuel: { kind: 'series', timestamps, values: column((r) => r.aeFuel) },
      series: { timestamps, values: column((r) => r.ae) },
    },
    {
      id: 'BOILER',
      consumer: 'BOILER',
      fuel: { kind: 'change-overs', changeOvers, before: 'MDO_MGO' },
      series: { timestamps, values: column((r) => r.boiler) },
    },
  ];
  const track = prepareTrack({
    timestamps,
    latitude: column((r) => r.lat),
    longitude: column((r) => r.lon),
    sog: column((r) => r.sog),
  });

  // Expected calls: per port, the first and last row within 5 nm of its point below 1 kn (each port is called once).
  const expectedCalls = PORTS.map((port) => {
    const stopped = rows.filter(
      (r) => r.sog < STOP_KN && gcNm([r.lat, r.lon], [port.latitude, port.longitude]) <= RADIUS_NM,
    );
    return { portId: port.id, arrival: stopped[0]!.t, departure: stopped.at(-1)!.t };
  });
  const [hamburg, rotterdam, baltimore] = expectedCalls as [
    (typeof expectedCalls)[0],
    (typeof expectedCalls)[0],
    (typeof expectedCalls)[0],
  ];
  // The legs by time: a time belongs to the leg that ends at or after it.
  const legBounds = [
    hamburg.departure,
    rotterdam.arrival,
    rotterdam.departure,
    baltimore.arrival,
    baltimore.departure,
    T_END,
  ];
  const legOf = (t: number) => legBounds.findIndex((b) => t <= b);

  // Distance and hours per leg: consecutive rows; under way when the later row's SOG is at least 1 kn, or across
  // a gap of more than 60 min when the mean speed is.
  const expectedLegs = legBounds.map(() => ({ nm: 0, underWay: 0, notUnderWay: 0 }));
  const rowUnderWay: boolean[] = [rows[0]!.sog >= STOP_KN];
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const nm = gcNm([a.lat, a.lon], [b.lat, b.lon]);
    const hours = (b.t - a.t) / HOUR;
    const under = b.t - a.t > GAP_MS ? nm / hours >= STOP_KN : b.sog >= STOP_KN;
    rowUnderWay.push(under);
    const leg = expectedLegs[legOf(b.t)]!;
    if (under) {
      leg.nm += nm;
      leg.underWay += hours;
    } else leg.notUnderWay += hours;
  }

  // Fuel per leg, consumer and fuel type: per UTC hour, the average of the non-null values times one hour.
  type Key = `${number}|${Consumer}|${FuelType}`;
  const expectedFuel = new Map<Key, { kg: number; notUnderWay: number }>();
  const hours = new Map<number, number[]>();
  rows.forEach((r, i) => {
    const h = Math.floor(r.t / HOUR);
    hours.set(h, [...(hours.get(h) ?? []), i]);
  });
  const channelOf: [Consumer, (r: Row) => number, (r: Row) => FuelType][] = [
    ['MAIN_ENGINE', (r) => r.me, () => 'HFO'],
    ['AUX_ENGINE', (r) => r.ae, aeFuel],
    ['BOILER', (r) => r.boiler, (r) => boilerFuel(r.t)],
  ];
  let expectedScrubberKg = 0;
  let dashboardCo2t = 0;
  const uncoveredHours = { ME: 0, AE: 0, BOILER: 0 };
  for (const [h, idx] of hours) {
    void h;
    for (const [consumer, value, fuel] of channelOf) {
      const valid = idx.filter((i) => Number.isFinite(value(rows[i]!)));
      if (idx.length < 30 || valid.length === 0) continue;
      for (const i of valid) {
        const r = rows[i]!;
        const key: Key = `${legOf(r.t)}|${consumer}|${fuel(r)}`;
        const entry = expectedFuel.get(key) ?? { kg: 0, notUnderWay: 0 };
        entry.kg += value(r) / valid.length;
        if (!rowUnderWay[i]) entry.notUnderWay += value(r) / valid.length;
        expectedFuel.set(key, entry);
      }
    }
    if (idx.length >= 30) {
      const scrubber = idx.reduce((s, i) => s + (rows[i]!.scrubberKw * 200) / 1000, 0) / idx.length;
      expectedScrubberKg += scrubber;
      // DOMAIN.md's Total CO2 emission of the hour: (average FUEL_FLOW + average SCRUBBER_FUEL) / 1000 x 3.114.
      const me = idx.filter((i) => Number.isFinite(rows[i]!.me));
      dashboardCo2t += ((me.reduce((s, i) => s + rows[i]!.me, 0) / me.length + scrubber) / 1000) * 3.114;
    }
  }
  for (let h = T0; h < T_END; h += HOUR) {
    const idx = hours.get(h / HOUR) ?? [];
    if (idx.length < 30) {
      uncoveredHours.ME++;
      uncoveredHours.AE++;
      uncoveredHours.BOILER++;
    }
  }

  let legs: Leg[] = [];
  beforeAll(() => {
    const calls = derivePortCalls(track, new PortIndex(PORTS));
    legs = buildLedger({ track, calls, channels, from: T0, to: T_END });
  });

  const within = (actual: number, expected: number) => {
    expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-4 + 1e-9);
  };

  it('is what it says: three ports, a drift and an anchorage stopped outside every port, two gaps of rows', () => {
    // Hours the gaps cut: 20 and 10 samples (no value), 40 and 45 (a value).
    const inHour = (h: number) => rows.filter((r) => r.t >= h && r.t < h + HOUR).length;
    const h0 = Math.floor(gaps[0][0] / HOUR) * HOUR;
    const h1 = Math.floor(gaps[1][0] / HOUR) * HOUR;
    expect([inHour(h0), inHour(h0 + 5 * HOUR), inHour(h1), inHour(h1 + 6 * HOUR)]).toEqual([40, 20, 10, 45]);
    expect(rows.some((r) => r.mode === 'drift' && r.sog < STOP_KN)).toBe(true);
    const anchored = rows.filter((r) => r.mode === 'anchor');
    expect(anchored.length).toBe(18 * 60);
    for (const r of anchored)
      for (const p of PORTS)
        expect(gcNm([r.lat, r.lon], [p.latitude, p.longitude])).toBeGreaterThan(RADIUS_NM);
    expect(gaps).toHaveLength(2);
    expect(rows.length).toBeLessThan(31 * 24 * 60);
  });

  it('finds the three port calls and no call at the drift or the anchorage', () => {
    const calls = derivePortCalls(track, new PortIndex(PORTS));
    expect(calls.map((c) => ({ portId: c.portId, arrival: c.arrival, departure: c.departure }))).toEqual(
      expectedCalls,
    );
    expect(calls[0]!.openStart).toBe(true);
    // The gap at Rotterdam is inside the call, not a split.
    expect(calls[1]!.gapMs).toBe(gaps[0][1] + MIN);
  });

  it('cuts the month into the stays and voyages between them, one intra-EEA and one to the US', () => {
    expect(legs.map((l) => l.kind)).toEqual(['stay', 'voyage', 'stay', 'voyage', 'stay', 'voyage']);
    expect(legs.map((l) => l.end)).toEqual(legBounds);
    const [, intraEea, , toUs, , open] = legs;
    const port = (id: string | undefined) => PORTS.find((p) => p.id === id)!;
    expect(
      portIn(port(intraEea!.fromCall?.portId), 'EU_EEA', intraEea!.start) &&
        portIn(port(intraEea!.toCall?.portId), 'EU_EEA', intraEea!.end),
    ).toBe(true);
    expect(portIn(port(toUs!.fromCall?.portId), 'EU_EEA', toUs!.start)).toBe(true);
    expect(portIn(port(toUs!.toCall?.portId), 'EU_EEA', toUs!.end)).toBe(false);
    expect(open!.toCall).toBeNull();
  });

  it('measures each leg: distance over ground, hours under way and not', () => {
    legs.forEach((leg, i) => {
      within(leg.distanceNm, expectedLegs[i]!.nm);
      within(leg.hoursUnderWay, expectedLegs[i]!.underWay);
      within(leg.hoursNotUnderWay, expectedLegs[i]!.notUnderWay);
    });
    // The drift and the anchorage are in the voyage to Baltimore, not under way.
    expect(legs[3]!.hoursNotUnderWay).toBeGreaterThan(14 + 18 - 1);
    // A stay moves no distance.
    expect(legs[2]!.distanceNm).toBe(0);
  });

  it('gives each leg its fuel per consumer and fuel type, and the part burnt not under way', () => {
    let compared = 0;
    legs.forEach((leg, i) => {
      for (const f of leg.fuel) {
        const expected = expectedFuel.get(`${i}|${f.consumer}|${f.fuelType as FuelType}`);
        expect(expected, `${i} ${f.consumer} ${f.fuelType}`).toBeDefined();
        within(f.kg, expected!.kg);
        within(f.kgNotUnderWay, expected!.notUnderWay);
        compared++;
      }
    });
    expect(compared).toBe(expectedFuel.size);
    // The auxiliary engines burn MGO at EU berths, HFO elsewhere; the boiler follows the record book.
    expect(legs[2]!.fuel.find((f) => f.consumer === 'AUX_ENGINE')!.fuelType).toBe('MDO_MGO');
    expect(
      legs[4]!.fuel
        .filter((f) => f.consumer === 'BOILER')
        .map((f) => f.fuelType)
        .sort(),
    ).toEqual(['HFO', 'MDO_MGO']);
    const totals = sumLegs(legs);
    expect(totals.hoursWithoutFuelData).toEqual(uncoveredHours);
  });

  it("adds up to the dashboard's Total CO2 emission when the scrubber's fuel is counted as it does", () => {
    const scrubber: FlowChannel = {
      id: 'SCRUBBER_FUEL',
      consumer: 'AUX_ENGINE',
      fuel: { kind: 'fixed', fuelType: 'HFO' },
      series: { timestamps, values: column((r) => (r.scrubberKw * 200) / 1000) },
    };
    const ledger = sumLegs(
      buildLedger({
        track,
        calls: legs.map((l) => l.call).filter((c) => c !== null),
        channels: [channels[0]!, scrubber],
        from: T0,
        to: T_END,
      }),
    );
    const co2t = (ledger.fuel.reduce((s, f) => s + f.kg, 0) / 1000) * 3.114;
    within(co2t, dashboardCo2t);
  });

  it('fills the IMO DCS items of the year the data allows and names what is missing', () => {
    const cargo: VoyageCargo[] = [
      { departure: legs[1]!.start, laden: false, cargoTonnes: null, teu: null },
      { departure: legs[3]!.start, laden: true, cargoTonnes: 70_000, teu: null },
    ];
    const report = dcsReport({
      year: 2026,
      particulars: {
        imoNumber: '9876543',
        shipType: 'Bulk carrier',
        grossTonnage: 43_000,
        netTonnage: 27_000,
        deadweight: DWT,
        mainEnginePowerKw: 9_500,
        auxiliaryEnginePowerKw: 2_100,
        eedi: null,
        iceClass: null,
        ciiApplicable: true,
        containerShip: false,
      },
      legs,
      cargo,
      shorePowerKwh: null,
      channelNames: { ME: 'Main engine flow', AE: 'Auxiliary engines flow', BOILER: 'Boiler flow' },
      dataFrom: T0,
      dataTo: T_END,
    });
    expect([report.periodStart, report.periodEnd]).toEqual(['2026-03-01', '2026-03-31']);
    within(
      report.distanceNm,
      expectedLegs.reduce((s, l) => s + l.nm, 0),
    );
    within(
      report.hoursUnderWay,
      expectedLegs.reduce((s, l) => s + l.underWay, 0),
    );
    for (const fuelType of FUEL_TYPES) {
      const expected =
        [...expectedFuel].filter(([k]) => k.endsWith(`|${fuelType}`)).reduce((s, [, v]) => s + v.kg, 0) /
        1000;
      const line = report.fuel.find((f) => f.fuelType === fuelType);
      if (expected === 0) expect(line).toBeUndefined();
      else within(line!.tonnes, expected);
      for (const consumer of CONSUMERS) {
        const entries = [...expectedFuel].filter(([k]) => k.endsWith(`|${consumer}|${fuelType}`));
        const byConsumer = report.fuelByConsumer.find(
          (f) => f.consumer === consumer && f.fuelType === fuelType,
        );
        const notUnderWay = report.fuelNotUnderWay.find(
          (f) => f.consumer === consumer && f.fuelType === fuelType,
        );
        if (entries.length === 0) expect(byConsumer).toBeUndefined();
        else {
          within(byConsumer!.tonnes, entries.reduce((s, [, v]) => s + v.kg, 0) / 1000);
          within(notUnderWay!.tonnes, entries.reduce((s, [, v]) => s + v.notUnderWay, 0) / 1000);
        }
      }
    }
    within(report.ladenDistanceNm!, expectedLegs[3]!.nm);
    within(report.transportWorkTonneMiles!, 70_000 * expectedLegs[3]!.nm);
    expect(report.method).toBe('FLOW_METERS');
    expect(report.missing.map((m) => m.item).sort()).toEqual(
      [
        'Fuel oil consumption',
        'Fuel oil consumption',
        'Fuel oil consumption',
        'Laden distance travelled and transport work',
        'Onshore power supplied',
      ].sort(),
    );
    expect(report.missing.find((m) => m.item.startsWith('Laden'))!.reason).toContain('1 voyage(s)');
    expect(report.missing.find((m) => m.reason.startsWith('Main engine flow'))!.reason).toContain(
      `${uncoveredHours.ME} h`,
    );
  });

  it("rates the attained CII of the month against 2026's required line, with the scrubber's part", () => {
    // The CII's days from the ledger of each day.
    const days: CiiDay[] = [];
    const cf: Record<FuelType, number> = {
      HFO: 3.114,
      LFO: 3.151,
      MDO_MGO: 3.206,
      LNG: 2.75,
      METHANOL: 1.375,
    };
    const calls = legs.map((l) => l.call).filter((c) => c !== null);
    for (let d = T0; d < T_END; d += DAY) {
      const day = sumLegs(buildLedger({ track, calls, channels, from: d, to: d + DAY }));
      days.push({
        day: d,
        co2g: day.fuel.reduce((s, f) => s + f.kg * 1000 * cf[f.fuelType as FuelType], 0),
        distanceNm: day.distanceNm,
      });
    }
    const scrubberCo2g =
      integrateKg({ timestamps, values: column((r) => scrubberFuelKgPerHour(r.scrubberKw)) }, T0, T_END) *
      1000 *
      IMO_FUELS.HFO.cf;
    within(scrubberCo2g, expectedScrubberKg * 1000 * 3.114);
    const result = ciiForYear({
      ship: { shipType: 'BULK_CARRIER', dwt: DWT, gt: 43_000 },
      year: 2026,
      days,
      asOf: T_END,
      scrubberCo2g,
    });

    const co2g = [...expectedFuel].reduce(
      (s, [k, v]) => s + v.kg * 1000 * cf[k.split('|')[2] as FuelType],
      0,
    );
    const distance = expectedLegs.reduce((s, l) => s + l.nm, 0);
    const attained = co2g / (DWT * distance);
    const required = (1 - 11 / 100) * 4745 * DWT ** -0.622;
    const ratio = attained / required;
    const rating = ratio < 0.86 ? 'A' : ratio < 0.94 ? 'B' : ratio < 1.06 ? 'C' : ratio < 1.18 ? 'D' : 'E';
    within(result.attained!, attained);
    within(result.required!, required);
    expect(result.rating).toBe(rating);
    expect(ciiRating('BULK_CARRIER', result.attained!, result.required!)).toBe(rating);
    // One month of data: the trend is the month itself, so the year end projects the same intensity.
    within(result.projectedAttained!, attained);
    within(result.scrubberPart!, scrubberCo2g / (DWT * distance));
    expect(result.scrubberShare!).toBeGreaterThan(0.01);
    expect(result.scrubberShare!).toBeLessThan(0.1);
  });

  it('derives the same later calls from the later data alone (re-executing part of the month changes nothing)', () => {
    const from = T0 + 6 * DAY;
    const later = rows.filter((r) => r.t >= from);
    const partial = derivePortCalls(
      {
        timestamps: later.map((r) => r.t),
        latitude: later.map((r) => r.lat),
        longitude: later.map((r) => r.lon),
        sog: later.map((r) => r.sog),
      },
      new PortIndex(PORTS),
    );
    expect(partial.map((c) => [c.portId, c.arrival, c.departure])).toEqual([
      ['USBAL', baltimore.arrival, baltimore.departure],
    ]);
    const mid = T0 + 10 * DAY + 7 * HOUR;
    const calls = legs.map((l) => l.call).filter((c) => c !== null);
    const a = sumLegs(buildLedger({ track, calls, channels, from: T0, to: mid }));
    const b = sumLegs(buildLedger({ track, calls, channels, from: mid, to: T_END }));
    const whole = sumLegs(legs);
    within(a.distanceNm + b.distanceNm, whole.distanceNm);
    within(
      a.fuel.reduce((s, f) => s + f.kg, 0) + b.fuel.reduce((s, f) => s + f.kg, 0),
      whole.fuel.reduce((s, f) => s + f.kg, 0),
    );
  });
});

/**
 * A month of a bulk carrier for the carbon ledger's correctness test (issue 31): Hamburg -> Rotterdam (intra-EEA)
 * -> Baltimore (to the US), a drifting stop in the Atlantic and an anchorage in Chesapeake Bay outside every port,
 * a gap of rows at Rotterdam and one at sea, then out to sea until the month ends; one logger file per UTC day. And
 * the expected ledger, computed here by plain loops straight from ../shared/DOMAIN.md's definitions (not with the
 * rules of packages/contracts/src/rules/carbon): a port call is a stay within 5 nm of a port's point below 1 kn for
 * at least 2 h; a voyage runs from one call's departure to the next call's arrival; fuel is, per UTC hour, the
 * average of the hour's values times one hour (no value below 30 samples); distance is over ground between
 * consecutive fixes while under way; CII = sum(fuel x Cf) / (DWT x distance).
 */

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const T0 = Date.UTC(2026, 2, 1);
export const T_END = Date.UTC(2026, 3, 1);
export const DAYS = 31;
export const DWT = 76_000;
export const GT = 43_000;

/** The CSV's columns after Timestamp: the channels of the logger, named as the ship's mappings name them. */
export const CHANNELS = [
  'LATITUDE',
  'LONGITUDE',
  'SHIP_SPEED',
  'FUEL_FLOW',
  'SCRUBBER_POWER',
  'AE_FUEL_FLOW',
  'BOILER_FUEL_FLOW',
  'AE_FUEL_TYPE',
] as const;

// ---- an independent great circle (IUGG mean radius; 1 nm = 1,852 m) ----
const R_NM = 6_371_008.8 / 1_852;
export function gcNm(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
    Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * R_NM * Math.asin(Math.sqrt(h));
}

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
export interface Row {
  t: number;
  lat: number;
  lon: number;
  sog: number;
  mode: Mode;
  /** kg/h; NaN = an empty cell. */
  me: number;
  ae: number;
  boiler: number;
  scrubberKw: number;
  /** The auxiliary engines' fuel in use, as the fuel type channel codes it: 0 HFO, 2 MDO/MGO. */
  aeFuel: number;
}

export interface Phase {
  mode: Mode;
  at?: [number, number];
  hours?: number;
  route?: [number, number][];
  speedKn?: number;
  euBerth?: boolean;
  mark?: string;
}

/** Berths well inside their port's circle and nearest to its point (DEHAM 0.5 nm, the next port 1 nm). */
export const HAMBURG_BERTH: [number, number] = [53.52, 9.945];
export const ROTTERDAM_BERTH: [number, number] = [51.905, 4.495];
export const BALTIMORE_BERTH: [number, number] = [39.27, -76.6];
/** Chesapeake Bay off the Potomac's mouth: no port within 5 nm (checked against the reference by the test). */
export const BAY_ANCHORAGE: [number, number] = [38.05, -76.2];

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
  { mode: 'river', route: [[52.0, 3.95], [51.97, 4.1], [51.92, 4.3], ROTTERDAM_BERTH], speedKn: 8 },
  { mode: 'stay', at: ROTTERDAM_BERTH, hours: 60, euBerth: true, mark: 'rotterdam' },
  {
    mode: 'river',
    route: [ROTTERDAM_BERTH, [51.92, 4.3], [51.97, 4.1], [52.0, 3.95]],
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
  { mode: 'river', route: [[36.95, -75.95], [37.4, -76.1], BAY_ANCHORAGE], speedKn: 10 },
  { mode: 'anchor', at: BAY_ANCHORAGE, hours: 18 },
  {
    mode: 'river',
    route: [BAY_ANCHORAGE, [38.6, -76.35], [39.15, -76.45], [39.22, -76.53], BALTIMORE_BERTH],
    speedKn: 8,
  },
  { mode: 'stay', at: BALTIMORE_BERTH, hours: 40, mark: 'baltimore' },
  {
    mode: 'river',
    route: [
      BALTIMORE_BERTH,
      [39.22, -76.53],
      [39.15, -76.45],
      [38.6, -76.35],
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

/** Rounded as the CSV writes it, so the rows are exactly what the reader parses. */
const round = (x: number, decimals: number) => (Number.isNaN(x) ? NaN : Number(x.toFixed(decimals)));

export function generateMonth() {
  const { rows, marks } = generateRows(PHASES, T0, T_END, 31);
  // Empty cells (a blank holds the last value within 5 minutes), and two gaps of rows: 5 h 20 min at Rotterdam, 6 h
  // 5 min at sea. The first leaves 40 samples in its first hour (a value) and 20 in its last (none), the second 10 in
  // its first (none) and 45 in its last (a value).
  rows.forEach((r, i) => {
    if (i % 101 === 0) r.me = NaN;
    if (i % 211 === 0) r.ae = NaN;
  });
  const hourOf = (x: number) => Math.floor(x / HOUR) * HOUR;
  const gaps = [
    [hourOf(marks.rotterdam! + 20 * HOUR) + 40 * MIN, 5 * HOUR],
    [hourOf(marks.atlantic! + 60 * HOUR) + 10 * MIN, 6 * HOUR + 5 * MIN],
  ] as const;
  const kept = rows.filter((r) => !gaps.some(([from, len]) => r.t >= from && r.t < from + len));
  return { rows: kept, marks, gaps };
}

/**
 * One fix a minute from `t0` to `tEnd` through the phases (a stay or anchorage at a point, a drift, a route at a
 * speed), starting at the first phase's point; the flows as a bulk carrier's (main engines at sea and in rivers,
 * auxiliary engines and boiler always, more at berth), the auxiliary engines' fuel MGO at berths marked `euBerth`.
 */
export function generateRows(phases: readonly Phase[], t0: number, tEnd: number, seed: number) {
  const rnd = prng(seed);
  const rows: Row[] = [];
  const marks: Record<string, number> = {};
  let t = t0;
  let pos: [number, number] = phases[0]!.at ?? phases[0]!.route![0]!;
  const jitter = () => (rnd() - 0.5) * 0.00006;
  const push = (mode: Mode, lat: number, lon: number, sog: number, euBerth: boolean) => {
    const sea = mode === 'sea';
    const moving = mode === 'sea' || mode === 'river';
    rows.push({
      t,
      lat: round(lat, 6),
      lon: round(lon, 6),
      sog: round(sog, 2),
      mode,
      me: round(sea ? 1150 + 40 * (rnd() - 0.5) : moving ? 600 + 20 * (rnd() - 0.5) : 0, 2),
      ae: round((mode === 'stay' ? 170 : 150) + 6 * (rnd() - 0.5), 2),
      boiler: round((mode === 'stay' ? 90 : 20) + 2 * (rnd() - 0.5), 2),
      scrubberKw: round(sea ? 260 + 10 * (rnd() - 0.5) : moving ? 180 : mode === 'stay' ? 0 : 60, 1),
      aeFuel: euBerth ? 2 : 0,
    });
    t += MIN;
  };
  for (const phase of phases) {
    if (t >= tEnd) break;
    if (phase.mark) marks[phase.mark] = t;
    if (phase.mode === 'stay' || phase.mode === 'anchor') {
      pos = phase.at!;
      for (let k = 0; k < phase.hours! * 60 && t < tEnd; k++)
        push(phase.mode, pos[0] + jitter(), pos[1] + jitter(), 0.05 + 0.3 * rnd(), phase.euBerth ?? false);
    } else if (phase.mode === 'drift') {
      for (let k = 0; k < phase.hours! * 60 && t < tEnd; k++) {
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
      for (let k = 1; k <= n && t < tEnd; k++) {
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
  if (t < tEnd) throw new Error('the phases end before the period');
  return { rows, marks };
}

const cell = (x: number, decimals: number) => (Number.isNaN(x) ? '' : x.toFixed(decimals));
const stamp = (t: number) => new Date(t).toISOString().replace('T', ' ').slice(0, 19);

/** One logger file per UTC day: `Timestamp` then CHANNELS. */
export function dayFiles(
  rows: readonly Row[],
  t0 = T0,
  tEnd = T_END,
): { fileName: string; content: string }[] {
  const files: { fileName: string; content: string }[] = [];
  for (let d = t0; d < tEnd; d += DAY) {
    const lines = [['Timestamp', ...CHANNELS].join(',')];
    for (const r of rows)
      if (r.t >= d && r.t < d + DAY)
        lines.push(
          [
            stamp(r.t),
            cell(r.lat, 6),
            cell(r.lon, 6),
            cell(r.sog, 2),
            cell(r.me, 2),
            cell(r.scrubberKw, 1),
            cell(r.ae, 2),
            cell(r.boiler, 2),
            String(r.aeFuel),
          ].join(','),
        );
    files.push({
      fileName: `bulk_${new Date(d).toISOString().slice(0, 10)}.csv`,
      content: `${lines.join('\n')}\n`,
    });
  }
  return files;
}

/** A blank takes the last value of its channel within the 5 minutes before (the calculations' sample-and-hold). */
export function held(rows: readonly Row[], value: (r: Row) => number): number[] {
  let lastT = -Infinity;
  let last = NaN;
  return rows.map((r) => {
    const v = value(r);
    if (!Number.isNaN(v)) {
      lastT = r.t;
      last = v;
      return v;
    }
    return r.t - lastT <= 5 * MIN ? last : NaN;
  });
}

export interface ExpectedPort {
  locode: string;
  lat: number;
  lon: number;
}

/** Cf of MEPC.364(79) per fuel (DOMAIN.md's table), t CO2 / t fuel. */
export const CF = { HFO: 3.114, LFO: 3.151, MDO_MGO: 3.206, LNG: 2.75, METHANOL: 1.375 } as const;
export type Fuel = keyof typeof CF | 'UNKNOWN';
export type ConsumerName = 'MAIN_ENGINE' | 'AUX_ENGINE' | 'BOILER';

export interface FlowSpec {
  consumer: ConsumerName;
  value: (r: Row) => number;
  fuel: (r: Row) => Fuel;
}

/**
 * The expected ledger of the month: the calls at the given ports (each called once: the first and the last fix within
 * 5 nm of its point below 1 kn), the legs between them, and per leg the distance, hours and fuel per consumer and
 * fuel type. `ports` are the reference ports near the route.
 */
export function expectedLedger(
  rows: readonly Row[],
  ports: readonly ExpectedPort[],
  flows: readonly FlowSpec[],
) {
  const STOP_KN = 1;
  const RADIUS_NM = 5;
  const GAP_MS = 60 * MIN;
  // The port each fix lies in: the nearest point within 5 nm.
  const portOf = rows.map((r) => {
    let best: ExpectedPort | null = null;
    let bestNm = Infinity;
    for (const p of ports) {
      const nm = gcNm([r.lat, r.lon], [p.lat, p.lon]);
      if (nm <= RADIUS_NM && nm < bestNm) {
        best = p;
        bestNm = nm;
      }
    }
    return best?.locode ?? null;
  });
  const sog = held(rows, (r) => r.sog);
  const stoppedIn = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const port = portOf[i];
    if (port && sog[i]! < STOP_KN) stoppedIn.set(port, [...(stoppedIn.get(port) ?? []), r.t]);
  });
  const calls = [...stoppedIn]
    .map(([locode, times]) => ({ locode, arrival: times[0]!, departure: times.at(-1)! }))
    .filter((c) => c.departure - c.arrival >= 2 * HOUR)
    .sort((a, b) => a.arrival - b.arrival);

  // Legs by time: a time belongs to the leg that ends at or after it.
  const first = Math.floor(rows[0]!.t / HOUR) * HOUR;
  const last = Math.floor(rows.at(-1)!.t / HOUR) * HOUR + HOUR;
  const bounds: { kind: 'stay' | 'voyage'; start: number; end: number }[] = [];
  let cursor = first;
  for (const c of calls) {
    if (c.arrival > cursor) bounds.push({ kind: 'voyage', start: cursor, end: c.arrival });
    bounds.push({ kind: 'stay', start: Math.max(c.arrival, cursor), end: c.departure });
    cursor = c.departure;
  }
  if (cursor < last) bounds.push({ kind: 'voyage', start: cursor, end: last });
  const legOf = (t: number) => bounds.findIndex((b) => t <= b.end);

  const legs = bounds.map((b) => ({
    ...b,
    nm: 0,
    underWay: 0,
    notUnderWay: 0,
    fuel: new Map<string, { kg: number; notUnderWay: number }>(),
  }));
  // Under way between consecutive fixes: the later fix's SOG at least 1 kn, or across a gap (more than 60 min)
  // the mean speed.
  const rowUnderWay: boolean[] = [sog[0]! >= STOP_KN];
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const nm = gcNm([a.lat, a.lon], [b.lat, b.lon]);
    const hours = (b.t - a.t) / HOUR;
    const under = b.t - a.t > GAP_MS ? nm / hours >= STOP_KN : sog[i]! >= STOP_KN;
    rowUnderWay.push(under);
    // A track leg across a boundary between two legs is split by time (the boundaries are fix times here).
    const leg = legs[legOf(b.t)]!;
    if (under) {
      leg.nm += nm;
      leg.underWay += hours;
    } else leg.notUnderWay += hours;
  }

  // Fuel: per UTC hour with at least 30 rows, each value its share of the hour's average.
  const byHour = new Map<number, number[]>();
  rows.forEach((r, i) => {
    const h = Math.floor(r.t / HOUR);
    byHour.set(h, [...(byHour.get(h) ?? []), i]);
  });
  const hoursWithoutData = new Map<ConsumerName, number>();
  for (const flow of flows) {
    const values = held(rows, flow.value);
    let missing = 0;
    for (let h = first; h < last; h += HOUR) {
      const idx = byHour.get(h / HOUR) ?? [];
      const valid = idx.filter((i) => !Number.isNaN(values[i]!));
      if (idx.length < 30 || valid.length === 0) {
        missing++;
        continue;
      }
      for (const i of valid) {
        const r = rows[i]!;
        const key = `${flow.consumer}|${flow.fuel(r)}`;
        const fuel = legs[legOf(r.t)]!.fuel;
        const entry = fuel.get(key) ?? { kg: 0, notUnderWay: 0 };
        entry.kg += values[i]! / valid.length;
        if (!rowUnderWay[i]) entry.notUnderWay += values[i]! / valid.length;
        fuel.set(key, entry);
      }
    }
    hoursWithoutData.set(flow.consumer, missing);
  }
  return { calls, legs, hoursWithoutData, first, last };
}

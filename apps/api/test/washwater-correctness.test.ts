import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInNoDischargeZone } from '@portal/contracts/discharge-zones';
import { REPORT_CODES } from '@portal/contracts/reports';
import { demoShips, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import { executeDemoDays } from './execution-fixtures';
import { startTestServer, type TestServer } from './harness';

/**
 * Washwater correctness (issue 20): one demo week of two ships through the real path (logger files, upload, default
 * calculations, execution on the job queue). The test computes the washwater KPIs and events again from the generated
 * samples, straight from DOMAIN.md "Washwater discharge" and docs/decisions/0100-washwater.md, and compares the KPIs
 * the dashboards read within 0.01 % and the stored events exactly.
 *
 * Straits Pioneer (hybrid) forgets to switch to closed loop in the Suez Canal this week: open loop in a no-discharge
 * zone. Atlantic Meridian (open loop) has the drifting pH probe: pH exceedances.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
const WEEK_START = Date.UTC(2026, 0, 5);
const DAYS = 7;
const FROM = new Date(WEEK_START);
const TO = new Date(WEEK_START + DAYS * DAY - 1);
const SHIPS = ['straits_pioneer', 'atlantic_meridian'];
const TOLERANCE = 1e-4;
const PRELOAD = 300_000;

let server: TestServer;
let facilityIdOf: Record<string, string> = {};
let samplesOf: Record<string, DaySamples[]> = {};

// ---------------------------------------------------------------------------------------------------------------
// DOMAIN.md "Washwater discharge", written out again over the generated samples.

type Column = (number | null)[];
const isNum = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** A blank sample takes the last value within the preload interval (5 minutes). */
function held(timestamps: number[], values: number[]): Column {
  let lastT = -Infinity;
  let lastV: number | null = null;
  return timestamps.map((t, i) => {
    const v = values[i]!;
    if (!Number.isNaN(v)) {
      lastT = t;
      lastV = v;
      return v;
    }
    return t - lastT <= PRELOAD ? lastV : null;
  });
}

interface Minute {
  t: number;
  discharging: boolean;
  ph: number | null;
  phLimit: number | null;
  pahAbove: number | null;
  pahLimit: number | null;
  turbidityAbove: number | null;
  compliant: number | null;
  openInZone: boolean;
  lat: number | null;
  lon: number | null;
}

function minutesOf(ship: DemoShip, days: DaySamples[]): Minute[] {
  const ts = days.flatMap((d) => Array.from(d.timestamps));
  const ch = (name: string) =>
    held(
      ts,
      days.flatMap((d) => Array.from(d.channels[name]!)),
    );
  const [mode, flow, load, ph, phIn, pah, pahIn, turb, turbIn, lat, lon] = [
    'SCRUBBER_MODE',
    'WASHWATER_FLOW',
    'ENGINE_LOAD',
    'WASHWATER_PH',
    'WASHWATER_PH_INLET',
    'WASHWATER_PAH',
    'WASHWATER_PAH_INLET',
    'WASHWATER_TURBIDITY',
    'WASHWATER_TURBIDITY_INLET',
    'LATITUDE',
    'LONGITUDE',
  ].map(ch) as Column[];
  // Turbidity above the inlet as the mean of the rows in the last 15 minutes (nothing before the week's first file).
  const diff = ts.map((_, i) => (isNum(turb![i]) ? turb![i]! - (turbIn![i] ?? 0) : null));
  const rolling = ts.map((t, i) => {
    const xs: number[] = [];
    for (let k = i; k >= 0 && ts[k]! > t - 15 * MIN; k--) if (isNum(diff[k])) xs.push(diff[k]!);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  });
  return ts.map((t, i) => {
    const discharging = mode![i] === 1 && (flow![i] ?? 0) > 0;
    const l = load![i];
    const manoeuvring = isNum(l) && l > 0 && l < 25;
    const phLimit = !discharging ? null : manoeuvring && isNum(phIn![i]) ? phIn![i]! - 2 : 6.5;
    const powerMW = isNum(l) ? ((l / 100) * ship.totalEffectKW) / 1000 : null;
    const pahLimit =
      discharging && powerMW !== null && powerMW > 0 ? (50 * 45) / (flow![i]! / powerMW) : null;
    const pahAbove = discharging && isNum(pah![i]) ? pah![i]! - (pahIn![i] ?? 0) : null;
    const turbidityAbove = discharging ? rolling[i]! : null;
    const phOk = phLimit !== null && isNum(ph![i]) && ph![i]! >= phLimit;
    const pahOk = pahAbove !== null && (pahLimit === null || pahAbove <= pahLimit);
    const turbOk = turbidityAbove !== null && turbidityAbove <= 25;
    const inZone = isNum(lat![i]) && isNum(lon![i]) && isInNoDischargeZone(lon![i]!, lat![i]!, t);
    return {
      t,
      discharging,
      ph: discharging ? ph![i]! : null,
      phLimit,
      pahAbove,
      pahLimit,
      turbidityAbove,
      compliant: discharging ? (phOk && pahOk && turbOk ? 1 : 0) : null,
      openInZone: discharging && inZone,
      lat: lat![i] ?? null,
      lon: lon![i] ?? null,
    };
  });
}

interface Hour {
  start: number;
  compliance: number | null;
  ph: number | null;
  pah: number | null;
  turbidity: number | null;
  openHours: number | null;
}

function hoursOf(minutes: Minute[]): Hour[] {
  const byHour = new Map<number, Minute[]>();
  for (const m of minutes) {
    const h = Math.floor(m.t / HOUR) * HOUR;
    byHour.set(h, [...(byHour.get(h) ?? []), m]);
  }
  const min = (xs: Column) => (xs.filter(isNum).length ? Math.min(...xs.filter(isNum)) : null);
  const max = (xs: Column) => (xs.filter(isNum).length ? Math.max(...xs.filter(isNum)) : null);
  return [...byHour].map(([start, ms]) => {
    if (ms.length < 30)
      return { start, compliance: null, ph: null, pah: null, turbidity: null, openHours: null };
    const judged = ms.filter((m) => m.compliant !== null);
    return {
      start,
      compliance: judged.length ? (judged.every((m) => m.compliant === 1) ? 100 : 0) : null,
      ph: min(ms.map((m) => m.ph)),
      pah: max(ms.map((m) => m.pahAbove)),
      turbidity: max(ms.map((m) => m.turbidityAbove)),
      openHours: ms.filter((m) => m.openInZone).length / ms.length,
    };
  });
}

interface ExpectedEvent {
  type: string;
  channel: string | null;
  start: string;
  end: string;
  worstValue: number | null;
  limit: number | null;
  classification: string;
  reportRequired: boolean;
}

/** Episodes (a break of at most 2 samples joins), classified as DOMAIN.md "Compliance events" says. */
function expectedEvents(minutes: Minute[]): ExpectedEvent[] {
  const kinds: {
    type: string;
    channel: string | null;
    counts: (m: Minute) => boolean;
    worse?: (m: Minute) => [number, number];
  }[] = [
    {
      type: 'washwater-exceedance',
      channel: 'WASHWATER_PH',
      counts: (m) => m.phLimit !== null && m.ph !== null && m.ph < m.phLimit,
      worse: (m) => [m.ph!, m.phLimit!],
    },
    {
      type: 'washwater-exceedance',
      channel: 'WASHWATER_PAH',
      counts: (m) => m.pahLimit !== null && m.pahAbove !== null && m.pahAbove > m.pahLimit,
      worse: (m) => [m.pahAbove!, m.pahLimit!],
    },
    {
      type: 'washwater-exceedance',
      channel: 'WASHWATER_TURBIDITY',
      counts: (m) => m.turbidityAbove !== null && m.turbidityAbove > 25,
      worse: (m) => [m.turbidityAbove!, 25],
    },
    { type: 'open-loop-in-no-discharge-zone', channel: null, counts: (m) => m.openInZone },
  ];
  const out: ExpectedEvent[] = [];
  for (const kind of kinds) {
    const transients: number[] = [];
    let current: { first: number; last: number } | null = null;
    const runs: { first: number; last: number }[] = [];
    minutes.forEach((m, i) => {
      if (!kind.counts(m)) return;
      if (current && m.t - minutes[current.last]!.t <= 3 * MIN) current.last = i;
      else {
        if (current) runs.push(current);
        current = { first: i, last: i };
      }
    });
    if (current) runs.push(current);
    for (const run of runs) {
      const start = minutes[run.first]!.t;
      const end = minutes[run.last]!.t + MIN;
      let worst: [number, number] | null = null;
      for (let i = run.first; i <= run.last; i++) {
        const m = minutes[i]!;
        if (!kind.counts(m) || !kind.worse) continue;
        const w = kind.worse(m);
        const below = kind.channel === 'WASHWATER_PH';
        if (!worst || (below ? w[0] < worst[0] : w[0] > worst[0])) worst = w;
      }
      let classification: string;
      if (end - start >= 15 * MIN) classification = 'malfunction';
      else {
        const within = transients.filter((t) => t > start - 24 * HOUR && t <= start).length;
        classification = within + 1 >= 3 ? 'repeated' : 'transient';
        transients.push(start);
      }
      out.push({
        type: kind.type,
        channel: kind.channel,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        worstValue: worst ? worst[0] : null,
        limit: worst ? worst[1] : null,
        classification,
        reportRequired:
          classification === 'repeated' || (classification === 'malfunction' && end - start > HOUR),
      });
    }
  }
  return out.sort(
    (a, b) => a.start.localeCompare(b.start) || (a.channel ?? '').localeCompare(b.channel ?? ''),
  );
}

async function storedEvents(facilityId: string): Promise<ExpectedEvent[]> {
  const rows = await server.services.database.db
    .selectFrom('compliance_events')
    .select([
      'type',
      'channel',
      'start_on',
      'end_on',
      'worst_value',
      'limit_value',
      'classification',
      'report_required',
    ])
    .where('facility_id', '=', facilityId)
    .where('type', 'in', ['washwater-exceedance', 'open-loop-in-no-discharge-zone'])
    .execute();
  return rows
    .map((r) => ({
      type: r.type,
      channel: r.channel,
      start: new Date(r.start_on).toISOString(),
      end: new Date(r.end_on).toISOString(),
      worstValue: r.worst_value,
      limit: r.limit_value,
      classification: r.classification!,
      reportRequired: r.report_required,
    }))
    .sort((a, b) => a.start.localeCompare(b.start) || (a.channel ?? '').localeCompare(b.channel ?? ''));
}

const relativeError = (actual: number, expected: number) =>
  Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-9);

async function reportData(reportId: string, facilityId: string) {
  const client = await server.as('admin');
  const query = new URLSearchParams({ from: FROM.toISOString(), to: TO.toISOString(), facilityId });
  const response = await client.get(`/api/reports/${reportId}/data?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { fields: Record<string, { value: unknown }> };
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'work' });
  ({ facilityIdOf, samplesOf } = await executeDemoDays(server, {
    shipKeys: SHIPS,
    start: WEEK_START,
    days: DAYS,
  }));
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe('washwater KPIs and events of one demo week, computed again from the generated samples', () => {
  it.each(SHIPS)('%s: the washwater KPIs are within 0.01 % of DOMAIN.md', async (key) => {
    const ship = demoShips(6).find((s) => s.key === key)!;
    const hours = hoursOf(minutesOf(ship, samplesOf[key]!));
    const mean = (xs: Column) => {
      const n = xs.filter(isNum);
      return n.length ? n.reduce((a, b) => a + b, 0) / n.length : null;
    };
    const C = REPORT_CODES;
    const expected = [
      {
        report: C.shipWashwaterCompliance,
        field: 'ActualAverage',
        value: mean(hours.map((h) => h.compliance)),
      },
      {
        report: C.shipWashwaterCriteria,
        field: 'PhWorst',
        value: Math.min(...hours.map((h) => h.ph).filter(isNum)),
      },
      {
        report: C.shipWashwaterCriteria,
        field: 'PahWorst',
        value: Math.max(...hours.map((h) => h.pah).filter(isNum)),
      },
      {
        report: C.shipWashwaterCriteria,
        field: 'TurbidityWorst',
        value: Math.max(...hours.map((h) => h.turbidity).filter(isNum)),
      },
      {
        report: C.shipOpenLoopInNoDischargeZone,
        field: 'ActualAverage',
        value: hours
          .map((h) => h.openHours)
          .filter(isNum)
          .reduce((a, b) => a + b, 0),
      },
    ];
    const rows: string[] = [];
    for (const { report, field, value } of expected) {
      const actual = (await reportData(report, facilityIdOf[key]!)).fields[field]!.value as number | null;
      rows.push(`${key} ${report}.${field}: expected ${value} api ${actual}`);
      expect(value, `${report}.${field}`).not.toBeNull();
      expect(actual, `${report}.${field}`).not.toBeNull();
      if (value === 0) expect(actual).toBe(0);
      else expect(relativeError(actual!, value!), `${report}.${field}`).toBeLessThanOrEqual(TOLERANCE);
    }
    console.info(rows.join('\n'));
    // The hourly pH the ship chart draws.
    const series = (await reportData(C.shipWashwaterCriteria, facilityIdOf[key]!)).fields.PhValues!.value as {
      timestamp: string;
      value: number | null;
    }[];
    const byTime = new Map(series.map((p) => [new Date(p.timestamp).getTime(), p.value]));
    for (const h of hours) {
      const actual = byTime.get(h.start) ?? null;
      if (h.ph === null) expect(actual).toBeNull();
      else expect(relativeError(actual!, h.ph)).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it.each(SHIPS)('%s: the washwater events are those of DOMAIN.md, exactly', async (key) => {
    const ship = demoShips(6).find((s) => s.key === key)!;
    const expected = expectedEvents(minutesOf(ship, samplesOf[key]!));
    const stored = await storedEvents(facilityIdOf[key]!);
    console.info(`${key}: ${expected.length} washwater events expected, ${stored.length} stored`);
    expect(stored).toEqual(expected);
  });

  it('shows each case of the demo: open loop in the Suez Canal and low pH from the drifting probe', async () => {
    const pioneer = await storedEvents(facilityIdOf.straits_pioneer!);
    expect(pioneer.filter((e) => e.type === 'open-loop-in-no-discharge-zone').length).toBeGreaterThan(0);
    const meridian = await storedEvents(facilityIdOf.atlantic_meridian!);
    expect(meridian.filter((e) => e.channel === 'WASHWATER_PH').length).toBeGreaterThan(0);
  });
});

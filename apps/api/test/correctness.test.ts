import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInEca } from '@portal/contracts/eca';
import { REPORT_CODES } from '@portal/contracts/reports';
import { demoShips, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import { DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';
import { executeDemoDays } from './execution-fixtures';
import { startTestServer, type TestServer } from './harness';

/**
 * KPI correctness: one demo week of two demo ships goes through the real path (logger files, upload, default
 * calculations, execution on the job queue); the test computes every KPI again from the generated samples,
 * straight from DOMAIN.md, and compares with what the dashboards read (GET /api/reports/{id}/data).
 *
 * Pacific Kestrel has the sensor gap (missing minutes and blank SO2 values: hours under 30 samples, held values);
 * Baltic Tern sails in and out of the Baltic ECA with short SO2 excursions over the limit.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const WEEK_START = Date.UTC(2025, 2, 3);
const DAYS = 7;
const FROM = new Date(WEEK_START);
const TO = new Date(WEEK_START + DAYS * DAY - 1);
const SHIPS = ['pacific_kestrel', 'baltic_tern'];
/** 0.01 % */
const TOLERANCE = 1e-4;

const preload =
  DEFAULT_MEASUREMENT_FIELDS.find((f) => f.name === 'FUEL_FLOW')!.preloadIntervalInSeconds * 1000;

let server: TestServer;
let facilityIdOf: Record<string, string> = {};
let samplesOf: Record<string, DaySamples[]> = {};

// ---------------------------------------------------------------------------------------------------------------
// The expected values, straight from DOMAIN.md.

type Column = (number | null)[];
const isNum = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** Raw channel values at the target timestamps: a blank sample takes the last value within the calculation's preload interval. */
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
    return t - lastT <= preload ? lastV : null;
  });
}

interface Hour {
  start: number;
  samples: number;
  marpol: number | null;
  availability: number | null;
  ratio: number | null;
  limit: number | null;
  margin: number | null;
  sfoc: number | null;
  emission: number | null;
  extraSulfur: number | null;
  co2Reduction: number | null;
}

const mean = (xs: Column): number | null => {
  const n = xs.filter(isNum);
  return n.length ? n.reduce((a, b) => a + b, 0) / n.length : null;
};

function expectedHours(ship: DemoShip, days: DaySamples[]): Hour[] {
  const timestamps = days.flatMap((d) => Array.from(d.timestamps));
  const channel = (name: string) =>
    held(
      timestamps,
      days.flatMap((d) => Array.from(d.channels[name]!)),
    );
  const [fuelFlow, fuelSulfur, so2, co2, running, power, lat, lon] = [
    'FUEL_FLOW',
    'FUEL_SULFUR',
    'SO2_PPM',
    'CO2_PCT',
    'SCRUBBER_RUNNING',
    'SCRUBBER_POWER',
    'LATITUDE',
    'LONGITUDE',
  ].map(channel) as Column[];

  // Per target timestamp (one a minute), DOMAIN.md "Default measurement field calculations".
  const minutes = timestamps.map((t, i) => {
    const eca = isNum(lat![i]) && isNum(lon![i]) && isInEca(lat![i]!, lon![i]!, t);
    const isRunning = running![i] === 1;
    const ratio =
      isRunning && isNum(co2![i]) && co2![i]! >= 0.5 && isNum(so2![i]) ? so2![i]! / co2![i]! : null;
    const limit = eca ? 4.3 : 21.7;
    const required =
      isNum(fuelFlow![i]) &&
      isNum(fuelSulfur![i]) &&
      fuelFlow![i]! > 50 &&
      fuelSulfur![i]! > (eca ? 0.1 : 0.5);
    const compliant = required ? (isRunning && ratio !== null && ratio <= limit ? 1 : 0) : null;
    const margin = ratio === null ? null : ((limit - ratio) / limit) * 100;
    const scrubberFuel = isNum(power![i]) ? (power![i]! * 200) / 1000 : null;
    const excessSulfur =
      ratio === null
        ? 0
        : isNum(fuelFlow![i])
          ? (fuelFlow![i]! * Math.max(0, (eca ? 0.1 : 0.5) - ratio / 43.3)) / 100
          : null;
    const co2Saved = isRunning
      ? isNum(power![i])
        ? (((0.015 * ship.totalEffectKW - power![i]!) * 200) / 1e6) * 3.114
        : null
      : 0;
    return {
      t,
      fuelFlow: fuelFlow![i]!,
      running: isRunning,
      required,
      compliant,
      ratio,
      limit,
      margin,
      scrubberFuel,
      excessSulfur,
      co2Saved,
    };
  });

  // Per UTC hour, DOMAIN.md "Default report fields".
  const byHour = new Map<number, typeof minutes>();
  for (const m of minutes) {
    const h = Math.floor(m.t / HOUR) * HOUR;
    byHour.set(h, [...(byHour.get(h) ?? []), m]);
  }
  return [...byHour.entries()].map(([start, ms]): Hour => {
    const empty = {
      marpol: null,
      availability: null,
      ratio: null,
      limit: null,
      margin: null,
      sfoc: null,
      emission: null,
      extraSulfur: null,
      co2Reduction: null,
    };
    if (ms.length < 30) return { start, samples: ms.length, ...empty };
    const compliant = ms.map((m) => (m.compliant === null ? null : m.compliant * 100));
    const required = ms.filter((m) => m.required).length;
    const fuel = mean(ms.map((m) => m.fuelFlow));
    const scrubberFuel = mean(ms.map((m) => m.scrubberFuel));
    return {
      start,
      samples: ms.length,
      marpol: mean(compliant),
      availability: required === 0 ? null : (ms.filter((m) => m.running).length / required) * 100,
      ratio: mean(ms.map((m) => m.ratio)),
      limit: mean(ms.map((m) => m.limit)),
      margin: mean(ms.map((m) => m.margin)),
      sfoc: fuel === null || fuel < 50 || scrubberFuel === null ? null : (scrubberFuel / fuel) * 100,
      emission: fuel === null ? null : ((fuel + (scrubberFuel ?? 0)) / 1000) * 3.114,
      extraSulfur: (() => {
        const v = mean(ms.map((m) => m.excessSulfur));
        return v === null ? null : v / 1000;
      })(),
      co2Reduction: mean(ms.map((m) => m.co2Saved)),
    };
  });
}

type Kpi = Exclude<keyof Hour, 'start' | 'samples'>;
const periodAverage = (hours: Hour[], kpi: Kpi) => mean(hours.map((h) => h[kpi]));
const periodSum = (hours: Hour[], kpi: Kpi) =>
  hours
    .map((h) => h[kpi])
    .filter(isNum)
    .reduce((a, b) => a + b, 0);

/** One number per (report, field) the ship dashboard shows, from the hours. */
function expectedShipValues(hours: Hour[]) {
  const C = REPORT_CODES;
  return [
    { report: C.shipMarpolCompliance, field: 'ActualAverage', value: periodAverage(hours, 'marpol') },
    { report: C.shipMarpolCompliance, field: 'Lifetime', value: periodAverage(hours, 'marpol') },
    {
      report: C.shipOperationalAvailability,
      field: 'ActualAverage',
      value: periodAverage(hours, 'availability'),
    },
    { report: C.shipUptime, field: 'ActualAverage', value: periodAverage(hours, 'availability') },
    { report: C.shipSo2Co2Ratio, field: 'ActualAverage', value: periodAverage(hours, 'ratio') },
    { report: C.shipSo2Co2Ratio, field: 'Facility', value: periodAverage(hours, 'margin') },
    { report: C.shipSfocImpact, field: 'ActualAverage', value: periodAverage(hours, 'sfoc') },
    { report: C.shipTotalCo2Emission, field: 'ActualAverage', value: periodSum(hours, 'emission') },
    { report: C.shipExtraRemovalOfSulfur, field: 'ActualAverage', value: periodSum(hours, 'extraSulfur') },
    { report: C.shipCo2Reduction, field: 'ActualAverage', value: periodSum(hours, 'co2Reduction') },
    { report: C.shipCo2Reduction, field: 'Lifetime', value: periodSum(hours, 'co2Reduction') },
  ];
}

const relativeError = (actual: number, expected: number) =>
  Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-9);

async function reportData(reportId: string, params: Record<string, string>) {
  const client = await server.as('admin');
  const query = new URLSearchParams({ from: FROM.toISOString(), to: TO.toISOString(), ...params });
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

describe('KPIs of one demo week, computed again from the generated samples', () => {
  it.each(SHIPS)('%s: every KPI of the ship dashboard is within 0.01 % of DOMAIN.md', async (key) => {
    const ship = demoShips(6).find((s) => s.key === key)!;
    const hours = expectedHours(ship, samplesOf[key]!);
    expect(hours.length).toBeGreaterThan(DAYS * 20);
    const facilityId = facilityIdOf[key]!;
    const rows: string[] = [];
    for (const { report, field, value: expected } of expectedShipValues(hours)) {
      const actual = (await reportData(report, { facilityId })).fields[field]!.value as number | null;
      rows.push(`${key} ${report}.${field}: expected ${expected} api ${actual}`);
      expect(expected, `${report}.${field}`).not.toBeNull();
      expect(actual, `${report}.${field}`).not.toBeNull();
      expect(
        relativeError(actual!, expected!),
        `${report}.${field}: expected ${expected}, api ${actual}`,
      ).toBeLessThanOrEqual(TOLERANCE);
    }
    console.info(rows.join('\n'));
  });

  it('pacific_kestrel: the hours with under 30 samples give no value, the others the hourly values of DOMAIN.md', async () => {
    const key = 'pacific_kestrel';
    const ship = demoShips(6).find((s) => s.key === key)!;
    const hours = expectedHours(ship, samplesOf[key]!);
    const sparse = hours.filter((h) => h.samples < 30);
    expect(sparse.length).toBeGreaterThan(0);
    const data = await reportData(REPORT_CODES.shipSo2Co2Ratio, {
      facilityId: facilityIdOf[key]!,
      duration: 'hourly',
    });
    const series = data.fields.Values!.value as { timestamp: string; value: number | null }[];
    const byTime = new Map(series.map((p) => [new Date(p.timestamp).getTime(), p.value]));
    for (const hour of hours) {
      const actual = byTime.get(hour.start) ?? null;
      if (hour.ratio === null) expect(actual, new Date(hour.start).toISOString()).toBeNull();
      else
        expect(relativeError(actual!, hour.ratio), new Date(hour.start).toISOString()).toBeLessThanOrEqual(
          TOLERANCE,
        );
    }
    // The uptime matrix: hourly availability, including the values above 100 %.
    const uptime = (
      await reportData(REPORT_CODES.shipUptime, { facilityId: facilityIdOf[key]!, duration: 'hourly' })
    ).fields.Values!.value as { timestamp: string; value: number | null }[];
    const uptimeByTime = new Map(uptime.map((p) => [new Date(p.timestamp).getTime(), p.value]));
    for (const hour of hours) {
      const actual = uptimeByTime.get(hour.start) ?? null;
      if (hour.availability === null) expect(actual, new Date(hour.start).toISOString()).toBeNull();
      else
        expect(
          relativeError(actual!, hour.availability),
          new Date(hour.start).toISOString(),
        ).toBeLessThanOrEqual(TOLERANCE);
    }
  });
});

describe('fleet numbers against the per-ship ones', () => {
  it('averages the ships for percentages and ratio margins, sums tonnes, and lists each ship with its own value', async () => {
    const ids = SHIPS.map((k) => facilityIdOf[k]!);
    const client = await server.as('admin');
    const fleet = async (reportId: string) => {
      const response = await client.post(`/api/reports/${reportId}/data`, {
        from: FROM.toISOString(),
        to: TO.toISOString(),
        facilityIds: ids,
      });
      expect(response.statusCode).toBe(200);
      return response.json().fields as Record<string, { value: unknown }>;
    };
    const ship = async (reportId: string, field: string) =>
      Promise.all(
        ids.map(
          async (facilityId) => (await reportData(reportId, { facilityId })).fields[field]!.value as number,
        ),
      );
    const C = REPORT_CODES;
    const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const pairs: {
      fleet: string;
      ship: string;
      field: string;
      combine: (xs: number[]) => number;
      list?: boolean;
    }[] = [
      {
        fleet: C.fleetMarpolCompliance,
        ship: C.shipMarpolCompliance,
        field: 'ActualAverage',
        combine: average,
        list: true,
      },
      {
        fleet: C.fleetOperationalAvailability,
        ship: C.shipOperationalAvailability,
        field: 'ActualAverage',
        combine: average,
        list: true,
      },
      {
        fleet: C.fleetSfocImpact,
        ship: C.shipSfocImpact,
        field: 'ActualAverage',
        combine: average,
        list: true,
      },
      {
        fleet: C.fleetTotalCo2Emission,
        ship: C.shipTotalCo2Emission,
        field: 'ActualAverage',
        combine: total,
      },
      {
        fleet: C.fleetExtraRemovalOfSulfur,
        ship: C.shipExtraRemovalOfSulfur,
        field: 'ActualAverage',
        combine: total,
      },
      { fleet: C.fleetCo2Reduction, ship: C.shipCo2Reduction, field: 'ActualAverage', combine: total },
    ];
    for (const pair of pairs) {
      const perShip = await ship(pair.ship, pair.field);
      const fields = await fleet(pair.fleet);
      expect(
        relativeError(fields.ActualAverage!.value as number, pair.combine(perShip)),
        pair.fleet,
      ).toBeLessThanOrEqual(1e-9);
      if (pair.list) {
        const list = fields.Facilities!.value as { facilityId: string; value: number }[];
        expect(list.map((s) => s.facilityId).sort()).toEqual([...ids].sort());
        for (const [i, id] of ids.entries())
          expect(
            relativeError(list.find((s) => s.facilityId === id)!.value, perShip[i]!),
          ).toBeLessThanOrEqual(1e-9);
      }
    }
    // Ratio card: the fleet gauge is the average margin of the ships; the bars are each ship's ratio and limit.
    const margins = await ship(C.shipSo2Co2Ratio, 'Facility');
    const ratios = await ship(C.shipSo2Co2Ratio, 'ActualAverage');
    const ratioCard = await fleet(C.fleetSo2Co2Ratio);
    expect(relativeError(ratioCard.ActualAverage!.value as number, average(margins))).toBeLessThanOrEqual(
      1e-9,
    );
    const values = ratioCard.Values!.value as { facilityId: string; value: number }[];
    for (const [i, id] of ids.entries())
      expect(relativeError(values.find((s) => s.facilityId === id)!.value, ratios[i]!)).toBeLessThanOrEqual(
        1e-9,
      );
    // FleetActual of a ship report over the posted fleet: the same average as the fleet report.
    const marpolFleet = (await fleet(C.fleetMarpolCompliance)).ActualAverage!.value as number;
    const response = await client.post(`/api/reports/${C.shipMarpolCompliance}/data`, {
      from: FROM.toISOString(),
      to: TO.toISOString(),
      facilityId: ids[0],
      facilityIds: ids,
    });
    expect(relativeError(response.json().fields.FleetActual.value, marpolFleet)).toBeLessThanOrEqual(1e-9);
  });
});

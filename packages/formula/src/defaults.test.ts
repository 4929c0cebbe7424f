import { describe, expect, it } from 'vitest';
import { DEFAULT_MEASUREMENT_FIELDS, DEFAULT_REPORT_KPIS } from './defaults';
import { compile, type CompiledCalculation } from './index';

const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 1,
  Facility_ScrubberSystemType: 'Open Loop',
  Facility_TotalEffectKW: 12000,
};
const N = null;

function compiled(
  source: string,
  kind: 'measurement-field' | 'report-field',
  inputNames: string[],
  outputType?: 'Double' | 'Boolean',
): CompiledCalculation {
  const result = compile(source, { kind, inputNames, outputType });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.program;
}

const col = (values: (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));
const nulls = (values: Float64Array) => Array.from(values, (v) => (Number.isNaN(v) ? null : v));
/** xs[k], failing the test when k is out of range or the key is missing. */
function at<T>(xs: readonly T[], k: number): T;
function at<T>(xs: Readonly<Record<string, T>>, k: string): T;
function at<T>(xs: readonly T[] | Readonly<Record<string, T>>, k: number | string): T {
  const v = (xs as Record<string | number, T | undefined>)[k];
  if (v === undefined) throw new Error(`nothing at ${k}`);
  return v;
}

describe('default measurement fields', () => {
  it('are listed raw first, then derived fields after the fields they read', () => {
    const names = DEFAULT_MEASUREMENT_FIELDS.map((f) => f.name);
    expect(names).toEqual([
      'FUEL_FLOW',
      'FUEL_SULFUR',
      'ENGINE_LOAD',
      'SO2_PPM',
      'CO2_PCT',
      'SCRUBBER_RUNNING',
      'SCRUBBER_POWER',
      'LATITUDE',
      'LONGITUDE',
      'WASHWATER_PH',
      'WASHWATER_PAH',
      'WASHWATER_TURBIDITY',
      'WASHWATER_PH_INLET',
      'WASHWATER_PAH_INLET',
      'WASHWATER_TURBIDITY_INLET',
      'WASHWATER_FLOW',
      'SCRUBBER_MODE',
      'SO2_CO2_RATIO',
      'SO2_CO2_LIMIT',
      'SCRUBBER_REQUIRED',
      'COMPLIANT',
      'RATIO_MARGIN',
      'SCRUBBER_FUEL',
      'EXCESS_SULFUR_REMOVED',
      'CO2_SAVED',
      'WASHWATER_DISCHARGING',
      'WASHWATER_PH_LIMIT',
      'WASHWATER_PH_DISCHARGING',
      'WASHWATER_PH_COMPLIANT',
      'WASHWATER_PAH_ABOVE_INLET',
      'WASHWATER_PAH_LIMIT',
      'WASHWATER_TURBIDITY_ABOVE_INLET',
      'WASHWATER_TURBIDITY_LIMIT',
      'WASHWATER_COMPLIANT',
      'OPEN_LOOP_IN_NO_DISCHARGE_ZONE',
    ]);
    DEFAULT_MEASUREMENT_FIELDS.forEach((f, k) => {
      for (const input of f.inputNames) if (input !== f.name) expect(names.indexOf(input)).toBeLessThan(k);
    });
  });

  it.each(DEFAULT_MEASUREMENT_FIELDS.map((f) => [f.name, f] as const))(
    '%s compiles and reads exactly its declared inputs',
    (_, f) => {
      const calc = compiled(
        f.transformAlgorithm,
        'measurement-field',
        f.inputNames,
        f.dataType as 'Double' | 'Boolean',
      );
      expect([...calc.inputNames].sort()).toEqual([...f.inputNames].sort());
      expect(f.requiredSampleIntervalInSeconds).toBe(60);
      expect(f.preloadIntervalInSeconds).toBe(300);
    },
  );

  // Eight target timestamps: scrubbing at sea, an SO2 excursion, idling, an ECA with low-sulfur
  // fuel, a sensor gap, a missing fuel flow, CO2 too low to trust, and not running in an ECA.
  const raw = {
    FUEL_FLOW: [1000, 1000, 30, 1000, 1000, N, 1000, 800],
    FUEL_SULFUR: [2.5, 2.5, 2.5, 0.08, 2.5, 2.5, 0.3, 2.5],
    SO2_PPM: [40, 120, 10, 5, N, 20, 15, 10],
    CO2_PCT: [5, 5, 4, 5, 5, 5, 0.3, 5],
    SCRUBBER_RUNNING: [1, 1, 0, 1, 1, 1, 1, 0],
    SCRUBBER_POWER: [150, 150, 0, 100, N, 150, 150, 0],
  };
  const eca = [0, 0, 0, 1, 1, 0, 0, 1];

  // DOMAIN.md's definitions, written out once more by hand; k is a row of the eight above.
  function expected(k: number) {
    const flow = at(raw.FUEL_FLOW, k),
      sulfur = at(raw.FUEL_SULFUR, k),
      so2 = at(raw.SO2_PPM, k),
      co2 = at(raw.CO2_PCT, k);
    const running = raw.SCRUBBER_RUNNING[k] === 1,
      power = at(raw.SCRUBBER_POWER, k),
      inEca = eca[k] === 1;
    const ratio = running && co2 >= 0.5 && so2 !== null ? so2 / co2 : null;
    const limit = inEca ? 4.3 : 21.7;
    const required = flow !== null && flow > 50 && sulfur > (inEca ? 0.1 : 0.5);
    return {
      SO2_CO2_RATIO: ratio,
      SO2_CO2_LIMIT: limit,
      SCRUBBER_REQUIRED: required ? 1 : 0,
      COMPLIANT: required ? (running && ratio !== null && ratio <= limit ? 1 : 0) : null,
      RATIO_MARGIN: ratio === null ? null : ((limit - ratio) / limit) * 100,
      SCRUBBER_FUEL: power === null ? null : (power * 200) / 1000,
      EXCESS_SULFUR_REMOVED:
        ratio === null
          ? 0
          : flow === null
            ? null
            : (flow * Math.max(0, (inEca ? 0.1 : 0.5) - ratio / 43.3)) / 100,
      CO2_SAVED: running
        ? power === null
          ? null
          : (((0.015 * constants.Facility_TotalEffectKW - power) * 200) / 1e6) * 3.114
        : 0,
    };
  }

  function runAll(): Record<string, Float64Array> {
    const timestamps = Float64Array.from(eca, (_, k) => Date.UTC(2024, 4, 6, 10, k));
    const columns: Record<string, Float64Array> = Object.fromEntries(
      Object.entries(raw).map(([name, values]) => [name, col(values)]),
    );
    const fields: Record<string, Float64Array> = {};
    for (const f of DEFAULT_MEASUREMENT_FIELDS) {
      if (!f.inputNames.every((n) => columns[n] || fields[n])) continue;
      const calc = compiled(
        f.transformAlgorithm,
        'measurement-field',
        f.inputNames,
        f.dataType as 'Double' | 'Boolean',
      );
      const inputs = Object.fromEntries(f.inputNames.map((n) => [n, fields[n] ?? at(columns, n)]));
      fields[f.name] = calc.evaluateTimestamps({
        timestamps,
        inputs,
        isEcaZone: Uint8Array.from(eca),
        constants,
      });
    }
    return fields;
  }

  it("compute DOMAIN.md's definitions over hand-made rows", () => {
    const fields = runAll();
    for (const name of Object.keys(expected(0)) as (keyof ReturnType<typeof expected>)[]) {
      const want = eca.map((_, k) => expected(k)[name]);
      const got = nulls(at(fields, name));
      got.forEach((v, k) => {
        if (want[k] === null) expect(v, `${name}[${k}]`).toBeNull();
        else expect(v, `${name}[${k}]`).toBeCloseTo(want[k]!, 10);
      });
    }
  });

  it('give the hand-computed values of the first row', () => {
    const fields = runAll();
    // SO2 40 ppm / CO2 5 % = 8, limit 21.7 outside an ECA.
    expect(fields.SO2_CO2_RATIO?.[0]).toBe(8);
    expect(fields.RATIO_MARGIN?.[0]).toBeCloseTo(63.13364055, 6); // 13.7 / 21.7 * 100
    expect(fields.SCRUBBER_FUEL?.[0]).toBe(30); // 150 kW * 200 g/kWh
    expect(fields.EXCESS_SULFUR_REMOVED?.[0]).toBeCloseTo(3.15242494, 6); // 1000 * (0.5 - 8 / 43.3) / 100
    expect(fields.CO2_SAVED?.[0]).toBeCloseTo(0.018684, 9); // (180 - 150) * 200 / 1e6 * 3.114
    expect(fields.COMPLIANT?.[1]).toBe(0); // ratio 24 > 21.7
    expect(fields.SO2_CO2_LIMIT?.[3]).toBe(4.3);
    expect(fields.SCRUBBER_REQUIRED?.[3]).toBe(0); // 0.08 % fuel in an ECA
    expect(fields.COMPLIANT?.[3]).toBeNaN();
  });
});

describe('default report KPIs', () => {
  it('have the agreed keys, one-hour spans and compile', () => {
    expect(DEFAULT_REPORT_KPIS.map((k) => k.key)).toEqual([
      'MarpolCompliance',
      'OperationalAvailability',
      'SO2CO2Ratio',
      'SO2CO2Limit',
      'RatioMargin',
      'SfocImpact',
      'TotalCO2Emission',
      'ExtraRemovalOfSulfur',
      'CO2Reduction',
      'WashwaterCompliance',
      'WashwaterPh',
      'WashwaterPhLimit',
      'WashwaterPahAboveInlet',
      'WashwaterPahLimit',
      'WashwaterTurbidityAboveInlet',
      'WashwaterTurbidityLimit',
      'OpenLoopInNoDischargeZoneHours',
    ]);
    for (const k of DEFAULT_REPORT_KPIS) {
      expect(k.algorithmSecondsSpan).toBe(3600);
      expect([...compiled(k.transformAlgorithm, 'report-field', k.inputNames).inputNames].sort()).toEqual(
        [...k.inputNames].sort(),
      );
    }
  });

  // Hour 0: 60 samples, scrubber required for 40 minutes, running for 45 (5 while not required),
  // non-compliant for 4; fuel flow in the first half of hour 1 is idle; hour 2 has 20 samples only.
  const hour = 3_600_000;
  const t0 = Date.UTC(2024, 4, 6, 0);
  const times: number[] = [];
  const data: Record<string, (number | null)[]> = {
    COMPLIANT: [],
    SCRUBBER_RUNNING: [],
    SCRUBBER_REQUIRED: [],
    SO2_CO2_RATIO: [],
    SO2_CO2_LIMIT: [],
    RATIO_MARGIN: [],
    SCRUBBER_FUEL: [],
    FUEL_FLOW: [],
    EXCESS_SULFUR_REMOVED: [],
    CO2_SAVED: [],
  };
  const push = (t: number, row: Record<string, number | null>) => {
    times.push(t);
    for (const key of Object.keys(data)) at(data, key).push(row[key] ?? null);
  };
  for (let m = 0; m < 60; m++) {
    const required = m < 40 ? 1 : 0;
    const running = m < 45 ? 1 : 0;
    push(t0 + m * 60_000, {
      SCRUBBER_REQUIRED: required,
      SCRUBBER_RUNNING: running,
      COMPLIANT: required ? (m < 4 ? 0 : 1) : null,
      SO2_CO2_RATIO: running ? (m < 4 ? 30 : 5 + (m % 3)) : null,
      SO2_CO2_LIMIT: 21.7,
      RATIO_MARGIN: running ? ((21.7 - (m < 4 ? 30 : 5 + (m % 3))) / 21.7) * 100 : null,
      SCRUBBER_FUEL: running ? 30 : 0,
      FUEL_FLOW: m === 10 ? null : 900 + m,
      EXCESS_SULFUR_REMOVED: m % 2,
      CO2_SAVED: running ? 0.02 : 0,
    });
  }
  for (let m = 0; m < 60; m++) {
    push(t0 + hour + m * 60_000, {
      SCRUBBER_REQUIRED: 0,
      SCRUBBER_RUNNING: 0,
      COMPLIANT: null,
      SO2_CO2_LIMIT: 4.3,
      SCRUBBER_FUEL: 0,
      FUEL_FLOW: m < 30 ? 20 : 60,
      EXCESS_SULFUR_REMOVED: 0,
      CO2_SAVED: 0,
    });
  }
  for (let m = 0; m < 20; m++) {
    push(t0 + 2 * hour + m * 60_000, {
      SCRUBBER_REQUIRED: 1,
      SCRUBBER_RUNNING: 1,
      COMPLIANT: 1,
      SO2_CO2_RATIO: 5,
      SO2_CO2_LIMIT: 21.7,
      SCRUBBER_FUEL: 30,
      FUEL_FLOW: 900,
      EXCESS_SULFUR_REMOVED: 1,
      CO2_SAVED: 0.02,
    });
  }

  const values = (key: string, h: number) =>
    // Every series in data has one value per entry of times.
    at(data, key).filter((_, k) => times[k]! >= t0 + h * hour && times[k]! < t0 + (h + 1) * hour);
  const avg = (xs: (number | null)[]) => {
    const known = xs.filter((x): x is number => x !== null);
    return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
  };

  // DOMAIN.md's hourly definitions, for an hour with enough samples.
  const reference: Record<string, (h: number) => number | null> = {
    MarpolCompliance: (h) => avg(values('COMPLIANT', h).map((v) => (v === null ? null : v * 100))),
    OperationalAvailability: (h) => {
      const required = values('SCRUBBER_REQUIRED', h).filter((v) => v === 1).length;
      return required === 0
        ? null
        : (values('SCRUBBER_RUNNING', h).filter((v) => v === 1).length / required) * 100;
    },
    SO2CO2Ratio: (h) => avg(values('SO2_CO2_RATIO', h)),
    SO2CO2Limit: (h) => avg(values('SO2_CO2_LIMIT', h)),
    RatioMargin: (h) => avg(values('RATIO_MARGIN', h)),
    SfocImpact: (h) => {
      const fuel = avg(values('FUEL_FLOW', h));
      return fuel === null || fuel < 50 ? null : (avg(values('SCRUBBER_FUEL', h))! / fuel) * 100;
    },
    TotalCO2Emission: (h) =>
      ((avg(values('FUEL_FLOW', h))! + (avg(values('SCRUBBER_FUEL', h)) ?? 0)) / 1000) * 3.114,
    ExtraRemovalOfSulfur: (h) => avg(values('EXCESS_SULFUR_REMOVED', h))! / 1000,
    CO2Reduction: (h) => avg(values('CO2_SAVED', h)),
  };

  // The washwater KPIs have their own rows (washwater.test.ts).
  it.each(DEFAULT_REPORT_KPIS.filter((k) => k.key in reference).map((k) => [k.key, k] as const))(
    '%s follows DOMAIN.md hour by hour',
    (key, k) => {
      const calc = compiled(k.transformAlgorithm, 'report-field', k.inputNames);
      const inputs = Object.fromEntries(k.inputNames.map((n) => [n, col(at(data, n))]));
      const out = calc.evaluateSpans({
        spanStarts: Float64Array.of(t0, t0 + hour, t0 + 2 * hour, t0 + 3 * hour),
        spanSeconds: 3600,
        timestamps: Float64Array.from(times),
        inputs,
        constants,
      });
      const got = nulls(out);
      for (const h of [0, 1]) {
        const want = at(reference, key)(h);
        if (want === null) expect(got[h], `hour ${h}`).toBeNull();
        else expect(got[h], `hour ${h}`).toBeCloseTo(want, 10);
      }
      // Fewer than 30 samples, and no samples at all: no value.
      expect(got[2]).toBeNull();
      expect(got[3]).toBeNull();
    },
  );

  it('give the hand-computed values of the first hour', () => {
    const run = (key: string) => {
      const k = DEFAULT_REPORT_KPIS.find((x) => x.key === key)!;
      const calc = compiled(k.transformAlgorithm, 'report-field', k.inputNames);
      const inputs = Object.fromEntries(k.inputNames.map((n) => [n, col(at(data, n))]));
      return calc.evaluateSpans({
        spanStarts: Float64Array.of(t0, t0 + hour),
        spanSeconds: 3600,
        timestamps: Float64Array.from(times),
        inputs,
        constants,
      });
    };
    expect(run('MarpolCompliance')[0]).toBeCloseTo(90, 10); // 36 of 40 required minutes compliant
    expect(run('OperationalAvailability')[0]).toBeCloseTo(112.5, 10); // 45 running / 40 required
    expect(run('OperationalAvailability')[1]).toBeNaN(); // never required
    expect(run('SfocImpact')[1]).toBeNaN(); // fuel flow averages 40 kg/h: idling
    expect(run('CO2Reduction')[0]).toBeCloseTo(0.015, 10); // 45 of 60 minutes at 0.02 t/h
  });
});

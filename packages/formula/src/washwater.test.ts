import { describe, expect, it } from 'vitest';
import { DEFAULT_MEASUREMENT_FIELDS, DEFAULT_REPORT_KPIS } from './defaults';
import { compile, runTest, validateSyntax, type CompiledCalculation } from './index';

const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 1,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 10000,
};
const N = null;
const MIN = 60_000;
const T0 = Date.UTC(2026, 5, 1, 0, 0);

function compiled(
  source: string,
  inputNames: string[],
  kind: 'measurement-field' | 'report-field' = 'measurement-field',
): CompiledCalculation {
  const result = compile(source, { kind, inputNames });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.program;
}
const col = (values: (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));
const nulls = (values: Float64Array) => Array.from(values, (v) => (Number.isNaN(v) ? null : v));
const errorsOf = (source: string, inputNames: string[], kind: 'measurement-field' | 'report-field') =>
  validateSyntax(source, { kind, inputNames }).map((e) => e.message);

describe('AVERAGE_OVER', () => {
  const calc = compiled('return AVERAGE_OVER(X - (Y ?? 0), 900);', ['X', 'Y']);

  it('averages the rows of the last 15 minutes, the current one included', () => {
    const n = 20;
    const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
    const x = Float64Array.from({ length: n }, (_, i) => i);
    const out = calc.evaluateTimestamps({
      timestamps: ts,
      inputs: { X: x, Y: col(Array(n).fill(0)) },
      constants,
    });
    // Row 0 has only itself; row 14 averages 0..14; row 19 averages 5..19 (row 4 is exactly 15 minutes before).
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(0.5);
    expect(out[14]).toBe(7);
    expect(out[15]).toBe(8);
    expect(out[19]).toBe(12);
    expect(calc.windowSeconds).toBe(900);
  });

  it('averages the window expression row by row (discharge minus inlet) and skips nulls', () => {
    const ts = Float64Array.from([0, 1, 2, 3], (i) => T0 + i * MIN);
    const out = calc.evaluateTimestamps({
      timestamps: ts,
      inputs: { X: col([10, N, 30, 40]), Y: col([2, 2, N, 4]) },
      constants,
    });
    // 8; 8 (the null row skipped); (8 + 30) / 2; (8 + 30 + 36) / 3.
    expect(nulls(out)).toEqual([8, 8, 19, 74 / 3]);
  });

  it('leaves out rows older than the window after a gap in the data, and gives null when none is left', () => {
    // Rows at 0..4 minutes, then nothing until minute 30.
    const minutes = [0, 1, 2, 3, 4, 30, 31];
    const ts = Float64Array.from(minutes, (m) => T0 + m * MIN);
    const out = calc.evaluateTimestamps({
      timestamps: ts,
      inputs: { X: col([1, 1, 1, 1, 1, 50, N]), Y: col(Array(7).fill(0)) },
      constants,
    });
    expect(nulls(out)).toEqual([1, 1, 1, 1, 1, 50, 50]);
    const empty = calc.evaluateTimestamps({
      timestamps: Float64Array.of(T0, T0 + 20 * MIN),
      inputs: { X: col([N, N]), Y: col([0, 0]) },
      constants,
    });
    expect(nulls(empty)).toEqual([null, null]);
  });

  it('averages the rows of a row that returned before its window too (not discharging, then discharging)', () => {
    // Discharging from minute 20 on; the window of minute 20 holds minutes 6..20, read while not discharging.
    const n = 25;
    const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
    const out = compiled('if (D != 1) return null; return AVERAGE_OVER(X, 900);', [
      'D',
      'X',
    ]).evaluateTimestamps({
      timestamps: ts,
      inputs: {
        D: Float64Array.from({ length: n }, (_, i) => (i >= 20 ? 1 : 0)),
        X: Float64Array.from({ length: n }, (_, i) => i),
      },
      constants,
    });
    expect(nulls(out.subarray(0, 20))).toEqual(Array(20).fill(null));
    expect(Array.from(out.subarray(20))).toEqual([13, 14, 15, 16, 17]);
  });

  it('averages windows read in a condition, in a variable and in both branches of a choice, each over its own rows', () => {
    const n = 6;
    const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
    const inputs = { X: col([1, 2, 3, 4, 5, 6]), Y: col([10, N, 30, 40, 50, 60]) };
    const run = (source: string) =>
      nulls(compiled(source, ['X', 'Y']).evaluateTimestamps({ timestamps: ts, inputs, constants }));
    // Two minutes of X: the row and the one before; one minute of Y: the row itself.
    expect(run('return X > 3 ? AVERAGE_OVER(X, 120) : AVERAGE_OVER(Y, 60);')).toEqual([
      10,
      null,
      30,
      3.5,
      4.5,
      5.5,
    ]);
    expect(run('if (AVERAGE_OVER(X, 120) > 2) return 1; return 0;')).toEqual([0, 0, 1, 1, 1, 1]);
    expect(run('double a = AVERAGE_OVER(Y, 180); return a + AVERAGE_OVER(X, 60);')).toEqual([
      11, 12, 23, 39, 45, 56,
    ]);
  });

  it('gives the first minutes of a period the rows before it when the caller passes them (the preload of a window)', () => {
    // A period starts at minute 15; the caller passes the 15 minutes before it and drops their outputs.
    const all = Float64Array.from({ length: 30 }, (_, i) => T0 + i * MIN);
    const x = Float64Array.from({ length: 30 }, (_, i) => (i < 15 ? 100 : 0));
    const zero = new Float64Array(30);
    const withHistory = calc.evaluateTimestamps({ timestamps: all, inputs: { X: x, Y: zero }, constants });
    const periodOnly = calc.evaluateTimestamps({
      timestamps: all.subarray(15),
      inputs: { X: x.subarray(15), Y: zero.subarray(15) },
      constants,
    });
    // Minute 15: 14 rows of 100 and one of 0 in the window; without the rows before the period it would read 0.
    expect(withHistory[15]).toBeCloseTo((14 * 100) / 15, 12);
    expect(periodOnly[0]).toBe(0);
    expect(withHistory[29]).toBe(0);
  });

  it('averages over a year of minutes like a direct sum over the window', () => {
    const n = 525_600;
    const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
    const x = Float64Array.from({ length: n }, (_, i) => i % 17);
    const out = calc.evaluateTimestamps({
      timestamps: ts,
      inputs: { X: x, Y: new Float64Array(n) },
      constants,
    });
    const direct = (i: number) => {
      let s = 0;
      for (let k = i - 14; k <= i; k++) s += k % 17;
      return s / 15;
    };
    expect(out[n - 1]).toBeCloseTo(direct(n - 1), 9);
    expect(out[300_000]).toBeCloseTo(direct(300_000), 9);
  });

  it('gives the same bits whatever history comes before the window (a ship onboarded later averages like the demo ship)', () => {
    // Values with many decimals, where a running sum's rounding would show: a week of minutes, and its last day alone.
    const n = 7 * 1440;
    const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
    const x = Float64Array.from({ length: n }, (_, i) => 3 + Math.sin(i / 7) * 0.37 + (i % 13) / 30);
    const y = Float64Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 11) / 70);
    const week = calc.evaluateTimestamps({ timestamps: ts, inputs: { X: x, Y: y }, constants });
    const from = n - 1440;
    const day = calc.evaluateTimestamps({
      timestamps: ts.slice(from),
      inputs: { X: x.slice(from), Y: y.slice(from) },
      constants,
    });
    // From the day's 15th minute on, both see the same window: the same values, bit for bit.
    for (let i = 14; i < 1440; i++) expect(day[i]).toBe(week[from + i]);
  });

  it('refuses what it cannot average: report fields, locals, the time and zones, nesting and a window that is not a literal', () => {
    expect(errorsOf('return AVERAGE_OVER(X, 900);', ['X'], 'report-field')[0]).toMatch(
      /only available in a measurement-field calculation/,
    );
    expect(errorsOf('double a = 1; return AVERAGE_OVER(X + a, 900);', ['X'], 'measurement-field')[0]).toMatch(
      /'a' cannot be used inside AVERAGE_OVER/,
    );
    expect(errorsOf('return AVERAGE_OVER(ISNODISCHARGEZONE, 900);', [], 'measurement-field')[0]).toMatch(
      /cannot be used inside AVERAGE_OVER/,
    );
    expect(errorsOf('return AVERAGE_OVER(AVERAGE_OVER(X, 60), 900);', ['X'], 'measurement-field')[0]).toMatch(
      /cannot be used inside another AVERAGE_OVER/,
    );
    expect(errorsOf('return AVERAGE_OVER(X, X);', ['X'], 'measurement-field')[0]).toMatch(
      /whole number of seconds from 1 to 86400/,
    );
    expect(errorsOf('return AVERAGE_OVER(X, 100000);', ['X'], 'measurement-field')[0]).toMatch(
      /from 1 to 86400/,
    );
    expect(errorsOf('return AVERAGE_OVER(X);', ['X'], 'measurement-field')[0]).toMatch(/takes 2 arguments/);
    expect(errorsOf('return AVERAGE_OVER(Y, 900);', ['X'], 'measurement-field')[0]).toMatch(
      /Unknown name 'Y'/,
    );
    expect(
      errorsOf('return AVERAGE_OVER(X * Facility_TotalEffectKW, 900);', ['X'], 'measurement-field'),
    ).toEqual([]);
  });

  it("works in the editor's Test over the test rows", () => {
    const { errors, results } = runTest(
      'return AVERAGE_OVER(X, 120);',
      { kind: 'measurement-field', inputNames: ['X'] },
      {
        inputData: [0, 1, 2, 3].map((m) => ({
          timestamp: new Date(T0 + m * MIN).toISOString(),
          inputValues: { X: m * 10 },
        })),
        constants,
      },
    );
    expect(errors).toEqual([]);
    expect(results.map((r) => r.value)).toEqual([0, 5, 15, 25]);
  });
});

describe('ISNODISCHARGEZONE', () => {
  it('reads the column the caller supplies: 0 false, 1 true, anything else null', () => {
    const calc = compiled('return ISNODISCHARGEZONE ? 1 : 0;', []);
    expect(calc.usesNoDischargeZone).toBe(true);
    const ts = Float64Array.of(T0, T0 + MIN, T0 + 2 * MIN);
    const out = calc.evaluateTimestamps({
      timestamps: ts,
      inputs: {},
      isNoDischargeZone: Uint8Array.of(0, 1, 255),
      constants,
    });
    expect(nulls(out)).toEqual([0, 1, 0]);
    const raw = compiled('return ISNODISCHARGEZONE;', []);
    expect(
      nulls(
        raw.evaluateTimestamps({
          timestamps: ts,
          inputs: {},
          isNoDischargeZone: Uint8Array.of(0, 1, 255),
          constants,
        }),
      ),
    ).toEqual([0, 1, null]);
    expect(() => calc.evaluateTimestamps({ timestamps: ts, inputs: {}, constants })).toThrow(
      /no isNoDischargeZone column/,
    );
  });

  it('is not available in report fields', () => {
    expect(errorsOf('return ISNODISCHARGEZONE ? 1 : 0;', [], 'report-field')[0]).toMatch(
      /ISNODISCHARGEZONE is not available in a report-field calculation/,
    );
  });
});

// ---- The default washwater calculations against DOMAIN.md, written out once more by hand.

const raw = {
  //            0     1     2     3     4     5     6     7     8     9
  SCRUBBER_MODE: [1, 1, 1, 1, 0, 1, 1, N, 1, 1],
  WASHWATER_FLOW: [450, 450, 450, 450, 450, 0, 450, 450, 300, 450],
  ENGINE_LOAD: [60, 60, 60, 20, 60, 60, 60, 60, 0, 60],
  WASHWATER_PH: [7.0, 6.4, 7.0, 6.2, 5.0, 5.0, 7.0, 7.0, 7.0, N],
  WASHWATER_PH_INLET: [8.1, 8.1, 8.1, 8.1, 8.1, 8.1, 8.1, 8.1, 8.1, 8.1],
  WASHWATER_PAH: [40, 40, 120, 40, 500, 40, 40, 40, 40, 40],
  WASHWATER_PAH_INLET: [5, 5, 5, 5, 5, 5, N, 5, 5, 5],
  WASHWATER_TURBIDITY: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
  WASHWATER_TURBIDITY_INLET: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
};
const zone = [0, 0, 0, 1, 1, 1, 1, 0, 0, 1];

function expected(k: number) {
  const v = (name: keyof typeof raw) => raw[name][k] ?? null;
  const discharging = v('SCRUBBER_MODE') === 1 && (v('WASHWATER_FLOW') ?? 0) > 0;
  const load = v('ENGINE_LOAD');
  const manoeuvring = load !== null && load > 0 && load < 25;
  const phLimit = !discharging ? null : manoeuvring ? v('WASHWATER_PH_INLET')! - 2 : 6.5;
  const ph = v('WASHWATER_PH');
  const phCompliant = phLimit === null || ph === null ? null : ph >= phLimit ? 1 : 0;
  const pahAbove = discharging ? v('WASHWATER_PAH')! - (v('WASHWATER_PAH_INLET') ?? 0) : null;
  const powerMW = (((load ?? NaN) / 100) * constants.Facility_TotalEffectKW) / 1000;
  const pahLimit = discharging && powerMW > 0 ? (50 * 45) / (v('WASHWATER_FLOW')! / powerMW) : null;
  // Every row is one minute after the other, so the 15-minute window holds all rows so far.
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += raw.WASHWATER_TURBIDITY[i]! - raw.WASHWATER_TURBIDITY_INLET[i]!;
  const turbAbove = discharging ? sum / (k + 1) : null;
  const pahMet = pahAbove !== null && (pahLimit === null || pahAbove <= pahLimit);
  return {
    WASHWATER_DISCHARGING: discharging ? 1 : 0,
    WASHWATER_PH_LIMIT: phLimit,
    WASHWATER_PH_DISCHARGING: discharging ? ph : null,
    WASHWATER_PH_COMPLIANT: phCompliant,
    WASHWATER_PAH_ABOVE_INLET: pahAbove,
    WASHWATER_PAH_LIMIT: pahLimit,
    WASHWATER_TURBIDITY_ABOVE_INLET: turbAbove,
    WASHWATER_TURBIDITY_LIMIT: discharging ? 25 : null,
    WASHWATER_COMPLIANT: discharging
      ? phCompliant === 1 && pahMet && turbAbove !== null && turbAbove <= 25
        ? 1
        : 0
      : null,
    OPEN_LOOP_IN_NO_DISCHARGE_ZONE: discharging && zone[k] === 1 ? 1 : 0,
  };
}

function runAll(): Record<string, Float64Array> {
  const timestamps = Float64Array.from(zone, (_, k) => T0 + k * MIN);
  const columns: Record<string, Float64Array> = Object.fromEntries(
    Object.entries(raw).map(([name, values]) => [name, col(values)]),
  );
  const fields: Record<string, Float64Array> = {};
  for (const f of DEFAULT_MEASUREMENT_FIELDS) {
    if (!f.inputNames.every((n) => columns[n] || fields[n])) continue;
    const result = compile(f.transformAlgorithm, {
      kind: 'measurement-field',
      inputNames: f.inputNames,
      outputType: f.dataType,
    });
    if (!result.ok) throw new Error(`${f.name}: ${JSON.stringify(result.errors)}`);
    const inputs = Object.fromEntries(f.inputNames.map((n) => [n, fields[n] ?? columns[n]!]));
    fields[f.name] = result.program.evaluateTimestamps({
      timestamps,
      inputs,
      isEcaZone: new Uint8Array(zone.length),
      isNoDischargeZone: Uint8Array.from(zone),
      constants,
    });
  }
  return fields;
}

describe('default washwater measurement fields', () => {
  it("compute DOMAIN.md's washwater definitions over hand-made rows", () => {
    const fields = runAll();
    for (const name of Object.keys(expected(0)) as (keyof ReturnType<typeof expected>)[]) {
      const got = nulls(fields[name]!);
      zone.forEach((_, k) => {
        const want = expected(k)[name];
        if (want === null) expect(got[k], `${name}[${k}]`).toBeNull();
        else expect(got[k], `${name}[${k}]`).toBeCloseTo(want, 10);
      });
    }
  });

  it('give the hand-computed values', () => {
    const f = runAll();
    // 450 t/h at 60 % of 10 MW: 75 t/MWh, so the PAH limit is 50 x 45 / 75 = 30 ug/L.
    expect(f.WASHWATER_PAH_LIMIT![0]).toBeCloseTo(30, 12);
    expect(f.WASHWATER_COMPLIANT![0]).toBe(0); // PAH 35 above the inlet > 30
    expect(f.WASHWATER_PH_COMPLIANT![1]).toBe(0); // pH 6.4 < 6.5 at sea
    expect(f.WASHWATER_PH_LIMIT![3]).toBeCloseTo(6.1, 12); // manoeuvring at 20 %: inlet 8.1 - 2
    expect(f.WASHWATER_PH_COMPLIANT![3]).toBe(1); // 6.2 >= 6.1
    expect(f.WASHWATER_DISCHARGING![4]).toBe(0); // closed loop
    expect(f.OPEN_LOOP_IN_NO_DISCHARGE_ZONE![4]).toBe(0);
    expect(f.WASHWATER_DISCHARGING![5]).toBe(0); // no flow
    expect(f.OPEN_LOOP_IN_NO_DISCHARGE_ZONE![6]).toBe(1);
    expect(f.WASHWATER_PAH_ABOVE_INLET![6]).toBe(40); // no inlet value: the discharge value
    expect(f.WASHWATER_DISCHARGING![7]).toBe(0); // mode unknown
    expect(f.WASHWATER_PAH_LIMIT![8]).toBeNaN(); // engine stopped: no flow per MWh
    expect(f.WASHWATER_COMPLIANT![9]).toBe(0); // no pH value: not met
  });
});

describe('default washwater KPIs', () => {
  const hour = 3_600_000;
  const times: number[] = [];
  const data: Record<string, (number | null)[]> = {};
  const push = (t: number, row: Record<string, number | null>) => {
    times.push(t);
    for (const [k, v] of Object.entries(row)) (data[k] ??= []).push(v);
  };
  // Hour 0: discharging all hour, pH 6.4 for two minutes (not compliant), 5 minutes in a no-discharge zone.
  for (let m = 0; m < 60; m++)
    push(T0 + m * MIN, {
      WASHWATER_COMPLIANT: m === 10 || m === 11 ? 0 : 1,
      WASHWATER_PH_DISCHARGING: m === 10 || m === 11 ? 6.4 : 7 + m / 100,
      WASHWATER_PH_LIMIT: m < 5 ? 6.1 : 6.5,
      WASHWATER_PAH_ABOVE_INLET: 20 + (m % 7),
      WASHWATER_PAH_LIMIT: 30 + m / 10,
      WASHWATER_TURBIDITY_ABOVE_INLET: 8 + (m % 5),
      WASHWATER_TURBIDITY_LIMIT: 25,
      OPEN_LOOP_IN_NO_DISCHARGE_ZONE: m >= 40 && m < 45 ? 1 : 0,
    });
  // Hour 1: closed loop all hour (nothing discharged).
  for (let m = 0; m < 60; m++)
    push(T0 + hour + m * MIN, {
      WASHWATER_COMPLIANT: null,
      WASHWATER_PH_DISCHARGING: null,
      WASHWATER_PH_LIMIT: null,
      WASHWATER_PAH_ABOVE_INLET: null,
      WASHWATER_PAH_LIMIT: null,
      WASHWATER_TURBIDITY_ABOVE_INLET: null,
      WASHWATER_TURBIDITY_LIMIT: null,
      OPEN_LOOP_IN_NO_DISCHARGE_ZONE: 0,
    });
  // Hour 2: discharging for the second half only, every criterion met.
  for (let m = 0; m < 60; m++)
    push(T0 + 2 * hour + m * MIN, {
      WASHWATER_COMPLIANT: m < 30 ? null : 1,
      WASHWATER_PH_DISCHARGING: m < 30 ? null : 7.2,
      WASHWATER_PH_LIMIT: m < 30 ? null : 6.5,
      WASHWATER_PAH_ABOVE_INLET: m < 30 ? null : 10,
      WASHWATER_PAH_LIMIT: m < 30 ? null : 45,
      WASHWATER_TURBIDITY_ABOVE_INLET: m < 30 ? null : 5,
      WASHWATER_TURBIDITY_LIMIT: m < 30 ? null : 25,
      OPEN_LOOP_IN_NO_DISCHARGE_ZONE: 0,
    });
  // Hour 3: 20 samples only.
  for (let m = 0; m < 20; m++)
    push(T0 + 3 * hour + m * MIN, {
      WASHWATER_COMPLIANT: 0,
      WASHWATER_PH_DISCHARGING: 5,
      WASHWATER_PH_LIMIT: 6.5,
      WASHWATER_PAH_ABOVE_INLET: 100,
      WASHWATER_PAH_LIMIT: 45,
      WASHWATER_TURBIDITY_ABOVE_INLET: 50,
      WASHWATER_TURBIDITY_LIMIT: 25,
      OPEN_LOOP_IN_NO_DISCHARGE_ZONE: 1,
    });

  const want: Record<string, (number | null)[]> = {
    WashwaterCompliance: [0, null, 100, null],
    WashwaterPh: [6.4, null, 7.2, null],
    WashwaterPhLimit: [6.1, null, 6.5, null],
    WashwaterPahAboveInlet: [26, null, 10, null],
    WashwaterPahLimit: [35.9, null, 45, null],
    WashwaterTurbidityAboveInlet: [12, null, 5, null],
    WashwaterTurbidityLimit: [25, null, 25, null],
    OpenLoopInNoDischargeZoneHours: [5 / 60, 0, 0, null],
  };

  it.each(DEFAULT_REPORT_KPIS.filter((k) => k.key in want).map((k) => [k.key, k] as const))(
    '%s follows DOMAIN.md hour by hour',
    (key, k) => {
      const calc = compiled(k.transformAlgorithm, k.inputNames, 'report-field');
      const out = calc.evaluateSpans({
        spanStarts: Float64Array.of(T0, T0 + hour, T0 + 2 * hour, T0 + 3 * hour),
        spanSeconds: 3600,
        timestamps: Float64Array.from(times),
        inputs: Object.fromEntries(k.inputNames.map((n) => [n, col(data[n]!)])),
        constants,
      });
      const got = nulls(out);
      want[key]!.forEach((w, h) => {
        if (w === null) expect(got[h], `hour ${h}`).toBeNull();
        else expect(got[h], `hour ${h}`).toBeCloseTo(w, 10);
      });
    },
  );

  it('covers every washwater KPI', () => {
    expect(DEFAULT_REPORT_KPIS.filter((k) => k.key in want)).toHaveLength(Object.keys(want).length);
  });
});

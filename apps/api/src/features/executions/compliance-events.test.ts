import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES, FUEL_SULFUR_LIMITS } from '@portal/contracts/events';
import { compliantFuelColumn, deriveEvents, type EventInputs } from './compliance-events';

const T0 = Date.UTC(2026, 5, 1);
const MIN = 60_000;

/** A day of minutes, required and running, ratio 10 under the global limit, outside an ECA, at sea. */
function day(minutes = 24 * 60): EventInputs {
  const f = (v: number) => new Float64Array(minutes).fill(v);
  return {
    targets: Float64Array.from({ length: minutes }, (_, i) => T0 + i * MIN),
    required: f(1),
    running: f(1),
    ratio: f(10),
    limit: f(21.7),
    latitude: Float64Array.from({ length: minutes }, (_, i) => 50 + i / 1e4),
    longitude: f(-10),
    eca: new Uint8Array(minutes).fill(0),
  };
}
const set = (column: Float64Array | Uint8Array, from: number, to: number, value: number) => {
  for (let i = from; i < to; i++) column[i] = value;
};
const remove = (inputs: EventInputs, from: number, to: number): EventInputs => {
  const keep = (_: unknown, i: number) => i < from || i >= to;
  return {
    targets: inputs.targets.filter(keep),
    required: inputs.required.filter(keep),
    running: inputs.running.filter(keep),
    ratio: inputs.ratio.filter(keep),
    limit: inputs.limit.filter(keep),
    latitude: inputs.latitude.filter(keep),
    longitude: inputs.longitude.filter(keep),
    eca: inputs.eca.filter(keep),
  };
};
const brief = (events: ReturnType<typeof deriveEvents>) =>
  events.map((e) => ({
    type: e.type,
    start: (e.start - T0) / MIN,
    end: (e.end - T0) / MIN,
    classification: e.classification,
    reportRequired: e.reportRequired,
  }));

describe('deriving compliance events', () => {
  it('finds nothing in a compliant day', () => {
    expect(deriveEvents(day(), DEFAULT_EVENT_RULES)).toEqual([]);
  });

  it('classifies a scrubber stop by its length: 10 minutes transient, 20 malfunction, 2 hours reportable', () => {
    const inputs = day();
    set(inputs.running, 60, 70, 0);
    set(inputs.running, 300, 320, 0);
    set(inputs.running, 600, 720, 0);
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES))).toEqual([
      { type: 'scrubber-off', start: 60, end: 70, classification: 'transient', reportRequired: false },
      { type: 'scrubber-off', start: 300, end: 320, classification: 'malfunction', reportRequired: false },
      { type: 'scrubber-off', start: 600, end: 720, classification: 'malfunction', reportRequired: true },
    ]);
  });

  it('counts no scrubber-off sample after a recorded change-over to compliant fuel, and again after one back', () => {
    const inputs = day();
    // Off from minute 600 to 720 (a reportable 2 hours); the crew records the change-over to 0.08 % fuel at 630,
    // and back to 2.5 % fuel at 700.
    set(inputs.running, 600, 720, 0);
    inputs.compliantFuel = compliantFuelColumn(
      inputs.targets,
      inputs.eca,
      [
        { at: T0 + 630 * MIN, sulfurPct: 0.08 },
        { at: T0 + 700 * MIN, sulfurPct: 2.5 },
      ],
      FUEL_SULFUR_LIMITS,
    );
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES))).toEqual([
      { type: 'scrubber-off', start: 600, end: 630, classification: 'malfunction', reportRequired: false },
      { type: 'scrubber-off', start: 700, end: 720, classification: 'malfunction', reportRequired: false },
    ]);
  });

  it("judges the recorded fuel against the area's limit: 0.10 % in an ECA and where unknown, 0.50 % outside", () => {
    const targets = Float64Array.from({ length: 6 }, (_, i) => T0 + i * MIN);
    const eca = Uint8Array.from([0, 0, 1, 1, 255, 0]);
    expect(Array.from(compliantFuelColumn(targets, eca, [], FUEL_SULFUR_LIMITS))).toEqual([0, 0, 0, 0, 0, 0]);
    // 0.45 % from minute 1: compliant outside, not inside an ECA nor where the position is unknown.
    expect(
      Array.from(compliantFuelColumn(targets, eca, [{ at: T0 + MIN, sulfurPct: 0.45 }], FUEL_SULFUR_LIMITS)),
    ).toEqual([0, 1, 0, 0, 0, 1]);
    expect(
      Array.from(compliantFuelColumn(targets, eca, [{ at: T0 - MIN, sulfurPct: 0.1 }], FUEL_SULFUR_LIMITS)),
    ).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('reports a malfunction of exactly 60 minutes only when it lasts longer', () => {
    const inputs = day();
    set(inputs.running, 100, 160, 0);
    set(inputs.running, 400, 461, 0);
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES)).map((e) => e.reportRequired)).toEqual([
      false,
      true,
    ]);
  });

  it('joins an episode across a break of two samples, and splits it at three', () => {
    const inputs = day();
    set(inputs.ratio, 100, 110, 30);
    set(inputs.ratio, 112, 120, 30); // two compliant samples: one episode 100-120
    set(inputs.ratio, 200, 205, 30);
    set(inputs.ratio, 208, 215, 30); // three compliant samples: two episodes
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES)).map((e) => [e.start, e.end])).toEqual([
      [100, 120],
      [200, 205],
      [208, 215],
    ]);
  });

  it('keeps the worst ratio and the limit in force at it', () => {
    const inputs = day();
    set(inputs.ratio, 100, 140, 25);
    inputs.ratio[117] = 40;
    const [event] = deriveEvents(inputs, DEFAULT_EVENT_RULES);
    expect(event).toMatchObject({ type: 'emission-exceedance', worstValue: 40, limit: 21.7 });
    expect(event!.startPosition).toEqual({ latitude: 50 + 100 / 1e4, longitude: -10 });
    expect(event!.endPosition).toEqual({ latitude: 50 + 139 / 1e4, longitude: -10 });
  });

  it('counts no exceedance when the scrubber is not required or not running', () => {
    const inputs = day();
    set(inputs.ratio, 100, 200, 30);
    set(inputs.required, 100, 200, 0); // port stay: engine idle, nothing required
    set(inputs.running, 100, 200, 0);
    expect(deriveEvents(inputs, DEFAULT_EVENT_RULES)).toEqual([]);
  });

  it('classifies the third transient within 24 hours as repeated, counting both kinds and earlier windows', () => {
    const inputs = day();
    set(inputs.ratio, 100, 110, 30);
    set(inputs.running, 300, 305, 0);
    set(inputs.ratio, 500, 510, 30);
    set(inputs.ratio, 700, 710, 30);
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES)).map((e) => e.classification)).toEqual([
      'transient',
      'transient',
      'repeated',
      'repeated',
    ]);
    // One transient the evening before (within 24 h of the second one of this day) makes the second repeated.
    const earlier = [T0 - 2 * 60 * MIN];
    expect(
      brief(deriveEvents(inputs, DEFAULT_EVENT_RULES, { earlierTransientStarts: earlier })).map(
        (e) => e.reportRequired,
      ),
    ).toEqual([false, true, true, true]);
  });

  it('records a data gap of more than 60 minutes between two targets, and not one of exactly 60', () => {
    const gap = remove(day(), 100, 220); // targets 99 and 220 exist: 121 minutes apart
    const short = remove(day(), 500, 559); // 499 and 559: 60 minutes apart
    expect(brief(deriveEvents(gap, DEFAULT_EVENT_RULES))).toEqual([
      { type: 'data-gap', start: 100, end: 220, classification: null, reportRequired: false },
    ]);
    expect(deriveEvents(short, DEFAULT_EVENT_RULES)).toEqual([]);
  });

  it('marks the ECA entry and exit where the zone changes, skipping samples without a position', () => {
    const inputs = day();
    set(inputs.eca, 300, 900, 1);
    set(inputs.eca, 299, 302, 255);
    set(inputs.limit, 300, 900, 4.3);
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES))).toEqual([
      {
        type: 'emission-exceedance',
        start: 300,
        end: 900,
        classification: 'malfunction',
        reportRequired: true,
      },
      { type: 'eca-entry', start: 302, end: 302, classification: null, reportRequired: false },
      { type: 'eca-exit', start: 900, end: 900, classification: null, reportRequired: false },
    ]);
  });

  it('says an episode reaching the end of the ship data is ongoing', () => {
    const inputs = day();
    set(inputs.running, 1400, 1440, 0);
    const [event] = deriveEvents(inputs, DEFAULT_EVENT_RULES, { dataEndsAtWindowEnd: true });
    expect(event).toMatchObject({ type: 'scrubber-off', ongoing: true, classification: 'malfunction' });
    expect(deriveEvents(inputs, DEFAULT_EVENT_RULES)[0]!.ongoing).toBe(false);
  });
});

describe('washwater events', () => {
  /** A day discharging within every washwater limit (pH 7 >= 6.5, PAH 10 <= 50, turbidity 3 <= 25). */
  function washDay(minutes = 24 * 60): EventInputs {
    const f = (v: number) => new Float64Array(minutes).fill(v);
    return {
      ...day(minutes),
      washwater: {
        ph: f(7),
        phLimit: f(6.5),
        pah: f(10),
        pahLimit: f(50),
        turbidity: f(3),
        turbidityLimit: f(25),
        openLoopInZone: f(0),
      },
    };
  }
  const withChannel = (events: ReturnType<typeof deriveEvents>) =>
    events.map((e) => ({ ...brief([e])[0], channel: e.channel, worst: e.worstValue, limit: e.limit }));

  it('gives one exceedance per criterion with its channel, worst value and limit, classified like the others', () => {
    const inputs = washDay();
    const w = inputs.washwater!;
    set(w.ph, 100, 110, 6.3);
    w.ph[105] = 6.1;
    set(w.pah, 300, 340, 80);
    set(w.turbidity, 600, 605, 30);
    // Not discharging (no limit): no event whatever the value.
    set(w.phLimit, 800, 820, Number.NaN);
    set(w.ph, 800, 820, 3);
    expect(withChannel(deriveEvents(inputs, DEFAULT_EVENT_RULES))).toEqual([
      {
        type: 'washwater-exceedance',
        start: 100,
        end: 110,
        classification: 'transient',
        reportRequired: false,
        channel: 'WASHWATER_PH',
        worst: 6.1,
        limit: 6.5,
      },
      {
        type: 'washwater-exceedance',
        start: 300,
        end: 340,
        classification: 'malfunction',
        reportRequired: false,
        channel: 'WASHWATER_PAH',
        worst: 80,
        limit: 50,
      },
      {
        type: 'washwater-exceedance',
        start: 600,
        end: 605,
        classification: 'transient',
        reportRequired: false,
        channel: 'WASHWATER_TURBIDITY',
        worst: 30,
        limit: 25,
      },
    ]);
  });

  it('records open loop in a no-discharge zone, a malfunction needing a report past 60 minutes', () => {
    const inputs = washDay();
    set(inputs.washwater!.openLoopInZone, 200, 290, 1);
    expect(brief(deriveEvents(inputs, DEFAULT_EVENT_RULES))).toEqual([
      {
        type: 'open-loop-in-no-discharge-zone',
        start: 200,
        end: 290,
        classification: 'malfunction',
        reportRequired: true,
      },
    ]);
  });

  it('counts the repeated rule per criterion, apart from the SO2 transients', () => {
    const inputs = washDay();
    for (const at of [100, 200, 300]) set(inputs.washwater!.ph, at, at + 5, 6);
    set(inputs.ratio, 400, 405, 30);
    const events = deriveEvents(inputs, DEFAULT_EVENT_RULES);
    expect(events.map((e) => [e.type, e.classification])).toEqual([
      ['washwater-exceedance', 'transient'],
      ['washwater-exceedance', 'transient'],
      ['washwater-exceedance', 'repeated'],
      ['emission-exceedance', 'transient'],
    ]);
  });

  it('allows one short PAH or turbidity excursion in 12 hours when the organization enables it', () => {
    const inputs = washDay();
    const w = inputs.washwater!;
    set(w.pah, 100, 110, 95); // 10 minutes, 90 % above: allowed
    set(w.pah, 200, 205, 95); // the second within 12 h: an exceedance
    set(w.turbidity, 300, 310, 31); // 24 % above the limit: more than 20 %, an exceedance
    set(w.pah, 1000, 1020, 60); // 20 minutes: longer than 15, an exceedance
    set(w.ph, 1100, 1105, 6); // pH has no allowance
    const rules = { ...DEFAULT_EVENT_RULES, washwaterExcursions: true };
    expect(withChannel(deriveEvents(inputs, rules)).map((e) => [e.channel, e.start])).toEqual([
      ['WASHWATER_PAH', 200],
      ['WASHWATER_TURBIDITY', 300],
      ['WASHWATER_PAH', 1000],
      ['WASHWATER_PH', 1100],
    ]);
    // Off by default: every excursion is an exceedance.
    expect(deriveEvents(inputs, DEFAULT_EVENT_RULES)).toHaveLength(5);
  });
});

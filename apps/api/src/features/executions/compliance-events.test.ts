import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { deriveEvents, type EventInputs } from './compliance-events';

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

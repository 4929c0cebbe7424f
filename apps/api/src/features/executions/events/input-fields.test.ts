import { describe, expect, it } from 'vitest';
import type { MeasurementCalc } from '../plan';
import { testPlan } from '../test-plan';
import {
  alignTo,
  ecaColumn,
  EVENT_INPUT_FIELDS,
  eventFieldIds,
  WASHWATER_EVENT_FIELDS,
} from './input-fields';

const names = [...Object.values(EVENT_INPUT_FIELDS), ...Object.values(WASHWATER_EVENT_FIELDS)];
const planWith = (computed: readonly string[], measurementFieldIds: 'all' | Set<string> = 'all') =>
  testPlan(0, 1, {
    request: { facilityId: 'ship', from: 0, to: 1, measurementFieldIds, reportFieldIds: 'all' },
    fieldName: new Map(names.map((n) => [`id-${n}`, n.toLowerCase()])),
    measurementCalcsByField: new Map(computed.map((n) => [`id-${n}`, [] as MeasurementCalc[]])),
  });

describe('the fields the events read', () => {
  it('are found by name; washwater only when the ship computes every washwater field', () => {
    const fields = eventFieldIds(planWith(['SCRUBBER_REQUIRED', 'WASHWATER_PH_LIMIT']))!;
    expect(fields.ids.required).toBe('id-SCRUBBER_REQUIRED');
    expect(fields.washwaterIds.ph).toBe('id-WASHWATER_PH_DISCHARGING');
    expect(fields.hasWashwater).toBe(false);
    expect(eventFieldIds(planWith(names))!.hasWashwater).toBe(true);
  });

  it('are none without a SCRUBBER_REQUIRED calculation, or when the execution recomputes none of them', () => {
    expect(eventFieldIds(planWith(['SCRUBBER_RUNNING']))).toBeNull();
    expect(eventFieldIds(planWith(names, new Set(['id-OTHER'])))).toBeNull();
    expect(eventFieldIds(planWith(names, new Set(['id-WASHWATER_PAH_LIMIT'])))).not.toBeNull();
  });
});

describe('aligning and the ECA column', () => {
  it("takes a series' values at the targets, NaN where it has none", () => {
    const series = { timestamps: Float64Array.from([2, 3, 9]), values: Float64Array.from([20, 30, 90]) };
    expect([...alignTo(Float64Array.from([1, 2, 3, 4]), series)]).toEqual([NaN, 20, 30, NaN]);
  });

  it('is 1 inside an ECA, 0 outside, 255 where the position is unknown', () => {
    const targets = Float64Array.from([0, 1, 2], (i) => Date.UTC(2025, 5, 1) + i * 60_000);
    // The North Sea (an ECA), mid-Atlantic (none), no position.
    const eca = ecaColumn(Float64Array.from([56, 10, NaN]), Float64Array.from([3, -30, 3]), targets);
    expect([...eca]).toEqual([1, 0, 255]);
  });
});

import { describe, expect, it } from 'vitest';
import { clipToData, dependentFields, FacilityPlans } from './recalculation-scope';

const at = (iso: string) => new Date(iso);

describe("a recalculation's scope", () => {
  it("clips a calculation's validity to the ship's data, none where they do not meet", () => {
    const data = {
      data_timestamp_min: at('2025-03-01T00:00:00Z'),
      data_timestamp_max: at('2025-03-10T00:00:00Z'),
    };
    expect(clipToData(data, null, null)).toEqual({
      from: Date.parse('2025-03-01T00:00:00Z'),
      to: Date.parse('2025-03-10T00:00:00Z') + 1,
    });
    expect(clipToData(data, at('2025-03-05T00:00:00Z'), at('2025-03-06T00:00:00Z'))).toEqual({
      from: Date.parse('2025-03-05T00:00:00Z'),
      to: Date.parse('2025-03-06T00:00:00Z'),
    });
    expect(clipToData(data, at('2025-04-01T00:00:00Z'), null)).toBeNull();
  });

  it('takes the field, every field reading it through others, and the report fields reading any of them', () => {
    const approved = [
      { measurement_field_id: 'c', input_ids: ['b'] },
      { measurement_field_id: 'b', input_ids: ['a', 'channel'] },
      { measurement_field_id: 'd', input_ids: ['channel'] },
      { measurement_field_id: 'e', input_ids: null },
    ];
    const reports = [
      { report_field_id: 'r1', input_ids: ['c'] },
      { report_field_id: 'r2', input_ids: ['d'] },
    ];
    expect(dependentFields('a', approved, reports)).toEqual({
      fields: ['a', 'b', 'c'],
      reportFields: ['r1'],
    });
  });

  it('makes one plan per ship: the widest period and every field once', () => {
    const plans = new FacilityPlans();
    plans.add('ship', 10, 20, ['a'], ['r']);
    plans.add('ship', 5, 15, ['a', 'b'], []);
    plans.add('other', 1, 2, [], ['r']);
    expect(plans.all()).toEqual([
      { facilityId: 'ship', from: 5, to: 20, measurementFieldIds: ['a', 'b'], reportFieldIds: ['r'] },
      { facilityId: 'other', from: 1, to: 2, measurementFieldIds: [], reportFieldIds: ['r'] },
    ]);
  });
});

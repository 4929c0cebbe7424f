import { describe, expect, it } from 'vitest';
import { defaultCalculationsMessage, isApprovable, measurementFieldStatus } from './measurement-fields';

describe('defaultCalculationsMessage', () => {
  it('counts the drafts added and asks for their approval', () => {
    expect(
      defaultCalculationsMessage({
        created: ['WASHWATER_PH', 'WASHWATER_FLOW'],
        existing: ['SO2_PPM'],
        skipped: [],
      }),
    ).toBe('Default calculations added as drafts: 2. Approve them to use them.');
  });

  it('counts the fields left without one', () => {
    expect(
      defaultCalculationsMessage({
        created: ['FUEL_FLOW'],
        existing: [],
        skipped: ['WASHWATER_PAH', 'WASHWATER_COMPLIANT'],
      }),
    ).toBe(
      'Default calculations added as drafts: 1. Approve them to use them. 2 field(s) stay Waiting: the channels they read are not mapped on the ship.',
    );
    expect(defaultCalculationsMessage({ created: [], existing: [], skipped: ['SO2_PPM'] })).toBe(
      'No default calculation was added. 1 field(s) stay Waiting: the channels they read are not mapped on the ship.',
    );
  });

  it('says so when nothing was missing', () => {
    expect(defaultCalculationsMessage({ created: [], existing: ['SO2_PPM'], skipped: [] })).toBe(
      'Every measurement field has a calculation already.',
    );
  });
});

describe('a field with drafts only', () => {
  it('is In progress and approvable, as the drafts of the default calculations leave it', () => {
    const drafts = { calculations: 1, approvedCalculations: 0 };
    expect(measurementFieldStatus({ ...drafts, validNow: false, validNowPending: false })).toBe(
      'In progress',
    );
    expect(isApprovable(drafts)).toBe(true);
  });
});

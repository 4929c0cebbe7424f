import { describe, expect, it } from 'vitest';
import { VALUE_DELETION_MESSAGES as M, valueDeletionErrors, valueDeletionRange } from './value-deletion';

const form = {
  fromDate: '2026-03-01',
  toDate: '2026-03-07',
  measurementValues: true,
  reportValues: true,
};

describe('the Delete values form', () => {
  it('runs from the start of the first day to the end of the last, UTC', () => {
    expect(valueDeletionErrors(form)).toEqual({});
    expect(valueDeletionRange(form)).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-07T23:59:59.999Z',
    });
    // One day: its whole day.
    expect(valueDeletionRange({ ...form, toDate: '2026-03-01' })).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-01T23:59:59.999Z',
    });
  });

  it('wants both days, in order, and something to delete', () => {
    expect(valueDeletionErrors({ ...form, fromDate: '', toDate: ' ' })).toEqual({
      fromDate: 'Not filled out',
      toDate: 'Not filled out',
    });
    expect(valueDeletionErrors({ ...form, toDate: '2026-02-30' })).toEqual({ toDate: M.invalidDate });
    expect(valueDeletionErrors({ ...form, fromDate: '2026-03-08' })).toEqual({ fromDate: M.fromAfterTo });
    expect(valueDeletionErrors({ ...form, measurementValues: false, reportValues: false })).toEqual({
      values: 'Choose the values to delete',
    });
    expect(valueDeletionRange({ ...form, fromDate: '2026-03-08' })).toBeNull();
    // Either kind alone is fine.
    expect(valueDeletionErrors({ ...form, measurementValues: false })).toEqual({});
    expect(valueDeletionErrors({ ...form, reportValues: false })).toEqual({});
  });
});

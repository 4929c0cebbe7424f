import { describe, expect, it } from 'vitest';
import { coverageUnion, uploadedPeriod } from './upload-period';

const at = (text: string) => Date.parse(text);

describe('uploadedPeriod', () => {
  it("spans the files' samples, to the end of the last sample's minute (as Run)", () => {
    expect(
      uploadedPeriod([
        { time_stamp_min: '2025-03-02T00:00:00.000Z', time_stamp_max: '2025-03-02T23:59:00.000Z' },
        {
          time_stamp_min: new Date('2025-03-01T06:00:00.000Z'),
          time_stamp_max: at('2025-03-01T18:30:20.000Z'),
        },
      ]),
    ).toEqual({ from: at('2025-03-01T06:00:00.000Z'), to: at('2025-03-02T23:59:59.999Z') });
  });

  it('keeps a single sample as a one-minute period', () => {
    expect(
      uploadedPeriod([
        { time_stamp_min: '2025-03-01T12:00:00.000Z', time_stamp_max: '2025-03-01T12:00:00.000Z' },
      ]),
    ).toEqual({ from: at('2025-03-01T12:00:00.000Z'), to: at('2025-03-01T12:00:59.999Z') });
  });

  it('is null without files, and leaves out a file whose range is not valid', () => {
    expect(uploadedPeriod([])).toBeNull();
    expect(
      uploadedPeriod([{ time_stamp_min: 'not a time', time_stamp_max: '2025-03-01T00:00:00Z' }]),
    ).toBeNull();
    expect(
      uploadedPeriod([
        { time_stamp_min: '2025-03-05T00:00:00Z', time_stamp_max: '2025-03-04T00:00:00Z' },
        { time_stamp_min: '2025-03-01T00:00:00Z', time_stamp_max: '2025-03-01T00:10:00Z' },
      ]),
    ).toEqual({ from: at('2025-03-01T00:00:00Z'), to: at('2025-03-01T00:10:59.999Z') });
  });
});

describe('coverageUnion', () => {
  const a = { from: at('2025-03-02T00:00:00Z'), to: at('2025-03-02T23:59:59.999Z'), dataFileIds: ['a'] };

  it('widens to cover both periods, whichever comes first', () => {
    const later = {
      from: at('2025-03-03T00:00:00Z'),
      to: at('2025-03-03T23:59:59.999Z'),
      dataFileIds: ['b'],
    };
    const earlier = {
      from: at('2025-02-27T00:00:00Z'),
      to: at('2025-02-27T11:59:59.999Z'),
      dataFileIds: ['c'],
    };
    expect(coverageUnion(a, later)).toEqual({ from: a.from, to: later.to, dataFileIds: ['a', 'b'] });
    expect(coverageUnion(a, earlier)).toEqual({ from: earlier.from, to: a.to, dataFileIds: ['a', 'c'] });
    // Three in a row: the union of all three, each file once.
    expect(coverageUnion(coverageUnion(a, later), earlier)).toEqual({
      from: earlier.from,
      to: later.to,
      dataFileIds: ['a', 'b', 'c'],
    });
  });

  it('keeps a period that already covers the upload, and each file once', () => {
    const inside = {
      from: at('2025-03-02T06:00:00Z'),
      to: at('2025-03-02T07:00:00Z'),
      dataFileIds: ['a', 'd'],
    };
    expect(coverageUnion(a, inside)).toEqual({ from: a.from, to: a.to, dataFileIds: ['a', 'd'] });
  });

  it('is the same union in either order (but for the order of the files)', () => {
    const b = { from: at('2025-01-01T00:00:00Z'), to: at('2025-05-01T00:00:00Z'), dataFileIds: ['b'] };
    const ab = coverageUnion(a, b);
    const ba = coverageUnion(b, a);
    expect({ from: ab.from, to: ab.to }).toEqual({ from: ba.from, to: ba.to });
    expect([...ab.dataFileIds].sort()).toEqual([...ba.dataFileIds].sort());
  });
});

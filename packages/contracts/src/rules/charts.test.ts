import { describe, expect, it } from 'vitest';
import { chartWidthForShips, complianceSlotCount, groupHourlyIntoSlots } from './charts';

describe('chartWidthForShips', () => {
  it('gives 40 px per ship and scrolls above 25 ships', () => {
    expect(chartWidthForShips(1)).toEqual({ widthPx: 40, scroll: false });
    expect(chartWidthForShips(25)).toEqual({ widthPx: 1000, scroll: false });
    expect(chartWidthForShips(26)).toEqual({ widthPx: 1040, scroll: true });
    expect(chartWidthForShips(0)).toEqual({ widthPx: 0, scroll: false });
  });
});

describe('complianceSlotCount', () => {
  it.each([
    [1, 24],
    [5, 24],
    [5.5, 12],
    [6, 12],
    [8, 12],
    [9, 8],
    [10, 8],
    [11, 6],
    [12, 6],
    [13, 4],
    [15, 4],
    [16, 3],
    [31, 3],
    [366, 3],
  ])('%d days -> %d slots', (days, slots) => {
    expect(complianceSlotCount(days)).toBe(slots);
  });
});

const hourly = (day: string, values: (number | null)[]) =>
  values.map((value, h) => ({ complianceDate: `${day}T${String(h).padStart(2, '0')}:00:00.000Z`, value }));

describe('groupHourlyIntoSlots', () => {
  it('keeps one value per hour for short periods', () => {
    const result = groupHourlyIntoSlots(hourly('2024-02-29', [100, 50, 0]), 3);
    expect(result.map((s) => [s.from.toISOString(), s.slot, s.value])).toEqual([
      ['2024-02-29T00:00:00.000Z', 0, 100],
      ['2024-02-29T01:00:00.000Z', 1, 50],
      ['2024-02-29T02:00:00.000Z', 2, 0],
    ]);
  });

  it('averages 3-hour slots for a 9-day period', () => {
    const values = hourly(
      '2024-01-01',
      Array.from({ length: 24 }, (_, h) => h),
    );
    const result = groupHourlyIntoSlots(values, 9);
    expect(result).toHaveLength(8);
    expect(result[0]).toMatchObject({ slot: 0, value: 1, count: 3 });
    expect(result[7]).toMatchObject({ slot: 7, value: 22, count: 3 });
    expect(result[7]?.from.toISOString()).toBe('2024-01-01T21:00:00.000Z');
  });

  it('keeps days apart across a month end and sorts by time', () => {
    const values = [...hourly('2024-02-01', [80, 100]), ...hourly('2024-01-31', [60, 40])];
    const result = groupHourlyIntoSlots(values, 31);
    expect(result.map((s) => [s.from.toISOString(), s.value])).toEqual([
      ['2024-01-31T00:00:00.000Z', 50],
      ['2024-02-01T00:00:00.000Z', 90],
    ]);
  });

  it('skips hours without a value and invalid dates', () => {
    const values = [
      ...hourly('2024-03-01', [null, 90, null, 70]),
      { complianceDate: 'not a date', value: 0 },
    ];
    expect(groupHourlyIntoSlots(values, 20)).toEqual([
      { from: new Date('2024-03-01T00:00:00.000Z'), slot: 0, value: 80, count: 2 },
    ]);
  });

  it('uses the UTC hour of values with an offset', () => {
    const result = groupHourlyIntoSlots([{ complianceDate: '2024-03-01T02:00:00+03:00', value: 100 }], 11);
    expect(result[0]?.from.toISOString()).toBe('2024-02-29T20:00:00.000Z');
    expect(result[0]?.slot).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import { customPeriod, lastMonthPeriod } from './period';
import { buildUptimeMatrix, UPTIME_COLOURS, uptimeCellColour, uptimeMode } from './uptime';

describe('uptimeMode', () => {
  it('is hourly up to exactly 3 months and daily beyond', () => {
    expect(uptimeMode(customPeriod('2024-01-01', '2024-03-31'))).toBe('hourly');
    expect(uptimeMode(customPeriod('2024-01-01', '2024-04-01'))).toBe('daily');
    expect(uptimeMode(lastMonthPeriod(new Date('2024-03-15T00:00:00Z')))).toBe('hourly');
    expect(uptimeMode(customPeriod('2023-01-01', '2023-12-31'))).toBe('daily');
  });

  it('measures months from a month end by the last day of the target month', () => {
    // Nov 30 + 3 months is Feb 29 in a leap year.
    expect(uptimeMode(customPeriod('2023-11-30', '2024-02-28'))).toBe('hourly');
    expect(uptimeMode(customPeriod('2023-11-30', '2024-02-29'))).toBe('daily');
  });
});

describe('uptimeCellColour', () => {
  it('colours by value and state', () => {
    expect(uptimeCellColour(100)).toBe(UPTIME_COLOURS.full);
    expect(uptimeCellColour(99.99)).toBe(UPTIME_COLOURS.below);
    expect(uptimeCellColour(0)).toBe(UPTIME_COLOURS.below);
    expect(uptimeCellColour(100.01)).toBe(UPTIME_COLOURS.above);
    expect(uptimeCellColour('NO_DATA')).toBe(UPTIME_COLOURS.noData);
    expect(uptimeCellColour('INVALID_DATE')).toBe(UPTIME_COLOURS.invalid);
  });

  it('treats float noise around 100 as 100', () => {
    expect(uptimeCellColour((100 + 100 + 100) / 3)).toBe(UPTIME_COLOURS.full);
  });

  it('keeps five distinct colours', () => {
    expect(new Set(Object.values(UPTIME_COLOURS)).size).toBe(5);
  });
});

describe('buildUptimeMatrix, hourly', () => {
  const period = customPeriod('2024-02-28', '2024-03-01');
  const matrix = buildUptimeMatrix(
    [
      { timestamp: '2024-02-28T00:00:00Z', value: 100 },
      { timestamp: '2024-02-29T13:00:00Z', value: 87.5 },
      { timestamp: '2024-03-01T23:00:00Z', value: 110 },
      { timestamp: '2024-03-01T05:00:00Z', value: null },
      { timestamp: '2024-03-02T00:00:00Z', value: 50 },
    ],
    period,
    'hourly',
  );

  it('has 24 rows and one column per UTC day, leap day included', () => {
    expect(matrix.rowLabels).toHaveLength(24);
    expect(matrix.rowLabels[0]).toBe('00');
    expect(matrix.rowLabels[23]).toBe('23');
    expect(matrix.columns.map((c) => c.label)).toEqual(['2024.02.28', '2024.02.29', '2024.03.01']);
    expect(matrix.cells.every((row) => row.length === 3)).toBe(true);
  });

  it('places values at their hour and day', () => {
    expect(matrix.cells[0]?.[0]).toBe(100);
    expect(matrix.cells[13]?.[1]).toBe(87.5);
    expect(matrix.cells[23]?.[2]).toBe(110);
  });

  it('marks hours without a value as NO_DATA', () => {
    expect(matrix.cells[5]?.[2]).toBe('NO_DATA');
    expect(matrix.cells[1]?.[0]).toBe('NO_DATA');
  });

  it('marks hours outside the period as INVALID_DATE', () => {
    const p = { from: new Date('2024-01-01T06:00:00Z'), to: new Date('2024-01-02T17:59:59.999Z') };
    const m = buildUptimeMatrix([], p, 'hourly');
    expect(m.cells[5]?.[0]).toBe('INVALID_DATE');
    expect(m.cells[6]?.[0]).toBe('NO_DATA');
    expect(m.cells[17]?.[1]).toBe('NO_DATA');
    expect(m.cells[18]?.[1]).toBe('INVALID_DATE');
  });

  it('averages several points in one hour', () => {
    const m = buildUptimeMatrix(
      [
        { timestamp: '2024-01-01T10:00:00Z', value: 100 },
        { timestamp: '2024-01-01T10:30:00Z', value: 80 },
      ],
      customPeriod('2024-01-01', '2024-01-01'),
      'hourly',
    );
    expect(m.cells[10]?.[0]).toBe(90);
  });
});

describe('buildUptimeMatrix, daily', () => {
  const period = customPeriod('2023-11-15', '2024-02-10');
  const matrix = buildUptimeMatrix(
    [
      { timestamp: '2023-11-15T00:00:00Z', value: 95 },
      { timestamp: '2023-12-31T00:00:00Z', value: 100 },
      { timestamp: '2024-02-10T00:00:00Z', value: 101 },
    ],
    period,
    'daily',
  );

  it('has 31 rows and one column per month across the year end', () => {
    expect(matrix.rowLabels).toEqual(Array.from({ length: 31 }, (_, i) => String(i + 1)));
    expect(matrix.columns.map((c) => c.label)).toEqual(['2023.11', '2023.12', '2024.01', '2024.02']);
  });

  it('places values by day of month', () => {
    expect(matrix.cells[14]?.[0]).toBe(95);
    expect(matrix.cells[30]?.[1]).toBe(100);
    expect(matrix.cells[9]?.[3]).toBe(101);
    expect(matrix.cells[0]?.[2]).toBe('NO_DATA');
  });

  it('marks days that do not exist as INVALID_DATE', () => {
    expect(matrix.cells[30]?.[0]).toBe('INVALID_DATE'); // Nov 31
    expect(matrix.cells[29]?.[3]).toBe('INVALID_DATE'); // Feb 30
  });

  it('marks days outside the period as INVALID_DATE', () => {
    expect(matrix.cells[13]?.[0]).toBe('INVALID_DATE'); // Nov 14
    expect(matrix.cells[10]?.[3]).toBe('INVALID_DATE'); // Feb 11
  });

  it('keeps Feb 29 in a leap year only', () => {
    const leap = buildUptimeMatrix([], customPeriod('2024-02-01', '2024-02-29'), 'daily');
    const common = buildUptimeMatrix([], customPeriod('2023-02-01', '2023-02-28'), 'daily');
    expect(leap.cells[28]?.[0]).toBe('NO_DATA');
    expect(common.cells[28]?.[0]).toBe('INVALID_DATE');
  });
});

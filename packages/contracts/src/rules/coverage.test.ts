import { describe, expect, it } from 'vitest';
import { dataCoveragePercent } from './coverage';

describe('dataCoveragePercent', () => {
  it('is 100 for one sample a minute over a whole day', () => {
    expect(dataCoveragePercent(1440, '2024-02-29T00:00:00Z', '2024-02-29T23:59:00Z', 60)).toBe(100);
  });

  it('counts both ends of the span', () => {
    expect(dataCoveragePercent(2, '2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z', 60)).toBe(100);
    expect(dataCoveragePercent(1, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 60)).toBe(100);
  });

  it('rounds to one decimal', () => {
    // 3 of 1440 expected = 0.2083 %
    expect(dataCoveragePercent(3, '2024-02-29T00:00:00Z', '2024-02-29T23:59:00Z', 60)).toBe(0.2);
    // a sensor gap of 12 hours in two days at 10 s
    const expected = 2 * 8640;
    expect(dataCoveragePercent(expected - 4320, '2024-12-31T00:00:00Z', '2025-01-01T23:59:50Z', 10)).toBe(75);
  });

  it('never exceeds 100', () => {
    expect(dataCoveragePercent(5000, '2024-01-01T00:00:00Z', '2024-01-01T23:59:00Z', 60)).toBe(100);
  });

  it('is 0 without data or with a broken frequency', () => {
    expect(dataCoveragePercent(0, '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', 60)).toBe(0);
    expect(dataCoveragePercent(10, null, '2024-01-02T00:00:00Z', 60)).toBe(0);
    expect(dataCoveragePercent(10, '2024-01-01T00:00:00Z', null, 60)).toBe(0);
    expect(dataCoveragePercent(10, '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', 0)).toBe(0);
    expect(dataCoveragePercent(10, '2024-01-02T00:00:00Z', '2024-01-01T00:00:00Z', 60)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { archiveBefore, keptFrom, retentionProblem, shiftMonth } from './retention';

describe('data retention', () => {
  it('refuses less than the 18 months the guidelines require, and fractions', () => {
    expect(retentionProblem(17)).toBe('Data must be kept at least 18 months (2021 EGCS Guidelines, 7.4)');
    expect(retentionProblem(18)).toBeNull();
    expect(retentionProblem(24.5)).toBe('The retention is a whole number of months');
    expect(retentionProblem(1201)).toBe('At most 1200 months');
  });

  it('counts months across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2026-11', -36)).toBe('2023-11');
  });

  it('keeps the current month and the months before it that the retention names', () => {
    expect(keptFrom('2026-11', 18)).toBe('2025-06');
  });

  it('archives a month only when every organization lets it go', () => {
    expect(archiveBefore('2026-11', [18, 36, 24])).toBe('2023-12');
    expect(archiveBefore('2026-11', [])).toBe('0000-01');
  });
});

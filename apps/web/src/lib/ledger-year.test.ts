import { describe, expect, it } from 'vitest';
import { ledgerYearOf } from './ledger-year';

describe('the ledger year of an address', () => {
  it('gives the year as whole days, as instants and as the query that carries it on', () => {
    expect(ledgerYearOf(new URLSearchParams('year=2026'), new Date('2027-03-01T10:00:00Z'))).toEqual({
      year: 2026,
      days: { from: '2026-01-01', to: '2026-12-31' },
      daysSoFar: { from: '2026-01-01', to: '2026-12-31' },
      instants: { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' },
      search: '?year=2026',
    });
  });

  it('reconciles a year still running up to today', () => {
    const params = new URLSearchParams('year=2026');
    expect(ledgerYearOf(params, new Date('2026-11-28T16:40:00Z'))?.daysSoFar).toEqual({
      from: '2026-01-01',
      to: '2026-11-28',
    });
    expect(ledgerYearOf(params, new Date('2026-11-28T16:40:00Z'))?.days.to).toBe('2026-12-31');
    // A year not begun yet: its days as they are (nothing to reconcile, but a valid period).
    expect(ledgerYearOf(params, new Date('2025-06-01T00:00:00Z'))?.daysSoFar.to).toBe('2026-12-31');
  });

  it('is none without a year or with one that is not a ledger year', () => {
    for (const search of ['', 'year=', 'year=26', 'year=2026.5', 'year=abcd', 'year=1999', 'year=20260'])
      expect(ledgerYearOf(new URLSearchParams(search)), search).toBeNull();
  });
});

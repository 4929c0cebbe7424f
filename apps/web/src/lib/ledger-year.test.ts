import { describe, expect, it } from 'vitest';
import { ledgerYearOf } from './ledger-year';

describe('the ledger year of an address', () => {
  it('gives the year as whole days, as instants and as the query that carries it on', () => {
    expect(ledgerYearOf(new URLSearchParams('year=2026'))).toEqual({
      year: 2026,
      days: { from: '2026-01-01', to: '2026-12-31' },
      instants: { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' },
      search: '?year=2026',
    });
  });

  it('is none without a year or with one that is not a ledger year', () => {
    for (const search of ['', 'year=', 'year=26', 'year=2026.5', 'year=abcd', 'year=1999', 'year=20260'])
      expect(ledgerYearOf(new URLSearchParams(search)), search).toBeNull();
  });
});

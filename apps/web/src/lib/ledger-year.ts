import { useSearchParams } from 'react-router';
import { MAX_LEDGER_YEAR, MIN_LEDGER_YEAR } from '@portal/contracts/carbon';

/**
 * The reporting year a ledger page shows when its address names one (`?year=2026`): the verification view links a
 * ship's fuel records and record book so (docs/decisions/0115-verifier.md), and a verifier's reads need a period
 * of its years. Without a year (or with one that is not a ledger year) the pages show what they show to everyone.
 */
export interface LedgerYear {
  year: number;
  /** Whole UTC days, both included (the fuel records' lists and the reconciliation). */
  days: { from: string; to: string };
  /**
   * The year's days up to today when the year is still running (the reconciliation): as the verification's
   * figures reconcile it (docs/decisions/0115-verifier.md), so a sounding of today closes the period.
   */
  daysSoFar: { from: string; to: string };
  /** Instants, the end excluded (the record book). */
  instants: { from: string; to: string };
  /** The query string that carries the year to the ship's other ledger pages (`?year=2026`). */
  search: string;
}

export function ledgerYearOf(params: URLSearchParams, now: Date = new Date()): LedgerYear | null {
  const text = params.get('year');
  if (!text || !/^\d{4}$/.test(text)) return null;
  const year = Number(text);
  if (year < MIN_LEDGER_YEAR || year > MAX_LEDGER_YEAR) return null;
  const today = now.toISOString().slice(0, 10);
  const last = `${year}-12-31`;
  return {
    year,
    days: { from: `${year}-01-01`, to: last },
    daysSoFar: { from: `${year}-01-01`, to: today >= `${year}-01-01` && today < last ? today : last },
    instants: { from: `${year}-01-01T00:00:00.000Z`, to: `${year + 1}-01-01T00:00:00.000Z` },
    search: `?year=${year}`,
  };
}

/** The year of the current address (see `ledgerYearOf`). */
export function useLedgerYear(): LedgerYear | null {
  const [params] = useSearchParams();
  return ledgerYearOf(params);
}

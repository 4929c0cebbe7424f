import type { Kysely } from 'kysely';
import type { PortCall } from '@portal/contracts/rules/carbon';
import type { Database } from '../../../db/schema';
import { readCallCrossing, readCallDepartingAfter } from '../../../storage';
import { DAY_MS } from '../ledger-segments';
import { ceilDayExclusive, floorDay } from '../series';

/** Days on each side of the executed period whose pieces are derived again. */
export const WINDOW_MARGIN_MS = DAY_MS;

/** Whole UTC days [from, to). */
export interface LedgerWindow {
  from: number;
  to: number;
}

/**
 * Sub-step "window": the executed days and a day on each side, widened to the stored calls reaching over its edges
 * (a call arriving before the start and departing after it; one departing after the end).
 */
export async function ledgerWindow(
  db: Kysely<Database>,
  facilityId: string,
  executed: LedgerWindow,
): Promise<LedgerWindow> {
  // A live window of minutes is taken as its whole days (docs/decisions/0122-live-windows.md).
  let from = floorDay(executed.from) - WINDOW_MARGIN_MS;
  let to =
    (executed.to === floorDay(executed.to) ? executed.to : ceilDayExclusive(executed.to)) + WINDOW_MARGIN_MS;
  const crossingStart = await readCallCrossing(db, facilityId, from);
  if (crossingStart !== null) from = Math.min(from, floorDay(crossingStart));
  const crossingEnd = await readCallDepartingAfter(db, facilityId, to);
  if (crossingEnd !== null) to = Math.max(to, ceilDayExclusive(crossingEnd));
  return { from, to };
}

/** Sub-step "widen to the derived calls" (pure): a call reaching over an edge pulls the edge to its day. */
export function widenToCalls(window: LedgerWindow, calls: readonly PortCall[]): LedgerWindow {
  const { from, to } = window;
  let newFrom = from;
  let newTo = to;
  for (const c of calls) {
    if (c.arrival < from && c.departure >= from) newFrom = Math.min(newFrom, floorDay(c.arrival));
    if (c.arrival < to && c.departure >= to) newTo = Math.max(newTo, ceilDayExclusive(c.departure));
  }
  return { from: newFrom, to: newTo };
}

import { DAY_MS, HOUR_MS, toDate, type DateInput } from './dates';

/** Chart layout rules (spec part 1 sections 4 and 9). */

export const CHART_PX_PER_SHIP = 40;
/** Above this many ships the Marpol and SFOC charts scroll horizontally. */
export const CHART_SCROLL_ABOVE_SHIPS = 25;

/**
 * The width a per-ship bar chart needs: 40 px per ship. With more than 25 ships the chart is drawn at
 * that width inside a horizontally scrolling box; up to 25 it may simply fill its card.
 */
export function chartWidthForShips(shipCount: number): { widthPx: number; scroll: boolean } {
  const n = Math.max(0, Math.floor(shipCount));
  return { widthPx: n * CHART_PX_PER_SHIP, scroll: n > CHART_SCROLL_ABOVE_SHIPS };
}

export type ComplianceSlotCount = 24 | 12 | 8 | 6 | 4 | 3;

/** Slots per day of the compliance chart: 5 days or fewer 24, over 5 days 12, over 8 8, over 10 6, over 12 4, over 15 3. */
export function complianceSlotCount(days: number): ComplianceSlotCount {
  if (days > 15) return 3;
  if (days > 12) return 4;
  if (days > 10) return 6;
  if (days > 8) return 8;
  if (days > 5) return 12;
  return 24;
}

export interface ComplianceValue {
  complianceDate: DateInput;
  value: number | null;
}

export interface ComplianceSlot {
  /** Start of the slot (UTC). */
  from: Date;
  /** Slot number within its day, 0-based. */
  slot: number;
  /** Average of the hourly values in the slot. */
  value: number;
  /** How many hourly values were averaged. */
  count: number;
}

/**
 * Averages hourly compliance values into slots of each UTC day, so long periods keep a readable
 * number of points. Rule: with `slots` per day each slot spans 24 / slots hours and an hourly value
 * at UTC hour h of day D goes to slot floor(h / (24 / slots)) of day D. Values without a number and
 * invalid dates are skipped; slots with no value are left out. Sorted by time.
 */
export function groupHourlyIntoSlots(values: readonly ComplianceValue[], days: number): ComplianceSlot[] {
  const slots = complianceSlotCount(days);
  const hoursPerSlot = 24 / slots;
  const groups = new Map<number, { sum: number; count: number; slot: number }>();
  for (const { complianceDate, value } of values) {
    const date = toDate(complianceDate);
    if (!date || value === null || !Number.isFinite(value)) continue;
    const dayStart = Math.floor(date.getTime() / DAY_MS) * DAY_MS;
    const slot = Math.floor(date.getUTCHours() / hoursPerSlot);
    const from = dayStart + slot * hoursPerSlot * HOUR_MS;
    const group = groups.get(from) ?? { sum: 0, count: 0, slot };
    group.sum += value;
    group.count += 1;
    groups.set(from, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([from, g]) => ({ from: new Date(from), slot: g.slot, value: g.sum / g.count, count: g.count }));
}

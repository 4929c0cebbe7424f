import { DAY_MS, endOfUtcDay, parseDateOnly, startOfUtcDay, toDate } from './dates';

/**
 * The dashboard period (spec part 1 section 4). All bounds are UTC and inclusive:
 * `from` is a day's first millisecond, `to` a day's last (23:59:59.999).
 */
export const PERIOD_TYPES = ['lastMonth', 'custom', 'latest90'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

/** latest90 exists and can be restored, but the picker offers only these. */
export const OFFERED_PERIOD_TYPES = ['lastMonth', 'custom'] as const satisfies readonly PeriodType[];

export interface Period {
  type: PeriodType;
  from: Date;
  to: Date;
}

/** The previous calendar month: its first day 00:00:00.000 to its last day 23:59:59.999, UTC. */
export function lastMonthPeriod(now: Date): Period {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return {
    type: 'lastMonth',
    from: new Date(Date.UTC(y, m - 1, 1)),
    to: new Date(Date.UTC(y, m, 1) - 1),
  };
}

/** 91 days ago 00:00 to yesterday 23:59:59.999, UTC (91 whole days, today excluded). */
export function latest90Period(now: Date): Period {
  const today = startOfUtcDay(now).getTime();
  return { type: 'latest90', from: new Date(today - 91 * DAY_MS), to: new Date(today - 1) };
}

/** A day given as 'YYYY-MM-DD' or as a Date (its UTC calendar day is used). */
export type DayInput = Date | string;

function dayOf(day: DayInput): Date | null {
  // A date-only text is taken strictly (2023-02-29 is no day); a full ISO instant gives its UTC day.
  if (typeof day === 'string')
    return /^\d{4}-\d{2}-\d{2}$/.test(day.trim()) ? parseDateOnly(day) : toDate(day);
  return toDate(day);
}

/**
 * Start of the from day to the end of the to day, UTC. The two days may come from the picker in either
 * order; the earlier one is the start. Throws on a value that is not a day.
 */
export function customPeriod(fromDay: DayInput, toDay: DayInput): Period {
  const a = dayOf(fromDay);
  const b = dayOf(toDay);
  if (!a || !b) throw new RangeError('A custom period needs two valid days');
  const [first, last] = a.getTime() <= b.getTime() ? [a, b] : [b, a];
  return { type: 'custom', from: startOfUtcDay(first), to: endOfUtcDay(last) };
}

export const CUSTOM_PERIOD_MESSAGES = {
  invalidDay: 'Enter a day as YYYY-MM-DD',
  future: 'Must not be after today (UTC)',
  toBeforeFrom: 'Must not be before From',
} as const;

export interface CustomPeriodErrors {
  from?: string;
  to?: string;
}

/**
 * The custom period picker's rule: each day given, a real day, not after today (UTC), and From not after To.
 * An empty field has no message (it is not wrong yet, only incomplete); canSetCustomPeriod needs both.
 */
export function validateCustomPeriod(
  fromDay: DayInput | null | undefined,
  toDay: DayInput | null | undefined,
  now: Date,
): CustomPeriodErrors {
  const errors: CustomPeriodErrors = {};
  const today = startOfUtcDay(now).getTime();
  const check = (day: DayInput | null | undefined, key: keyof CustomPeriodErrors): Date | null => {
    if (day === null || day === undefined || day === '') return null;
    const date = dayOf(day);
    if (!date) errors[key] = CUSTOM_PERIOD_MESSAGES.invalidDay;
    else if (startOfUtcDay(date).getTime() > today) errors[key] = CUSTOM_PERIOD_MESSAGES.future;
    return date;
  };
  const from = check(fromDay, 'from');
  const to = check(toDay, 'to');
  if (from && to && !errors.from && !errors.to && startOfUtcDay(from) > startOfUtcDay(to))
    errors.to = CUSTOM_PERIOD_MESSAGES.toBeforeFrom;
  return errors;
}

/** The Set button of the custom period picker needs exactly two dates that make a valid period. */
export function canSetCustomPeriod(
  dates: readonly (DayInput | null | undefined)[] | null | undefined,
  now: Date = new Date(),
): boolean {
  return (
    !!dates &&
    dates.length === 2 &&
    dates.every((d) => d !== null && d !== undefined && dayOf(d) !== null) &&
    Object.keys(validateCustomPeriod(dates[0], dates[1], now)).length === 0
  );
}

/**
 * The stored form: lastMonth and latest90 keep only their type (they move with the clock);
 * custom keeps its days as 'YYYY-MM-DD'.
 */
export function serializePeriod(period: Period): string {
  if (period.type !== 'custom') return JSON.stringify({ type: period.type });
  return JSON.stringify({
    type: 'custom',
    from: period.from.toISOString().slice(0, 10),
    to: period.to.toISOString().slice(0, 10),
  });
}

/** The period chosen last time; anything unknown or broken falls back to lastMonth. */
export function restorePeriod(stored: string | null | undefined, now: Date): Period {
  let value: unknown;
  try {
    value = stored ? JSON.parse(stored) : null;
  } catch {
    return lastMonthPeriod(now);
  }
  if (typeof value !== 'object' || value === null) return lastMonthPeriod(now);
  const { type, from, to } = value as Record<string, unknown>;
  if (type === 'latest90') return latest90Period(now);
  if (type === 'custom' && typeof from === 'string' && typeof to === 'string') {
    const a = parseDateOnly(from);
    const b = parseDateOnly(to);
    if (a && b && a.getTime() <= b.getTime()) return customPeriod(a, b);
  }
  return lastMonthPeriod(now);
}

/** Whole UTC days the period covers (a one-day custom period is 1). */
export function periodDays(period: Pick<Period, 'from' | 'to'>): number {
  return Math.max(0, Math.round((period.to.getTime() + 1 - period.from.getTime()) / DAY_MS));
}

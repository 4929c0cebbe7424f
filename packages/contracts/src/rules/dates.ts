/** Date display rules (spec part 1 section 9, part 2 section 9). Every date is shown in UTC. */

export const NO_DATA = 'No data';
export const NOT_SPECIFIED = 'Not specified';
export const UNKNOWN = 'Unknown';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export type DateInput = Date | string | number;

/** A Date from a Date, an ISO text or epoch milliseconds; null when absent or not a real date. */
export function toDate(value: DateInput | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function parts(d: Date) {
  return {
    y: pad(d.getUTCFullYear(), 4),
    m: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    min: pad(d.getUTCMinutes()),
  };
}

/** 'YYYY.MM.DD' in UTC; 'No data' when there is no valid date. */
export function formatDate(value: DateInput | null | undefined): string {
  const date = toDate(value);
  if (!date) return NO_DATA;
  const p = parts(date);
  return `${p.y}.${p.m}.${p.d}`;
}

/** 'YYYY-MM-DD' in UTC; 'No data' when there is no valid date. */
export function formatDateOnly(value: DateInput | null | undefined): string {
  const date = toDate(value);
  if (!date) return NO_DATA;
  const p = parts(date);
  return `${p.y}-${p.m}-${p.d}`;
}

/** 'YYYY.MM.DD HH:mm' in UTC (24-hour clock); 'No data' when there is no valid date. */
export function formatDateTime(value: DateInput | null | undefined): string {
  const date = toDate(value);
  if (!date) return NO_DATA;
  const p = parts(date);
  return `${p.y}.${p.m}.${p.d} ${p.h}:${p.min}`;
}

/**
 * 'YYYY.MM.DD HH:mm:ss' in UTC: the spec's date and time with the seconds, for logger rows a few seconds apart
 * (the reader preview); '.SSS' follows when the time has milliseconds.
 */
export function formatDateTimeSeconds(value: DateInput | null | undefined): string {
  const date = toDate(value);
  if (!date) return NO_DATA;
  const ms = date.getUTCMilliseconds();
  return `${formatDateTime(date)}:${pad(date.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
}

/** 'HH:mm' in UTC. */
export function formatTimeOnly(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.h}:${p.min}`;
}

/** The latest data date of a ship in the drawer: its date, or 'No data'. */
export function latestDataLabel(dataTimeStampMax: DateInput | null | undefined): string {
  return formatDate(dataTimeStampMax);
}

/** Midnight UTC of the day the instant falls on. */
export function startOfUtcDay(value: Date): Date {
  return new Date(Date.UTC(value.getUTCFullYear(), value.getUTCMonth(), value.getUTCDate()));
}

/** The last millisecond (23:59:59.999 UTC) of the day the instant falls on. */
export function endOfUtcDay(value: Date): Date {
  return new Date(startOfUtcDay(value).getTime() + DAY_MS - 1);
}

export function daysInUtcMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** The same day-of-month n calendar months later (UTC), clamped to the month's last day (Jan 31 + 1 → Feb 28/29). */
export function addUtcMonths(value: Date, months: number): Date {
  const y = value.getUTCFullYear();
  const m = value.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, m, 1));
  const day = Math.min(value.getUTCDate(), daysInUtcMonth(target.getUTCFullYear(), target.getUTCMonth()));
  return new Date(
    Date.UTC(
      target.getUTCFullYear(),
      target.getUTCMonth(),
      day,
      value.getUTCHours(),
      value.getUTCMinutes(),
      value.getUTCSeconds(),
      value.getUTCMilliseconds(),
    ),
  );
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a 'YYYY-MM-DD' text; null when the text is not a real calendar day (2023-02-29 is not). */
export function parseDateOnly(text: string): Date | null {
  const match = DATE_ONLY.exec(text.trim());
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 1 || m > 12 || d < 1 || d > daysInUtcMonth(y, m - 1)) return null;
  return new Date(Date.UTC(y, m - 1, d));
}

const TIME_ONLY = /^(\d{2}):(\d{2})$/;

/** Minutes after midnight of an 'HH:mm' text (00:00 to 23:59); null when malformed. */
export function parseTimeOnly(text: string): number | null {
  const match = TIME_ONLY.exec(text.trim());
  if (!match) return null;
  const [h, m] = [Number(match[1]), Number(match[2])];
  if (h > 23 || m > 59) return null;
  return h * 60 + m;
}

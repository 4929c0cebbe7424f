import { DAY_MS, daysInUtcMonth, formatDate, parseDateOnly } from './dates';

/**
 * The rules of an inspection pack's period (docs/decisions/0106-inspection-packs.md): whole UTC days, given as the
 * first and the last day ('YYYY-MM-DD'), most often one calendar month (the month picker, the monthly schedule).
 */

/** The longest period a pack covers: a year and a leap day, with room for a voyage that spans New Year. */
export const MAX_INSPECTION_PACK_DAYS = 400;

export const INSPECTION_PACK_PERIOD_MESSAGES = {
  invalidDay: 'Enter a day as YYYY-MM-DD',
  order: 'The last day must not be before the first day',
  tooLong: `A pack covers at most ${MAX_INSPECTION_PACK_DAYS} days`,
  future: 'The period must start before today (UTC)',
} as const;

const MONTH = /^(\d{4})-(\d{2})$/;

/** The first and the last day of a month given as 'YYYY-MM'; null when it is not a month. */
export function monthPackPeriod(month: string): { from: string; to: string } | null {
  const match = MONTH.exec(month.trim());
  if (!match) return null;
  const [y, m] = [Number(match[1]), Number(match[2])];
  if (m < 1 || m > 12) return null;
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(daysInUtcMonth(y, m - 1)).padStart(2, '0')}` };
}

/** The calendar month (UTC) before the one `now` falls in, as 'YYYY-MM': the monthly schedule's month. */
export function previousMonth(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The instants a period of days stands for: [first day 00:00, the day after the last 00:00), UTC. */
export function packPeriodInstants(period: { from: string; to: string }): { from: Date; to: Date } {
  const from = parseDateOnly(period.from);
  const to = parseDateOnly(period.to);
  if (!from || !to) throw new RangeError('A pack period needs two valid days');
  return { from, to: new Date(to.getTime() + DAY_MS) };
}

/** What is wrong with a period as entered (first and last day), or null; `today` bounds its start. */
export function packPeriodProblem(
  period: { from: string; to: string },
  today: Date,
): { field: 'from' | 'to'; message: string } | null {
  const M = INSPECTION_PACK_PERIOD_MESSAGES;
  const from = parseDateOnly(period.from);
  if (!from) return { field: 'from', message: M.invalidDay };
  const to = parseDateOnly(period.to);
  if (!to) return { field: 'to', message: M.invalidDay };
  if (to.getTime() < from.getTime()) return { field: 'to', message: M.order };
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > MAX_INSPECTION_PACK_DAYS)
    return { field: 'to', message: M.tooLong };
  const startOfToday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (from.getTime() >= startOfToday) return { field: 'from', message: M.future };
  return null;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "March 2025" for a whole calendar month, else "2025.03.01 to 2025.03.04" (both days included). */
export function packPeriodLabel(period: { from: string; to: string }): string {
  const from = parseDateOnly(period.from);
  const to = parseDateOnly(period.to);
  if (!from || !to) return `${period.from} to ${period.to}`;
  const month = monthPackPeriod(period.from.slice(0, 7));
  if (month && month.from === period.from && month.to === period.to)
    return `${MONTH_NAMES[from.getUTCMonth()]} ${from.getUTCFullYear()}`;
  return period.from === period.to ? formatDate(from) : `${formatDate(from)} to ${formatDate(to)}`;
}

/** Characters no file system takes in a name (and controls); spaces become underscores too. */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_FILE_NAMES = /[\s\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * The zip's file name: the ship's name as written (any script: the download header carries it in UTF-8) without
 * what a file system refuses, and the period.
 */
export function inspectionPackFileName(shipName: string, period: { from: string; to: string }): string {
  const safe = shipName.replace(UNSAFE_IN_FILE_NAMES, '_').replace(/^[_.]+|[_.]+$/g, '');
  const ship = [...safe].slice(0, 60).join('') || 'ship';
  const month = monthPackPeriod(period.from.slice(0, 7));
  const span =
    month && month.from === period.from && month.to === period.to
      ? period.from.slice(0, 7)
      : `${period.from}_${period.to}`;
  return `${ship}_${span}_inspection_pack.zip`;
}

/** A size in bytes as people read it: "840 B", "12.4 kB", "318 MB", "1.2 GB" (powers of 1000). */
export function formatByteSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

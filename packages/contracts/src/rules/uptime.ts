import {
  addUtcMonths,
  DAY_MS,
  daysInUtcMonth,
  formatDate,
  HOUR_MS,
  startOfUtcDay,
  toDate,
  type DateInput,
} from './dates';

/** The operational availability (uptime) matrix of the ship dashboard (spec part 1 sections 4 and 9). */

export type UptimeCell = 'NO_DATA' | 'INVALID_DATE' | number;
export type UptimeMode = 'hourly' | 'daily';

export const UPTIME_HOURLY_ROWS = 24;
export const UPTIME_DAILY_ROWS = 31;
export const UPTIME_DAILY_AFTER_MONTHS = 3;

export const UPTIME_COLOURS = {
  /** exactly 100 % */
  full: '#0d2c6c',
  /** below 100 % */
  below: '#f28c28',
  /** above 100 % (the scrubber also ran while not required) */
  above: '#f5d033',
  noData: '#bdbdbd',
  invalid: '#ffffff',
} as const;

interface PeriodBounds {
  from: Date;
  to: Date;
}

/** Daily (31 rows, a column per month) when the period is longer than 3 calendar months, else hourly (24 rows, a column per day). */
export function uptimeMode(period: PeriodBounds): UptimeMode {
  return period.to.getTime() >= addUtcMonths(period.from, UPTIME_DAILY_AFTER_MONTHS).getTime()
    ? 'daily'
    : 'hourly';
}

export function uptimeCellColour(cell: UptimeCell): string {
  if (cell === 'NO_DATA') return UPTIME_COLOURS.noData;
  if (cell === 'INVALID_DATE') return UPTIME_COLOURS.invalid;
  // Averages of exact 100s can carry float noise.
  if (Math.abs(cell - 100) < 1e-9) return UPTIME_COLOURS.full;
  return cell < 100 ? UPTIME_COLOURS.below : UPTIME_COLOURS.above;
}

export interface UptimePoint {
  timestamp: DateInput;
  value: number | null;
}

export interface UptimeMatrix {
  mode: UptimeMode;
  /** Hourly: '00' to '23' (UTC hour). Daily: '1' to '31' (day of month). */
  rowLabels: string[];
  /** Hourly: one per UTC day, labelled YYYY.MM.DD. Daily: one per month, labelled YYYY.MM. */
  columns: { start: Date; label: string }[];
  /** cells[row][column]. */
  cells: UptimeCell[][];
}

/**
 * Lays the uptime points out as the matrix. A cell whose hour (hourly) or day (daily) does not exist
 * (Feb 30) or lies wholly outside the period is INVALID_DATE; a cell without a value is NO_DATA.
 * Points go to the cell of their UTC hour or day; several points in one cell are averaged, nulls skipped.
 */
export function buildUptimeMatrix(
  points: readonly UptimePoint[],
  period: PeriodBounds,
  mode: UptimeMode,
): UptimeMatrix {
  const bucket = mode === 'hourly' ? HOUR_MS : DAY_MS;
  const sums = new Map<number, { sum: number; count: number }>();
  for (const { timestamp, value } of points) {
    const date = toDate(timestamp);
    if (!date || value === null || !Number.isFinite(value)) continue;
    const key = Math.floor(date.getTime() / bucket) * bucket;
    const s = sums.get(key) ?? { sum: 0, count: 0 };
    s.sum += value;
    s.count += 1;
    sums.set(key, s);
  }
  const valueAt = (start: number): UptimeCell => {
    const s = sums.get(start);
    return s ? s.sum / s.count : 'NO_DATA';
  };
  const from = period.from.getTime();
  const to = period.to.getTime();

  if (mode === 'hourly') {
    const columns: UptimeMatrix['columns'] = [];
    for (let day = startOfUtcDay(period.from).getTime(); day <= to; day += DAY_MS) {
      columns.push({ start: new Date(day), label: formatDate(day) });
    }
    const rowLabels = Array.from({ length: UPTIME_HOURLY_ROWS }, (_, h) => String(h).padStart(2, '0'));
    const cells = rowLabels.map((_, h) =>
      columns.map(({ start }) => {
        const hourStart = start.getTime() + h * HOUR_MS;
        // A period counts the hours that start inside it.
        return hourStart < from || hourStart > to ? 'INVALID_DATE' : valueAt(hourStart);
      }),
    );
    return { mode, rowLabels, columns, cells };
  }

  const columns: UptimeMatrix['columns'] = [];
  let y = period.from.getUTCFullYear();
  let m = period.from.getUTCMonth();
  while (Date.UTC(y, m, 1) <= to) {
    columns.push({ start: new Date(Date.UTC(y, m, 1)), label: `${y}.${String(m + 1).padStart(2, '0')}` });
    m += 1;
    if (m === 12) [y, m] = [y + 1, 0];
  }
  const rowLabels = Array.from({ length: UPTIME_DAILY_ROWS }, (_, d) => String(d + 1));
  const cells = rowLabels.map((_, r) =>
    columns.map(({ start }) => {
      const day = r + 1;
      if (day > daysInUtcMonth(start.getUTCFullYear(), start.getUTCMonth())) return 'INVALID_DATE';
      const dayStart = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), day);
      return dayStart + DAY_MS - 1 < from || dayStart > to ? 'INVALID_DATE' : valueAt(dayStart);
    }),
  );
  return { mode, rowLabels, columns, cells };
}

/** UTC days and hours of the stored series (a chunk of measurement values per day, a report value per hour). */
import { lowerBound } from './search';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
/** A UTC day as a `date` column holds it: YYYY-MM-DD. */
export const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Splits a series into UTC day chunks: [dayStartMs, start index, end index). */
export function dayChunks(ts: Float64Array): { day: number; start: number; end: number }[] {
  const chunks: { day: number; start: number; end: number }[] = [];
  let start = 0;
  while (start < ts.length) {
    const day = floorDay(ts[start]!);
    const end = lowerBound(ts, day + DAY_MS, start);
    chunks.push({ day, start, end });
    start = end;
  }
  return chunks;
}

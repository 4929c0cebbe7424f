import { toDate, type DateInput } from './dates';

/**
 * Data coverage of a ship (ship list column): the samples present as a percentage of the samples expected
 * at the data source's measure frequency between the first and last timestamp, both ends included.
 * One decimal; capped at 100 (duplicate timestamps must not read as more than full); 0 with no data.
 */
export function dataCoveragePercent(
  sampleCount: number,
  min: DateInput | null | undefined,
  max: DateInput | null | undefined,
  measureFrequencyInSeconds: number,
): number {
  const from = toDate(min);
  const to = toDate(max);
  if (!from || !to || sampleCount <= 0 || !(measureFrequencyInSeconds > 0) || to < from) return 0;
  const expected = Math.floor((to.getTime() - from.getTime()) / (measureFrequencyInSeconds * 1000)) + 1;
  const percent = Math.min(100, (sampleCount / expected) * 100);
  return Math.round(percent * 10) / 10;
}

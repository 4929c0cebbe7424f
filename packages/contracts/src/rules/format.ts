import { NO_DATA } from './dates';
import { formatTonnes } from './units';

/**
 * A report field's number as shown or exported, by the field's `format` (Percent, Ratio, Tonnes; spec part 2
 * section 3): one rule for the widgets, the charts' tooltips and the .xlsx export, so no floating-point noise
 * (21.700000000000024) reaches a user.
 *
 * - Percent: 1 decimal. A value from 99.5 up to (not including) 100 is truncated, not rounded, so a share of time
 *   that is not complete never reads 100.0 (the spec's rule for the fleet Marpol average, applied to every
 *   percent: compliance, availability, margin, SFOC impact). Elsewhere ordinary rounding.
 * - Ratio: 2 decimals.
 * - Tonnes: shown with the unit rule of formatTonnes (kg, t, MT); exported in t with 3 decimals (1 kg).
 * - Number: 2 decimals (pH, ug/L, NTU: the widget adds the field's unit).
 * - Hours: 1 decimal with "h".
 * - No or an unknown format: 2 decimals at most.
 */
export const FORMAT_DECIMALS: Readonly<Record<string, number>> = {
  Percent: 1,
  Ratio: 2,
  Tonnes: 3,
  Number: 2,
  Hours: 1,
};
const DEFAULT_DECIMALS = 2;

/** The decimals a format keeps (export cells, tooltips). */
export function formatDecimals(format: string | null | undefined): number {
  return (format ? FORMAT_DECIMALS[format] : undefined) ?? DEFAULT_DECIMALS;
}

/** The spec's truncation band: below 100, a percent from 99.5 on is truncated so it never reads 100.0. */
export const TRUNCATE_FROM = 99.5;

const roundTo = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  // Math.round on the scaled value, corrected for binary noise (1.005 * 100 = 100.49999...).
  return Math.round(value * f + Math.sign(value) * 1e-9) / f || 0;
};

/** Truncates towards zero to `decimals` (99.958 -> 99.9); the epsilon keeps 99.7 (stored as 99.69999...) at 99.7. */
export function truncateTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return (Math.sign(value) * Math.floor(Math.abs(value) * f + 1e-9)) / f || 0;
}

/** A percent (compliance, availability, ...) to 1 decimal, truncated from 99.5 below 100 (99.958 -> 99.9). */
export function roundPercent(percent: number): number {
  const decimals = FORMAT_DECIMALS.Percent!;
  if (percent >= TRUNCATE_FROM && percent < 100) return truncateTo(percent, decimals);
  return roundTo(percent, decimals);
}

/** The number a cell or a label carries: rounded by the field's format. Null stays null. */
export function roundByFormat(
  value: number | null | undefined,
  format: string | null | undefined,
): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  if (format === 'Percent') return roundPercent(value);
  return roundTo(value, formatDecimals(format));
}

/** The value as text by the field's format: "99.9 %", "3.15", "12.3 t"; 'No data' without a value. */
export function formatByFormat(value: number | null | undefined, format: string | null | undefined): string {
  const rounded = roundByFormat(value, format);
  if (rounded === null) return NO_DATA;
  switch (format) {
    case 'Tonnes':
      return formatTonnes(value!);
    case 'Percent':
      return `${rounded.toFixed(FORMAT_DECIMALS.Percent)} %`;
    case 'Ratio':
      return rounded.toFixed(FORMAT_DECIMALS.Ratio);
    case 'Number':
      return rounded.toFixed(FORMAT_DECIMALS.Number);
    case 'Hours':
      return `${rounded.toFixed(FORMAT_DECIMALS.Hours)} h`;
    default:
      return String(rounded);
  }
}

/** The Excel number format of a format's cells: the decimals it keeps. */
export function excelNumberFormat(format: string | null | undefined): string {
  const decimals = formatDecimals(format);
  return decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`;
}

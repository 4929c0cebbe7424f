import { NO_DATA } from './dates';

/**
 * Tonnes display (spec part 1 section 9): under 1 t in kg (x 1000), at or above 100000 t in MT (/ 1000, 1 decimal),
 * otherwise in t. Thresholds apply to the magnitude, so a negative CO2 reduction reads like a positive one.
 *
 * Decimals (ours; the spec fixes only MT): kg with none (1 kg is the smallest step worth showing),
 * t with 1 decimal below 100 t and none from 100 t, MT with 1 decimal.
 * When rounding would print the next unit's threshold (0.9996 t -> "1000 kg"), the value is shown
 * in the next unit instead ("1.0 t"), so "1000 kg" and "100000 t" never appear.
 */
export type TonnesUnit = 'kg' | 't' | 'MT';

export interface TonnesDisplay {
  /** The number shown, rounded to its decimals, in `unit`. */
  value: number;
  /** The number as text, with thousands separators and fixed decimals; no unit. */
  text: string;
  unit: TonnesUnit;
}

export const KG_BELOW_TONNES = 1;
export const MT_FROM_TONNES = 100_000;

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

const numberText = (v: number, decimals: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

function make(value: number, decimals: number, unit: TonnesUnit): TonnesDisplay {
  const rounded = round(value, decimals) || 0; // no "-0"
  return { value: rounded, text: numberText(rounded, decimals), unit };
}

export function tonnesDisplay(tonnes: number): TonnesDisplay {
  const size = Math.abs(tonnes);
  if (size < KG_BELOW_TONNES && Math.round(size * 1000) < 1000) return make(tonnes * 1000, 0, 'kg');
  if (size >= MT_FROM_TONNES) return make(tonnes / 1000, 1, 'MT');
  const decimals = size < 100 ? 1 : 0;
  if (round(size, decimals) >= MT_FROM_TONNES) return make(tonnes / 1000, 1, 'MT');
  return make(tonnes, decimals, 't');
}

/** "12.3 t", "450 kg", "123.5 MT"; 'No data' when there is no value. */
export function formatTonnes(tonnes: number | null | undefined): string {
  if (tonnes === null || tonnes === undefined || !Number.isFinite(tonnes)) return NO_DATA;
  const d = tonnesDisplay(tonnes);
  return `${d.text} ${d.unit}`;
}

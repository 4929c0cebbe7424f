import { FUEL_TYPE_NAMES, type FuelType } from '@portal/contracts/rules/carbon';
import { NO_DATA } from '@portal/contracts/rules';

/** A verifier compares figures to the kilogram: tonnes with three decimals ("1,234.567 t"). */
export function tonnes(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_DATA;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 })} t`;
}

/** A signed difference in % with one decimal ("+12.5 %", "−3.0 %"). */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_DATA;
  const text = Math.abs(value).toLocaleString('en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return `${value > 0 ? '+' : value < 0 ? '\u2212' : ''}${text} %`;
}

export const number = (value: number, digits = 1) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const fuelName = (fuelType: string) => FUEL_TYPE_NAMES[fuelType as FuelType] ?? fuelType;

/** The first characters of a SHA-256, enough to tell links apart on screen (the whole in the title). */
export const shortHash = (hash: string) => `${hash.slice(0, 12)}…`;

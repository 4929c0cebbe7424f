import type { RegimeEuros, ScrubberEconomicsRecord } from '@portal/contracts/cost-cockpit';
import { FUEL_PRICE_MAX } from '@portal/contracts/cost-cockpit';

const EUROS = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});
const TONNES = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** "€141,000", "-€5,000"; an em dash for no figure. */
export const formatEuros = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : EUROS.format(Math.round(value) === 0 ? 0 : value);

export const formatTonnes = (value: number) => `${TONNES.format(value)} t`;

/** A regime's cell: its euros to date and projected, or why there are none (never a figure of our own). */
export function regimeCell(regime: RegimeEuros): { toDate: string; projected: string; note: string | null } {
  if (!regime.available) return { toDate: 'Not available yet', projected: '', note: regime.reason };
  return {
    toDate: formatEuros(regime.eurToDate),
    projected: regime.eurProjected === null ? '' : `${formatEuros(regime.eurProjected)} projected`,
    note: regime.basis,
  };
}

/** "Is this scrubber still paying, here, this year?" in words. */
export function payingVerdict(s: ScrubberEconomicsRecord | null): string {
  if (!s) return 'No answer yet';
  if (s.projectedPaying === null) return s.paying ? 'Paying so far' : 'Not paying so far';
  if (s.paying && s.projectedPaying) return 'Paying';
  if (!s.paying && !s.projectedPaying) return 'Not paying';
  return s.projectedPaying ? 'Not paying yet, paying by the year end' : 'Paying so far, not by the year end';
}

export interface PriceFormValues {
  on: string;
  hsfo: string;
  vlsfo: string;
}

/** The fuel price form's body, or what is wrong (the API's rules and words: fuelPriceInputSchema). */
export function priceBody(values: PriceFormValues): {
  body?: { on: string; hsfoEurPerTonne: number; vlsfoEurPerTonne: number };
  errors?: Partial<Record<keyof PriceFormValues, string>>;
} {
  const errors: Partial<Record<keyof PriceFormValues, string>> = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.on) || Number.isNaN(Date.parse(values.on)))
    errors.on = 'Must be a date (YYYY-MM-DD)';
  const price = (text: string, what: string, field: 'hsfo' | 'vlsfo') => {
    const value = Number(text.trim().replace(',', '.'));
    if (text.trim() === '' || !Number.isFinite(value)) errors[field] = `${what} must be a number`;
    else if (value <= 0) errors[field] = `${what} must be above 0`;
    else if (value > FUEL_PRICE_MAX)
      errors[field] = `${what} is at most € ${FUEL_PRICE_MAX.toLocaleString('en-GB')} per t`;
    return value;
  };
  const hsfo = price(values.hsfo, 'HSFO price', 'hsfo');
  const vlsfo = price(values.vlsfo, 'VLSFO price', 'vlsfo');
  return Object.keys(errors).length
    ? { errors }
    : { body: { on: values.on, hsfoEurPerTonne: hsfo, vlsfoEurPerTonne: vlsfo } };
}

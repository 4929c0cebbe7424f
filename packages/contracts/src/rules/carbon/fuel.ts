import { type Consumer, type FuelType, FUEL_TYPES } from './fuels';

/**
 * Fuel burnt from flow meters (kg/h series), the same way the dashboard's hourly KPIs average them (DOMAIN.md
 * "Default report fields"; packages/formula/src/defaults.ts, Total CO2 emission): per UTC hour, an hour with fewer
 * than 30 target timestamps (null values included) gives no value; otherwise its fuel is the average of the hour's
 * non-null values (kg/h) times one hour. So each non-null sample of a covered hour carries 1/n of that hour, n the
 * hour's non-null samples, and the fuel of any stretch of time is the sum of its samples' shares: a year's legs add
 * up to the dashboard's hourly fuel exactly (docs/decisions/0107-carbon-ledger-rules.md).
 */

export const HOUR_MS = 3_600_000;
/** The dashboard's rule: an hour with fewer target timestamps than this gives no value. */
export const MIN_SAMPLES_PER_HOUR = 30;

/** A kg/h series: one entry per target timestamp, NaN where the channel has no value. */
export interface FlowSeries {
  timestamps: ArrayLike<number>;
  values: ArrayLike<number>;
}

export interface HourlyShares {
  /** Hours each sample stands for: 1/n of its hour for the n non-null samples of a covered hour, else 0. */
  share: Float64Array;
  /** Start (UTC epoch ms) of each hour that gives a value, ascending. */
  coveredHours: number[];
  /** Start of each hour that holds a sample but gives no value. */
  uncoveredHours: number[];
}

export function hourlyShares(series: FlowSeries, minSamplesPerHour = MIN_SAMPLES_PER_HOUR): HourlyShares {
  const n = series.timestamps.length;
  const share = new Float64Array(n);
  const coveredHours: number[] = [];
  const uncoveredHours: number[] = [];
  let i = 0;
  while (i < n) {
    const hour = Math.floor(series.timestamps[i]! / HOUR_MS) * HOUR_MS;
    let j = i;
    let nonNull = 0;
    while (j < n && series.timestamps[j]! < hour + HOUR_MS) {
      if (Number.isFinite(series.values[j]!)) nonNull++;
      j++;
    }
    if (j - i >= minSamplesPerHour && nonNull > 0) {
      for (let k = i; k < j; k++) if (Number.isFinite(series.values[k]!)) share[k] = 1 / nonNull;
      coveredHours.push(hour);
    } else uncoveredHours.push(hour);
    i = j;
  }
  return { share, coveredHours, uncoveredHours };
}

/** Where a flow channel's fuel type comes from (its mapping). */
export type FuelTypeSource =
  | { kind: 'fixed'; fuelType: FuelType }
  /** A fuel-type channel: each value the index of a fuel in FUEL_TYPES; a value holds until the next. */
  | { kind: 'series'; timestamps: ArrayLike<number>; values: ArrayLike<number> }
  /** The record book's change-overs: from `at` (UTC epoch ms) on, the fuel in use is `fuelType`. */
  | { kind: 'change-overs'; changeOvers: { at: number; fuelType: FuelType }[]; before?: FuelType };

/** Fuel whose type is not known (before the first change-over or fuel-type value, or an invalid code). */
export type FuelTypeOrUnknown = FuelType | 'UNKNOWN';

/** Resolves the fuel type at each time of a series (times ascending). */
export function fuelTypesAt(source: FuelTypeSource, times: ArrayLike<number>): FuelTypeOrUnknown[] {
  const out: FuelTypeOrUnknown[] = new Array<FuelTypeOrUnknown>(times.length);
  if (source.kind === 'fixed') return out.fill(source.fuelType);
  const steps: { at: number; fuelType: FuelTypeOrUnknown }[] =
    source.kind === 'change-overs'
      ? [...source.changeOvers].sort((a, b) => a.at - b.at)
      : Array.from({ length: source.timestamps.length }, (_, k) => {
          const code = source.values[k]!;
          const fuelType = Number.isInteger(code) ? FUEL_TYPES[code] : undefined;
          return { at: source.timestamps[k]!, fuelType: fuelType ?? ('UNKNOWN' as const) };
        });
  const before: FuelTypeOrUnknown = source.kind === 'change-overs' ? (source.before ?? 'UNKNOWN') : 'UNKNOWN';
  let s = -1;
  for (let i = 0; i < times.length; i++) {
    while (s + 1 < steps.length && steps[s + 1]!.at <= times[i]!) s++;
    out[i] = s < 0 ? before : steps[s]!.fuelType;
  }
  return out;
}

/** A mapped flow channel: its series, what it feeds and what it burns. */
export interface FlowChannel {
  id: string;
  consumer: Consumer;
  fuel: FuelTypeSource;
  series: FlowSeries;
}

/** kg of a kg/h series over [from, to), each covered hour its average times one hour (the dashboard's rule). */
export function integrateKg(
  series: FlowSeries,
  from: number,
  to: number,
  minSamplesPerHour = MIN_SAMPLES_PER_HOUR,
): number {
  const { share } = hourlyShares(series, minSamplesPerHour);
  let kg = 0;
  for (let i = 0; i < share.length; i++) {
    const t = series.timestamps[i]!;
    if (t >= from && t < to && share[i]! > 0) kg += series.values[i]! * share[i]!;
  }
  return kg;
}

/**
 * The fuel the scrubber's electrical power takes, g/kWh: DOMAIN.md's SCRUBBER_FUEL = SCRUBBER_POWER x 200 / 1000 kg/h
 * (the SFOC-impact KPI's numerator; the product's default calculation, changeable in the calculation editor).
 */
export const SCRUBBER_SFOC_G_PER_KWH = 200;

export function scrubberFuelKgPerHour(scrubberPowerKw: number): number {
  return (scrubberPowerKw * SCRUBBER_SFOC_G_PER_KWH) / 1000;
}

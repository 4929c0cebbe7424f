import { ecaZoneColumn } from '@portal/contracts/eca';
import type { FieldSeries } from '../../../storage';
import type { ExecutionPlan } from '../plan';

/** The measurement fields the events are derived from (DOMAIN.md "Compliance events"), by name. */
export const EVENT_INPUT_FIELDS = {
  required: 'SCRUBBER_REQUIRED',
  running: 'SCRUBBER_RUNNING',
  ratio: 'SO2_CO2_RATIO',
  limit: 'SO2_CO2_LIMIT',
  latitude: 'LATITUDE',
  longitude: 'LONGITUDE',
} as const;

/** The washwater fields the washwater events are derived from (docs/decisions/0100-washwater.md), by name. */
export const WASHWATER_EVENT_FIELDS = {
  ph: 'WASHWATER_PH_DISCHARGING',
  phLimit: 'WASHWATER_PH_LIMIT',
  pah: 'WASHWATER_PAH_ABOVE_INLET',
  pahLimit: 'WASHWATER_PAH_LIMIT',
  turbidity: 'WASHWATER_TURBIDITY_ABOVE_INLET',
  turbidityLimit: 'WASHWATER_TURBIDITY_LIMIT',
  openLoopInZone: 'OPEN_LOOP_IN_NO_DISCHARGE_ZONE',
} as const;

export interface EventFieldIds {
  /** A field's id by its name (upper case). */
  idOf: Map<string, string>;
  ids: Record<keyof typeof EVENT_INPUT_FIELDS, string | undefined>;
  washwaterIds: Record<keyof typeof WASHWATER_EVENT_FIELDS, string | undefined>;
  /** Whether the ship has every washwater field the events read (each with a calculation). */
  hasWashwater: boolean;
}

/**
 * Sub-step "event inputs" (pure): the ids of the fields the events read; null when the ship has no
 * SCRUBBER_REQUIRED calculation or the execution recomputes none of them (the events stay as they are).
 */
export function eventFieldIds(plan: ExecutionPlan): EventFieldIds | null {
  const { measurementFieldIds } = plan.request;
  const idOf = new Map([...plan.fieldName].map(([id, name]) => [name.toUpperCase(), id]));
  const byName = <K extends string>(names: Record<K, string>) =>
    Object.fromEntries(Object.entries(names).map(([key, name]) => [key, idOf.get(name as string)])) as Record<
      K,
      string | undefined
    >;
  const ids = byName(EVENT_INPUT_FIELDS);
  if (!ids.required || !plan.measurementCalcsByField.has(ids.required)) return null;
  const washwaterIds = byName(WASHWATER_EVENT_FIELDS);
  if (
    measurementFieldIds !== 'all' &&
    ![...Object.values(ids), ...Object.values(washwaterIds)].some(
      (id) => id !== undefined && measurementFieldIds.has(id),
    )
  )
    return null;
  const hasWashwater = Object.values(washwaterIds).every(
    (id) => id !== undefined && plan.measurementCalcsByField.has(id),
  );
  return { idOf, ids, washwaterIds, hasWashwater };
}

/** Sub-step "align" (pure): values of `series` at `targets` (both ascending); NaN where the series has none then. */
export function alignTo(targets: Float64Array, series: FieldSeries): Float64Array {
  const out = new Float64Array(targets.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    while (j < series.timestamps.length && series.timestamps[j]! < t) j++;
    if (j < series.timestamps.length && series.timestamps[j] === t) out[i] = series.values[j]!;
  }
  return out;
}

/**
 * Sub-step "ECA column" (pure): ISECAZONE as the engine supplies it to the calculations, from the position at the
 * target's time; 255 (unknown) where a coordinate is missing.
 */
export function ecaColumn(
  latitude: Float64Array,
  longitude: Float64Array,
  targets: Float64Array,
): Uint8Array {
  const eca = ecaZoneColumn(latitude, longitude, targets);
  for (let i = 0; i < eca.length; i++)
    if (Number.isNaN(latitude[i]!) || Number.isNaN(longitude[i]!)) eca[i] = 255;
  return eca;
}

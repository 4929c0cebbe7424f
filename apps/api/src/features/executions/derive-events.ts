import type { Kysely } from 'kysely';
import { ecaZoneColumn } from '@portal/contracts/eca';
import { FUEL_SULFUR_LIMITS, SENSOR_FAULT_CHANNELS, type EventRules } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import {
  concatSeries,
  lowerBound,
  readEventsCrossing,
  readMeasurementValues,
  readRecordBookKinds,
  readTransientStarts,
  type FieldSeries,
} from '../../storage';
import {
  compliantFuelColumn,
  deriveEvents,
  positionAt,
  sensorFaultEvents,
  transientGroup,
  type DerivedEvent,
  type EventInputs,
  type FuelChange,
} from './compliance-events';
import type { FieldSeriesOf } from './measurement-fields';
import type { ExecutionPlan } from './plan';
import type { DataHealthPort, FaultChannel } from './ports';

/** The measurement fields the events are derived from (DOMAIN.md "Compliance events"), by name. */
export const EVENT_INPUT_FIELDS = {
  required: 'SCRUBBER_REQUIRED',
  running: 'SCRUBBER_RUNNING',
  ratio: 'SO2_CO2_RATIO',
  limit: 'SO2_CO2_LIMIT',
  latitude: 'LATITUDE',
  longitude: 'LONGITUDE',
} as const;
type InputKey = keyof typeof EVENT_INPUT_FIELDS;

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

/** What the events step derived: the events starting inside [windowFrom, windowTo), which replace the stored ones there. */
export interface EventDerivation {
  windowFrom: number;
  windowTo: number;
  events: DerivedEvent[];
  rules: EventRules;
}

const HOUR = 3_600_000;

/** Values of `series` at `targets` (both ascending); NaN where the series has no value at that time. */
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
 * Step "compliance events": re-derives the ship's events around the executed period (docs/decisions/
 * 0080-compliance-events.md). The window reaches back to the start of any stored event crossing the period's start
 * (so an episode crossing it is joined, not cut) and forward by the repeated rule's window (later transients may
 * change class) and to the end of any stored event crossing that; values outside the period are read from storage,
 * with a margin on both sides so that episodes, gaps and zone changes at the window's edges are seen whole. Skipped
 * (null) when the ship has no SCRUBBER_REQUIRED field or the execution recomputes none of the inputs.
 */
export async function deriveComplianceEvents(
  db: Kysely<Database>,
  plan: ExecutionPlan,
  seriesOf: FieldSeriesOf,
  dataHealth: Pick<DataHealthPort, 'sensorFaults'>,
): Promise<EventDerivation | null> {
  const { facilityId, from, to, measurementFieldIds } = plan.request;
  const { rules, dataEnd } = plan.events;
  const idOf = new Map([...plan.fieldName].map(([id, name]) => [name.toUpperCase(), id]));
  const ids = Object.fromEntries(
    Object.entries(EVENT_INPUT_FIELDS).map(([key, name]) => [key, idOf.get(name)]),
  ) as Record<InputKey, string | undefined>;
  if (!ids.required || !plan.measurementCalcsByField.has(ids.required)) return null;
  const washwaterIds = Object.fromEntries(
    Object.entries(WASHWATER_EVENT_FIELDS).map(([key, name]) => [key, idOf.get(name)]),
  ) as Record<keyof typeof WASHWATER_EVENT_FIELDS, string | undefined>;
  if (
    measurementFieldIds !== 'all' &&
    ![...Object.values(ids), ...Object.values(washwaterIds)].some(
      (id) => id !== undefined && measurementFieldIds.has(id),
    )
  )
    return null;

  const stepMs = rules.stepSeconds * 1000;
  const joinMs = (rules.joinSamples + 1) * stepMs;
  const marginMs = Math.max(joinMs, rules.dataGapMinutes * 60_000) + stepMs;
  const before = await readEventsCrossing(db, facilityId, from, joinMs);
  const windowFrom = Math.min(from, before.start ?? from);
  let windowTo = to + rules.repeatedWindowHours * HOUR;
  const after = await readEventsCrossing(db, facilityId, windowTo, joinMs);
  if (after.end !== null) windowTo = Math.max(windowTo, after.end + stepMs);
  const readFrom = windowFrom - marginMs;
  const readTo = windowTo + marginMs;

  // Each field read once: the stored series before and after the period around the computed (or stored) middle.
  const reads = new Map<string, Promise<FieldSeries>>();
  const read = (fieldId: string | undefined): Promise<FieldSeries> => {
    if (!fieldId) return Promise.resolve({ timestamps: new Float64Array(0), values: new Float64Array(0) });
    let series = reads.get(fieldId);
    if (!series) {
      series = Promise.all([
        readMeasurementValues(db, facilityId, fieldId, readFrom, from),
        seriesOf(fieldId),
        readMeasurementValues(db, facilityId, fieldId, to, readTo),
      ]).then((parts) => concatSeries(parts.filter((p) => p.timestamps.length > 0)));
      reads.set(fieldId, series);
    }
    return series;
  };
  const required = await read(ids.required);
  const targets = required.timestamps;
  const [running, ratio, limit, latitude, longitude] = await Promise.all(
    (['running', 'ratio', 'limit', 'latitude', 'longitude'] as const).map(async (key) =>
      alignTo(targets, await read(ids[key])),
    ),
  );
  // ISECAZONE as the engine supplies it to the calculations: from the position at the target's time.
  const eca = ecaZoneColumn(latitude!, longitude!, targets);
  for (let i = 0; i < eca.length; i++)
    if (Number.isNaN(latitude![i]!) || Number.isNaN(longitude![i]!)) eca[i] = 255;

  // Washwater: only when the ship has every washwater field the events read.
  const hasWashwater = Object.values(washwaterIds).every(
    (id) => id !== undefined && plan.measurementCalcsByField.has(id),
  );
  const washwater = hasWashwater
    ? (Object.fromEntries(
        await Promise.all(
          Object.entries(washwaterIds).map(
            async ([key, id]) => [key, alignTo(targets, await read(id))] as const,
          ),
        ),
      ) as unknown as EventInputs['washwater'])
    : undefined;

  const earlier = await readTransientStarts(
    db,
    facilityId,
    windowFrom - rules.repeatedWindowHours * HOUR,
    windowFrom,
  );
  const inputs: EventInputs = {
    targets,
    required: required.values,
    running: running!,
    ratio: ratio!,
    limit: limit!,
    latitude: latitude!,
    longitude: longitude!,
    eca,
    compliantFuel: compliantFuelColumn(
      targets,
      eca,
      await recordedFuelChanges(db, facilityId, readTo),
      FUEL_SULFUR_LIMITS,
    ),
    washwater,
  };
  const earlierByGroup: Record<string, number[]> = {};
  for (const e of earlier) (earlierByGroup[transientGroup(e.type, e.channel)] ??= []).push(e.start);
  const events = deriveEvents(inputs, rules, {
    earlierTransientStartsByGroup: earlierByGroup,
    dataEndsAtWindowEnd: dataEnd !== null && dataEnd < readTo,
  });

  // Sensor faults: data health's flags on the compliance channels, with the engine (and for none of them the
  // scrubber) as the health view reads them; stale up to the window's last target.
  const idOfName = (name: string) => idOf.get(name);
  const present = async (name: string) => {
    const series = await read(idOfName(name));
    return series.timestamps.length ? series : null;
  };
  const engineLoad = await present('ENGINE_LOAD');
  const fuelFlow = await present('FUEL_FLOW');
  const channels: FaultChannel[] = [];
  for (const channel of SENSOR_FAULT_CHANNELS) {
    const fieldId = idOfName(channel);
    if (!fieldId || !plan.measurementCalcsByField.has(fieldId)) continue;
    channels.push({ channel, series: await read(fieldId), threshold: plan.events.thresholdOf(channel) });
  }
  const faults = dataHealth.sensorFaults({
    channels,
    engineLoad,
    fuelFlow,
    from: targets[0],
    until: targets.length ? targets[targets.length - 1] : undefined,
  });
  // The position at a time: the target at or after it (the last one past the end), as the other events read it.
  const positionAtTime = (t: number) => {
    const i = Math.min(lowerBound(targets, t), targets.length - 1);
    return i < 0 ? null : positionAt(inputs, i);
  };
  const all = [...events, ...sensorFaultEvents(faults, positionAtTime, rules, dataEnd)]
    .filter((e) => e.start >= windowFrom && e.start < windowTo)
    .sort((a, b) => a.start - b.start || a.type.localeCompare(b.type));
  return { windowFrom, windowTo, events: all, rules };
}

/**
 * The ship's fuel change-overs before `until` as its record book has them, in time order: each fuel change-over
 * entry and each correction that records a sulfur content, leaving out the entries a later correction corrected (a
 * correction without a sulfur content says the change-over did not happen).
 */
export async function recordedFuelChanges(
  db: Kysely<Database>,
  facilityId: string,
  until: number,
): Promise<FuelChange[]> {
  const entries = await readRecordBookKinds(db, facilityId, ['fuel-change-over', 'correction']);
  const corrected = new Set(entries.map((e) => e.correctsId).filter((id) => id !== null));
  const changes: FuelChange[] = [];
  for (const entry of entries) {
    const sulfur = (entry.body as { fuelSulfurPct?: unknown } | null)?.fuelSulfurPct;
    const at = entry.occurredOn.getTime();
    if (corrected.has(entry.id) || typeof sulfur !== 'number' || at >= until) continue;
    changes.push({ at, sulfurPct: sulfur });
  }
  return changes.sort((a, b) => a.at - b.at);
}

import type { Kysely } from 'kysely';
import { FUEL_SULFUR_LIMITS, type EventRules } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import { lowerBound } from '../../storage';
import {
  compliantFuelColumn,
  deriveEvents,
  positionAt,
  sensorFaultEvents,
  type DerivedEvent,
  type EventInputs,
} from './compliance-events';
import { recordedFuelChanges } from './events/fuel-changes';
import { alignTo, ecaColumn, eventFieldIds } from './events/input-fields';
import { eventSeriesReader } from './events/reader';
import { flaggedChannels } from './events/sensor-fault-inputs';
import { earlierTransients, eventWindow } from './events/window';
import type { FieldSeriesOf } from './measurement-fields';
import type { ExecutionPlan } from './plan';
import type { DataHealthPort } from './ports';

export { recordedFuelChanges } from './events/fuel-changes';
export { alignTo, EVENT_INPUT_FIELDS, WASHWATER_EVENT_FIELDS } from './events/input-fields';

/** What the events step derived: the events starting inside [windowFrom, windowTo), which replace the stored ones there. */
export interface EventDerivation {
  windowFrom: number;
  windowTo: number;
  events: DerivedEvent[];
  rules: EventRules;
}

/**
 * Step "compliance events": re-derives the ship's events around the executed period (docs/decisions/
 * 0080-compliance-events.md): the fields it reads (events/input-fields.ts), the window (events/window.ts), the
 * fields' values over it (events/reader.ts) aligned to SCRUBBER_REQUIRED's targets with the ECA column, the record
 * book's compliant fuel (events/fuel-changes.ts, events/compliant-fuel.ts), the ship's earlier transients, the pure
 * rules (compliance-events.ts) and the sensor faults (events/sensor-fault-inputs.ts, events/sensor-faults.ts).
 * Skipped (null) when the ship has no SCRUBBER_REQUIRED field or the execution recomputes none of the inputs.
 */
export async function deriveComplianceEvents(
  db: Kysely<Database>,
  plan: ExecutionPlan,
  seriesOf: FieldSeriesOf,
  dataHealth: Pick<DataHealthPort, 'sensorFaults'>,
): Promise<EventDerivation | null> {
  const { facilityId, from, to } = plan.request;
  const { rules, dataEnd } = plan.events;
  const fields = eventFieldIds(plan);
  if (!fields) return null;
  const { ids, washwaterIds } = fields;
  const window = await eventWindow(db, facilityId, { from, to }, rules);
  const { windowFrom, windowTo, readTo } = window;
  const read = eventSeriesReader(db, facilityId, { from, to, ...window }, seriesOf);
  const required = await read(ids.required);
  const targets = required.timestamps;
  const [running, ratio, limit, latitude, longitude] = await Promise.all(
    (['running', 'ratio', 'limit', 'latitude', 'longitude'] as const).map(async (key) =>
      alignTo(targets, await read(ids[key])),
    ),
  );
  const eca = ecaColumn(latitude!, longitude!, targets);
  const washwater = fields.hasWashwater
    ? (Object.fromEntries(
        await Promise.all(
          Object.entries(washwaterIds).map(
            async ([key, id]) => [key, alignTo(targets, await read(id))] as const,
          ),
        ),
      ) as unknown as EventInputs['washwater'])
    : undefined;
  const earlierByGroup = await earlierTransients(db, facilityId, windowFrom, rules);
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
  const events = deriveEvents(inputs, rules, {
    earlierTransientStartsByGroup: earlierByGroup,
    dataEndsAtWindowEnd: dataEnd !== null && dataEnd < readTo,
  });
  const faults = await flaggedChannels(plan, fields.idOf, read, targets, dataHealth);
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

import type { Kysely } from 'kysely';
import {
  EVENT_INPUT_FIELD_NAMES,
  EVENT_INPUTS_MARGIN_HOURS,
  EVENT_INPUTS_MAX_POINTS,
  type EventInputField,
  type EventInputs,
} from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import { readMeasurementValues, type FieldSeries } from '../../storage';

const HOUR = 3_600_000;

/** Per field, which value of a bucket the reduced series keeps: the one that shows trouble. */
const WORST: Record<EventInputField, 'max' | 'min'> = {
  SO2_CO2_RATIO: 'max',
  SO2_CO2_LIMIT: 'max',
  SCRUBBER_RUNNING: 'min',
  SCRUBBER_REQUIRED: 'min',
};

/**
 * A series as JSON arrays (NaN as null), at most `maxPoints` long: a longer one is cut into that many buckets of
 * consecutive points, each kept as its first timestamp and its worst value (null only when all of it is null).
 */
export function reduceSeries(
  series: FieldSeries,
  maxPoints: number,
  worst: 'max' | 'min',
): { timestamps: number[]; values: (number | null)[] } {
  const n = series.timestamps.length;
  const size = Math.max(1, Math.ceil(n / maxPoints));
  const timestamps: number[] = [];
  const values: (number | null)[] = [];
  for (let start = 0; start < n; start += size) {
    let pick = NaN;
    for (let i = start; i < Math.min(n, start + size); i++) {
      const v = series.values[i]!;
      if (Number.isNaN(v)) continue;
      if (Number.isNaN(pick) || (worst === 'max' ? v > pick : v < pick)) pick = v;
    }
    timestamps.push(series.timestamps[start]!);
    values.push(Number.isNaN(pick) ? null : pick);
  }
  return { timestamps, values };
}

/** The event's inputs around it (its visibility checked before): what its chart shows. */
export async function eventInputs(
  db: Kysely<Database>,
  event: { facility_id: string; start_on: Date; end_on: Date },
): Promise<EventInputs> {
  const from = new Date(event.start_on).getTime() - EVENT_INPUTS_MARGIN_HOURS * HOUR;
  const to = new Date(event.end_on).getTime() + EVENT_INPUTS_MARGIN_HOURS * HOUR;
  const fields = await db
    .selectFrom('measurement_fields')
    .select(['id', 'name'])
    .where((eb) => eb(eb.fn('upper', ['name']), 'in', [...EVENT_INPUT_FIELD_NAMES]))
    .execute();
  const idOf = new Map(fields.map((f) => [f.name.toUpperCase(), f.id]));
  const series = await Promise.all(
    EVENT_INPUT_FIELD_NAMES.filter((field) => idOf.has(field)).map(async (field) => ({
      field,
      ...reduceSeries(
        await readMeasurementValues(db, event.facility_id, idOf.get(field)!, from, to),
        EVENT_INPUTS_MAX_POINTS,
        WORST[field],
      ),
    })),
  );
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), series };
}

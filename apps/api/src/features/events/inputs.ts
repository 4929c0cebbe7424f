import type { Kysely } from 'kysely';
import {
  EVENT_INPUTS_MARGIN_HOURS,
  EVENT_INPUTS_MAX_POINTS,
  type EventInputs,
} from '@portal/contracts/events';
import { eventChart, type DescribedEvent } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { readMeasurementValues, type FieldSeries } from '../../storage';

const HOUR = 3_600_000;

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

/**
 * The event's inputs around it (its visibility checked before): the fields its chart draws (eventChart, by its type
 * and criterion), each bucket reduced to the value that shows trouble: the value's worst, the highest limit (a
 * minimum's lowest), the lowest running and required.
 */
export async function eventInputs(
  db: Kysely<Database>,
  event: { facility_id: string; start_on: Date; end_on: Date } & Pick<DescribedEvent, 'type'> & {
      channel: string | null;
      fault: string | null;
    },
): Promise<EventInputs> {
  const from = new Date(event.start_on).getTime() - EVENT_INPUTS_MARGIN_HOURS * HOUR;
  const to = new Date(event.end_on).getTime() + EVENT_INPUTS_MARGIN_HOURS * HOUR;
  const chart = eventChart(event);
  const lines: { field: string; worst: 'max' | 'min' }[] = [
    { field: chart.value.field, worst: chart.value.worst },
    { field: chart.limit.field, worst: chart.value.worst },
    ...chart.state.map((s) => ({ field: s.field, worst: 'min' as const })),
  ];
  const fields = await db
    .selectFrom('measurement_fields')
    .select(['id', 'name'])
    .where((eb) =>
      eb(
        eb.fn('upper', ['name']),
        'in',
        lines.map((l) => l.field),
      ),
    )
    .execute();
  const idOf = new Map(fields.map((f) => [f.name.toUpperCase(), f.id]));
  const series = await Promise.all(
    lines
      .filter((line) => idOf.has(line.field))
      .map(async ({ field, worst }) => ({
        field,
        ...reduceSeries(
          await readMeasurementValues(db, event.facility_id, idOf.get(field)!, from, to),
          EVENT_INPUTS_MAX_POINTS,
          worst,
        ),
      })),
  );
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), series };
}

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { concatSeries, type FieldSeries } from '../../storage';
import type { ReadStoredRange } from './measurement-inputs';
import { computeSegment, type SegmentContext } from './measurement-segment';
import type { ExecutionPlan, MeasurementCalc } from './plan';
import type { PeriodSamples } from './read-samples';
import { validitySegments, type Validity } from './series';
import { targetAxes } from './target-axes';
import { zoneColumns } from './zone-columns';

/** A measurement field's series in the period: freshly computed, or else as stored. */
export type FieldSeriesOf = (fieldId: string) => Promise<FieldSeries>;

/**
 * The series of measurement fields as the later steps read them: the recomputed ones from `computed`, the others
 * from storage (`readStored`, each read once).
 */
export function fieldSeriesOf(
  computed: ReadonlyMap<string, FieldSeries>,
  readStored: (fieldId: string) => Promise<FieldSeries>,
): FieldSeriesOf {
  const storedCache = new Map<string, Promise<FieldSeries>>();
  return async (fieldId) => {
    const fresh = computed.get(fieldId);
    if (fresh) return fresh;
    let stored = storedCache.get(fieldId);
    if (!stored) storedCache.set(fieldId, (stored = readStored(fieldId)));
    return stored;
  };
}

const noHistory: ReadStoredRange = () =>
  Promise.resolve({ timestamps: new Float64Array(0), values: new Float64Array(0) });

/** The parts of [from, to) in which each of the field's approved calculations holds. */
function fieldSegments(plan: ExecutionPlan, fieldId: string) {
  const { from, to } = plan.request;
  const calcs = plan.measurementCalcsByField.get(fieldId) ?? [];
  return validitySegments<MeasurementCalc>(
    calcs.map(
      (c) =>
        ({
          item: c,
          from: c.validFrom,
          to: c.validTo,
          rank: c.approvedOn,
        }) satisfies Validity<MeasurementCalc>,
    ),
    from,
    to,
  );
}

/**
 * Step "measurement fields": the recomputed fields in dependency order, each on the primary data source's
 * timestamps thinned to its calculation's interval (target-axes.ts), with the calculation valid at each time
 * (measurement-segment.ts). Inputs (measurement-inputs.ts): raw channels sample-and-held within the preload interval,
 * other fields at their latest calculated timestamp (`readStored` for fields not recomputed), ISECAZONE and
 * ISNODISCHARGEZONE from the position (zone-columns.ts). A calculation with an AVERAGE_OVER window reads the
 * stored values of fields before the period (`readHistory`).
 */
export async function computeMeasurementFields(
  plan: ExecutionPlan,
  samples: PeriodSamples,
  readStored: (fieldId: string) => Promise<FieldSeries>,
  readHistory: ReadStoredRange = noHistory,
): Promise<Map<string, FieldSeries>> {
  const measurement = new Map<string, FieldSeries>();
  const context: SegmentContext = {
    plan,
    samples,
    seriesOf: fieldSeriesOf(measurement, readStored),
    readHistory,
    zoneOf: zoneColumns(samples),
    axes: targetAxes(samples),
  };
  for (const fieldId of plan.order) {
    const parts: FieldSeries[] = [];
    for (const segment of fieldSegments(plan, fieldId)) {
      const part = await computeSegment(context, fieldId, segment.item, segment);
      if (part) parts.push(part);
    }
    measurement.set(fieldId, concatSeries(parts));
    // Let heartbeats and other requests through between fields.
    await yieldToEventLoop();
  }
  return measurement;
}

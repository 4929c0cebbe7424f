import type { FieldSeries } from '../../storage';
import { lowerBound } from '../../storage';
import { compileCalculation, runCalculation } from './calculations';
import { calculationInputs, type ReadStoredRange } from './measurement-inputs';
import { nameOf, type ExecutionPlan, type MeasurementCalc } from './plan';
import type { PeriodSamples } from './read-samples';
import type { TargetAxes } from './target-axes';
import type { ZoneColumnOf } from './zone-columns';

/** What the segments of one execution share: the plan, the samples, the fields so far and the caches. */
export interface SegmentContext {
  plan: ExecutionPlan;
  samples: PeriodSamples;
  seriesOf: (fieldId: string) => Promise<FieldSeries>;
  readHistory: ReadStoredRange;
  zoneOf: ZoneColumnOf;
  axes: TargetAxes;
}

/**
 * Sub-step "segment" of the measurement fields: one field's values over the part of the period where one of its
 * calculations is valid, on the primary timestamps thinned to the calculation's interval (null: no target there).
 * A calculation with an AVERAGE_OVER window also runs over the targets of the window before the segment (raw
 * channels read that far back, fields from their stored values before the period), whose outputs are dropped, so
 * the value at the segment's first minutes averages the minutes before it as a run over the whole time would.
 */
export async function computeSegment(
  context: SegmentContext,
  fieldId: string,
  calc: MeasurementCalc,
  segment: { from: number; to: number },
): Promise<FieldSeries | null> {
  const { plan, samples, seriesOf, zoneOf, axes } = context;
  const { constants } = plan;
  const { budgetMs } = plan.request;
  const what = `Measurement field ${nameOf(plan, fieldId)}, calculation ${calc.version}.${calc.revision}`;
  const allTargets = axes.at(calc.interval);
  const start = lowerBound(allTargets, segment.from);
  const end = lowerBound(allTargets, segment.to);
  if (end <= start) return null;
  const program = compileCalculation(
    'measurement-field',
    what,
    calc.algorithm,
    calc.inputIds.map((id) => nameOf(plan, id)),
    calc.outputType,
  );
  const windowed = program.windowSeconds > 0;
  // A rolling window runs from the window's length before the segment, on the targets before the period too.
  let axis = allTargets.subarray(start, end);
  let skip = 0;
  let zone = (kind: 'eca' | 'noDischarge') => zoneOf(kind, allTargets, calc.preload).subarray(start, end);
  if (windowed) {
    const lookback = axes.withLookback(calc.interval);
    const first = lowerBound(lookback, segment.from - program.windowSeconds * 1000);
    axis = lookback.subarray(first, lowerBound(lookback, segment.to));
    skip = lowerBound(lookback, segment.from) - first;
    const extended = axis;
    zone = (kind) => zoneOf(kind, extended, calc.preload);
  }
  const inputs = await calculationInputs({
    plan,
    samples,
    calc,
    inputNames: program.inputNames,
    what,
    axis,
    seriesOf,
    readHistory: windowed ? context.readHistory : undefined,
  });
  const values = runCalculation(what, () =>
    program.evaluateTimestamps({
      timestamps: axis,
      inputs,
      isEcaZone: program.usesEcaZone ? zone('eca') : undefined,
      isNoDischargeZone: program.usesNoDischargeZone ? zone('noDischarge') : undefined,
      constants,
      budgetMs,
    }),
  );
  return windowed
    ? { timestamps: axis.slice(skip), values: values.slice(skip) }
    : { timestamps: axis, values };
}

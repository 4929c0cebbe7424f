import { concatSeries, type FieldSeries } from '../../storage';
import { ExecutionError } from './calculations';
import { nameOf, type Channel, type ExecutionPlan, type MeasurementCalc } from './plan';
import type { PeriodSamples } from './read-samples';
import { sampleAndHold } from './series';

/** Stored values of a measurement field in [from, to) (the rows before a period that a rolling window reads). */
export type ReadStoredRange = (fieldId: string, from: number, to: number) => Promise<FieldSeries>;

/**
 * A raw channel on the targets: the last non-null sample within the preload interval (sample-and-hold over the
 * blanks a logger leaves); all null when the channel has no samples in the period.
 */
export function heldChannel(
  samples: Pick<PeriodSamples, 'rawBySource'>,
  channel: Channel | undefined,
  targets: Float64Array,
  preloadSeconds: number,
): Float64Array {
  const raw = channel ? samples.rawBySource.get(channel.data_source_id) : undefined;
  const column = raw && channel ? raw.columns[channel.source] : undefined;
  return raw && column
    ? sampleAndHold(raw.timestamps, column, targets, preloadSeconds)
    : new Float64Array(targets.length).fill(NaN);
}

/**
 * A measurement field read by another one: its value at the latest timestamp it was calculated for, at or before
 * each target and within the preload interval — null when that value is null. The hold over blank samples belongs
 * to the raw channels (where a logger left a value out); holding a computed field's null (SO2_CO2_RATIO while the
 * scrubber is off) would carry stale values into RATIO_MARGIN for 5 minutes, and each derived layer would add
 * another preload interval to a raw gap (apps/api/test/correctness.test.ts).
 */
export function latestEntryAtOrBefore(
  ts: Float64Array,
  values: Float64Array,
  targets: Float64Array,
  preloadSeconds: number,
): Float64Array {
  if (ts === targets) return values;
  const out = new Float64Array(targets.length);
  const preload = preloadSeconds * 1000;
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    while (j < ts.length && ts[j]! <= t) j++;
    out[i] = j > 0 && t - ts[j - 1]! <= preload ? values[j - 1]! : NaN;
  }
  return out;
}

export interface InputRequest {
  plan: Pick<ExecutionPlan, 'request' | 'channelById' | 'fieldName'>;
  samples: Pick<PeriodSamples, 'rawBySource'>;
  calc: MeasurementCalc;
  /** The input names the compiled calculation reads (the others of `calc.inputIds` are not read). */
  inputNames: readonly string[];
  /** The calculation's name in errors. */
  what: string;
  /** The timestamps the calculation runs on. */
  axis: Float64Array;
  /** A measurement field's series in the period: computed in this run, or as stored. */
  seriesOf: (fieldId: string) => Promise<FieldSeries>;
  /** For a rolling window: the stored values before the period, joined before a field's series. */
  readHistory?: ReadStoredRange;
}

/**
 * Sub-step "inputs" of the measurement fields: a calculation's input columns on its axis, by input name: raw
 * channels held within the preload interval, other measurement fields at their latest calculated timestamp (with
 * the stored values before the period when a rolling window reaches back there). An input that is neither fails
 * the execution.
 */
export async function calculationInputs(request: InputRequest): Promise<Record<string, Float64Array>> {
  const { plan, samples, calc, inputNames, what, axis, seriesOf, readHistory } = request;
  const { from } = plan.request;
  const inputs: Record<string, Float64Array> = {};
  for (const id of calc.inputIds) {
    const inputName = nameOf(plan, id);
    if (!inputNames.includes(inputName)) continue;
    const channel = plan.channelById.get(id);
    if (channel) {
      inputs[inputName] = heldChannel(samples, channel, axis, calc.preload);
    } else if (plan.fieldName.has(id)) {
      let series = await seriesOf(id);
      const historyFrom = (axis[0] ?? from) - calc.preload * 1000;
      if (readHistory && historyFrom < from) {
        const history = await readHistory(id, historyFrom, from);
        if (history.timestamps.length) series = concatSeries([history, series]);
      }
      inputs[inputName] = latestEntryAtOrBefore(series.timestamps, series.values, axis, calc.preload);
    } else {
      throw new ExecutionError(
        `${what}: input ${id} is neither a channel of the ship nor a measurement field`,
      );
    }
  }
  return inputs;
}

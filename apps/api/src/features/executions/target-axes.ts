import type { PeriodSamples } from './read-samples';
import { thinToInterval } from './series';

/** The targets of the period at calculation intervals, each made once per interval. */
export interface TargetAxes {
  /** The primary data source's timestamps in the period, thinned to the interval (seconds). */
  at(intervalSeconds: number): Float64Array;
  /** The targets before the period (within the longest window read) followed by the period's. */
  withLookback(intervalSeconds: number): Float64Array;
}

/**
 * Sub-step "targets" of the measurement fields: the timestamps each calculation runs on. Calculations of the same
 * interval share one array (the zone columns and the packed timestamps of the store step are made once for it).
 */
export function targetAxes(
  samples: Pick<PeriodSamples, 'primaryTimestamps' | 'lookbackTimestamps'>,
): TargetAxes {
  const inside = new Map<number, Float64Array>();
  const withLookback = new Map<number, Float64Array>();
  const at = (interval: number) => {
    let t = inside.get(interval);
    if (!t) inside.set(interval, (t = thinToInterval(samples.primaryTimestamps, interval)));
    return t;
  };
  return {
    at,
    withLookback(interval) {
      let axis = withLookback.get(interval);
      if (!axis) {
        const before = thinToInterval(samples.lookbackTimestamps ?? new Float64Array(0), interval);
        const period = at(interval);
        axis = new Float64Array(before.length + period.length);
        axis.set(before, 0);
        axis.set(period, before.length);
        withLookback.set(interval, axis);
      }
      return axis;
    },
  };
}

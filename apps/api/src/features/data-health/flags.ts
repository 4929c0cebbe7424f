import {
  ENGINE_IDLE_FUEL_FLOW,
  ENGINE_IDLE_LOAD_PERCENT,
  type DataHealthThreshold,
  type HealthFlagKind,
} from '@portal/contracts/data-health';

/**
 * The data health rules as pure functions over a channel's series (docs/decisions/0071-data-health.md): the health
 * view and the ship list's badge use them, and so can the engine (issue 18's "sensor fault" events take the
 * flagged intervals of the compliance channels).
 */

const HOUR_MS = 3_600_000;

/** A channel's samples: UTC epoch ms ascending (the data source's rows), one value each, NaN = missing. */
export interface ChannelSeries {
  timestamps: Float64Array;
  values: Float64Array;
}

/** When the engine runs: its own times (ascending) and 1 where it runs, 0 where it does not. */
export interface EngineSeries {
  timestamps: Float64Array;
  running: Uint8Array;
}

export interface FlaggedInterval {
  kind: HealthFlagKind;
  /** UTC epoch ms: the first and last sample of the interval (stale: the last value before and the next after). */
  from: number;
  to: number;
  /** Samples inside (0 for stale: the time without one). */
  samples: number;
  /** The stuck value (flatLined) or the one furthest out (outOfRange); null for stale. */
  value: number | null;
}

export interface FlagOptions {
  threshold: Pick<DataHealthThreshold, 'min' | 'max' | 'staleHours' | 'flatLineHours'>;
  /** When the engine runs; absent or null: it is taken to run all the time (flat-line checked throughout). */
  engine?: EngineSeries | null;
  /**
   * For a channel that only moves while the scrubber runs (washwater): when it runs, from SCRUBBER_RUNNING. The
   * flat-line check then counts only times when both run.
   */
  scrubber?: EngineSeries | null;
  /**
   * Stale is measured up to here: the ship's latest data (not now, so a ship that uploads once a week is not stale
   * all week). Absent: the series' last row.
   */
  until?: number;
  /** The start of the period: a series with no row at all is stale from here to `until`. */
  from?: number;
}

/**
 * When the engine runs, from the ship's ENGINE_LOAD (above idle) or, without it, its FUEL_FLOW (above idle flow).
 * A missing value holds the one before. Null without either: the caller takes the engine as running.
 */
export function engineSeries(
  engineLoad: ChannelSeries | null,
  fuelFlow: ChannelSeries | null,
): EngineSeries | null {
  const source = engineLoad ?? fuelFlow;
  if (!source) return null;
  const idle = engineLoad ? ENGINE_IDLE_LOAD_PERCENT : ENGINE_IDLE_FUEL_FLOW;
  const running = new Uint8Array(source.timestamps.length);
  let last = 1;
  for (let i = 0; i < running.length; i++) {
    const v = source.values[i]!;
    if (!Number.isNaN(v)) last = v > idle ? 1 : 0;
    running[i] = last;
  }
  return { timestamps: source.timestamps, running };
}

/** When the scrubber runs, from its SCRUBBER_RUNNING channel (on above 0.5; a missing value holds the one before). */
export function scrubberSeries(scrubberRunning: ChannelSeries | null): EngineSeries | null {
  if (!scrubberRunning) return null;
  const running = new Uint8Array(scrubberRunning.timestamps.length);
  let last = 1;
  for (let i = 0; i < running.length; i++) {
    const v = scrubberRunning.values[i]!;
    if (!Number.isNaN(v)) last = v > 0.5 ? 1 : 0;
    running[i] = last;
  }
  return { timestamps: scrubberRunning.timestamps, running };
}

/** For each row of `timestamps`, whether the engine runs then (its last state at or before; running before its first). */
export function runningAt(timestamps: Float64Array, engine: EngineSeries | null | undefined): Uint8Array {
  const out = new Uint8Array(timestamps.length).fill(1);
  if (!engine || engine.timestamps.length === 0) return out;
  let j = -1;
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i]!;
    while (j + 1 < engine.timestamps.length && engine.timestamps[j + 1]! <= t) j++;
    out[i] = j < 0 ? 1 : engine.running[j]!;
  }
  return out;
}

/** Runs of present values outside [min, max]; a missing value does not end a run, a value in range does. */
export function outOfRangeIntervals(
  series: ChannelSeries,
  min: number | null,
  max: number | null,
): FlaggedInterval[] {
  if (min === null && max === null) return [];
  const out: FlaggedInterval[] = [];
  let open: FlaggedInterval | null = null;
  let worst = 0;
  const { timestamps, values } = series;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    const beyond = min !== null && v < min ? min - v : max !== null && v > max ? v - max : 0;
    if (beyond > 0) {
      const t = timestamps[i]!;
      if (!open) {
        open = { kind: 'outOfRange', from: t, to: t, samples: 0, value: v };
        worst = 0;
      }
      open.to = t;
      open.samples++;
      if (beyond > worst) {
        worst = beyond;
        open.value = v;
      }
    } else if (open) {
      out.push(open);
      open = null;
    }
  }
  if (open) out.push(open);
  return out;
}

/**
 * Runs of the same value lasting `hours` or longer while the engine runs. A sample while the engine does not run
 * ends a run; a missing value does not.
 */
export function flatLineIntervals(
  series: ChannelSeries,
  hours: number | null,
  running: Uint8Array,
): FlaggedInterval[] {
  if (hours === null) return [];
  const minimum = hours * HOUR_MS;
  const out: FlaggedInterval[] = [];
  const { timestamps, values } = series;
  let start = -1;
  let end = -1;
  let count = 0;
  let value = NaN;
  const close = () => {
    if (start >= 0 && timestamps[end]! - timestamps[start]! >= minimum)
      out.push({ kind: 'flatLined', from: timestamps[start]!, to: timestamps[end]!, samples: count, value });
    start = -1;
    count = 0;
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    if (!running[i]) {
      close();
      continue;
    }
    if (start >= 0 && v === value) {
      end = i;
      count++;
      continue;
    }
    close();
    start = end = i;
    count = 1;
    value = v;
  }
  close();
  return out;
}

/**
 * Times of `hours` or longer without a value while the data source wrote rows (the logger ran, the channel was
 * empty), and at the end up to `until` (the ship's latest data). A time without any row is a data gap of the
 * logger, not a stale channel.
 */
export function staleIntervals(
  series: ChannelSeries,
  hours: number | null,
  options: { until?: number; from?: number } = {},
): FlaggedInterval[] {
  if (hours === null) return [];
  const minimum = hours * HOUR_MS;
  const { timestamps, values } = series;
  const out: FlaggedInterval[] = [];
  const push = (from: number, to: number) => {
    if (to - from >= minimum) out.push({ kind: 'stale', from, to, samples: 0, value: null });
  };
  if (timestamps.length === 0) {
    if (options.from !== undefined && options.until !== undefined) push(options.from, options.until);
    return out;
  }
  let lastSeen = timestamps[0]!;
  let missingBetween = false;
  for (let i = 0; i < values.length; i++) {
    if (Number.isNaN(values[i]!)) {
      missingBetween = true;
      continue;
    }
    const t = timestamps[i]!;
    if (missingBetween) push(lastSeen, t);
    lastSeen = t;
    missingBetween = false;
  }
  const end = Math.max(options.until ?? -Infinity, timestamps[timestamps.length - 1]!);
  if (missingBetween || end > lastSeen) push(lastSeen, end);
  return out;
}

/**
 * Every flagged interval of a channel over its series: stale, flat-lined and out of range, in time order (by start,
 * then kind). The function issue 18's sensor-fault events are to take.
 */
export function flagChannel(series: ChannelSeries, options: FlagOptions): FlaggedInterval[] {
  const { threshold } = options;
  const running = runningAt(series.timestamps, options.engine);
  if (options.scrubber) {
    const scrubber = runningAt(series.timestamps, options.scrubber);
    for (let i = 0; i < running.length; i++) running[i] = running[i]! & scrubber[i]!;
  }
  return [
    ...staleIntervals(series, threshold.staleHours, options),
    ...flatLineIntervals(series, threshold.flatLineHours, running),
    ...outOfRangeIntervals(series, threshold.min, threshold.max),
  ].sort((a, b) => a.from - b.from || a.kind.localeCompare(b.kind));
}

/** A channel's health over a period: coverage, last value and flags. */
export interface ChannelHealthResult {
  samples: number;
  expectedSamples: number;
  /** 0–1; null when no sample is expected (an empty period). */
  coverage: number | null;
  lastValueOn: number | null;
  flags: HealthFlagKind[];
  intervals: FlaggedInterval[];
}

/**
 * Coverage counts the present values against one per measure frequency over [from, end), where end is `to`
 * but not later than `now` (a period reaching into the future expects nothing there).
 */
export function channelHealth(
  series: ChannelSeries,
  options: FlagOptions & { from: number; to: number; now: number; measureFrequencySeconds: number },
): ChannelHealthResult {
  let samples = 0;
  let lastValueOn: number | null = null;
  for (let i = 0; i < series.values.length; i++) {
    if (Number.isNaN(series.values[i]!)) continue;
    samples++;
    lastValueOn = series.timestamps[i]!;
  }
  const end = Math.min(options.to, options.now);
  const step = Math.max(1, options.measureFrequencySeconds) * 1000;
  const expectedSamples = end > options.from ? Math.ceil((end - options.from) / step) : 0;
  const intervals = flagChannel(series, options);
  return {
    samples,
    expectedSamples,
    coverage: expectedSamples > 0 ? Math.min(1, samples / expectedSamples) : null,
    lastValueOn,
    flags: [...new Set(intervals.map((i) => i.kind))],
    intervals,
  };
}

/** A stretch without any row, ms. */
export interface Gap {
  from: number;
  to: number;
}

/**
 * The stretches without a row from any of a ship's data sources longer than `minimumMs` (as the data gap events:
 * DOMAIN.md "no target for longer than the limit between two that exist"), between the first and
 * the last row (before the first row of a period the ship may not have been logging yet: coverage tells that).
 * Each list of timestamps is ascending; the lists are merged without copying them into one.
 */
export function dataGaps(timestampLists: readonly Float64Array[], longerThanMs: number): Gap[] {
  const lists = timestampLists.filter((t) => t.length > 0);
  const at = lists.map(() => 0);
  const gaps: Gap[] = [];
  let previous = -Infinity;
  for (;;) {
    let next = Infinity;
    let which = -1;
    for (let l = 0; l < lists.length; l++) {
      const t = lists[l]![at[l]!];
      if (t !== undefined && t < next) {
        next = t;
        which = l;
      }
    }
    if (which < 0) return gaps;
    at[which] = at[which]! + 1;
    if (Number.isFinite(previous) && next - previous > longerThanMs) gaps.push({ from: previous, to: next });
    previous = Math.max(previous, next);
  }
}

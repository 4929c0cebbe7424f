import type { FieldSeries } from '../../../storage';
import { sampleAndHold } from '../series';
import type { ChannelRef } from './types';

/** A raw channel's value holds this long onto the targets, as the default calculations' preload. */
export const RAW_HOLD_SECONDS = 300;

/** Reads a raw channel's samples over [from, to] (readers.ts `rawReader`); undefined when it has none. */
export type RawRead = (
  ref: ChannelRef,
  from: number,
  to: number,
) => Promise<{ timestamps: Float64Array; column: Float64Array } | undefined>;

/** Sub-step "on the targets" (pure): values of `series` at `targets` (both ascending); NaN where it has none. */
export function onTargets(targets: Float64Array, series: FieldSeries): Float64Array {
  const out = new Float64Array(targets.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    while (j < series.timestamps.length && series.timestamps[j]! < targets[i]!) j++;
    if (j < series.timestamps.length && series.timestamps[j] === targets[i]) out[i] = series.values[j]!;
  }
  return out;
}

/** A raw channel held onto `targets` (its value within the preload before each target), as a raw field is. */
export async function channelOnTargets(
  readRaw: RawRead,
  channel: ChannelRef,
  targets: Float64Array,
): Promise<Float64Array> {
  if (targets.length === 0) return new Float64Array(0);
  const raw = await readRaw(channel, targets[0]! - RAW_HOLD_SECONDS * 1000, targets[targets.length - 1]!);
  return raw
    ? sampleAndHold(raw.timestamps, raw.column, targets, RAW_HOLD_SECONDS)
    : new Float64Array(targets.length).fill(NaN);
}

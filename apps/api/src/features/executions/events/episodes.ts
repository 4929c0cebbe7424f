import type { EventPosition, EventType } from '@portal/contracts/events';
import type { DerivedEvent, Episode, EventInputs } from './types';

export const truthy = (v: number) => !Number.isNaN(v) && v !== 0;

/** The position at target `i`; null when either coordinate is missing. */
export function positionAt(inputs: EventInputs, i: number): EventPosition | null {
  const latitude = inputs.latitude[i]!;
  const longitude = inputs.longitude[i]!;
  return Number.isNaN(latitude) || Number.isNaN(longitude) ? null : { latitude, longitude };
}

/** Sub-step "episodes": runs of counting samples; a break of at most `joinSamples` samples (in time) does not split a run. */
export function episodes(
  targets: Float64Array,
  counts: (i: number) => boolean,
  stepMs: number,
  joinSamples: number,
): Episode[] {
  const out: Episode[] = [];
  const joinMs = (joinSamples + 1) * stepMs;
  let current: Episode | null = null;
  for (let i = 0; i < targets.length; i++) {
    if (!counts(i)) continue;
    if (current && targets[i]! - targets[current.last]! <= joinMs) current.last = i;
    else {
      if (current) out.push(current);
      current = { first: i, last: i };
    }
  }
  if (current) out.push(current);
  return out;
}

/** Makes an episode's event (not yet classified). */
export type EpisodeEvent = (type: EventType, e: Episode) => DerivedEvent;

/**
 * An episode's event: from its first target to one step after its last, with the positions there; ongoing when it
 * reaches the window's last target and that is the ship's last (`dataEndsAtWindowEnd`).
 */
export function episodeEventOf(
  inputs: EventInputs,
  stepMs: number,
  dataEndsAtWindowEnd: boolean,
): EpisodeEvent {
  const { targets } = inputs;
  const lastIndex = targets.length - 1;
  return (type, e) => ({
    type,
    start: targets[e.first]!,
    end: targets[e.last]! + stepMs,
    ongoing: dataEndsAtWindowEnd && e.last === lastIndex,
    worstValue: null,
    limit: null,
    startPosition: positionAt(inputs, e.first),
    endPosition: positionAt(inputs, e.last),
    classification: null,
    reportRequired: false,
    channel: null,
    fault: null,
  });
}

import type { EventClassification, EventPosition, EventType } from '@portal/contracts/events';

/**
 * The inputs of the compliance events' pure rules: the measurement values of a window of targets. Every input is
 * aligned to `targets` (NaN where a field has no value); `eca` is 1 inside, 0 outside, 255 unknown.
 */
export interface EventInputs {
  /** Target timestamps (ms, ascending): the times the engine computed the ship's fields. */
  targets: Float64Array;
  required: Float64Array;
  running: Float64Array;
  ratio: Float64Array;
  limit: Float64Array;
  latitude: Float64Array;
  longitude: Float64Array;
  eca: Uint8Array;
  /**
   * 1 where the record book puts the ship on a fuel within the area's sulfur limit (a recorded fuel change-over,
   * compliant-fuel.ts): the scrubber is not needed there, whatever the logged fuel sulfur says.
   */
  compliantFuel?: Uint8Array;
  /** Washwater (docs/decisions/0100-washwater.md), when the ship has the default washwater fields. */
  washwater?: WashwaterInputs;
}

/** Per criterion its value and limit while discharging (NaN otherwise), and open loop in a no-discharge zone (1/0). */
export interface WashwaterInputs {
  /** WASHWATER_PH_DISCHARGING and WASHWATER_PH_LIMIT: an exceedance is a pH below the limit. */
  ph: Float64Array;
  phLimit: Float64Array;
  /** WASHWATER_PAH_ABOVE_INLET and WASHWATER_PAH_LIMIT: above the limit. */
  pah: Float64Array;
  pahLimit: Float64Array;
  /** WASHWATER_TURBIDITY_ABOVE_INLET (15-minute average) and WASHWATER_TURBIDITY_LIMIT: above the limit. */
  turbidity: Float64Array;
  turbidityLimit: Float64Array;
  openLoopInZone: Float64Array;
}

export interface DerivedEvent {
  type: EventType;
  /** ms; the first counting sample's time (for a data gap: the first minute without a target). */
  start: number;
  /** ms, exclusive: the last counting sample's time plus one step (for an entry or exit: equal to start). */
  end: number;
  /** The episode reaches the last target of the ship's data: it lasts as long as nothing says otherwise. */
  ongoing: boolean;
  /** Emission exceedance: the highest SO2/CO2 ratio, and the limit in force at that sample. */
  worstValue: number | null;
  limit: number | null;
  startPosition: EventPosition | null;
  endPosition: EventPosition | null;
  classification: EventClassification | null;
  reportRequired: boolean;
  /** Sensor fault: the channel and the kind of fault; null for the other types. */
  channel: string | null;
  fault: string | null;
}

export interface DeriveContext {
  /** Start times (ms) of the ship's transients before the window, for the repeated rule (the emission group's). */
  earlierTransientStarts?: readonly number[];
  /** The same for the other groups of transientGroup (classify.ts). */
  earlierTransientStartsByGroup?: Readonly<Record<string, readonly number[]>>;
  /** The window's last target is the ship's last: an episode reaching it is ongoing. */
  dataEndsAtWindowEnd?: boolean;
}

/** A run of counting samples: the indexes of its first and last target. */
export interface Episode {
  first: number;
  last: number;
}

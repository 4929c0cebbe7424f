import type { EventClassification, EventPosition, EventRules, EventType } from '@portal/contracts/events';

/**
 * Step "compliance events", the pure part: from the measurement values of a window of targets to the events of
 * DOMAIN.md "Compliance events" (docs/decisions/0080-compliance-events.md). Every input is aligned to `targets`
 * (NaN where a field has no value); `eca` is 1 inside, 0 outside, 255 unknown.
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
   * {@link compliantFuelColumn}): the scrubber is not needed there, whatever the logged fuel sulfur says.
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

/**
 * The classes of episodes whose transients count together for the repeated rule: the SO2 emission (exceedance and
 * scrubber off, as before), each washwater criterion, and open loop in a no-discharge zone.
 */
export function transientGroup(type: string, channel: string | null): string {
  if (type === 'washwater-exceedance') return `washwater:${channel ?? ''}`;
  if (type === 'open-loop-in-no-discharge-zone') return type;
  return 'emission';
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
  /** The same for the other groups of {@link transientGroup}. */
  earlierTransientStartsByGroup?: Readonly<Record<string, readonly number[]>>;
  /** The window's last target is the ship's last: an episode reaching it is ongoing. */
  dataEndsAtWindowEnd?: boolean;
}

const truthy = (v: number) => !Number.isNaN(v) && v !== 0;

/** The position at target `i`; null when either coordinate is missing. */
export function positionAt(inputs: EventInputs, i: number): EventPosition | null {
  const latitude = inputs.latitude[i]!;
  const longitude = inputs.longitude[i]!;
  return Number.isNaN(latitude) || Number.isNaN(longitude) ? null : { latitude, longitude };
}

interface Episode {
  first: number;
  last: number;
}

/** Runs of counting samples; a break of at most `joinSamples` samples (in time) does not split a run. */
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

/** The events of a window of targets, in order of start (types interleaved). */
export function deriveEvents(
  inputs: EventInputs,
  rules: EventRules,
  context: DeriveContext = {},
): DerivedEvent[] {
  const { targets } = inputs;
  const n = targets.length;
  const stepMs = rules.stepSeconds * 1000;
  const lastIndex = n - 1;
  const events: DerivedEvent[] = [];

  const episodeEvent = (type: EventType, e: Episode): DerivedEvent => ({
    type,
    start: targets[e.first]!,
    end: targets[e.last]! + stepMs,
    ongoing: context.dataEndsAtWindowEnd === true && e.last === lastIndex,
    worstValue: null,
    limit: null,
    startPosition: positionAt(inputs, e.first),
    endPosition: positionAt(inputs, e.last),
    classification: null,
    reportRequired: false,
    channel: null,
    fault: null,
  });

  // Emission exceedance: required, running and over the limit.
  const exceeding = (i: number) =>
    truthy(inputs.required[i]!) &&
    truthy(inputs.running[i]!) &&
    !Number.isNaN(inputs.ratio[i]!) &&
    !Number.isNaN(inputs.limit[i]!) &&
    inputs.ratio[i]! > inputs.limit[i]!;
  const classified: DerivedEvent[] = [];
  for (const e of episodes(targets, exceeding, stepMs, rules.joinSamples)) {
    const event = episodeEvent('emission-exceedance', e);
    for (let i = e.first; i <= e.last; i++) {
      if (!exceeding(i)) continue;
      if (event.worstValue === null || inputs.ratio[i]! > event.worstValue) {
        event.worstValue = inputs.ratio[i]!;
        event.limit = inputs.limit[i]!;
      }
    }
    classified.push(event);
  }
  // Scrubber off while required: a non-compliance unless a change-over to compliant fuel is recorded (DOMAIN.md).
  const off = (i: number) =>
    truthy(inputs.required[i]!) &&
    !Number.isNaN(inputs.running[i]!) &&
    inputs.running[i]! === 0 &&
    inputs.compliantFuel?.[i] !== 1;
  for (const e of episodes(targets, off, stepMs, rules.joinSamples))
    classified.push(episodeEvent('scrubber-off', e));
  if (inputs.washwater) classified.push(...washwaterEpisodes(inputs, inputs.washwater, rules, episodeEvent));

  // Classification: by duration, then the repeated rule over the ship's transients of both kinds in time order.
  classified.sort((a, b) => a.start - b.start);
  const transientMs = rules.transientMinutes * 60_000;
  const windowMs = rules.repeatedWindowHours * 3_600_000;
  const reportMs = rules.reportMinutes * 60_000;
  const transientsByGroup = new Map<string, number[]>();
  transientsByGroup.set('emission', [...(context.earlierTransientStarts ?? [])]);
  for (const [group, starts] of Object.entries(context.earlierTransientStartsByGroup ?? {}))
    transientsByGroup.set(group, [...(transientsByGroup.get(group) ?? []), ...starts]);
  for (const event of classified) {
    const duration = event.end - event.start;
    const group = transientGroup(event.type, event.channel);
    let transients = transientsByGroup.get(group);
    if (!transients) transientsByGroup.set(group, (transients = []));
    // An ongoing episode is classified by its duration so far; it is classified again when it grows.
    if (duration >= transientMs) event.classification = 'malfunction';
    else {
      const within = transients.filter((t) => t > event.start - windowMs && t <= event.start).length;
      event.classification = within + 1 >= rules.repeatedCount ? 'repeated' : 'transient';
      transients.push(event.start);
    }
    event.reportRequired =
      event.classification === 'repeated' || (event.classification === 'malfunction' && duration > reportMs);
  }
  events.push(...classified);

  // Data gaps: no target for longer than the limit between two that exist.
  const gapMs = rules.dataGapMinutes * 60_000;
  for (let i = 1; i < n; i++) {
    const before = targets[i - 1]!;
    const after = targets[i]!;
    if (after - before > gapMs) {
      events.push({
        type: 'data-gap',
        start: before + stepMs,
        end: after,
        ongoing: false,
        worstValue: null,
        limit: null,
        startPosition: positionAt(inputs, i - 1),
        endPosition: positionAt(inputs, i),
        classification: null,
        reportRequired: false,
        channel: null,
        fault: null,
      });
    }
  }

  // ECA entry and exit: the zone changes between two samples whose zone is known.
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const zone = inputs.eca[i]!;
    if (zone === 255) continue;
    if (previous !== -1 && zone !== inputs.eca[previous]!) {
      const position = positionAt(inputs, i);
      events.push({
        type: zone === 1 ? 'eca-entry' : 'eca-exit',
        start: targets[i]!,
        end: targets[i]!,
        ongoing: false,
        worstValue: null,
        limit: null,
        startPosition: position,
        endPosition: position,
        classification: null,
        reportRequired: false,
        channel: null,
        fault: null,
      });
    }
    previous = i;
  }

  return events.sort((a, b) => a.start - b.start || a.type.localeCompare(b.type));
}

/**
 * Washwater exceedance episodes, one kind per criterion (channel WASHWATER_PH, WASHWATER_PAH, WASHWATER_TURBIDITY;
 * worst value and its limit kept), and open loop in a no-discharge zone. With the excursion allowance enabled, a PAH
 * or turbidity episode no longer than the allowed minutes whose worst stays within the allowed percent above its
 * limit, and that is the first such within the allowance window, is no exceedance (within the window of targets
 * derived: an allowance used before it is not seen).
 */
function washwaterEpisodes(
  inputs: EventInputs,
  w: WashwaterInputs,
  rules: EventRules,
  episodeEvent: (type: EventType, e: Episode) => DerivedEvent,
): DerivedEvent[] {
  const { targets } = inputs;
  const stepMs = rules.stepSeconds * 1000;
  const out: DerivedEvent[] = [];
  const criteria = [
    { channel: 'WASHWATER_PH', value: w.ph, limit: w.phLimit, below: true, allowance: null },
    {
      channel: 'WASHWATER_PAH',
      value: w.pah,
      limit: w.pahLimit,
      below: false,
      allowance: rules.pahExcursionPercent,
    },
    {
      channel: 'WASHWATER_TURBIDITY',
      value: w.turbidity,
      limit: w.turbidityLimit,
      below: false,
      allowance: rules.turbidityExcursionPercent,
    },
  ] as const;
  for (const c of criteria) {
    const exceeds = (i: number) => {
      const v = c.value[i]!;
      const l = c.limit[i]!;
      return !Number.isNaN(v) && !Number.isNaN(l) && (c.below ? v < l : v > l);
    };
    let lastAllowed = -Infinity;
    for (const e of episodes(targets, exceeds, stepMs, rules.joinSamples)) {
      const event = episodeEvent('washwater-exceedance', e);
      event.channel = c.channel;
      let worstRatio = -Infinity;
      for (let i = e.first; i <= e.last; i++) {
        if (!exceeds(i)) continue;
        const v = c.value[i]!;
        const l = c.limit[i]!;
        if (event.worstValue === null || (c.below ? v < event.worstValue : v > event.worstValue)) {
          event.worstValue = v;
          event.limit = l;
        }
        if (l > 0) worstRatio = Math.max(worstRatio, v / l);
      }
      if (
        rules.washwaterExcursions &&
        c.allowance !== null &&
        event.end - event.start <= rules.washwaterExcursionMinutes * 60_000 &&
        worstRatio <= 1 + c.allowance / 100 &&
        event.start - lastAllowed >= rules.washwaterExcursionWindowHours * 3_600_000
      ) {
        lastAllowed = event.start;
        continue;
      }
      out.push(event);
    }
  }
  const open = (i: number) => truthy(w.openLoopInZone[i]!);
  for (const e of episodes(targets, open, stepMs, rules.joinSamples))
    out.push(episodeEvent('open-loop-in-no-discharge-zone', e));
  return out;
}

/** A flagged interval of a compliance channel (data health's `flagChannel`). */
export interface ChannelFault {
  channel: string;
  kind: string;
  /** First and last sample of the interval (stale: the last value before and the next after, or the data's end). */
  from: number;
  to: number;
  value: number | null;
}

/**
 * Sensor fault events from the data health flags of the compliance channels: one per channel and flagged interval,
 * from its first sample to one step after its last (a stale interval: from the last value to the next), ongoing
 * when it reaches the ship's latest data. Informational for the Circ.883 classes: a sensor fault is a monitoring
 * failure, reported through the emission events it hides, not classified itself (docs/decisions/0080).
 */
export function sensorFaultEvents(
  faults: readonly ChannelFault[],
  positionAt: (t: number) => EventPosition | null,
  rules: EventRules,
  dataEnd: number | null,
): DerivedEvent[] {
  const stepMs = rules.stepSeconds * 1000;
  return faults.map((f) => {
    const end = f.kind === 'stale' ? f.to : f.to + stepMs;
    return {
      type: 'sensor-fault',
      start: f.from,
      end,
      ongoing: dataEnd !== null && f.to >= dataEnd,
      worstValue: f.value,
      limit: null,
      startPosition: positionAt(f.from),
      endPosition: positionAt(f.to),
      classification: null,
      reportRequired: false,
      channel: f.channel,
      fault: f.kind,
    };
  });
}

/** A fuel change-over as the record book has it: from `at` (ms) on, the fuel in use has `sulfurPct` % m/m. */
export interface FuelChange {
  at: number;
  sulfurPct: number;
}

/**
 * Per target, 1 when the last recorded fuel change-over at or before it put the ship on a fuel within the area's
 * sulfur limit (0.10 % m/m in an ECA, 0.50 % outside; where the position is unknown, the ECA's), else 0. `changes`
 * in time order; before the first one the record book says nothing and the logged data decide.
 */
export function compliantFuelColumn(
  targets: Float64Array,
  eca: Uint8Array,
  changes: readonly FuelChange[],
  limits: { eca: number; global: number },
): Uint8Array {
  const column = new Uint8Array(targets.length);
  let next = 0;
  let sulfur: number | null = null;
  for (let i = 0; i < targets.length; i++) {
    while (next < changes.length && changes[next]!.at <= targets[i]!) sulfur = changes[next++]!.sulfurPct;
    if (sulfur === null) continue;
    column[i] = sulfur <= (eca[i] === 0 ? limits.global : limits.eca) ? 1 : 0;
  }
  return column;
}

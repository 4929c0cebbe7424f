import type { EventRules } from '@portal/contracts/events';
import { classifyEpisodes } from './events/classify';
import { emissionEpisodes } from './events/emission';
import { episodeEventOf } from './events/episodes';
import { dataGapEvents, zoneCrossingEvents } from './events/gaps-and-zones';
import type { DeriveContext, DerivedEvent, EventInputs } from './events/types';
import { washwaterEpisodes } from './events/washwater';

/**
 * Step "compliance events", the pure part: from the measurement values of a window of targets to the events of
 * DOMAIN.md "Compliance events" (docs/decisions/0080-compliance-events.md). Its sub-steps, in events/: the episodes
 * (episodes.ts) of the emission (emission.ts) and of the washwater (washwater.ts), their classification
 * (classify.ts), the data gaps and ECA crossings (gaps-and-zones.ts); beside them the sensor faults
 * (sensor-faults.ts) and the record book's compliant fuel (compliant-fuel.ts), which derive-events.ts applies.
 */

export { classifyEpisodes, transientGroup } from './events/classify';
export { compliantFuelColumn, type FuelChange } from './events/compliant-fuel';
export { episodes, positionAt } from './events/episodes';
export { sensorFaultEvents, type ChannelFault } from './events/sensor-faults';
export type { DeriveContext, DerivedEvent, EventInputs, WashwaterInputs } from './events/types';

/** The events of a window of targets, in order of start (types interleaved). */
export function deriveEvents(
  inputs: EventInputs,
  rules: EventRules,
  context: DeriveContext = {},
): DerivedEvent[] {
  const episodeEvent = episodeEventOf(inputs, rules.stepSeconds * 1000, context.dataEndsAtWindowEnd === true);
  const episodes = emissionEpisodes(inputs, rules, episodeEvent);
  if (inputs.washwater) episodes.push(...washwaterEpisodes(inputs, inputs.washwater, rules, episodeEvent));
  const events = [
    ...classifyEpisodes(episodes, rules, context),
    ...dataGapEvents(inputs, rules),
    ...zoneCrossingEvents(inputs),
  ];
  return events.sort((a, b) => a.start - b.start || a.type.localeCompare(b.type));
}

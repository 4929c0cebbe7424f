import type { EventRules } from '@portal/contracts/events';
import type { DeriveContext, DerivedEvent } from './types';

/**
 * The classes of episodes whose transients count together for the repeated rule: the SO2 emission (exceedance and
 * scrubber off, as before), each washwater criterion, and open loop in a no-discharge zone.
 */
export function transientGroup(type: string, channel: string | null): string {
  if (type === 'washwater-exceedance') return `washwater:${channel ?? ''}`;
  if (type === 'open-loop-in-no-discharge-zone') return type;
  return 'emission';
}

/**
 * Sub-step "classify": sorts the episodes' events by start and classifies each (in place): by duration a
 * malfunction, else transient or, with enough transients of its group within the window before it (the ship's
 * earlier ones from `context` counted), repeated; a report is required for a repeated one and a malfunction longer
 * than the report minutes. An ongoing episode is classified by its duration so far (again when it grows).
 */
export function classifyEpisodes(
  events: DerivedEvent[],
  rules: EventRules,
  context: DeriveContext,
): DerivedEvent[] {
  events.sort((a, b) => a.start - b.start);
  const transientMs = rules.transientMinutes * 60_000;
  const windowMs = rules.repeatedWindowHours * 3_600_000;
  const reportMs = rules.reportMinutes * 60_000;
  const transientsByGroup = new Map<string, number[]>();
  transientsByGroup.set('emission', [...(context.earlierTransientStarts ?? [])]);
  for (const [group, starts] of Object.entries(context.earlierTransientStartsByGroup ?? {}))
    transientsByGroup.set(group, [...(transientsByGroup.get(group) ?? []), ...starts]);
  for (const event of events) {
    const duration = event.end - event.start;
    const group = transientGroup(event.type, event.channel);
    let transients = transientsByGroup.get(group);
    if (!transients) transientsByGroup.set(group, (transients = []));
    if (duration >= transientMs) event.classification = 'malfunction';
    else {
      const within = transients.filter((t) => t > event.start - windowMs && t <= event.start).length;
      event.classification = within + 1 >= rules.repeatedCount ? 'repeated' : 'transient';
      transients.push(event.start);
    }
    event.reportRequired =
      event.classification === 'repeated' || (event.classification === 'malfunction' && duration > reportMs);
  }
  return events;
}

import type { EventRules } from '@portal/contracts/events';
import { episodes, truthy, type EpisodeEvent } from './episodes';
import type { DerivedEvent, EventInputs } from './types';

/**
 * Sub-step "emission episodes": emission exceedances (scrubber required, running, and the SO2/CO2 ratio over the
 * limit; the worst ratio and the limit at that sample kept) and scrubber off while required (a non-compliance
 * unless a change-over to compliant fuel is recorded, DOMAIN.md), not yet classified.
 */
export function emissionEpisodes(
  inputs: EventInputs,
  rules: EventRules,
  episodeEvent: EpisodeEvent,
): DerivedEvent[] {
  const { targets } = inputs;
  const stepMs = rules.stepSeconds * 1000;
  const out: DerivedEvent[] = [];
  const exceeding = (i: number) =>
    truthy(inputs.required[i]!) &&
    truthy(inputs.running[i]!) &&
    !Number.isNaN(inputs.ratio[i]!) &&
    !Number.isNaN(inputs.limit[i]!) &&
    inputs.ratio[i]! > inputs.limit[i]!;
  for (const e of episodes(targets, exceeding, stepMs, rules.joinSamples)) {
    const event = episodeEvent('emission-exceedance', e);
    for (let i = e.first; i <= e.last; i++) {
      if (!exceeding(i)) continue;
      if (event.worstValue === null || inputs.ratio[i]! > event.worstValue) {
        event.worstValue = inputs.ratio[i]!;
        event.limit = inputs.limit[i]!;
      }
    }
    out.push(event);
  }
  const off = (i: number) =>
    truthy(inputs.required[i]!) &&
    !Number.isNaN(inputs.running[i]!) &&
    inputs.running[i]! === 0 &&
    inputs.compliantFuel?.[i] !== 1;
  for (const e of episodes(targets, off, stepMs, rules.joinSamples))
    out.push(episodeEvent('scrubber-off', e));
  return out;
}

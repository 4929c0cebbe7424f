import type { EventRules } from '@portal/contracts/events';
import { episodes, truthy, type EpisodeEvent } from './episodes';
import type { DerivedEvent, EventInputs, WashwaterInputs } from './types';

/**
 * Sub-step "washwater episodes": washwater exceedance episodes, one kind per criterion (channel WASHWATER_PH, WASHWATER_PAH, WASHWATER_TURBIDITY;
 * worst value and its limit kept), and open loop in a no-discharge zone. With the excursion allowance enabled, a PAH
 * or turbidity episode no longer than the allowed minutes whose worst stays within the allowed percent above its
 * limit, and that is the first such within the allowance window, is no exceedance (within the window of targets
 * derived: an allowance used before it is not seen).
 */
export function washwaterEpisodes(
  inputs: EventInputs,
  w: WashwaterInputs,
  rules: EventRules,
  episodeEvent: EpisodeEvent,
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

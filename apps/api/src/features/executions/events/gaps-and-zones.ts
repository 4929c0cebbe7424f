import type { EventRules } from '@portal/contracts/events';
import { positionAt } from './episodes';
import type { DerivedEvent, EventInputs } from './types';

const noDetails = {
  ongoing: false,
  worstValue: null,
  limit: null,
  classification: null,
  reportRequired: false,
  channel: null,
  fault: null,
} as const;

/** Sub-step "data gaps": no target for longer than the limit between two that exist. */
export function dataGapEvents(inputs: EventInputs, rules: EventRules): DerivedEvent[] {
  const { targets } = inputs;
  const stepMs = rules.stepSeconds * 1000;
  const gapMs = rules.dataGapMinutes * 60_000;
  const out: DerivedEvent[] = [];
  for (let i = 1; i < targets.length; i++) {
    const before = targets[i - 1]!;
    const after = targets[i]!;
    if (after - before > gapMs)
      out.push({
        type: 'data-gap',
        start: before + stepMs,
        end: after,
        startPosition: positionAt(inputs, i - 1),
        endPosition: positionAt(inputs, i),
        ...noDetails,
      });
  }
  return out;
}

/** Sub-step "ECA entry and exit": the zone changes between two samples whose zone is known. */
export function zoneCrossingEvents(inputs: EventInputs): DerivedEvent[] {
  const { targets } = inputs;
  const out: DerivedEvent[] = [];
  let previous = -1;
  for (let i = 0; i < targets.length; i++) {
    const zone = inputs.eca[i]!;
    if (zone === 255) continue;
    if (previous !== -1 && zone !== inputs.eca[previous]!) {
      const position = positionAt(inputs, i);
      out.push({
        type: zone === 1 ? 'eca-entry' : 'eca-exit',
        start: targets[i]!,
        end: targets[i]!,
        startPosition: position,
        endPosition: position,
        ...noDetails,
      });
    }
    previous = i;
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES, type EventType } from '@portal/contracts/events';
import { classifyEpisodes, transientGroup } from './classify';
import { MIN, T0 } from './test-inputs';
import type { DerivedEvent } from './types';

const event = (
  type: EventType,
  start: number,
  minutes: number,
  channel: string | null = null,
): DerivedEvent => ({
  type,
  start: T0 + start * MIN,
  end: T0 + (start + minutes) * MIN,
  ongoing: false,
  worstValue: null,
  limit: null,
  startPosition: null,
  endPosition: null,
  classification: null,
  reportRequired: false,
  channel,
  fault: null,
});
const brief = (events: DerivedEvent[]) => events.map((e) => [e.type, e.classification, e.reportRequired]);

describe('classifying episodes', () => {
  it('sorts them and classifies by duration: a malfunction from 15 minutes, a report beyond 60', () => {
    const events = classifyEpisodes(
      [event('scrubber-off', 300, 61), event('emission-exceedance', 100, 15), event('scrubber-off', 0, 5)],
      DEFAULT_EVENT_RULES,
      {},
    );
    expect(brief(events)).toEqual([
      ['scrubber-off', 'transient', false],
      ['emission-exceedance', 'malfunction', false],
      ['scrubber-off', 'malfunction', true],
    ]);
  });

  it("counts the third transient of a group within 24 h as repeated, with the ship's earlier ones", () => {
    const rules = DEFAULT_EVENT_RULES;
    const two = [event('emission-exceedance', 0, 5), event('scrubber-off', 60, 5)];
    expect(brief(classifyEpisodes([...two, event('scrubber-off', 120, 5)], rules, {})).at(-1)).toEqual([
      'scrubber-off',
      'repeated',
      true,
    ]);
    // Another group's transients do not count.
    const washwater = event('washwater-exceedance', 120, 5, 'WASHWATER_PH');
    expect(brief(classifyEpisodes([...two, washwater], rules, {})).at(-1)![1]).toBe('transient');
    const earlier = { earlierTransientStartsByGroup: { 'washwater:WASHWATER_PH': [T0, T0 + MIN] } };
    expect(
      classifyEpisodes([event('washwater-exceedance', 120, 5, 'WASHWATER_PH')], rules, earlier)[0]!
        .classification,
    ).toBe('repeated');
    expect(
      classifyEpisodes([event('scrubber-off', 120, 5)], rules, { earlierTransientStarts: [T0, T0 + MIN] })[0]!
        .classification,
    ).toBe('repeated');
  });

  it('groups the transients: the emission, each washwater criterion, open loop', () => {
    expect(transientGroup('scrubber-off', null)).toBe('emission');
    expect(transientGroup('washwater-exceedance', 'WASHWATER_PAH')).toBe('washwater:WASHWATER_PAH');
    expect(transientGroup('open-loop-in-no-discharge-zone', null)).toBe('open-loop-in-no-discharge-zone');
  });
});

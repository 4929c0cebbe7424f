import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { dataGapEvents, zoneCrossingEvents } from './gaps-and-zones';
import { fill, MIN, minutes, span, T0 } from './test-inputs';

describe('data gaps', () => {
  it('is a gap where no target exists for longer than the limit, from a step after the last to the next', () => {
    const inputs = minutes(3);
    inputs.targets = Float64Array.from([T0, T0 + 60 * MIN, T0 + 122 * MIN]);
    expect(dataGapEvents(inputs, DEFAULT_EVENT_RULES).map((e) => [e.type, ...span(e)])).toEqual([
      ['data-gap', 61, 122],
    ]);
  });
});

describe('ECA entry and exit', () => {
  it('is where the zone changes between two samples whose zone is known', () => {
    const inputs = minutes(10);
    fill(inputs.eca, 3, 5, 255);
    fill(inputs.eca, 5, 8, 1);
    expect(zoneCrossingEvents(inputs).map((e) => [e.type, ...span(e)])).toEqual([
      ['eca-entry', 5, 5],
      ['eca-exit', 8, 8],
    ]);
  });
});

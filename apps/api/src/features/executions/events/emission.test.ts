import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { emissionEpisodes } from './emission';
import { episodeEventOf } from './episodes';
import { fill, MIN, minutes, span } from './test-inputs';

const derive = (inputs: ReturnType<typeof minutes>) =>
  emissionEpisodes(inputs, DEFAULT_EVENT_RULES, episodeEventOf(inputs, MIN, false));

describe('emission episodes', () => {
  it('finds an exceedance while required and running, with its worst ratio and the limit there', () => {
    const inputs = minutes(60);
    fill(inputs.ratio, 10, 14, 25);
    fill(inputs.ratio, 12, 13, 30);
    fill(inputs.limit, 12, 13, 21);
    const [event, ...rest] = derive(inputs);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'emission-exceedance',
      worstValue: 30,
      limit: 21,
      classification: null,
    });
    expect(span(event!)).toEqual([10, 14]);
  });

  it('is no exceedance when the scrubber is not required; off while required unless on compliant fuel', () => {
    const inputs = minutes(60);
    fill(inputs.ratio, 0, 60, 25);
    fill(inputs.required, 0, 60, 0);
    fill(inputs.required, 20, 30, 1);
    fill(inputs.running, 20, 30, 0);
    expect(derive(inputs).map((e) => [e.type, ...span(e)])).toEqual([['scrubber-off', 20, 30]]);
    inputs.compliantFuel = new Uint8Array(60).fill(1);
    expect(derive(inputs)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { episodeEventOf } from './episodes';
import { fill, MIN, minutes, span } from './test-inputs';
import type { WashwaterInputs } from './types';
import { washwaterEpisodes } from './washwater';

function washwater(n: number): WashwaterInputs {
  const f = (v: number) => new Float64Array(n).fill(v);
  return {
    ph: f(7),
    phLimit: f(6.5),
    pah: f(10),
    pahLimit: f(50),
    turbidity: f(5),
    turbidityLimit: f(25),
    openLoopInZone: f(0),
  };
}

describe('washwater episodes', () => {
  const inputs = minutes(120);
  const derive = (w: WashwaterInputs, rules = DEFAULT_EVENT_RULES) =>
    washwaterEpisodes(inputs, w, rules, episodeEventOf(inputs, MIN, false)).map((e) => ({
      type: e.type,
      channel: e.channel,
      span: span(e),
      worst: e.worstValue,
      limit: e.limit,
    }));

  it('finds a pH below its limit, PAH and turbidity above theirs, and open loop in a no-discharge zone', () => {
    const w = washwater(120);
    fill(w.ph, 10, 12, 6);
    fill(w.ph, 11, 12, 5.5);
    fill(w.pah, 30, 35, 60);
    fill(w.openLoopInZone, 50, 55, 1);
    expect(derive(w)).toEqual([
      { type: 'washwater-exceedance', channel: 'WASHWATER_PH', span: [10, 12], worst: 5.5, limit: 6.5 },
      { type: 'washwater-exceedance', channel: 'WASHWATER_PAH', span: [30, 35], worst: 60, limit: 50 },
      { type: 'open-loop-in-no-discharge-zone', channel: null, span: [50, 55], worst: null, limit: null },
    ]);
  });

  it('lets the first short excursion within the allowance pass when excursions are enabled, not a second in the window', () => {
    const w = washwater(120);
    fill(w.turbidity, 10, 15, 28);
    fill(w.turbidity, 60, 65, 28);
    const rules = { ...DEFAULT_EVENT_RULES, washwaterExcursions: true };
    expect(derive(w, rules).map((e) => e.span)).toEqual([[60, 65]]);
    expect(derive(w).map((e) => e.span)).toEqual([
      [10, 15],
      [60, 65],
    ]);
  });
});

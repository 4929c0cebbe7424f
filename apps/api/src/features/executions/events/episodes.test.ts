import { describe, expect, it } from 'vitest';
import { episodeEventOf, episodes, positionAt } from './episodes';
import { fill, MIN, minutes, span } from './test-inputs';

describe('episodes', () => {
  const targets = Float64Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 20], (m) => m * MIN);
  it('are runs of counting samples; a break of at most joinSamples samples does not split one', () => {
    const counting = new Set([0, 1, 4, 5, 9]);
    expect(episodes(targets, (i) => counting.has(i), MIN, 2)).toEqual([
      { first: 0, last: 5 },
      { first: 9, last: 9 },
    ]);
    expect(episodes(targets, (i) => counting.has(i), MIN, 1)).toEqual([
      { first: 0, last: 1 },
      { first: 4, last: 5 },
      { first: 9, last: 9 },
    ]);
    expect(episodes(targets, () => false, MIN, 2)).toEqual([]);
  });

  it("make an event from the first target to a step after the last, ongoing only at the ship's last target", () => {
    const inputs = minutes(10);
    fill(inputs.latitude, 9, 10, NaN);
    const event = episodeEventOf(inputs, MIN, true)('scrubber-off', { first: 2, last: 9 });
    expect(span(event)).toEqual([2, 10]);
    expect(event).toMatchObject({
      ongoing: true,
      startPosition: { latitude: 50, longitude: -10 },
      endPosition: null,
    });
    expect(episodeEventOf(inputs, MIN, false)('scrubber-off', { first: 2, last: 9 }).ongoing).toBe(false);
    expect(episodeEventOf(inputs, MIN, true)('scrubber-off', { first: 2, last: 8 }).ongoing).toBe(false);
    expect(positionAt(inputs, 9)).toBeNull();
  });
});

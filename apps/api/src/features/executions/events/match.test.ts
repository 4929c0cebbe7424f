import { describe, expect, it } from 'vitest';
import { eventKind, matchEvents } from './match';
import { derived, stored } from './test-events';

describe('matching events', () => {
  it('pairs a derived event with the stored one of its kind it overlaps most; the rest are added or withdrawn', () => {
    const a = stored('a', derived('scrubber-off', 0, 30));
    const b = stored('b', derived('scrubber-off', 40, 100));
    const c = stored('c', derived('scrubber-off', 500, 510));
    const moved = derived('scrubber-off', 20, 90);
    const fresh = derived('scrubber-off', 300, 310);
    const { pairs, added, withdrawn } = matchEvents([a, b, c], [moved, fresh]);
    expect(pairs.map(([s, e]) => [s.id, e])).toEqual([['b', moved]]);
    expect(added).toEqual([fresh]);
    expect(withdrawn.map((s) => s.id)).toEqual(['a', 'c']);
  });

  it('pairs an instant event only with one at the same time, and never across kinds', () => {
    const entry = derived('eca-entry', 10, 10);
    const { pairs, added } = matchEvents(
      [stored('x', derived('eca-entry', 11, 11)), stored('y', derived('eca-exit', 10, 10))],
      [entry],
    );
    expect(pairs).toEqual([]);
    expect(added).toEqual([entry]);
    expect(matchEvents([stored('z', entry)], [entry]).pairs).toHaveLength(1);
    expect(eventKind({ type: 'sensor-fault', channel: 'SO2_PPM', fault: 'stale' })).toBe(
      'sensor-fault|SO2_PPM|stale',
    );
  });
});

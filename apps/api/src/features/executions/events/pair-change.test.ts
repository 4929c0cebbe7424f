import { describe, expect, it } from 'vitest';
import { pairChange } from './pair-change';
import { derived, stored } from './test-events';

describe('what changed in a matched event', () => {
  it('is nothing when the derived event is the stored one', () => {
    const e = derived('scrubber-off', 0, 30);
    expect(pairChange(stored('s', e), e)).toBeNull();
  });

  it('is an end (entry at the end, resolved) when an ongoing event ends', () => {
    const was = stored('s', derived('scrubber-off', 0, 30, { ongoing: true }));
    const change = pairChange(was, derived('scrubber-off', 0, 40))!;
    expect(change.entries.map((e) => e.kind)).toEqual(['event-ended']);
    expect(change.alerts.map((a) => a.kind)).toEqual(['resolved']);
  });

  it('is a change with what it was when it moves or is classified up, alerted when classified up', () => {
    const was = stored('s', derived('scrubber-off', 0, 10, { classification: 'transient' }), {
      acknowledged_on: new Date(),
    });
    const change = pairChange(
      was,
      derived('scrubber-off', 0, 90, { classification: 'malfunction', reportRequired: true }),
    )!;
    expect(change.alerts.map((a) => a.kind)).toEqual(['classified-up']);
    expect(change.entries).toHaveLength(1);
    expect(change.entries[0]!.body).toMatchObject({
      previous: { classification: 'transient', reportRequired: false },
      annotationsKept: true,
    });
    // Only longer, same class: written again and noted, no alert.
    const longer = pairChange(stored('t', derived('scrubber-off', 0, 30)), derived('scrubber-off', 0, 40))!;
    expect([longer.entries.length, longer.alerts.length]).toEqual([1, 0]);
  });
});

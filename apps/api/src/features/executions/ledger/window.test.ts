import { describe, expect, it } from 'vitest';
import type { PortCall } from '@portal/contracts/rules/carbon';
import { widenToCalls } from './window';

const DAY = 86_400_000;
const D0 = Date.UTC(2026, 4, 10);
const call = (arrival: number, departure: number) => ({ arrival, departure }) as PortCall;

describe('widen to the derived calls', () => {
  it('keeps the window when every call lies inside it or outside it', () => {
    const window = { from: D0, to: D0 + 3 * DAY };
    expect(widenToCalls(window, [call(D0 + 3_600_000, D0 + DAY), call(D0 - 2 * DAY, D0 - DAY)])).toEqual(
      window,
    );
  });

  it("pulls an edge a call reaches over to the call's day (its arrival's start, its departure's day end)", () => {
    const window = { from: D0, to: D0 + 3 * DAY };
    const widened = widenToCalls(window, [
      call(D0 - DAY - 5 * 3_600_000, D0 + 3_600_000),
      call(D0 + 3 * DAY - 60_000, D0 + 4 * DAY + 7 * 3_600_000),
    ]);
    expect(widened).toEqual({ from: D0 - 2 * DAY, to: D0 + 5 * DAY });
  });
});

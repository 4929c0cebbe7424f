import { describe, expect, it } from 'vitest';
import type { PortCall, PortLookup } from '@portal/contracts/rules/carbon';
import { callFactsOf } from './call-facts';

const lookup = {
  ports: [{ id: 'NLRTM', locode: 'NLRTM', name: 'Rotterdam', country: 'NL', latitude: 0, longitude: 0 }],
  portAt: () => 0,
} as unknown as PortLookup;
const call = (arrival: number, more: Partial<PortCall> = {}) =>
  ({
    portIndex: 0,
    arrival,
    departure: arrival + 5,
    gapMs: 0,
    openStart: false,
    openEnd: false,
    ...more,
  }) as PortCall;

describe('the calls to store', () => {
  it("keeps the calls arriving inside the window, with their port's key, name and country", () => {
    const { kept, facts } = callFactsOf(
      [call(5), call(10), call(20)],
      lookup,
      { from: 10, to: 20 },
      { from: 0, to: 30 },
      {
        from: 0,
        to: 30,
      },
    );
    expect(kept.map((c) => c.arrival)).toEqual([10]);
    expect(facts).toEqual([
      expect.objectContaining({
        portKey: 'NLRTM',
        locode: 'NLRTM',
        portName: 'Rotterdam',
        country: 'NL',
        arrival: 10,
      }),
    ]);
  });

  it("is open only where the ship's data begins or ends, not where the read did", () => {
    const open = call(10, { openStart: true, openEnd: true });
    const window = { from: 0, to: 100 };
    const atDataEdges = callFactsOf([open], lookup, window, { from: -5, to: 105 }, { from: -5, to: 104 })
      .facts[0]!;
    expect([atDataEdges.openStart, atDataEdges.openEnd]).toEqual([true, true]);
    const inside = callFactsOf([open], lookup, window, { from: -5, to: 105 }, { from: -10, to: 200 })
      .facts[0]!;
    expect([inside.openStart, inside.openEnd]).toEqual([false, false]);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { sensorFaultEvents } from './sensor-faults';
import { MIN, span, T0 } from './test-inputs';

describe('sensor faults', () => {
  it('is an event per flagged interval to a step after its last sample (a stale one: to the next value), ongoing at the data end', () => {
    const at = (m: number) => T0 + m * MIN;
    const events = sensorFaultEvents(
      [
        { channel: 'SO2_PPM', kind: 'out-of-range', from: at(0), to: at(4), value: 9_999 },
        { channel: 'CO2_PCT', kind: 'stale', from: at(10), to: at(30), value: 4 },
      ],
      (t) => (t === at(0) ? { latitude: 1, longitude: 2 } : null),
      DEFAULT_EVENT_RULES,
      at(30),
    );
    expect(events.map((e) => [e.channel, e.fault, ...span(e), e.ongoing, e.worstValue])).toEqual([
      ['SO2_PPM', 'out-of-range', 0, 5, false, 9_999],
      ['CO2_PCT', 'stale', 10, 30, true, 4],
    ]);
    expect(events[0]).toMatchObject({
      type: 'sensor-fault',
      startPosition: { latitude: 1 },
      classification: null,
    });
  });
});

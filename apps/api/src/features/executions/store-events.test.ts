import { describe, expect, it } from 'vitest';
import type { EventType } from '@portal/contracts/events';
import type { DerivedEvent } from './compliance-events';
import type { StoredEvent } from '../../storage';
import { matchEvents } from './store-events';

const T0 = Date.UTC(2026, 5, 1);
const MIN = 60_000;

const derived = (type: EventType, start: number, end: number, more: Partial<DerivedEvent> = {}) =>
  ({
    type,
    start: T0 + start * MIN,
    end: T0 + end * MIN,
    ongoing: false,
    worstValue: null,
    limit: null,
    startPosition: null,
    endPosition: null,
    classification: 'malfunction',
    reportRequired: false,
    channel: null,
    fault: null,
    ...more,
  }) satisfies DerivedEvent;

const stored = (id: string, e: DerivedEvent): StoredEvent => ({
  id,
  type: e.type,
  channel: e.channel,
  fault: e.fault,
  start_on: new Date(e.start),
  end_on: new Date(e.end),
  ongoing: e.ongoing,
  classification: e.classification,
  report_required: e.reportRequired,
  acknowledged_on: null,
});

describe('matchEvents', () => {
  it('pairs each washwater criterion and sensor fault with its own stored event, whatever overlaps it', () => {
    const ph = derived('washwater-exceedance', 0, 60, { channel: 'WASHWATER_PH' });
    const pah = derived('washwater-exceedance', 10, 50, { channel: 'WASHWATER_PAH' });
    const stale = derived('sensor-fault', 0, 120, { channel: 'SO2_PPM', fault: 'stale' });
    const range = derived('sensor-fault', 0, 120, { channel: 'SO2_PPM', fault: 'outOfRange' });
    const co2 = derived('sensor-fault', 0, 120, { channel: 'CO2_PCT', fault: 'stale' });
    const all = [ph, pah, stale, range, co2];
    const { pairs, added, withdrawn } = matchEvents(
      all.map((e, i) => stored(`id-${i}`, e)),
      [...all].reverse(),
    );
    expect(added).toEqual([]);
    expect(withdrawn).toEqual([]);
    expect(new Map(pairs.map(([s, e]) => [s.id, e]))).toEqual(new Map(all.map((e, i) => [`id-${i}`, e])));
  });

  it('does not pair events of another criterion, channel or fault', () => {
    const ph = derived('washwater-exceedance', 0, 60, { channel: 'WASHWATER_PH' });
    const fault = derived('sensor-fault', 0, 60, { channel: 'SO2_PPM', fault: 'stale' });
    const { pairs, added, withdrawn } = matchEvents(
      [stored('ph', ph), stored('fault', fault)],
      [
        { ...ph, channel: 'WASHWATER_TURBIDITY' },
        { ...fault, fault: 'flatLined' },
      ],
    );
    expect(pairs).toEqual([]);
    expect(added).toHaveLength(2);
    expect(withdrawn.map((w) => w.id)).toEqual(['ph', 'fault']);
  });
});

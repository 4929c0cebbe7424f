import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { ENGINE_NAME, engineEntry, eventColumns, withdrawnEntry } from './record-entries';
import { derived, stored } from './test-events';
import { T0 } from './test-inputs';

describe("the engine's record book entries and event rows", () => {
  it('describe the event at its start with its position, or at its end with the end position', () => {
    const e = derived('scrubber-off', 0, 90, { classification: 'malfunction', reportRequired: true });
    const entry = engineEntry('event', e, 'id-1', { extra: 1 });
    expect(entry).toMatchObject({
      kind: 'event',
      occurredOn: new Date(T0),
      recordedBy: null,
      recordedByName: ENGINE_NAME,
      latitude: 1,
      longitude: 2,
      eventId: 'id-1',
      body: {
        type: 'scrubber-off',
        start: new Date(T0).toISOString(),
        durationMinutes: 90,
        classification: 'malfunction',
        reportRequired: true,
        extra: 1,
      },
    });
    expect(engineEntry('event-ended', e, 'id-1', {}, e.end)).toMatchObject({ latitude: 3, longitude: 4 });
    expect(engineEntry('event', { ...e, ongoing: true }, 'id-1', {}).body.end).toBeNull();
  });

  it('say why a stored event is withdrawn', () => {
    const w = withdrawnEntry(stored('gone', derived('scrubber-off', 0, 30)));
    expect(w).toMatchObject({ kind: 'event-withdrawn', eventId: 'gone', latitude: null });
    expect(w.body.reason).toBe('The data it was derived from changed or was deleted');
  });

  it('store an event as its row, with the rules in force', () => {
    const columns = eventColumns(
      derived('sensor-fault', 0, 5, { channel: 'SO2_PPM', fault: 'stale' }),
      DEFAULT_EVENT_RULES,
    );
    expect(columns).toMatchObject({
      type: 'sensor-fault',
      start_on: new Date(T0),
      start_latitude: 1,
      end_longitude: 4,
      channel: 'SO2_PPM',
      fault: 'stale',
    });
    expect(JSON.parse(columns.rules as string)).toEqual(DEFAULT_EVENT_RULES);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES, type EventType } from '@portal/contracts/events';
import { engineGround } from '../../../test/engine-fixtures';
import type { DerivedEvent } from './compliance-events';
import { readRecordBook, readStoredEvents, type StoredEvent } from '../../storage';
import { ENGINE_NAME, matchEvents, storeComplianceEvents, withdrawEvents } from './store-events';
import { NO_ALERTS } from './ports';

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

describe('store events step', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  const window = { windowFrom: T0, windowTo: T0 + 24 * 60 * MIN, rules: DEFAULT_EVENT_RULES };
  const store = (events: DerivedEvent[]) =>
    ground.database.db
      .transaction()
      .execute((trx) => storeComplianceEvents(trx, ground.facilityId, { ...window, events }, NO_ALERTS));
  const events = () =>
    readStoredEvents(ground.database.db, ground.facilityId, window.windowFrom, window.windowTo);
  const book = async () => (await readRecordBook(ground.database.db, ground.facilityId)).map((e) => e.kind);

  it('stores new events with a record book entry each; a rerun of the same events writes nothing', async () => {
    const off = derived('scrubber-off', 60, 90);
    const gap = derived('data-gap', 300, 400, { classification: null });
    expect(await store([off, gap])).toBe(2);
    const stored = await events();
    expect(stored.map((e) => [e.type, e.start_on.getTime()])).toEqual([
      ['scrubber-off', off.start],
      ['data-gap', gap.start],
    ]);
    const entries = await readRecordBook(ground.database.db, ground.facilityId);
    expect(entries.map((e) => [e.kind, e.eventId, e.recordedByName])).toEqual([
      ['event', stored[0]!.id, ENGINE_NAME],
      ['event', stored[1]!.id, ENGINE_NAME],
    ]);

    expect(await store([gap, off])).toBe(2);
    expect((await events()).map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(await book()).toEqual(['event', 'event']);
  });

  it('keeps the id of an event whose end and class change, and notes the change; withdraws what is no longer derived', async () => {
    const before = await events();
    const longer = derived('scrubber-off', 60, 150, { classification: 'malfunction', reportRequired: true });
    expect(await store([longer])).toBe(1);
    const [changed, ...rest] = await events();
    expect(rest).toEqual([]);
    expect(changed).toMatchObject({
      id: before[0]!.id,
      classification: 'malfunction',
      report_required: true,
    });
    // In the order they happened: the change at the stop's start, the gap's withdrawal at its own.
    expect(await book()).toEqual(['event', 'event', 'event-changed', 'event-withdrawn']);

    expect(
      await ground.database.db
        .transaction()
        .execute((trx) => withdrawEvents(trx, ground.facilityId, T0, T0 + 24 * 60 * MIN)),
    ).toBe(0);
    expect(await events()).toEqual([]);
    expect((await book()).slice(-1)).toEqual(['event-withdrawn']);
  });
});

import { describe, expect, it } from 'vitest';
import type { RecordBookEntryView } from '@portal/contracts/events';
import {
  classificationChip,
  closeBlockedReason,
  correctionsOf,
  draftAfterAnswer,
  durationText,
  eventBands,
  washwaterBands,
  eventDurationText,
  eventEndText,
  eventFilterSearch,
  eventListRequest,
  eventTimeline,
  mayCloseEvents,
  ordinal,
  NO_EVENT_FILTER,
  openEventsSummary,
  parseEventFilter,
  positionText,
  reportChip,
  shipEventBadge,
  stateChip,
  worstValueText,
} from './display';

describe('durations and ends', () => {
  it('reads as minutes, hours and minutes, or days and hours', () => {
    expect([0, 8, 60, 125, 637, 1440, 4620].map(durationText)).toEqual([
      '0 min',
      '8 min',
      '1 h',
      '2 h 5 min',
      '10 h 37 min',
      '1 d',
      '3 d 5 h',
    ]);
  });

  it('has no duration for an ECA crossing, and says "so far" while an event lasts', () => {
    expect(eventDurationText({ type: 'eca-entry', ongoing: false, durationMinutes: 0 })).toBe('–');
    expect(eventDurationText({ type: 'scrubber-off', ongoing: true, durationMinutes: 637 })).toBe(
      '10 h 37 min so far',
    );
    expect(eventEndText({ end: null, ongoing: true })).toBe('Still going on');
    expect(eventEndText({ end: '2026-11-23T22:16:00.000Z', ongoing: false })).toBe('2026.11.23 22:16');
  });
});

describe('chips', () => {
  it('shows an open malfunction in warning, a transient or ECA crossing as recorded, and the later states calmer', () => {
    expect(stateChip({ state: 'open', type: 'scrubber-off', classification: 'malfunction' })).toMatchObject({
      label: 'Open',
      colour: 'warning',
    });
    expect(stateChip({ state: 'open', type: 'data-gap', classification: null })).toMatchObject({
      label: 'Open',
    });
    expect(stateChip({ state: 'open', type: 'eca-exit', classification: null })).toMatchObject({
      label: 'Recorded',
      colour: 'default',
    });
    expect(
      stateChip({ state: 'open', type: 'emission-exceedance', classification: 'transient' }),
    ).toMatchObject({
      label: 'Recorded',
    });
    expect(
      stateChip({ state: 'acknowledged', type: 'scrubber-off', classification: 'malfunction' }),
    ).toMatchObject({
      label: 'Acknowledged',
      colour: 'info',
    });
    expect(stateChip({ state: 'closed', type: 'scrubber-off', classification: 'transient' })).toMatchObject({
      label: 'Closed',
    });
  });

  it('marks malfunctions and repeated transients red, transients plainly, informational events not at all', () => {
    expect(classificationChip('malfunction')).toMatchObject({ label: 'Malfunction', colour: 'error' });
    expect(classificationChip('repeated')).toMatchObject({ label: 'Repeated', colour: 'error' });
    expect(classificationChip('transient')).toMatchObject({ label: 'Transient', colour: 'default' });
    expect(classificationChip(null)).toBeNull();
  });

  it('shows a report that is due until it is sent', () => {
    expect(reportChip({ reportRequired: false, reportSentOn: null })).toBeNull();
    expect(reportChip({ reportRequired: true, reportSentOn: null })).toMatchObject({
      label: 'Report required',
      colour: 'error',
    });
    expect(reportChip({ reportRequired: true, reportSentOn: '2026-11-24' })).toMatchObject({
      label: 'Report sent',
    });
  });
});

describe('facts', () => {
  it('writes positions with their hemispheres and the worst value with its measure, limit and unit', () => {
    expect(positionText({ latitude: 53.93656, longitude: -9.33854 })).toBe('53.9366° N, 9.3385° W');
    expect(positionText(null)).toBe('Not known');
    const none = { channel: null, fault: null };
    expect(worstValueText({ type: 'emission-exceedance', ...none, worstValue: 5.508474, limit: 4.3 })).toBe(
      'SO2/CO2 ratio 5.51 (limit 4.30)',
    );
    // A washwater pH event is not an SO2/CO2 ratio: its pH against the minimum.
    expect(
      worstValueText({
        type: 'washwater-exceedance',
        channel: 'WASHWATER_PH',
        fault: null,
        worstValue: 6,
        limit: 6.5,
      }),
    ).toBe('pH 6.00 (minimum 6.50)');
    expect(
      worstValueText({
        type: 'washwater-exceedance',
        channel: 'WASHWATER_TURBIDITY',
        fault: null,
        worstValue: 31.04,
        limit: 25,
      }),
    ).toBe('Turbidity above inlet 31.0 NTU, 15-min average (limit 25.0 NTU)');
    expect(worstValueText({ type: 'scrubber-off', ...none, worstValue: null, limit: null })).toBe('–');
  });

  it('counts in words as the rules are read', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
    ]);
  });

  it('lets administrators close an ended event only', () => {
    expect(mayCloseEvents(['User'])).toBe(false);
    expect(mayCloseEvents(['UserAdmin'])).toBe(true);
    expect(closeBlockedReason({ state: 'acknowledged', ongoing: false })).toBeNull();
    expect(closeBlockedReason({ state: 'open', ongoing: true })).toMatch(/still going on/);
    expect(closeBlockedReason({ state: 'closed', ongoing: false })).toBe('The event is closed');
  });
});

describe('the list filter', () => {
  it('comes from and goes back to the address, dropping unknown values', () => {
    const search = new URLSearchParams(
      'type=scrubber-off&type=bogus&state=open&state=acknowledged&classification=malfunction&ship=s1&period=app&report=required',
    );
    const filter = parseEventFilter(search);
    expect(filter).toEqual({
      types: ['scrubber-off'],
      classifications: ['malfunction'],
      states: ['open', 'acknowledged'],
      facilityId: 's1',
      period: 'period',
      reportRequired: true,
    });
    expect(eventFilterSearch(filter).toString()).toBe(
      'type=scrubber-off&classification=malfunction&state=open&state=acknowledged&ship=s1&period=app&report=required',
    );
    // A ship's tab fixes the ship: it is not repeated in the address.
    expect(parseEventFilter(new URLSearchParams(''), 's2')).toEqual({ ...NO_EVENT_FILTER, facilityId: 's2' });
    expect(eventFilterSearch({ ...NO_EVENT_FILTER, facilityId: 's2' }, 's2').toString()).toBe('');
  });

  it('asks for the page of the table, of all time unless the app period is chosen', () => {
    const period = { from: new Date('2026-10-25T00:00:00Z'), to: new Date('2026-11-24T00:00:00Z') };
    expect(eventListRequest(NO_EVENT_FILTER, period, 2, 25)).toEqual({ limit: 25, offset: 50 });
    expect(eventListRequest({ ...NO_EVENT_FILTER, period: 'period' }, period, 2, 25)).toEqual({
      from: '2026-10-25T00:00:00.000Z',
      to: '2026-11-24T00:00:00.000Z',
      limit: 25,
      offset: 50,
    });
    expect(
      eventListRequest(
        {
          ...NO_EVENT_FILTER,
          types: ['data-gap'],
          states: ['open'],
          facilityId: 's1',
          reportRequired: true,
        },
        period,
        0,
        25,
      ),
    ).toEqual({
      facilityId: 's1',
      type: ['data-gap'],
      state: ['open'],
      reportRequired: 'true',
      limit: 25,
      offset: 0,
    });
  });
});

describe('the fleet card and the ship badges', () => {
  it('counts the open events by type, non-compliance first', () => {
    expect(
      openEventsSummary({ openByType: { 'eca-entry': 4, 'scrubber-off': 2, 'data-gap': 0 }, reportsDue: 1 }),
    ).toEqual({
      total: 6,
      reportsDue: 1,
      byType: [
        { type: 'scrubber-off', name: 'Scrubber off while required', count: 2 },
        { type: 'eca-entry', name: 'ECA entry', count: 4 },
      ],
    });
  });

  it('badges a ship with its reports due first, then its malfunctions, then its other open events', () => {
    expect(shipEventBadge(undefined)).toBeNull();
    expect(shipEventBadge({ open: 0, malfunctions: 0, reportsDue: 0 })).toBeNull();
    expect(shipEventBadge({ open: 5, malfunctions: 2, reportsDue: 1 })).toMatchObject({
      label: '1 report due',
      colour: 'error',
    });
    expect(shipEventBadge({ open: 5, malfunctions: 2, reportsDue: 0 })).toMatchObject({
      label: '2 open malfunctions',
      colour: 'warning',
    });
    expect(shipEventBadge({ open: 1, malfunctions: 0, reportsDue: 0 })).toMatchObject({
      label: '1 open event',
      colour: 'default',
    });
  });
});

describe('bands and the timeline', () => {
  it('draws exceedances, stops and gaps as bands; an ongoing one up to its latest data; ECA crossings not', () => {
    expect(
      eventBands([
        {
          type: 'emission-exceedance',
          start: '2026-11-01T00:00:00.000Z',
          end: '2026-11-01T00:20:00.000Z',
          durationMinutes: 20,
        },
        { type: 'scrubber-off', start: '2026-11-02T00:00:00.000Z', end: null, durationMinutes: 90 },
        {
          type: 'eca-entry',
          start: '2026-11-03T00:00:00.000Z',
          end: '2026-11-03T00:00:00.000Z',
          durationMinutes: 0,
        },
        {
          type: 'data-gap',
          start: '2026-11-04T00:00:00.000Z',
          end: '2026-11-04T02:00:00.000Z',
          durationMinutes: 120,
        },
      ]).map((b) => [b.kind, b.from.slice(0, 16), b.to.slice(0, 16)]),
    ).toEqual([
      ['exceedance', '2026-11-01T00:00', '2026-11-01T00:20'],
      ['off', '2026-11-02T00:00', '2026-11-02T01:30'],
      ['gap', '2026-11-04T00:00', '2026-11-04T02:00'],
    ]);
  });

  const entry = (sequence: number, eventId: string | null, correctsId: string | null = null) =>
    ({ id: `e${sequence}`, sequence, eventId, correctsId }) as RecordBookEntryView;

  const stop = {
    id: 'a',
    type: 'scrubber-off' as const,
    start: '2026-11-02T20:00:00.000Z',
    end: '2026-11-03T00:00:00.000Z',
  };
  const changeOver = (sequence: number, occurredOn: string, fuelSulfurPct: number | null = 0.08) =>
    ({ ...entry(sequence, null), occurredOn, fuelSulfurPct }) as RecordBookEntryView;

  it("keeps an event's own entries in the book's order, and finds the corrections of an entry", () => {
    const book = [entry(3, 'a'), entry(1, 'a'), entry(2, 'b'), entry(4, null, 'e2'), entry(5, null, 'e2')];
    expect(eventTimeline(book, stop).map((e) => e.sequence)).toEqual([1, 3]);
    expect(correctionsOf(book)).toEqual(new Map([['e2', [4, 5]]]));
  });

  it("shows a scrubber stop the fuel change-overs recorded while it lasted, not corrected ones nor other events'", () => {
    const book = [
      entry(1, 'a'),
      changeOver(2, '2026-11-02T23:59:30.000Z'),
      changeOver(3, '2026-11-02T12:00:00.000Z'),
      { ...changeOver(4, '2026-11-02T22:00:00.000Z'), id: 'corrected' } as RecordBookEntryView,
      { ...entry(5, null, 'corrected'), fuelSulfurPct: null } as RecordBookEntryView,
      changeOver(6, '2026-11-02T21:00:00.000Z', null),
    ];
    expect(eventTimeline(book, stop).map((e) => e.sequence)).toEqual([1, 2]);
    expect(eventTimeline(book, { ...stop, type: 'emission-exceedance' }).map((e) => e.sequence)).toEqual([1]);
    expect(eventTimeline(book, { ...stop, end: null }).map((e) => e.sequence)).toEqual([1, 2]);
  });
});

describe('the report draft', () => {
  const before = { cause: '', actionsTaken: '' };
  const saved = { cause: 'Sensor', actionsTaken: 'Analyser purged' };
  it('takes a newly saved draft unless the user has edited the form', () => {
    expect(draftAfterAnswer(null, null, saved)).toBe(saved);
    expect(draftAfterAnswer({ ...before }, before, saved)).toBe(saved);
    const edited = { cause: '', actionsTaken: 'Typed by the user' };
    expect(draftAfterAnswer(edited, before, saved)).toBe(edited);
  });
});

describe('washwaterBands', () => {
  const event = (type: string, channel: string | null, start = '2026-03-01T10:00:00.000Z') =>
    ({ type, start, end: '2026-03-01T11:00:00.000Z', durationMinutes: 60, channel }) as Parameters<
      typeof washwaterBands
    >[0][number];

  it('draws an exceedance on its criterion, open loop in a zone on all three, and nothing else', () => {
    const bands = washwaterBands([
      event('washwater-exceedance', 'WASHWATER_PAH'),
      event('open-loop-in-no-discharge-zone', null),
      event('emission-exceedance', null),
      event('washwater-exceedance', null),
    ]);
    expect(bands.map((b) => [b.kind, b.panels])).toEqual([
      ['exceedance', ['pah']],
      ['no-discharge-zone', ['ph', 'pah', 'turbidity']],
    ]);
    expect(bands[0]).toMatchObject({
      from: '2026-03-01T10:00:00.000Z',
      to: '2026-03-01T11:00:00.000Z',
      label: 'Washwater exceedance',
    });
  });

  it('gives an ongoing event its duration so far', () => {
    const [band] = washwaterBands([
      {
        type: 'washwater-exceedance',
        start: '2026-03-01T10:00:00.000Z',
        end: null,
        durationMinutes: 30,
        channel: 'WASHWATER_PH',
      },
    ]);
    expect(band).toMatchObject({ to: '2026-03-01T10:30:00.000Z', panels: ['ph'] });
  });
});

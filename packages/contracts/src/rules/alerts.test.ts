import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES, DEFAULT_ALERT_SETTINGS, alertSettingsSchema, type AlertSnapshot } from '../alerts';
import {
  alertBellText,
  alertBellTitle,
  alertDurationText,
  alertFacts,
  alertLevel,
  alertSubject,
  alertText,
  deliveryFailureText,
  eventLink,
  messageTextParts,
  quietHoursEnd,
  subscriptionTakesShip,
  subscriptionWants,
} from './alerts';

const snapshot: AlertSnapshot = {
  facilityId: 'f1',
  facilityName: 'Baltic Tern',
  eventId: 'e1',
  type: 'emission-exceedance',
  typeName: 'Emission exceedance',
  classification: 'malfunction',
  reportRequired: true,
  start: '2025-05-06T08:15:00.000Z',
  end: '2025-05-06T09:45:00.000Z',
  durationMinutes: 90,
  worstValue: 5.514,
  limit: 4.3,
  channel: null,
  fault: null,
};

describe('alert levels and subscriptions', () => {
  it('orders transient < malfunction/repeated < report required; unclassified types are 0', () => {
    expect(alertLevel({ classification: null, reportRequired: false })).toBe(0);
    expect(alertLevel({ classification: 'transient', reportRequired: false })).toBe(1);
    expect(alertLevel({ classification: 'malfunction', reportRequired: false })).toBe(2);
    expect(alertLevel({ classification: 'repeated', reportRequired: false })).toBe(2);
    expect(alertLevel({ classification: 'repeated', reportRequired: true })).toBe(3);
  });

  it('the default wants malfunctions and reports due of the emission types, not transients or data gaps', () => {
    const wants = (type: string, classification: string | null, reportRequired = false) =>
      subscriptionWants(DEFAULT_ALERT_SETTINGS, { type, classification, reportRequired });
    expect(wants('scrubber-off', 'malfunction')).toBe(true);
    expect(wants('emission-exceedance', 'repeated', true)).toBe(true);
    expect(wants('emission-exceedance', 'transient')).toBe(false);
    expect(wants('data-gap', null)).toBe(false);
    const reportsOnly = { ...DEFAULT_ALERT_SETTINGS, classifications: ['report-required' as const] };
    expect(
      subscriptionWants(reportsOnly, {
        type: 'scrubber-off',
        classification: 'malfunction',
        reportRequired: false,
      }),
    ).toBe(false);
    expect(
      subscriptionWants(reportsOnly, {
        type: 'scrubber-off',
        classification: 'malfunction',
        reportRequired: true,
      }),
    ).toBe(true);
    const gaps = { ...DEFAULT_ALERT_SETTINGS, eventTypes: ['data-gap' as const], classifications: [] };
    expect(subscriptionWants(gaps, { type: 'data-gap', classification: null, reportRequired: false })).toBe(
      true,
    );
  });

  it('takes all ships, a selection, or the ships of organizations (owner or shared)', () => {
    const ship = { facilityId: 's1', organizationIds: ['owner', 'partner'] };
    expect(subscriptionTakesShip({ ships: { mode: 'all' } }, ship)).toBe(true);
    expect(subscriptionTakesShip({ ships: { mode: 'selected', facilityIds: ['s2'] } }, ship)).toBe(false);
    expect(subscriptionTakesShip({ ships: { mode: 'selected', facilityIds: ['s1'] } }, ship)).toBe(true);
    expect(
      subscriptionTakesShip({ ships: { mode: 'organizations', organizationIds: ['partner'] } }, ship),
    ).toBe(true);
    expect(
      subscriptionTakesShip({ ships: { mode: 'organizations', organizationIds: ['other'] } }, ship),
    ).toBe(false);
  });

  it('refuses settings that would alert nothing of the emission types, with the form texts', () => {
    const issues = (value: unknown) =>
      alertSettingsSchema.safeParse(value).error?.issues.map((i) => i.message);
    expect(issues({ ...DEFAULT_ALERT_SETTINGS, eventTypes: [] })).toEqual(['Choose at least one event type']);
    expect(issues({ ...DEFAULT_ALERT_SETTINGS, classifications: [] })).toEqual([
      'Choose at least one classification for emission exceedances and scrubber stops',
    ]);
    expect(
      issues({ ...DEFAULT_ALERT_SETTINGS, eventTypes: ['data-gap'], classifications: [] }),
    ).toBeUndefined();
    expect(issues({ ...DEFAULT_ALERT_SETTINGS, ships: { mode: 'selected', facilityIds: [] } })).toEqual([
      'Choose at least one ship',
    ]);
  });
});

describe('what an alert says', () => {
  it('names the ship, the event, its start, duration, value and limit, and links to the event', () => {
    expect(alertSubject('opened', snapshot)).toBe(
      'Baltic Tern: Emission exceedance (malfunction, report required)',
    );
    expect(alertSubject('classified-up', snapshot)).toBe(
      'Baltic Tern: Emission exceedance is now malfunction, report required',
    );
    expect(alertSubject('resolved', snapshot)).toBe('Baltic Tern: Emission exceedance ended');
    expect(alertFacts(snapshot)).toEqual([
      ['Ship', 'Baltic Tern'],
      ['Event', 'Emission exceedance'],
      ['Classification', 'Malfunction, report required'],
      ['Start', '2025.05.06 08:15 UTC'],
      ['Duration', '1 h 30 min'],
      ['End', '2025.05.06 09:45 UTC'],
      ['Value', 'SO2/CO2 ratio 5.51 (limit 4.30)'],
    ]);
    // A washwater pH exceedance: its criterion, the minimum and the unit (was "Washwater exceedance (WASHWATER_PH)"
    // and "6.00 (limit 6.50)").
    const ph = alertFacts({
      ...snapshot,
      type: 'washwater-exceedance',
      typeName: 'Washwater exceedance',
      channel: 'WASHWATER_PH',
      worstValue: 6,
      limit: 6.5,
    });
    expect(ph[1]).toEqual(['Event', 'Washwater exceedance (pH below its minimum)']);
    expect(ph.at(-1)).toEqual(['Value', 'pH 6.00 (minimum 6.50)']);
    const fault = alertFacts({
      ...snapshot,
      type: 'sensor-fault',
      typeName: 'Sensor fault',
      classification: null,
      channel: 'SO2_PPM',
      fault: 'flatLined',
      worstValue: 21,
      limit: null,
    });
    expect(fault[1]).toEqual(['Event', 'Sensor fault (SO2 flat-lined)']);
    expect(fault.at(-1)).toEqual(['Value', 'SO2 21.0 ppm (flat-lined)']);
    const text = alertText('opened', { ...snapshot, end: null }, eventLink('https://portal.example/', 'e1'));
    expect(text).toContain('A new event is going on.');
    expect(text).toContain('Duration: 1 h 30 min so far');
    expect(text).toContain('End: Still going on');
    expect(text.endsWith('Open the event: https://portal.example/events/e1')).toBe(true);
    const eca = alertFacts({
      ...snapshot,
      type: 'eca-entry',
      typeName: 'ECA entry',
      classification: null,
      reportRequired: false,
      worstValue: null,
      limit: null,
    });
    expect(eca.map(([k]) => k)).toEqual(['Ship', 'Event', 'Start', 'Value']);
    expect(alertDurationText(3 * 1440 + 65)).toBe('3 d 1 h');
    expect(deliveryFailureText({ address: 'x@y.test', error: '550 rejected' })).toBe(
      'Alerts to x@y.test could not be delivered: 550 rejected',
    );
  });

  it('says in the bell a short title, the ship, the value with its unit and the link, not the e-mail', () => {
    const link = eventLink('https://portal.example', 'e1');
    const ph = {
      ...snapshot,
      type: 'washwater-exceedance' as const,
      typeName: 'Washwater exceedance',
      channel: 'WASHWATER_PH',
      worstValue: 6,
      limit: 6.5,
    };
    expect(alertBellTitle('opened', ph)).toBe('Washwater exceedance (pH below its minimum)');
    expect(alertBellText('opened', ph, link)).toBe(
      [
        'Baltic Tern',
        'pH 6.00 (minimum 6.50)',
        'Malfunction, report required · 1 h 30 min',
        'https://portal.example/events/e1',
      ].join('\n'),
    );
    expect(alertBellTitle('classified-up', snapshot)).toBe(
      'Emission exceedance: now malfunction, report required',
    );
    expect(alertBellTitle('resolved', snapshot)).toBe('Emission exceedance ended');
    expect(alertBellTitle('reminder', snapshot)).toBe('Reminder: Emission exceedance is not acknowledged');
    expect(alertBellText('reminder', { ...snapshot, end: null, waitedHours: 4 }, link).split('\n')).toEqual([
      'Baltic Tern',
      'SO2/CO2 ratio 5.51 (limit 4.30)',
      'Malfunction, report required · 1 h 30 min so far · not acknowledged for 4 h',
      'https://portal.example/events/e1',
    ]);
    // No value, no classification, no duration: an ECA entry is the ship and the link.
    const eca = {
      ...snapshot,
      type: 'eca-entry' as const,
      classification: null,
      worstValue: null,
      limit: null,
    };
    expect(alertBellText('opened', eca, link)).toBe('Baltic Tern\nhttps://portal.example/events/e1');
    // The bell shows the link alone on its line as "Open the event".
    expect(messageTextParts(alertBellText('opened', ph, link), 'https://portal.example').at(-1)).toEqual({
      text: 'https://portal.example/events/e1',
      path: '/events/e1',
      label: 'Open the event',
    });
  });

  it("links only the portal's own addresses in a message's text", () => {
    expect(
      messageTextParts(
        'See https://portal.example/events/abc-1 or https://evil.example/x.',
        'https://portal.example',
      ),
    ).toEqual([
      { text: 'See ' },
      { text: 'https://portal.example/events/abc-1', path: '/events/abc-1' },
      { text: ' or https://evil.example/x.' },
    ]);
    expect(messageTextParts('No link', 'https://portal.example')).toEqual([{ text: 'No link' }]);
  });
});

describe('quiet hours', () => {
  const at = (iso: string) => Date.parse(iso);
  const end = (quiet: Parameters<typeof quietHoursEnd>[0], now: string) => {
    const ms = quietHoursEnd(quiet, at(now));
    return ms === null ? null : new Date(ms).toISOString();
  };
  const night = { from: '22:00', to: '06:00', timeZone: 'Europe/Oslo' };

  it('hold an e-mail across midnight until the morning, on the clock of their time zone', () => {
    // Oslo is UTC+1 in winter: 22:30 there is 21:30 UTC; the morning's 06:00 is 05:00 UTC.
    expect(end(night, '2026-11-23T21:30:00Z')).toBe('2026-11-24T05:00:00.000Z');
    expect(end(night, '2026-11-24T03:00:00Z')).toBe('2026-11-24T05:00:00.000Z');
    expect(end(night, '2026-11-24T05:00:00Z')).toBeNull();
    expect(end(night, '2026-11-24T12:00:00Z')).toBeNull();
    // In summer (UTC+2) the same clock times are an hour earlier in UTC.
    expect(end(night, '2026-07-01T20:30:00Z')).toBe('2026-07-02T04:00:00.000Z');
  });

  it('hold within one day when they end after they start, and across a change to summer time', () => {
    const lunch = { from: '12:00', to: '13:30', timeZone: 'Asia/Singapore' };
    expect(end(lunch, '2026-11-24T04:15:00Z')).toBe('2026-11-24T05:30:00.000Z');
    expect(end(lunch, '2026-11-24T05:30:00Z')).toBeNull();
    // Oslo moves to summer time at 01:00 UTC on 2026-03-29: the night that starts at 22:00 UTC+1 ends at 06:00 UTC+2.
    expect(end(night, '2026-03-28T21:30:00Z')).toBe('2026-03-29T04:00:00.000Z');
  });

  it('hold nothing without quiet hours, and are refused with an unknown time zone or an empty window', () => {
    expect(quietHoursEnd(null, at('2026-11-24T03:00:00Z'))).toBeNull();
    expect(quietHoursEnd(undefined, at('2026-11-24T03:00:00Z'))).toBeNull();
    const problems = (quietHours: unknown) =>
      alertSettingsSchema
        .safeParse({ ...DEFAULT_ALERT_SETTINGS, quietHours })
        .error?.issues.map((i) => i.message);
    expect(problems(night)).toBeUndefined();
    expect(problems({ ...night, timeZone: 'Mars/Olympus' })).toEqual([ALERT_MESSAGES.timeZone]);
    expect(problems({ ...night, from: '24:00' })).toEqual([ALERT_MESSAGES.quietFrom]);
    expect(problems({ ...night, to: '22:00' })).toEqual([ALERT_MESSAGES.quietSame]);
  });
});

import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventType } from '../events';
import {
  describeEvent,
  eventInstrumentText,
  eventTitle,
  eventValueText,
  eventValueUnit,
  worstReadingLabel,
  eventChart,
} from './event-description';

type Event = Parameters<typeof eventInstrumentText>[0];
const event = (type: EventType, over: Partial<Event> = {}): Event => ({
  type,
  channel: null,
  fault: null,
  worstValue: null,
  limit: null,
  classification: null,
  ...over,
});

describe('the description of each event type and criterion', () => {
  it('an SO2/CO2 exceedance: the ratio, no unit after the number, its limit a maximum', () => {
    const e = event('emission-exceedance', { worstValue: 5.204, limit: 4.3, classification: 'malfunction' });
    expect(describeEvent(e).measure).toMatchObject({ name: 'SO2/CO2 ratio', limitIs: 'maximum' });
    expect(eventTitle(e)).toBe('Emission exceedance');
    expect(eventValueText(e)).toBe('SO2/CO2 ratio 5.20 (limit 4.30)');
    expect(eventValueUnit(e)).toBe('SO2 (ppm)/CO2 (% v/v)');
    expect(worstReadingLabel(e)).toBe('Highest reading');
    expect(eventInstrumentText(e)).toBe(
      'SO2/CO2 emission monitoring at the scrubber outlet (SO2 in ppm, CO2 in % v/v). Emission exceedance, ' +
        'malfunction. Highest reading: SO2/CO2 ratio 5.20 (limit 4.30).',
    );
  });

  it('scrubber off while required: the scrubber state, no value', () => {
    const e = event('scrubber-off', { classification: 'malfunction' });
    expect(describeEvent(e).measure).toBeNull();
    expect(eventValueText(e)).toBe('–');
    expect(eventValueUnit(e)).toBeNull();
    expect(eventInstrumentText(e)).toBe(
      'Scrubber operating state (the scrubber running signal), while the fuel in use required the scrubber. ' +
        'Scrubber off while required, malfunction.',
    );
  });

  it('washwater pH: the discharge pH, below its minimum, in pH', () => {
    const e = event('washwater-exceedance', {
      channel: 'WASHWATER_PH',
      worstValue: 6,
      limit: 6.5,
      classification: 'malfunction',
    });
    expect(describeEvent(e).measure).toMatchObject({ name: 'pH', unit: 'pH', limitIs: 'minimum' });
    expect(eventTitle(e)).toBe('Washwater exceedance (pH below its minimum)');
    expect(eventValueText(e)).toBe('pH 6.00 (minimum 6.50)');
    expect(eventValueUnit(e)).toBe('pH');
    expect(worstReadingLabel(e)).toBe('Lowest reading');
    expect(eventInstrumentText(e)).toBe(
      'Washwater pH monitoring at the overboard discharge. Washwater exceedance (pH below its minimum), ' +
        'malfunction. Lowest reading: pH 6.00 (minimum 6.50).',
    );
    // Two decimals: 6.47 against 6.50 never reads "6.5 (minimum 6.5)".
    expect(eventValueText({ ...e, worstValue: 6.47 })).toBe('pH 6.47 (minimum 6.50)');
  });

  it('washwater PAH: above the inlet, µg/L, its limit a maximum', () => {
    const e = event('washwater-exceedance', { channel: 'WASHWATER_PAH', worstValue: 123.456, limit: 50 });
    expect(eventTitle(e)).toBe('Washwater exceedance (PAH above its limit)');
    expect(eventValueText(e)).toBe('PAH above inlet 123.5 µg/L (limit 50.0 µg/L)');
    expect(eventValueUnit(e)).toBe('µg/L');
    expect(eventInstrumentText(e)).toContain('Washwater PAH (phenanthrene equivalent) monitoring');
    expect(eventInstrumentText(e)).toContain(
      'Highest reading: PAH above inlet 123.5 µg/L (limit 50.0 µg/L).',
    );
  });

  it('washwater turbidity: above the inlet as a 15-minute average, NTU, its limit a maximum', () => {
    const e = event('washwater-exceedance', { channel: 'WASHWATER_TURBIDITY', worstValue: 31.04, limit: 25 });
    expect(eventTitle(e)).toBe('Washwater exceedance (turbidity above its limit)');
    expect(eventValueText(e)).toBe('Turbidity above inlet 31.0 NTU, 15-min average (limit 25.0 NTU)');
    expect(eventValueUnit(e)).toBe('NTU');
    expect(eventInstrumentText(e)).toContain('15-minute rolling average');
    expect(eventInstrumentText(e)).toContain('FNU/NTU');
  });

  it('open loop in a no-discharge zone, a data gap, ECA entry and exit: no value', () => {
    for (const type of ['open-loop-in-no-discharge-zone', 'data-gap', 'eca-entry', 'eca-exit'] as const) {
      const e = event(type);
      expect(describeEvent(e).measure).toBeNull();
      expect(eventValueText(e)).toBe('–');
      expect(eventValueUnit(e)).toBeNull();
    }
    expect(
      eventInstrumentText(event('open-loop-in-no-discharge-zone', { classification: 'transient' })),
    ).toBe(
      'Scrubber mode (open loop) and washwater flow, against the no-discharge zones at the GNSS position. ' +
        'Open loop in a no-discharge zone, transient.',
    );
    expect(eventInstrumentText(event('data-gap'))).toBe(
      'Data logger of the monitoring system (no data recorded). Data gap.',
    );
    expect(eventInstrumentText(event('eca-entry'))).toBe(
      'GNSS position against the emission control areas. ECA entry.',
    );
  });

  it('a sensor fault: the channel and the kind of fault, the value in the channel’s unit', () => {
    const stuck = event('sensor-fault', { channel: 'SO2_PPM', fault: 'flatLined', worstValue: 21 });
    expect(eventTitle(stuck)).toBe('Sensor fault (SO2 flat-lined)');
    expect(eventValueText(stuck)).toBe('SO2 21.0 ppm (flat-lined)');
    expect(eventValueUnit(stuck)).toBe('ppm');
    expect(worstReadingLabel(stuck)).toBe('Reading');
    expect(eventInstrumentText(stuck)).toBe(
      'SO2 analyser at the scrubber outlet (SO2_PPM). Sensor fault (SO2 flat-lined). Reading: SO2 21.0 ppm ' +
        '(flat-lined).',
    );
    const co2 = event('sensor-fault', { channel: 'CO2_PCT', fault: 'outOfRange', worstValue: 30 });
    expect(eventValueText(co2)).toBe('CO2 30.00 % v/v (out of range)');
    expect(eventValueUnit(co2)).toBe('% v/v');
    const stale = event('sensor-fault', { channel: 'FUEL_SULFUR', fault: 'stale' });
    expect(eventTitle(stale)).toBe('Sensor fault (fuel sulfur stale)');
    expect(eventValueText(stale)).toBe('–');
    expect(eventValueUnit(stale)).toBe('% m/m');
    const latitude = event('sensor-fault', { channel: 'LATITUDE', fault: 'outOfRange', worstValue: 91.5 });
    expect(eventValueText(latitude)).toBe('Latitude 91.5000° (out of range)');
    const running = event('sensor-fault', { channel: 'SCRUBBER_RUNNING', fault: 'flatLined', worstValue: 1 });
    expect(eventValueText(running)).toBe('Scrubber running signal 1 (flat-lined)');
    expect(eventValueUnit(running)).toBeNull();
    // A channel not known here: its name, no unit.
    const other = event('sensor-fault', { channel: 'SOMETHING', fault: 'weird', worstValue: 3 });
    expect(eventTitle(other)).toBe('Sensor fault (SOMETHING weird)');
    expect(eventValueText(other)).toBe('SOMETHING 3.00 (weird)');
  });

  it('every type has a title, an instrument and no empty text', () => {
    for (const type of EVENT_TYPES) {
      const d = describeEvent(event(type));
      expect(d.title.length).toBeGreaterThan(0);
      expect(d.instrument.length).toBeGreaterThan(0);
    }
  });

  it('a value no criterion explains (an unknown washwater channel, a value on a scrubber stop) is a plain number', () => {
    expect(eventValueText(event('scrubber-off', { worstValue: 9.123, limit: 4.3 }))).toBe(
      '9.12 (limit 4.30)',
    );
    const unknown = event('washwater-exceedance', { channel: null, worstValue: 3, limit: 2 });
    expect(eventTitle(unknown)).toBe('Washwater exceedance');
    expect(eventValueText(unknown)).toBe('3.00 (limit 2.00)');
    expect(eventValueUnit(unknown)).toBeNull();
  });

  it('a missing limit leaves the limit out', () => {
    expect(
      eventValueText(
        event('washwater-exceedance', { channel: 'WASHWATER_PAH', worstValue: 80, limit: null }),
      ),
    ).toBe('PAH above inlet 80.0 µg/L');
  });
});

describe('the chart of an event', () => {
  it('draws each washwater criterion by its own derived field and limit, whatever the event type naming it', () => {
    const ph = eventChart({ type: 'washwater-exceedance', channel: 'WASHWATER_PH', fault: null });
    expect([ph.value.field, ph.value.worst, ph.limit.field, ph.limit.label]).toEqual([
      'WASHWATER_PH_DISCHARGING',
      'min',
      'WASHWATER_PH_LIMIT',
      'Minimum',
    ]);
    const pah = eventChart({ type: 'sensor-fault', channel: 'WASHWATER_PAH', fault: 'flatLined' });
    expect([pah.value.field, pah.value.axis, pah.limit.field]).toEqual([
      'WASHWATER_PAH_ABOVE_INLET',
      'µg/L',
      'WASHWATER_PAH_LIMIT',
    ]);
    expect(
      eventChart({ type: 'washwater-exceedance', channel: 'WASHWATER_TURBIDITY', fault: null }).value.field,
    ).toBe('WASHWATER_TURBIDITY_ABOVE_INLET');
  });

  it('draws the SO2/CO2 ratio, capped at 25, for the scrubber and data events', () => {
    for (const type of ['emission-exceedance', 'scrubber-off', 'data-gap', 'eca-entry']) {
      const chart = eventChart({ type, channel: null, fault: null });
      expect([chart.value.field, chart.value.cap, chart.limit.field]).toEqual([
        'SO2_CO2_RATIO',
        25,
        'SO2_CO2_LIMIT',
      ]);
    }
    expect(eventChart({ type: 'sensor-fault', channel: 'SO2_PPM', fault: 'stale' }).value.field).toBe(
      'SO2_CO2_RATIO',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { linkText, liveTimeText, liveValueLabel, liveValueText } from './display';

describe('live readout display', () => {
  it('shows a value with its unit, decimals by its size', () => {
    expect(liveValueText(1000, 'kg/h')).toBe('1,000 kg/h');
    expect(liveValueText(1234.56, 'kg/h')).toBe('1,234.6 kg/h');
    expect(liveValueText(103.412345, null)).toBe('103.4');
    expect(liveValueText(1.2345678, 'bar')).toBe('1.235 bar');
    expect(liveValueText(103.412345, '°')).toBe('103.4123 °');
    expect(liveValueText(1.25, '°')).toBe('1.25 °');
    expect(liveValueText(0.05, '%')).toBe('0.05 %');
    expect(liveValueText(-0.123456, '')).toBe('-0.1235');
    expect(liveValueText(null, 'kg/h')).toBe('No data');
  });

  it('names a value by its mapping, else by its raw channel', () => {
    expect(liveValueLabel({ name: 'FUEL_FLOW', channel: 'ME_FO_FLOW' })).toBe('FUEL_FLOW');
    expect(liveValueLabel({ name: null, channel: 'ME_FO_FLOW' })).toBe('ME_FO_FLOW');
  });

  it("gives the sample's source time in UTC, and says when it was replayed", () => {
    expect(liveTimeText({ sourceTime: '2026-11-28T22:41:07Z', isHistorical: false })).toBe(
      '2026.11.28 22:41:07',
    );
    expect(liveTimeText({ sourceTime: '2026-11-28T22:41:00Z', isHistorical: true })).toBe(
      '2026.11.28 22:41:00, replayed',
    );
  });

  it("says the edge node's state", () => {
    expect(
      linkText({ online: true, since: '2026-11-28T20:00:00Z', lastMessageOn: '2026-11-28T22:41:07.259Z' }),
    ).toBe('Online, last message 2026.11.28 22:41:07');
    expect(linkText({ online: true, since: '2026-11-28T20:00:00Z', lastMessageOn: null })).toBe(
      'Online since 2026.11.28 20:00',
    );
    expect(linkText({ online: false, since: '2026-11-28T21:30:00Z', lastMessageOn: null })).toBe(
      'Offline since 2026.11.28 21:30',
    );
  });
});

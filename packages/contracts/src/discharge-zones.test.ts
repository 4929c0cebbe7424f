import { describe, expect, it } from 'vitest';
import {
  DISCHARGE_ZONES,
  isInNoDischargeZone,
  noDischargeZoneColumn,
  noDischargeZonesAt,
} from './discharge-zones';
import { isInEca } from './eca';

const NOW = Date.parse('2026-06-15T12:00:00Z');

describe('isInNoDischargeZone', () => {
  it.each([
    ['Singapore (the demo berth)', 1.26, 103.83, 'Singapore port waters'],
    ['Shanghai (Yangshan)', 30.62, 122.07, "China's coastal emission control area (territorial sea)"],
    ['Qingdao', 36.05, 120.35, "China's coastal emission control area (territorial sea)"],
    ['Bohai Sea (mid-bay)', 38.8, 119.5, "China's coastal emission control area (territorial sea)"],
    ['off Sanya, Hainan', 18.2, 109.5, "China's coastal emission control area (territorial sea)"],
    ['Zeebrugge', 51.34, 3.19, 'Belgian waters within 3 nm of the coast'],
    ['Fehmarn Belt, Danish side', 54.6, 11.3, 'Danish territorial waters (12 nm)'],
    ['Great Belt', 55.3, 11.0, 'Danish territorial waters (12 nm)'],
    ['off Bornholm', 55.0, 14.9, 'Danish territorial waters (12 nm)'],
    ['Suez (Port Tewfik)', 29.93, 32.56, 'Suez Canal'],
    ['Ismailia', 30.58, 32.28, 'Suez Canal'],
    ['Gatun Lake', 9.2, -79.85, 'Panama Canal'],
    ['Hamburg', 53.54, 9.97, 'Hamburg and the Lower Elbe'],
    ['Brunsbüttel approach on the Elbe', 53.9, 8.6, 'Hamburg and the Lower Elbe'],
    ['Rendsburg', 54.3, 9.67, 'Kiel Canal'],
    ['Bremerhaven', 53.55, 8.56, 'Bremerhaven, Bremen and the Lower Weser'],
    ['Dublin Port', 53.345, -6.2, 'Dublin Port'],
    ['Cork Harbour', 51.84, -8.28, 'Port of Cork'],
    ['Los Angeles', 33.73, -118.26, 'California waters (3 nm)'],
    ['New London, Connecticut', 41.33, -72.09, 'Connecticut waters'],
    ['Honolulu', 21.3, -157.87, 'Hawaii state waters (3 nm)'],
  ])('%s lies in a no-discharge zone', (_name, lat, lon, zone) => {
    expect(isInNoDischargeZone(lon, lat, NOW)).toBe(true);
    expect(noDischargeZonesAt(lon, lat, NOW).map((z) => z.name)).toContain(zone);
  });

  it.each([
    ['Rotterdam', 51.95, 4.05],
    ['Gdansk', 54.4, 18.66],
    ['Kiel Bay (German side)', 54.55, 10.6],
    ['Malmö (Swedish side of the Sound)', 55.6, 12.95],
    ['Hong Kong (Victoria Harbour)', 22.29, 114.17],
    ['Kaohsiung, Taiwan', 22.6, 120.25],
    ['Busan, Korea', 35.1, 129.04],
    ['East China Sea off Shanghai (beyond 12 nm)', 31.0, 124.0],
    ['Malacca Strait', 2.5, 101.3],
    ['Port Said roads (Mediterranean)', 31.7, 32.3],
    ['Red Sea', 27.5, 33.9],
    ['Piraeus', 37.94, 23.62],
    ['New York', 40.67, -74.08],
    ['Houston', 29.73, -95.27],
    ['Port Everglades', 26.09, -80.12],
    ['off Los Angeles beyond 3 nm', 33.5, -118.6],
    ['mid-Atlantic', 40.0, -40.0],
  ])('%s lies outside every no-discharge zone', (_name, lat, lon) => {
    expect(isInNoDischargeZone(lon, lat, NOW)).toBe(false);
  });

  it('counts Danish waters only from 2025-07-01', () => {
    expect(isInNoDischargeZone(11.3, 54.6, new Date('2025-06-30T23:59:00Z'))).toBe(false);
    expect(isInNoDischargeZone(11.3, 54.6, new Date('2025-07-01T00:00:00Z'))).toBe(true);
  });

  it('answers false for NaN and an invalid time, and wraps longitudes past 180', () => {
    expect(isInNoDischargeZone(Number.NaN, 1.26, NOW)).toBe(false);
    expect(isInNoDischargeZone(103.83, Number.NaN, NOW)).toBe(false);
    expect(isInNoDischargeZone(103.83, 1.26, Number.NaN)).toBe(false);
    expect(isInNoDischargeZone(-118.26 + 360, 33.73, NOW)).toBe(true);
  });

  it('gives a column with one entry per row, 0 for missing positions', () => {
    const column = noDischargeZoneColumn(
      Float64Array.of(1.26, 40.0, Number.NaN, 54.6, 54.6),
      Float64Array.of(103.83, -40.0, 103.83, 11.3, 11.3),
      Float64Array.of(NOW, NOW, NOW, Date.parse('2025-06-01'), NOW),
    );
    expect(Array.from(column)).toEqual([1, 0, 0, 0, 1]);
  });
});

describe('DISCHARGE_ZONES', () => {
  it('names for every zone what it bans, from when, and its source with a URL', () => {
    expect(DISCHARGE_ZONES.length).toBeGreaterThanOrEqual(12);
    for (const zone of DISCHARGE_ZONES) {
      expect(zone.name).not.toBe('');
      expect(zone.country).not.toBe('');
      expect(zone.bans).toMatch(/discharge/i);
      expect(zone.inForceFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(zone.inForceFrom))).toBe(false);
      expect(zone.source).toMatch(/https?:\/\//);
      expect(zone.polygons.length).toBeGreaterThan(0);
      for (const ring of zone.polygons) {
        expect(ring.length).toBeGreaterThanOrEqual(3);
        for (const [lon, lat] of ring) {
          expect(lon).toBeGreaterThanOrEqual(-180);
          expect(lon).toBeLessThanOrEqual(180);
          expect(Math.abs(lat)).toBeLessThanOrEqual(90);
        }
      }
    }
    expect(new Set(DISCHARGE_ZONES.map((z) => z.name)).size).toBe(DISCHARGE_ZONES.length);
  });

  it('keeps the Suez Canal outside the Mediterranean ECA and Singapore outside every ECA', () => {
    expect(isInEca(30.58, 32.28, NOW)).toBe(false);
    expect(isInEca(1.26, 103.83, NOW)).toBe(false);
  });
});

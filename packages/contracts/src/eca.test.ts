import { describe, expect, it } from 'vitest';
import { ECA_ZONES, ecaZoneColumn, isInEca } from './eca';

const NOW = Date.parse('2026-06-15T12:00:00Z');

describe('isInEca', () => {
  it.each([
    ['Rotterdam (Maasvlakte)', 51.95, 4.05],
    ['Kiel', 54.33, 10.15],
    ['Gothenburg', 57.69, 11.9],
    ['Gdansk', 54.4, 18.66],
    ['Hamburg', 53.54, 9.97],
    ['Dover Strait', 51.0, 1.5],
    ['New York approaches (Ambrose)', 40.45, -73.83],
    ['Houston', 29.73, -95.27],
    ['Los Angeles', 33.72, -118.27],
    ['off Honolulu', 21.2, -157.9],
    ['San Juan', 18.47, -66.11],
  ])('%s lies inside an ECA', (_name, lat, lon) => {
    expect(isInEca(lat, lon, NOW)).toBe(true);
  });

  it.each([
    ['mid-Atlantic', 40.0, -40.0],
    ['Singapore', 1.26, 103.83],
    ['Suez', 29.93, 32.55],
    ['Shanghai', 31.23, 121.5],
    ['Santos', -23.98, -46.3],
    ['Bay of Biscay', 45.5, -4.0],
    ['Black Sea off Istanbul', 41.4, 29.3],
    ['Irish Sea', 53.5, -5.2],
  ])('%s lies outside every ECA', (_name, lat, lon) => {
    expect(isInEca(lat, lon, NOW)).toBe(false);
  });

  it('counts the Mediterranean only from 2025-05-01', () => {
    const offMarseille: [number, number] = [43.2, 5.3];
    expect(isInEca(...offMarseille, new Date('2025-04-30T23:59:59Z'))).toBe(false);
    expect(isInEca(...offMarseille, new Date('2025-05-01T00:00:00Z'))).toBe(true);
    expect(isInEca(37.9, 23.6, new Date('2026-01-01'))).toBe(true); // Piraeus
  });

  it('counts the Norwegian Sea and the Canadian Arctic only from 2027-03-01', () => {
    const offNorway: [number, number] = [66.0, 9.0];
    expect(isInEca(...offNorway, Date.parse('2027-02-28T23:59:00Z'))).toBe(false);
    expect(isInEca(...offNorway, Date.parse('2027-03-01T00:00:00Z'))).toBe(true);
    const lancasterSound: [number, number] = [74.2, -85.0];
    expect(isInEca(...lancasterSound, Date.parse('2026-12-01'))).toBe(false);
    expect(isInEca(...lancasterSound, Date.parse('2027-06-01'))).toBe(true);
  });

  it('answers false for NaN positions or times', () => {
    expect(isInEca(Number.NaN, 4.05, NOW)).toBe(false);
    expect(isInEca(51.95, Number.NaN, NOW)).toBe(false);
    expect(isInEca(51.95, 4.05, Number.NaN)).toBe(false);
  });

  it('treats longitudes beyond 180 as wrapped', () => {
    expect(isInEca(21.2, 360 - 157.9, NOW)).toBe(true);
  });

  it('has closed, simple enough polygons with an ISO in-force date', () => {
    for (const zone of ECA_ZONES) {
      expect(Number.isNaN(Date.parse(zone.inForceFrom))).toBe(false);
      for (const ring of zone.polygons) {
        expect(ring.length).toBeGreaterThanOrEqual(3);
        for (const [lon, lat] of ring) {
          expect(Math.abs(lon)).toBeLessThanOrEqual(180);
          expect(Math.abs(lat)).toBeLessThanOrEqual(90);
        }
      }
    }
  });
});

describe('ecaZoneColumn', () => {
  it('agrees with isInEca row by row, NaN rows outside', () => {
    const rows: [number, number, number][] = [
      [51.95, 4.05, NOW],
      [40.0, -40.0, NOW],
      [43.2, 5.3, Date.parse('2025-01-01')],
      [43.2, 5.3, Date.parse('2025-06-01')],
      [Number.NaN, 4.05, NOW],
    ];
    const column = ecaZoneColumn(
      Float64Array.from(rows, (r) => r[0]),
      Float64Array.from(rows, (r) => r[1]),
      Float64Array.from(rows, (r) => r[2]),
    );
    expect(Array.from(column)).toEqual([1, 0, 0, 1, 0]);
    rows.forEach((r, i) => expect(column[i]).toBe(isInEca(r[0], r[1], r[2]) ? 1 : 0));
  });

  it('classifies a year of minutes (525,600 rows) of a track that leaves and enters the ECAs', () => {
    const n = 525_600;
    const lat = new Float64Array(n);
    const lon = new Float64Array(n);
    const ts = new Float64Array(n);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < n; i++) {
      // a track sweeping the North Atlantic between the Channel and New York, and back
      const f = Math.abs(((i / 20_000) % 2) - 1);
      lat[i] = 50 - 10 * f;
      lon[i] = 2 - 76 * f;
      ts[i] = start + i * 60_000;
    }
    const column = ecaZoneColumn(lat, lon, ts);
    const inside = column.reduce((a, v) => a + v, 0);
    expect(inside).toBeGreaterThan(0);
    expect(inside).toBeLessThan(n);
  });
});

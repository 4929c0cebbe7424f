import { describe, expect, it } from 'vitest';
import type { LegFuel } from './ledger';
import {
  stayScope,
  ukEtsGases,
  ukEtsPeriod,
  ukEtsYear,
  ukVoyageScope,
  UK_ETS_MARITIME_START_MS,
} from './uk-ets';

const hfo = (kg: number): LegFuel => ({ consumer: 'MAIN_ENGINE', fuelType: 'HFO', kg, kgNotUnderWay: 0 });
const mgo = (kg: number): LegFuel => ({ consumer: 'AUX_ENGINE', fuelType: 'MDO_MGO', kg, kgNotUnderWay: kg });

describe('UK ETS scope', () => {
  it('counts voyages between two UK ports in full, Great Britain - Northern Ireland at half, the rest not', () => {
    expect(ukVoyageScope('GB', 'GB')).toBe('BETWEEN_UK_PORTS');
    expect(ukVoyageScope('NI', 'NI')).toBe('BETWEEN_UK_PORTS');
    expect(ukVoyageScope('GB', 'NI')).toBe('BETWEEN_GB_AND_NI');
    expect(ukVoyageScope('NI', 'GB')).toBe('BETWEEN_GB_AND_NI');
    expect(ukVoyageScope('GB', null)).toBe('OUT_OF_SCOPE');
    expect(ukVoyageScope(null, 'NI')).toBe('OUT_OF_SCOPE');
    expect(stayScope('NI')).toBe('WITHIN_UK_PORT');
    expect(stayScope(null)).toBe('OUT_OF_SCOPE');
  });

  it('starts on 1 July 2026: nothing of 2025, half a year of 2026, all of 2027', () => {
    expect(ukEtsPeriod(2025)).toBeNull();
    expect(ukEtsPeriod(2026)).toEqual({ from: UK_ETS_MARITIME_START_MS, to: Date.UTC(2027, 0, 1) });
    expect(new Date(UK_ETS_MARITIME_START_MS).toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(ukEtsPeriod(2027)).toEqual({ from: Date.UTC(2027, 0, 1), to: Date.UTC(2028, 0, 1) });
  });

  it('weighs 100 t of HFO as 311.4 t CO2, 0.005 t CH4 x 28 and 0.018 t N2O x 265', () => {
    const g = ukEtsGases([hfo(100_000)]);
    expect(g.co2).toBeCloseTo(311.4, 9);
    expect(g.ch4Co2e).toBeCloseTo(0.14, 9);
    expect(g.n2oCo2e).toBeCloseTo(4.77, 9);
    expect(g.co2e).toBeCloseTo(311.4 + 0.14 + 4.77, 9);
  });

  it('sums a year: berth and UK voyages in full, GB-NI halved for surrender but whole in its part, unknown fuel apart', () => {
    const year = ukEtsYear([
      { kind: 'stay', start: 0, end: 1, place: 'GB', fuel: [mgo(2_000)] },
      { kind: 'voyage', start: 1, end: 2, fromPlace: 'GB', toPlace: 'GB', fuel: [hfo(10_000)] },
      { kind: 'voyage', start: 2, end: 3, fromPlace: 'GB', toPlace: 'NI', fuel: [hfo(20_000)] },
      { kind: 'voyage', start: 3, end: 4, fromPlace: 'NI', toPlace: null, fuel: [hfo(50_000)] },
      {
        kind: 'stay',
        start: 4,
        end: 5,
        place: null,
        fuel: [{ consumer: 'BOILER', fuelType: 'UNKNOWN', kg: 700, kgNotUnderWay: 700 }],
      },
    ]);
    expect(year.lines.map((l) => [l.scope, l.share])).toEqual([
      ['WITHIN_UK_PORT', 1],
      ['BETWEEN_UK_PORTS', 1],
      ['BETWEEN_GB_AND_NI', 0.5],
      ['OUT_OF_SCOPE', 0],
      ['OUT_OF_SCOPE', 0],
    ]);
    expect(year.byScope.WITHIN_UK_PORT.co2).toBeCloseTo(2 * 3.206, 9);
    expect(year.byScope.BETWEEN_UK_PORTS.co2).toBeCloseTo(10 * 3.114, 9);
    expect(year.byScope.BETWEEN_GB_AND_NI.co2).toBeCloseTo(20 * 3.114, 9);
    expect(year.surrender.co2).toBeCloseTo(2 * 3.206 + 10 * 3.114 + 10 * 3.114, 9);
    expect(year.fuelTonnes).toEqual({ MDO_MGO: 2, HFO: 30 });
    expect(year.unknownFuelTonnes).toBe(0);
    expect(year.lines[4]!.fuelTonnes).toEqual({ UNKNOWN: 0.7 });
  });
});

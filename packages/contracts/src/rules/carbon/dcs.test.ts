import { describe, expect, it } from 'vitest';
import { dcsReport, type DcsShipParticulars } from './dcs';
import { type Leg } from './ledger';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

function leg(kind: Leg['kind'], startH: number, endH: number, patch: Partial<Leg> = {}): Leg {
  return {
    kind,
    start: T0 + startH * HOUR,
    end: T0 + endH * HOUR,
    call: null,
    fromCall: null,
    toCall: null,
    distanceNm: 0,
    hoursUnderWay: 0,
    hoursNotUnderWay: 0,
    hoursWithoutPosition: 0,
    fuel: [],
    hoursWithoutFuelData: {},
    ...patch,
  };
}

const particulars: DcsShipParticulars = {
  imoNumber: '9123456',
  shipType: 'Container ship',
  grossTonnage: 90_000,
  netTonnage: 50_000,
  deadweight: 100_000,
  mainEnginePowerKw: 40_000,
  auxiliaryEnginePowerKw: 8_000,
  eedi: null,
  iceClass: null,
  ciiApplicable: true,
  containerShip: true,
};

describe('IMO DCS report', () => {
  const legs = [
    leg('stay', 0, 10, {
      fuel: [{ consumer: 'AUX_ENGINE', fuelType: 'MDO_MGO', kg: 2_000, kgNotUnderWay: 2_000 }],
    }),
    leg('voyage', 10, 100, {
      distanceNm: 1_500,
      hoursUnderWay: 88,
      hoursNotUnderWay: 2,
      fuel: [
        { consumer: 'MAIN_ENGINE', fuelType: 'HFO', kg: 180_000, kgNotUnderWay: 0 },
        { consumer: 'AUX_ENGINE', fuelType: 'HFO', kg: 18_000, kgNotUnderWay: 400 },
        { consumer: 'BOILER', fuelType: 'UNKNOWN', kg: 3_000, kgNotUnderWay: 0 },
      ],
    }),
    leg('voyage', 120, 200, { distanceNm: 1_000, hoursUnderWay: 80 }),
  ];

  it('reports fuel per type, per consumer and not under way, in tonnes, and the transport work of laden voyages', () => {
    const report = dcsReport({
      year: 2026,
      particulars,
      legs,
      cargo: [
        { departure: legs[1]!.start, laden: true, cargoTonnes: 60_000, teu: 5_000 },
        { departure: legs[2]!.start, laden: false, cargoTonnes: null, teu: null },
      ],
      shorePowerKwh: 12_000,
    });
    expect(report.fuel).toEqual([
      { fuelType: 'HFO', tonnes: 198 },
      { fuelType: 'MDO_MGO', tonnes: 2 },
    ]);
    expect(report.fuelByConsumer).toContainEqual({ consumer: 'AUX_ENGINE', fuelType: 'HFO', tonnes: 18 });
    expect(report.fuelNotUnderWay).toContainEqual({ consumer: 'AUX_ENGINE', fuelType: 'HFO', tonnes: 0.4 });
    expect(report.distanceNm).toBe(2_500);
    expect(report.hoursUnderWay).toBe(168);
    expect(report.ladenDistanceNm).toBe(1_500);
    expect(report.transportWorkTonneMiles).toBe(60_000 * 1_500);
    expect(report.transportWorkTeuMiles).toBe(5_000 * 1_500);
    expect([report.periodStart, report.periodEnd]).toEqual(['2026-01-01', '2026-12-31']);
    // The boiler's fuel of unknown type is not in any type's line: it is named.
    expect(report.missing).toEqual([
      {
        item: 'Fuel oil consumption per fuel type',
        reason: '3.0 t of fuel have no known fuel type (no change-over or fuel-type value before them).',
      },
    ]);
  });

  it('names each item the data does not allow', () => {
    const report = dcsReport({
      year: 2026,
      particulars: { ...particulars, imoNumber: null, grossTonnage: null, auxiliaryEnginePowerKw: null },
      legs: [legs[1]!, leg('voyage', 100, 120, { distanceNm: 10, hoursWithoutPosition: 12 })],
      cargo: [{ departure: legs[1]!.start, laden: true, cargoTonnes: null, teu: null }],
      shorePowerKwh: null,
    });
    expect(report.missing.map((m) => m.item)).toEqual([
      'IMO number',
      'Gross tonnage',
      'Power output of auxiliary engines',
      'Fuel oil consumption per fuel type',
      'Distance travelled',
      'Laden distance travelled and transport work',
      'Transport work (tonne-miles)',
      'Transport work (TEU-miles)',
      'Onshore power supplied',
    ]);
    expect(report.transportWorkTonneMiles).toBe(0);
  });

  it('asks for no transport work where the CII does not apply, and names a ship with no auxiliary meter', () => {
    const report = dcsReport({
      year: 2026,
      particulars: { ...particulars, ciiApplicable: false, containerShip: false },
      legs: [
        leg('voyage', 0, 10, {
          distanceNm: 100,
          fuel: [{ consumer: 'MAIN_ENGINE', fuelType: 'HFO', kg: 1_000, kgNotUnderWay: 0 }],
        }),
      ],
      cargo: [],
      shorePowerKwh: 0,
    });
    expect(report.ladenDistanceNm).toBeNull();
    expect(report.transportWorkTonneMiles).toBeNull();
    expect(report.missing.map((m) => m.item)).toEqual(['Fuel oil consumption per consumer type']);
  });
});

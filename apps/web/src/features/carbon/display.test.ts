import { describe, expect, it } from 'vitest';
import type { DcsReportRecord, FuelAmount } from '@portal/contracts/carbon';
import { ciiRating } from '@portal/contracts/rules/carbon';
import {
  cargoBody,
  cargoFormValues,
  cargoText,
  ciiGauge,
  dcsFileName,
  dcsItems,
  formatHours,
  formatNm,
  fuelTable,
  fuelTypeShortName,
  headingForDOrE,
  ledgerYears,
  ratingOf,
  sortFleetCii,
  voyageTitle,
} from './display';

const BULK: [number, number, number, number] = [0.86, 0.94, 1.06, 1.18];

describe('the CII gauge', () => {
  const required = 5;
  const boundaries = BULK.map((d) => d * required) as [number, number, number, number];

  it('places the bands A to E at the boundaries, with A and E a third of the B-to-D span wide', () => {
    const gauge = ciiGauge(boundaries, 4.5, 5.2);
    const [b1, b2, b3, b4] = boundaries;
    const margin = (b4 - b1) / 3;
    expect(gauge.min).toBeCloseTo(b1 - margin);
    expect(gauge.max).toBeCloseTo(b4 + margin);
    expect(gauge.bands.map(([to]) => to)).toEqual([b1, b2, b3, b4, gauge.max]);
    expect(gauge.bandLabels.map((b) => [b.label, b.from, b.to])).toEqual([
      ['A', gauge.min, b1],
      ['B', b1, b2],
      ['C', b2, b3],
      ['D', b3, b4],
      ['E', b4, gauge.max],
    ]);
    // Each band has its own colour, A to E.
    expect(new Set(gauge.bands.map(([, colour]) => colour)).size).toBe(5);
  });

  it('puts each needle in the band of its rating, as the regulation rates it', () => {
    for (const attained of [3.9, 4.5, 4.8, 5.5, 6.0, 7.5]) {
      const gauge = ciiGauge(boundaries, attained, null);
      const band =
        gauge.bandLabels.find((b) => gauge.needle! >= b.from && gauge.needle! < b.to) ??
        gauge.bandLabels.at(-1)!;
      expect(band.label, `attained ${attained}`).toBe(ciiRating('BULK_CARRIER', attained, required));
      expect(ratingOf(attained, boundaries)).toBe(ciiRating('BULK_CARRIER', attained, required));
    }
  });

  it('stops a needle beyond the dial at its end, keeps the value in the text, and has none without a value', () => {
    const far = ciiGauge(boundaries, 50, 0.01);
    expect(far.needle).toBe(far.max);
    expect(far.projectedNeedle).toBe(far.min);
    expect(far.text).toBe('50.00');
    const none = ciiGauge(boundaries, null, null);
    expect([none.needle, none.projectedNeedle, none.text]).toEqual([null, null, 'No data']);
  });

  it('never starts the dial below 0', () => {
    expect(ciiGauge([0.1, 1, 2, 3], 1, 1).min).toBe(0);
  });
});

describe('the fleet CII card', () => {
  const ship = (shipName: string, rating: string | null, projectedRating: string | null) =>
    ({ shipName, rating, projectedRating }) as Parameters<typeof sortFleetCii>[0][number];

  it('lists the ships heading for D or E first, the worst projection first, unrated last', () => {
    const sorted = sortFleetCii([
      ship('Alpha', 'A', 'A'),
      ship('Bravo', 'C', 'D'),
      ship('Charlie', null, null),
      ship('Delta', 'B', 'E'),
      ship('Echo', 'D', 'C'),
      ship('Foxtrot', 'E', 'D'),
    ]);
    expect(sorted.map((s) => s.shipName)).toEqual(['Delta', 'Foxtrot', 'Bravo', 'Echo', 'Alpha', 'Charlie']);
    expect(sorted.map(headingForDOrE)).toEqual([true, true, true, true, false, false]);
  });

  it('orders ships of the same ratings by name', () => {
    expect(sortFleetCii([ship('b', 'C', 'C'), ship('a', 'C', 'C')]).map((s) => s.shipName)).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('fuel by consumer and fuel type', () => {
  const fuel: FuelAmount[] = [
    { consumer: 'AUX_ENGINE', fuelType: 'MDO_MGO', tonnes: 2, tonnesNotUnderWay: 1.5 },
    { consumer: 'MAIN_ENGINE', fuelType: 'HFO', tonnes: 100, tonnesNotUnderWay: 0 },
    { consumer: 'AUX_ENGINE', fuelType: 'HFO', tonnes: 3, tonnesNotUnderWay: 0.5 },
    { consumer: 'BOILER', fuelType: 'UNKNOWN', tonnes: 0.4, tonnesNotUnderWay: 0.4 },
    { consumer: 'OTHER', fuelType: 'LNG', tonnes: 0, tonnesNotUnderWay: 0 },
  ];

  it('has the consumers in the order of Appendix IX down and the fuel types across, unknown fuel last', () => {
    const table = fuelTable(fuel);
    expect(table.fuelTypes).toEqual(['HFO', 'MDO_MGO', 'UNKNOWN']);
    expect(table.fuelTypes.map(fuelTypeShortName)).toEqual(['HFO', 'MDO/MGO', 'Unknown']);
    expect(fuelTypeShortName('METHANOL')).toBe('Methanol');
    expect(table.rows.map((r) => [r.name, r.tonnes, r.total, r.notUnderWay])).toEqual([
      ['Main engines', [100, null, null], 100, 0],
      ['Auxiliary engines', [3, 2, null], 5, 2],
      ['Boilers', [null, null, 0.4], 0.4, 0.4],
    ]);
    expect(table.totals).toEqual([103, 2, 0.4]);
    expect(table.total).toBeCloseTo(105.4);
    expect(table.notUnderWay).toBeCloseTo(2.4);
  });

  it('is empty without fuel', () => {
    expect(fuelTable([])).toMatchObject({ fuelTypes: [], rows: [], total: 0 });
  });
});

describe('numbers, names and years', () => {
  it('writes distances and hours with their unit, grouped', () => {
    expect([formatNm(12.345), formatNm(4321.4), formatNm(null)]).toEqual(['12.3 nm', '4,321 nm', 'No data']);
    expect([formatHours(1234.56), formatHours(0)]).toEqual(['1,234.6 h', '0.0 h']);
  });

  it('names a voyage by its ports, or says where its ends are not known', () => {
    const end = (portName: string, country: string) => ({ portCallId: 'c', portId: 'p', portName, country });
    expect(voyageTitle({ from: end('Hamburg', 'DE'), to: end('Rotterdam', 'NL') })).toBe(
      'Hamburg (DE) to Rotterdam (NL)',
    );
    expect(voyageTitle({ from: end('Hamburg', 'DE'), to: null })).toBe('From Hamburg (DE), at sea');
    expect(voyageTitle({ from: null, to: end('Rotterdam', 'NL') })).toBe(
      'To Rotterdam (NL), from before the data',
    );
    expect(voyageTitle({ from: null, to: null })).toBe('At sea, from before the data');
  });

  it('offers this year back to the sixth before it, never before 2019', () => {
    expect(ledgerYears(new Date('2026-11-28T00:00:00Z'))).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020]);
    expect(ledgerYears(new Date('2020-06-01T00:00:00Z'))).toEqual([2020, 2019]);
  });

  it('names the export as the server does', () => {
    expect(dcsFileName('Nordic Star / 2', 2026, 'xlsx')).toBe('Nordic_Star_2_IMO_DCS_2026.xlsx');
    expect(dcsFileName('☃', 2026, 'csv')).toBe('__IMO_DCS_2026.csv');
  });
});

describe('the DCS items', () => {
  const report: DcsReportRecord = {
    shipId: 's',
    year: 2026,
    periodStart: '2026-01-01',
    periodEnd: '2026-11-27',
    imoNumber: '9876543',
    shipType: 'Bulk carrier',
    grossTonnage: 32_000,
    netTonnage: null,
    deadweight: 58_100,
    mainEnginePowerKw: null,
    auxiliaryEnginePowerKw: null,
    eedi: null,
    iceClass: null,
    method: 'FLOW_METERS',
    distanceNm: 45_210.4,
    hoursUnderWay: 3_100.25,
    fuel: [{ fuelType: 'HFO', tonnes: 5_000 }],
    fuelByConsumer: [{ consumer: 'MAIN_ENGINE', fuelType: 'HFO', tonnes: 4_800 }],
    fuelNotUnderWay: [{ consumer: 'AUX_ENGINE', fuelType: 'HFO', tonnes: 40 }],
    shorePowerKwh: null,
    ladenDistanceNm: null,
    transportWorkTonneMiles: null,
    transportWorkTeuMiles: null,
    missing: [{ item: 'Net tonnage', reason: 'Not entered in the ship details.' }],
  };

  it('lists Appendix IX in order, the values with their units and what the data lacks as null', () => {
    const items = dcsItems(report);
    expect(items.map((i) => i.number)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7.1',
      '7.2',
      '8',
      '9',
      '10.1',
      '10.m',
      '11',
      '12',
      '13.1',
      '14.1',
      '15',
      '16',
      '17.1',
      '17.2',
    ]);
    const byNumber = new Map(items.map((i) => [i.number, i.value]));
    expect(byNumber.get('2')).toBe('2026.01.01 – 2026.11.27');
    expect(byNumber.get('5')).toBeNull();
    expect(byNumber.get('6')).toBe('58,100 t');
    expect(byNumber.get('10.1')).toBe('5,000 t');
    expect(byNumber.get('10.m')).toMatch(/flow meter/i);
    expect(byNumber.get('11')).toBe('45,210 nm');
    expect(byNumber.get('12')).toBe('3,100.3 h');
  });
});

describe('the cargo form', () => {
  it('sends laden or ballast with the tonnes and TEU given, empty as not known', () => {
    expect(cargoBody({ condition: 'laden', cargoTonnes: '70,000', teu: '' })).toEqual({
      body: { laden: true, cargoTonnes: 70_000, teu: null },
      errors: null,
    });
    expect(cargoBody({ condition: 'ballast', cargoTonnes: ' ', teu: '0' }).body).toEqual({
      laden: false,
      cargoTonnes: null,
      teu: 0,
    });
  });

  it("says what is wrong in the API's words", () => {
    expect(cargoBody({ condition: '', cargoTonnes: '-1', teu: '2.5' }).errors).toEqual({
      condition: 'Say whether the ship sailed laden or in ballast',
      cargoTonnes: 'Cargo cannot be negative',
      teu: 'TEU is a whole number',
    });
    expect(cargoBody({ condition: 'laden', cargoTonnes: 'ten', teu: '200000' }).errors).toEqual({
      cargoTonnes: 'Cargo must be a number of tonnes',
      teu: 'TEU is at most 100,000',
    });
  });

  it('starts from the cargo entered and writes it as a line', () => {
    const cargo = { laden: true, cargoTonnes: 70_000, teu: null, source: 'ENTERED' as const };
    expect(cargoFormValues(cargo)).toEqual({ condition: 'laden', cargoTonnes: '70000', teu: '' });
    expect(cargoFormValues(null)).toEqual({ condition: '', cargoTonnes: '', teu: '' });
    expect(cargoText(cargo)).toBe('Laden, 70,000 t (entered)');
    expect(cargoText({ laden: false, cargoTonnes: null, teu: null, source: 'NOON_REPORT' })).toBe(
      'In ballast (from a noon report)',
    );
    expect(cargoText(null)).toBe('Not entered');
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkFlexibility,
  checkPool,
  complianceBalanceGco2e,
  consecutiveMultiplier,
  FUELEU_MESSAGES,
  fuelEuIntensity,
  fuelEuPenaltyEur,
  fuelEuShare,
  fuelEuTarget,
  fuelEuYears,
} from './fueleu';

const EU = { memberState: true, outermostRegion: false };
const CANARIES = { memberState: true, outermostRegion: true };
const US = { memberState: false, outermostRegion: false };

describe('FuelEU scope (Art. 2(1))', () => {
  it('counts a stay in a Member State all, elsewhere nothing', () => {
    expect(fuelEuShare({ kind: 'stay', port: EU }).share).toBe(1);
    expect(fuelEuShare({ kind: 'stay', port: CANARIES }).share).toBe(1);
    expect(fuelEuShare({ kind: 'stay', port: US }).share).toBe(0);
  });

  it('counts a voyage between two Member States all, to or from a third country or an outermost region half', () => {
    expect(fuelEuShare({ kind: 'voyage', from: EU, to: EU }).share).toBe(1);
    expect(fuelEuShare({ kind: 'voyage', from: EU, to: US }).share).toBe(0.5);
    expect(fuelEuShare({ kind: 'voyage', from: US, to: EU }).share).toBe(0.5);
    expect(fuelEuShare({ kind: 'voyage', from: EU, to: CANARIES }).share).toBe(0.5);
    expect(fuelEuShare({ kind: 'voyage', from: US, to: US }).share).toBe(0);
  });

  it('counts a voyage whose next port is not known yet with half, provisionally, when it left a Member State', () => {
    expect(fuelEuShare({ kind: 'voyage', from: EU, to: null })).toMatchObject({
      share: 0.5,
      provisional: true,
    });
    expect(fuelEuShare({ kind: 'voyage', from: US, to: null })).toMatchObject({
      share: 0,
      provisional: true,
    });
  });
});

describe('FuelEU limits (Art. 4(2))', () => {
  it('reduces 91.16 g CO2e/MJ by 2 % from 2025 to 80 % from 2050', () => {
    expect(fuelEuTarget(2024)).toBeNull();
    expect(fuelEuTarget(2025)).toBeCloseTo(89.3368, 9);
    expect(fuelEuTarget(2029)).toBeCloseTo(89.3368, 9);
    expect(fuelEuTarget(2030)).toBeCloseTo(85.6904, 9);
    expect(fuelEuTarget(2035)).toBeCloseTo(77.9418, 9);
    expect(fuelEuTarget(2040)).toBeCloseTo(62.9004, 9);
    expect(fuelEuTarget(2045)).toBeCloseTo(34.6408, 9);
    expect(fuelEuTarget(2050)).toBeCloseTo(18.232, 9);
    expect(fuelEuTarget(2070)).toBeCloseTo(18.232, 9);
  });
});

describe('FuelEU GHG intensity (Annex I)', () => {
  it('gives the default well-to-wake intensities of HFO, MGO and LNG by engine', () => {
    const one = (
      fuelType: 'HFO' | 'MDO_MGO' | 'LNG',
      lngEngine?: 'OTTO_MEDIUM_SPEED' | 'DIESEL_SLOW_SPEED',
    ) => fuelEuIntensity([{ consumer: 'MAIN_ENGINE', fuelType, tonnes: 10, share: 1, lngEngine }]).intensity!;
    // HFO: 13.5 + (3.114 + 25 x 0.00005 + 298 x 0.00018) / 0.0405
    expect(one('HFO')).toBeCloseTo(91.7442, 4);
    expect(one('MDO_MGO')).toBeCloseTo(90.7674, 4);
    // LNG Otto medium speed: 3.1 % slips as methane (25 g CO2e per g)
    expect(one('LNG', 'OTTO_MEDIUM_SPEED')).toBeCloseTo(89.2029, 4);
    expect(one('LNG', 'DIESEL_SLOW_SPEED')).toBeCloseTo(76.0807, 4);
  });

  it('counts an LNG consumer without an engine kind with the highest slip, and names it', () => {
    const result = fuelEuIntensity([{ consumer: 'AUX_ENGINE', fuelType: 'LNG', tonnes: 10, share: 1 }]);
    expect(result.intensity).toBeCloseTo(89.2029, 4);
    expect(result.unmappedLngConsumers).toEqual(['AUX_ENGINE']);
  });

  it('weighs the fuels by their energy in scope, half of a voyage to a third country', () => {
    const result = fuelEuIntensity([
      { consumer: 'MAIN_ENGINE', fuelType: 'HFO', tonnes: 100, share: 0.5 },
      { consumer: 'AUX_ENGINE', fuelType: 'MDO_MGO', tonnes: 20, share: 1 },
      { consumer: 'BOILER', fuelType: 'HFO', tonnes: 30, share: 0 },
    ]);
    const eHfo = 50e6 * 0.0405;
    const eMgo = 20e6 * 0.0427;
    expect(result.energyMj).toBeCloseTo(eHfo + eMgo, 3);
    expect(result.intensity).toBeCloseTo((91.7441975 * eHfo + 90.7674473 * eMgo) / (eHfo + eMgo), 5);
  });
});

describe('FuelEU balance and penalty (Annex IV, Art. 23)', () => {
  it('gives 1000 t of HFO in 2025 a deficit of 97.5 t CO2e and a penalty of EUR 62,209', () => {
    const { intensity, energyMj } = fuelEuIntensity([
      { consumer: 'MAIN_ENGINE', fuelType: 'HFO', tonnes: 1000, share: 1 },
    ]);
    const balance = complianceBalanceGco2e(fuelEuTarget(2025)!, intensity!, energyMj);
    expect(balance / 1e6).toBeCloseTo(-97.4996, 3);
    expect(fuelEuPenaltyEur(balance, intensity!, 1)).toBeCloseTo(62_208.77, 1);
    expect(fuelEuPenaltyEur(-balance, intensity!, 1)).toBe(0);
  });

  it('raises the penalty by 10 % for each further consecutive year with a deficit', () => {
    expect(consecutiveMultiplier(1)).toBe(1);
    expect(consecutiveMultiplier(2)).toBeCloseTo(1.1, 12);
    expect(consecutiveMultiplier(4)).toBeCloseTo(1.3, 12);
    const years = fuelEuYears([
      { year: 2025, balanceGco2e: -10e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 91 },
      { year: 2026, balanceGco2e: -10e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 91 },
      { year: 2027, balanceGco2e: -10e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 91 },
      { year: 2028, balanceGco2e: 5e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 88 },
      { year: 2029, balanceGco2e: -10e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 91 },
    ]);
    expect(years.map((y) => y.consecutiveDeficitYears)).toEqual([1, 2, 3, 0, 1]);
    const base = (10e6 / (91 * 41_000)) * 2_400;
    expect(years[2]!.penaltyEur).toBeCloseTo(base * 1.2, 6);
    expect(years[4]!.penaltyEur).toBeCloseTo(base, 6);
  });

  it('carries a banked surplus into the next year, and 1.1 times what was borrowed out of it', () => {
    const years = fuelEuYears([
      { year: 2025, balanceGco2e: 20e6, pooledGco2e: null, bankedGco2e: 20e6, borrowedGco2e: 0, actual: 88 },
      { year: 2026, balanceGco2e: -30e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 10e6, actual: 91 },
      { year: 2027, balanceGco2e: 5e6, pooledGco2e: null, bankedGco2e: 0, borrowedGco2e: 0, actual: 88 },
    ]);
    expect(years[0]!.finalBalanceGco2e).toBe(0);
    expect(years[1]!.balanceBeforeFlexibilityGco2e).toBe(-10e6);
    expect(years[1]!.finalBalanceGco2e).toBe(0);
    expect(years[2]!.finalBalanceGco2e).toBeCloseTo(-6e6, 3);
    expect(years[2]!.consecutiveDeficitYears).toBe(1);
  });
});

describe('FuelEU banking and borrowing limits (Art. 20)', () => {
  const base = { target: 89.3368, energyMj: 1e9, year: 2026, borrowedPreviousYear: null };
  it('banks at most the surplus, and only a surplus', () => {
    expect(checkFlexibility({ ...base, balanceGco2e: 5e6, bankGco2e: 5e6, borrowGco2e: 0 })).toEqual([]);
    expect(checkFlexibility({ ...base, balanceGco2e: 5e6, bankGco2e: 6e6, borrowGco2e: 0 })).toEqual([
      FUELEU_MESSAGES.bankAboveSurplus('5.0'),
    ]);
    expect(checkFlexibility({ ...base, balanceGco2e: -5e6, bankGco2e: 1e6, borrowGco2e: 0 })).toEqual([
      FUELEU_MESSAGES.bankWithoutSurplus,
    ]);
  });

  it('borrows at most the deficit and 2 % of the limit times the energy, never two years running', () => {
    // 2 % x 89.3368 x 1e9 MJ = 1786.7 t
    expect(checkFlexibility({ ...base, balanceGco2e: -5000e6, bankGco2e: 0, borrowGco2e: 1786e6 })).toEqual(
      [],
    );
    expect(checkFlexibility({ ...base, balanceGco2e: -5000e6, bankGco2e: 0, borrowGco2e: 1800e6 })).toEqual([
      FUELEU_MESSAGES.borrowAboveLimit('1786.7'),
    ]);
    expect(checkFlexibility({ ...base, balanceGco2e: -100e6, bankGco2e: 0, borrowGco2e: 200e6 })).toEqual([
      FUELEU_MESSAGES.borrowAboveDeficit('100.0'),
    ]);
    expect(
      checkFlexibility({
        ...base,
        balanceGco2e: -100e6,
        bankGco2e: 0,
        borrowGco2e: 50e6,
        borrowedPreviousYear: 1,
      }),
    ).toEqual([FUELEU_MESSAGES.borrowTwice(2025)]);
    expect(checkFlexibility({ ...base, balanceGco2e: 100e6, bankGco2e: 0, borrowGco2e: 50e6 })).toEqual([
      FUELEU_MESSAGES.borrowWithoutDeficit,
    ]);
  });
});

describe('FuelEU pooling (Art. 21)', () => {
  const a = { shipId: 'a', shipName: 'Alpha' };
  const b = { shipId: 'b', shipName: 'Bravo' };
  it('accepts a pool whose total is positive and whose allocation leaves no ship worse off than the rules allow', () => {
    expect(
      checkPool([
        { ...a, balanceGco2e: 100e6, allocatedGco2e: 40e6 },
        { ...b, balanceGco2e: -60e6, allocatedGco2e: 0 },
      ]),
    ).toEqual([]);
  });

  it('refuses a negative total, a deficit made worse, a surplus turned into a deficit, a wrong sum, one ship', () => {
    expect(
      checkPool([
        { ...a, balanceGco2e: 10e6, allocatedGco2e: 10e6 },
        { ...b, balanceGco2e: -60e6, allocatedGco2e: -60e6 },
      ]),
    ).toEqual([FUELEU_MESSAGES.poolNegative('-50.0')]);
    expect(
      checkPool([
        { ...a, balanceGco2e: 100e6, allocatedGco2e: 110e6 },
        { ...b, balanceGco2e: -60e6, allocatedGco2e: -70e6 },
      ]),
    ).toEqual([FUELEU_MESSAGES.poolDeficitWorse('Bravo')]);
    expect(
      checkPool([
        { ...a, balanceGco2e: 100e6, allocatedGco2e: -10e6 },
        { ...b, balanceGco2e: -60e6, allocatedGco2e: 50e6 },
      ]),
    ).toEqual([FUELEU_MESSAGES.poolSurplusToDeficit('Alpha')]);
    expect(
      checkPool([
        { ...a, balanceGco2e: 100e6, allocatedGco2e: 100e6 },
        { ...b, balanceGco2e: -60e6, allocatedGco2e: 0 },
      ]),
    ).toEqual([FUELEU_MESSAGES.poolAllocationSum('40.0', '100.0')]);
    expect(checkPool([{ ...a, balanceGco2e: 100e6, allocatedGco2e: 100e6 }])).toEqual([
      FUELEU_MESSAGES.poolTooSmall,
    ]);
  });
});

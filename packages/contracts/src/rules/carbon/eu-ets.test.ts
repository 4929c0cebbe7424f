import { describe, expect, it } from 'vitest';
import {
  allowancesDue,
  berthScope,
  etsPhaseIn,
  euGasesOf,
  euYearTotals,
  fuelByType,
  memberStateOf,
  portScopeOn,
  priceOn,
  surrenderDeadline,
  voyageScope,
  type PortScopeFlags,
} from './eu-ets';
import type { PortMembershipPeriod } from './port-calls';

const EEA: PortMembershipPeriod[] = [{ membership: 'EU_EEA', from: '1958-01-01', to: null }];
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);
const port = (country: string, eea: boolean, outermostRegion = false): PortScopeFlags => ({
  eea,
  outermostRegion,
  memberState: memberStateOf(country),
});
const rotterdam = port('NL', true);
const hamburg = port('DE', true);
const baltimore = port('US', false);
const santos = port('BR', false);
const lasPalmas = port('ES', true, true);
const algeciras = port('ES', true);
const fortDeFrance = port('MQ', true, true);
const marseille = port('FR', true);

describe('the EU MRV gases of fuel', () => {
  it('are CO2, CH4 and N2O with the MRV factors, and CO2e with CH4 28 and N2O 265', () => {
    const { gases, unknownFuelTonnes } = euGasesOf([
      { fuelType: 'HFO', tonnes: 100 },
      { fuelType: 'MDO_MGO', tonnes: 10 },
      { fuelType: 'UNKNOWN', tonnes: 3 },
    ]);
    expect(gases.co2).toBeCloseTo(100 * 3.114 + 10 * 3.206, 9);
    expect(gases.ch4).toBeCloseTo(110 * 0.00005, 12);
    expect(gases.n2o).toBeCloseTo(110 * 0.00018, 12);
    expect(gases.co2e).toBeCloseTo(gases.co2 + gases.ch4 * 28 + gases.n2o * 265, 9);
    // Fuel of unknown type has no factor: kept apart, never guessed.
    expect(unknownFuelTonnes).toBe(3);
  });

  it('sums the fuel per type in the fuel list order', () => {
    expect(
      fuelByType([
        { fuelType: 'MDO_MGO', tonnes: 1 },
        { fuelType: 'HFO', tonnes: 2 },
        { fuelType: 'MDO_MGO', tonnes: 3 },
        { fuelType: 'UNKNOWN', tonnes: 9 },
      ]),
    ).toEqual([
      { fuelType: 'HFO', tonnes: 2 },
      { fuelType: 'MDO_MGO', tonnes: 4 },
    ]);
  });
});

describe('the scope of a voyage and a stay', () => {
  it('is 100 % between two EEA ports, 50 % with one end outside, none with both outside', () => {
    expect(voyageScope(hamburg, rotterdam, day('2026-03-03'))).toEqual({
      scope: 'INTRA_EEA',
      share: 1,
      outermostDerogation: false,
    });
    expect(voyageScope(rotterdam, baltimore, day('2026-03-06'))).toMatchObject({
      scope: 'FROM_EEA',
      share: 0.5,
    });
    expect(voyageScope(baltimore, rotterdam, day('2026-03-06'))).toMatchObject({
      scope: 'TO_EEA',
      share: 0.5,
    });
    expect(voyageScope(baltimore, santos, day('2026-03-06'))).toMatchObject({ scope: 'OUTSIDE', share: 0 });
  });

  it('is undetermined while an end is not known, even when the other end is outside', () => {
    expect(voyageScope(baltimore, null, day('2026-03-28'))).toEqual({
      scope: 'UNDETERMINED',
      share: null,
      outermostDerogation: false,
    });
    expect(voyageScope(null, rotterdam, day('2026-03-28')).scope).toBe('UNDETERMINED');
  });

  it('counts a stay at berth 100 % in an EEA port and not at all outside', () => {
    expect(berthScope(rotterdam)).toMatchObject({ scope: 'AT_BERTH_EEA', share: 1 });
    expect(berthScope(baltimore)).toMatchObject({ scope: 'OUTSIDE', share: 0 });
  });

  it("judges each port by its memberships on the voyage's own dates (Dover left the EEA after 2020)", () => {
    const dover = {
      country: 'GB',
      memberships: [
        { membership: 'EU_EEA', from: '1973-01-01', to: '2020-12-31' },
        { membership: 'UK', from: '1900-01-01', to: null },
      ] satisfies PortMembershipPeriod[],
    };
    const calais = { country: 'FR', memberships: EEA };
    const before = voyageScope(
      portScopeOn(dover, day('2020-12-31')),
      portScopeOn(calais, day('2020-12-31')),
      day('2020-12-31'),
    );
    const after = voyageScope(
      portScopeOn(dover, day('2021-01-01')),
      portScopeOn(calais, day('2021-01-01')),
      day('2021-01-01'),
    );
    expect([before.scope, before.share]).toEqual(['INTRA_EEA', 1]);
    expect([after.scope, after.share]).toEqual(['TO_EEA', 0.5]);
  });

  it('keeps an outermost region in scope, and marks its voyages to the same Member State as derogated to 2030', () => {
    expect(voyageScope(lasPalmas, algeciras, day('2026-05-01'))).toEqual({
      scope: 'INTRA_EEA',
      share: 1,
      outermostDerogation: true,
    });
    // Martinique is France: a voyage to Marseille is under the derogation; one to Algeciras is not.
    expect(voyageScope(fortDeFrance, marseille, day('2030-12-31')).outermostDerogation).toBe(true);
    expect(voyageScope(fortDeFrance, algeciras, day('2026-05-01')).outermostDerogation).toBe(false);
    // Ends with 2030.
    expect(voyageScope(lasPalmas, algeciras, day('2031-01-01')).outermostDerogation).toBe(false);
    // From an outermost region to a third country: 50 %, no derogation.
    expect(voyageScope(lasPalmas, santos, day('2026-05-01'))).toEqual({
      scope: 'FROM_EEA',
      share: 0.5,
      outermostDerogation: false,
    });
    expect(memberStateOf('mq')).toBe('FR');
  });
});

describe('the allowances of a year', () => {
  it('phase in 40 % of 2024, 70 % of 2025 and 100 % from 2026, nothing before 2024', () => {
    expect([2023, 2024, 2025, 2026, 2030].map(etsPhaseIn)).toEqual([0, 0.4, 0.7, 1, 1]);
  });

  it('count CO2 alone to 2025 and CO2e from 2026', () => {
    const gases = { co2: 1000, ch4: 0.1, n2o: 0.2, co2e: 1000 + 0.1 * 28 + 0.2 * 265 };
    expect(allowancesDue(gases, 2025)).toBeCloseTo(700, 9);
    expect(allowancesDue(gases, 2026)).toBeCloseTo(gases.co2e, 9);
  });

  it('are surrendered by 30 September of the next year', () => {
    expect(surrenderDeadline(2025)).toBe('2026-09-30');
  });

  it('add up the lines: totals per MRV aggregate, the in-scope share, the derogated part left out', () => {
    const g = (co2: number) => ({
      co2,
      ch4: co2 / 1000,
      n2o: co2 / 100,
      co2e: co2 + (co2 / 1000) * 28 + (co2 / 100) * 265,
    });
    const lines = [
      { ...voyageScope(hamburg, rotterdam, day('2026-03-03')), gases: g(100) },
      { ...berthScope(rotterdam), gases: g(10) },
      { ...voyageScope(rotterdam, baltimore, day('2026-03-06')), gases: g(1000) },
      { ...berthScope(baltimore), gases: g(20) },
      { ...voyageScope(baltimore, null, day('2026-03-28')), gases: g(300) },
      { ...voyageScope(lasPalmas, algeciras, day('2026-04-02')), gases: g(50) },
    ];
    const totals = euYearTotals(lines, 2026);
    expect(totals.total.co2).toBeCloseTo(1480, 9);
    expect(totals.byScope.INTRA_EEA.co2).toBeCloseTo(150, 9);
    expect(totals.byScope.FROM_EEA.co2).toBeCloseTo(1000, 9);
    expect(totals.byScope.AT_BERTH_EEA.co2).toBeCloseTo(10, 9);
    expect(totals.byScope.OUTSIDE.co2).toBeCloseTo(20, 9);
    expect(totals.byScope.UNDETERMINED.co2).toBeCloseTo(300, 9);
    expect(totals.inScope.co2).toBeCloseTo(100 + 10 + 500 + 50, 9);
    expect(totals.derogated.co2).toBeCloseTo(50, 9);
    expect(totals.allowancesDue).toBeCloseTo(g(100).co2e + g(10).co2e + g(1000).co2e / 2, 9);
    const in2025 = euYearTotals(lines, 2025);
    expect(in2025.allowancesDue).toBeCloseTo((100 + 10 + 500) * 0.7, 9);
  });
});

describe('the price of an allowance', () => {
  it('is the latest entered on or before the day', () => {
    const prices = [
      { on: '2026-03-01', eur: 70 },
      { on: '2026-03-10', eur: 72.5 },
      { on: '2026-02-01', eur: 65 },
    ];
    expect(priceOn(prices, '2026-03-09')?.eur).toBe(70);
    expect(priceOn(prices, '2026-03-10')?.eur).toBe(72.5);
    expect(priceOn(prices, '2026-01-31')).toBeNull();
  });
});

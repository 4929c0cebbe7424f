import { describe, expect, it } from 'vitest';
import { formatEuros, payingVerdict, priceBody, regimeCell } from './display';

const scrubber = (paying: boolean, projectedPaying: boolean | null) => ({
  hsfoTonnes: 1000,
  penaltyTonnes: 20,
  fuelSavedEur: 150_000,
  penaltyEur: 9_000,
  netEur: paying ? 141_000 : -5_000,
  projectedNetEur: projectedPaying === null ? null : projectedPaying ? 160_000 : -8_000,
  paying,
  projectedPaying,
});

describe('the cost cockpit display rules', () => {
  it('says "Not available yet" with the reason, never a figure, for a regime without one', () => {
    expect(regimeCell({ available: false, reason: 'FuelEU figures are not in the portal yet.' })).toEqual({
      toDate: 'Not available yet',
      projected: '',
      note: 'FuelEU figures are not in the portal yet.',
    });
    expect(
      regimeCell({ available: true, eurToDate: 29_320.4, eurProjected: 35_000, basis: 'All 3 ships' }),
    ).toEqual({ toDate: '€29,320', projected: '€35,000 projected', note: 'All 3 ships' });
  });

  it('answers "still paying?" for the year to date and its end', () => {
    expect(payingVerdict(scrubber(true, true))).toBe('Paying');
    expect(payingVerdict(scrubber(false, false))).toBe('Not paying');
    expect(payingVerdict(scrubber(true, false))).toBe('Paying so far, not by the year end');
    expect(payingVerdict(scrubber(true, null))).toBe('Paying so far');
    expect(payingVerdict(null)).toBe('No answer yet');
    expect(formatEuros(-5_000)).toBe('-€5,000');
    expect(formatEuros(null)).toBe('—');
  });

  it("checks the fuel prices with the API's words", () => {
    expect(priceBody({ on: '2026-11-01', hsfo: '450', vlsfo: '600,5' }).body).toEqual({
      on: '2026-11-01',
      hsfoEurPerTonne: 450,
      vlsfoEurPerTonne: 600.5,
    });
    expect(priceBody({ on: '2026-11-01', hsfo: '0', vlsfo: 'x' }).errors).toEqual({
      hsfo: 'HSFO price must be above 0',
      vlsfo: 'VLSFO price must be a number',
    });
  });
});

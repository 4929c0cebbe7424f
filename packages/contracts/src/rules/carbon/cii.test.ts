import { describe, expect, it } from 'vitest';
import {
  attainedCii,
  ciiForYear,
  ciiRating,
  ciiTrajectory,
  co2Grams,
  correctiveActionRequired,
  referenceCii,
  requiredCii,
  type CiiDay,
} from './cii';

const bulk = { shipType: 'BULK_CARRIER' as const, dwt: 76_000, gt: 43_000 };

describe('CII', () => {
  it('draws the bulk carrier reference line with its capacity capped at 279,000 DWT', () => {
    expect(referenceCii(bulk)).toBeCloseTo(4745 * 76_000 ** -0.622, 12);
    expect(referenceCii({ ...bulk, dwt: 400_000 })).toBeCloseTo(4745 * 279_000 ** -0.622, 12);
    expect(referenceCii({ shipType: 'GENERAL_CARGO_SHIP', dwt: 10_000, gt: null })).toBeCloseTo(
      588 * 10_000 ** -0.3885,
      12,
    );
    expect(referenceCii({ shipType: 'GENERAL_CARGO_SHIP', dwt: 30_000, gt: null })).toBeCloseTo(
      31948 * 30_000 ** -0.792,
      12,
    );
    expect(referenceCii({ ...bulk, dwt: null })).toBeNull();
  });

  it('lowers the required line by Z of the year, and has none outside 2023-2030', () => {
    const ref = referenceCii(bulk)!;
    const z = { 2023: 5, 2024: 7, 2025: 9, 2026: 11, 2027: 13.625, 2028: 16.25, 2029: 18.875, 2030: 21.5 };
    for (const [year, factor] of Object.entries(z))
      expect(requiredCii(bulk, Number(year))).toBeCloseTo((1 - factor / 100) * ref, 12);
    expect(requiredCii(bulk, 2022)).toBeNull();
    expect(requiredCii(bulk, 2031)).toBeNull();
  });

  it('rates by the ratio attained / required against the boundaries, each band closed below', () => {
    expect(ciiRating('BULK_CARRIER', 0.85, 1)).toBe('A');
    expect(ciiRating('BULK_CARRIER', 0.86, 1)).toBe('B');
    expect(ciiRating('BULK_CARRIER', 0.94, 1)).toBe('C');
    expect(ciiRating('BULK_CARRIER', 1.06, 1)).toBe('D');
    expect(ciiRating('BULK_CARRIER', 1.18, 1)).toBe('E');
    expect(ciiRating('TANKER', 1.2, 1)).toBe('D');
    expect(ciiRating('CONTAINER_SHIP', 1.2, 1)).toBe('E');
  });

  it('computes the attained value in g CO2 per capacity-nm from the fuel', () => {
    const grams = co2Grams({ HFO: 10_000, MDO_MGO: 500 });
    expect(grams).toBeCloseTo(10_000e6 * 3.114 + 500e6 * 3.206, 0);
    expect(attainedCii(grams, 76_000, 60_000)).toBeCloseTo(grams / (76_000 * 60_000), 12);
    expect(attainedCii(grams, 76_000, 0)).toBeNull();
  });

  it('projects the year from the trailing 90 days and rates the ratio of the projected sums', () => {
    const days: CiiDay[] = [];
    const start = Date.UTC(2026, 0, 1);
    // 200 days: the first 110 at 90 t CO2 and 300 nm a day, the last 90 at 80 t and 320 nm (slow steaming).
    for (let d = 0; d < 200; d++)
      days.push({
        day: start + d * 86_400_000,
        co2g: (d < 110 ? 90 : 80) * 1e6,
        distanceNm: d < 110 ? 300 : 320,
      });
    const asOf = start + 200 * 86_400_000;
    const result = ciiForYear({ ship: bulk, year: 2026, days, asOf, scrubberCo2g: 150e6 });
    const co2 = (110 * 90 + 90 * 80) * 1e6;
    const nm = 110 * 300 + 90 * 320;
    expect(result.attained).toBeCloseTo(co2 / (76_000 * nm), 12);
    const remaining = 365 - 200;
    expect(result.projectedAttained).toBeCloseTo(
      (co2 + 80e6 * remaining) / (76_000 * (nm + 320 * remaining)),
      12,
    );
    const required = (1 - 0.11) * 4745 * 76_000 ** -0.622;
    expect(result.required).toBeCloseTo(required, 12);
    expect(result.rating).toBe(ciiRating('BULK_CARRIER', result.attained!, required));
    expect(result.boundaries![2]).toBeCloseTo(1.06 * required, 12);
    expect(result.scrubberPart).toBeCloseTo(150e6 / (76_000 * nm), 12);
    expect(result.scrubberShare).toBeCloseTo(150e6 / co2, 12);
  });

  it('draws the trajectory to 2030 against the required line with the attained value held', () => {
    const trajectory = ciiTrajectory(bulk, 6.0);
    expect(trajectory.map((y) => y.year)).toEqual([2026, 2027, 2028, 2029, 2030]);
    for (const y of trajectory) expect(y.rating).toBe(ciiRating('BULK_CARRIER', 6.0, y.required));
    // The same ship falls behind as Z grows.
    expect(trajectory[4]!.required).toBeLessThan(trajectory[0]!.required);
  });

  it('asks for a corrective action plan after three D years running or one E', () => {
    expect(correctiveActionRequired({ 2024: 'D', 2025: 'D', 2026: 'D' }, 2026)).toBe(true);
    expect(correctiveActionRequired({ 2024: 'D', 2025: 'C', 2026: 'D' }, 2026)).toBe(false);
    expect(correctiveActionRequired({ 2026: 'E' }, 2026)).toBe(true);
  });
});

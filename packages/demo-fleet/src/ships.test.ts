import { describe, expect, it } from 'vitest';
import { DEMO_SHIPS, demoShips } from './ships';

/** IMO number check: the first six digits times 7, 6, 5, 4, 3, 2; the last digit of the sum is the seventh digit. */
function imoValid(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  const sum = [...imo.slice(0, 6)].reduce((acc, digit, i) => acc + Number(digit) * (7 - i), 0);
  return sum % 10 === Number(imo[6]);
}

describe('demo ships', () => {
  it('are six by default, three for each of the two customer organizations', () => {
    expect(DEMO_SHIPS).toHaveLength(6);
    expect(DEMO_SHIPS.filter((s) => s.organizationKey === 'north')).toHaveLength(3);
    expect(DEMO_SHIPS.filter((s) => s.organizationKey === 'south')).toHaveLength(3);
  });

  it('carry IMO numbers with a valid check digit', () => {
    for (const ship of demoShips(30)) expect(imoValid(ship.imo), `${ship.name} ${ship.imo}`).toBe(true);
    expect(imoValid('9074729')).toBe(true); // a real ship's IMO, to prove the check itself
    expect(imoValid('9074728')).toBe(false);
  });

  it('play one scenario each: outage, excursions, sensor gap and port overrun', () => {
    const scenarios = DEMO_SHIPS.map((s) => s.scenario);
    for (const scenario of ['outage', 'excursions', 'sensorGap', 'portOverrun'] as const)
      expect(scenarios.filter((s) => s === scenario)).toHaveLength(1);
  });

  it('have believable particulars', () => {
    for (const ship of DEMO_SHIPS) {
      expect(ship.totalEffectKW).toBeGreaterThanOrEqual(8_000);
      expect(ship.totalEffectKW).toBeLessThanOrEqual(60_000);
      expect(ship.numberOfScrubbers).toBeGreaterThanOrEqual(1);
      expect(ship.numberOfScrubbers).toBeLessThanOrEqual(3);
      expect(['Hybrid', 'Open Loop']).toContain(ship.scrubberSystemType);
      expect(ship.route.length).toBeGreaterThanOrEqual(2);
      expect(ship.key).toMatch(/^[a-z0-9_]+$/);
    }
  });

  it('grow to any fleet size with unique keys, names and IMO numbers', () => {
    const fleet = demoShips(40);
    expect(fleet).toHaveLength(40);
    expect(new Set(fleet.map((s) => s.key)).size).toBe(40);
    expect(new Set(fleet.map((s) => s.name)).size).toBe(40);
    expect(new Set(fleet.map((s) => s.imo)).size).toBe(40);
    expect(demoShips(6).map((s) => s.imo)).toEqual(DEMO_SHIPS.map((s) => s.imo));
    // Only the first six play scenarios, so a larger fleet stays believable.
    expect(fleet.slice(6).every((s) => s.scenario === 'none')).toBe(true);
  });
});

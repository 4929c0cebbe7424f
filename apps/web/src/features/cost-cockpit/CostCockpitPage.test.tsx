import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { CostCockpit } from '@portal/contracts/cost-cockpit';
import { renderWithProviders, testSettings, TEST_PROFILE } from '../../ui/testing/render';
import CostCockpitPage from './CostCockpitPage';

const notYet = (what: string) => ({
  available: false as const,
  reason: `${what} figures are not in the portal yet.`,
});
const cockpit: CostCockpit = {
  year: 2026,
  today: '2026-11-28',
  fuelPrice: {
    id: 'p1',
    organizationId: 'org-1',
    on: '2026-11-01',
    hsfoEurPerTonne: 450,
    vlsfoEurPerTonne: 600,
    enteredBy: 'north.admin',
    enteredAt: '2026-11-01T10:00:00.000Z',
  },
  ships: [
    {
      shipId: 's1',
      shipName: 'Aurora',
      daysWithData: 45,
      regimes: {
        EU_ETS: { available: true, eurToDate: 29_320, eurProjected: 35_000, basis: '412.5 allowances' },
        FUELEU: notYet('FuelEU'),
        UK_ETS: notYet('UK ETS'),
      },
      scrubber: {
        hsfoTonnes: 1000,
        penaltyTonnes: 20,
        fuelSavedEur: 150_000,
        penaltyEur: 9_000,
        netEur: 141_000,
        projectedNetEur: 200_000,
        paying: true,
        projectedPaying: true,
      },
      scrubberMissing: null,
    },
    {
      shipId: 's2',
      shipName: 'Boreas',
      daysWithData: 0,
      regimes: { EU_ETS: notYet('EU ETS'), FUELEU: notYet('FuelEU'), UK_ETS: notYet('UK ETS') },
      scrubber: null,
      scrubberMissing: 'No fuel in the carbon ledger for this year yet.',
    },
  ],
  fleet: {
    regimes: {
      EU_ETS: {
        available: true,
        eurToDate: 29_320,
        eurProjected: 35_000,
        basis: '1 of 2 ships with figures',
      },
      FUELEU: notYet('FuelEU'),
      UK_ETS: notYet('UK ETS'),
    },
    scrubberNetEur: 141_000,
    scrubberProjectedNetEur: 200_000,
  },
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(cockpit)),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the cost cockpit page', () => {
  it("shows the API's euros, says 'Not available yet' with the reason, and answers 'still paying?' per ship", async () => {
    renderWithProviders(<CostCockpitPage />, { route: '/carbon/cockpit?year=2026' });
    const rows = await screen.findAllByTestId('cockpit-ship');
    expect(rows).toHaveLength(2);
    expect(screen.getAllByTestId('fleet-regime-value').map((e) => e.textContent)).toEqual([
      '€29,320',
      'Not available yet',
      'Not available yet',
    ]);
    expect(screen.getByText('FuelEU figures are not in the portal yet.')).toBeTruthy();
    expect(within(rows[0]!).getByTestId('ship-net').textContent).toContain('€141,000');
    expect(within(rows[0]!).getByTestId('ship-verdict').textContent).toBe('Paying');
    expect(within(rows[1]!).getByText('No fuel in the carbon ledger for this year yet.')).toBeTruthy();
    expect(screen.getByTestId('fuel-prices-text').textContent).toContain(
      'a spread of €150/t (prices of 2026.11.01',
    );
    expect(screen.queryByTestId('enter-prices')).toBeNull();
  });

  it('offers the fuel prices entry to administrators', async () => {
    renderWithProviders(<CostCockpitPage />, {
      route: '/carbon/cockpit?year=2026',
      profile: { ...TEST_PROFILE, roles: ['UserAdmin'] },
    });
    expect(await screen.findByTestId('enter-prices')).toBeTruthy();
  });
});

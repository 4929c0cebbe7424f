import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { Facility } from '@portal/contracts/facilities';
import { lastMonthPeriod } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { activeContent, HOSTILE_TEXTS } from '../../ui/testing/hostile-dom';
import FleetDashboardPage from './FleetDashboardPage';

// Ship and organization names are stored literally (security-input.test.ts); the fleet dashboard's ship cards
// must show them as text.

// jsdom has no canvas: the charts are left out; the ship cards are plain DOM.
vi.mock('../../ui/charts/EChart', () => ({ EChart: () => null }));

const ship = (k: number, name: string): Facility => ({
  id: `ship-${k}`,
  name,
  imo: '9312345',
  primaryOrganizationId: 'n',
  primaryOrganizationName: HOSTILE_TEXTS[(k + 1) % HOSTILE_TEXTS.length]!,
  scrubberSystemType: 'Hybrid',
  numberOfScrubbers: 1,
  systemManufacturer: null,
  totalEffectKW: null,
  startDate: null,
  endDate: null,
  dataTimeStampMin: null,
  dataTimeStampMax: '2026-01-02T00:00:00.000Z',
  dataCoverage: null,
  imageBase64: null,
  dataSourceCount: 0,
  organizationIds: ['n'],
  shipType: null,
  deadweightTonnes: null,
  grossTonnage: null,
});
const ships = HOSTILE_TEXTS.map((name, k) => ship(k, name));

beforeEach(() => {
  window.__pwned = undefined;
  window.settings = testSettings();
  // No report data: the cards still show each ship's name, organization and dates.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ message: 'Report not found' }, { status: 404 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('hostile ship names on the fleet dashboard', () => {
  it('shows each name and organization as text in the real ship card, with nothing that runs script', () => {
    const { container } = renderWithProviders(<FleetDashboardPage />, {
      profile: { organizationId: 'n' },
      fleet: { period: lastMonthPeriod(new Date('2026-02-10T00:00:00Z')), facilities: ships },
    });
    const cards = screen.getAllByTestId('ship-card');
    expect(cards).toHaveLength(ships.length);
    cards.forEach((card, k) => {
      expect(card.getAttribute('data-facility-id')).toBe(ships[k]!.id);
      expect(within(card).getByText(ships[k]!.name, { normalizer: (s) => s })).toBeTruthy();
      expect(card.textContent).toContain(`IMO 9312345 · ${ships[k]!.primaryOrganizationName}`);
      expect(within(card).getByRole('link').getAttribute('href')).toBe(`/ship/${ships[k]!.id}`);
      expect(card.querySelectorAll('img, noscript, math, iframe, script')).toHaveLength(0);
    });
    expect(activeContent(container)).toEqual([]);
    expect(window.__pwned).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { Facility } from '@portal/contracts/facilities';
import { customPeriod } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import FleetDashboardPage from './FleetDashboardPage';

// jsdom has no canvas: the charts are left out.
vi.mock('../../ui/charts/EChart', () => ({ EChart: () => null }));

const ship: Facility = {
  id: 'ship-1',
  name: 'Atlantic Meridian',
  imo: '9312345',
  primaryOrganizationId: 'n',
  primaryOrganizationName: 'North',
  scrubberSystemType: 'Hybrid',
  numberOfScrubbers: 1,
  systemManufacturer: null,
  totalEffectKW: null,
  startDate: null,
  endDate: null,
  dataTimeStampMin: null,
  dataTimeStampMax: '2024-04-30T00:00:00.000Z',
  dataCoverage: null,
  imageBase64: null,
  dataSourceCount: 0,
  organizationIds: ['n'],
  shipType: null,
  deadweightTonnes: null,
  grossTonnage: null,
};

/** The reports' answer: every report of the request, with the archived months of the period (or none); 404 else. */
function answering(archivedMonths: string[] | undefined) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (!url.pathname.endsWith('/api/reports/data'))
        return Response.json({ message: 'Not found' }, { status: 404 });
      const ids = url.searchParams.get('reportIds')?.split(',') ?? [];
      const one = { information: null, fields: {}, ...(archivedMonths ? { archivedMonths } : {}) };
      return Response.json({ reports: Object.fromEntries(ids.map((id) => [id, one])) });
    }),
  );
}

beforeEach(() => {
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const render = () =>
  renderWithProviders(<FleetDashboardPage />, {
    profile: { organizationId: 'n' },
    fleet: { period: customPeriod('2024-02-01', '2024-04-30'), facilities: [ship] },
  });

describe('a dashboard over archived months', () => {
  it('says which months are archived and that their values are not shown until restored', async () => {
    answering(['2024-02', '2024-03']);
    render();
    const notice = await screen.findByTestId('archived-months');
    expect(notice.getAttribute('data-months')).toBe('2024-02,2024-03');
    expect(notice.textContent).toBe(
      'The data of 2024-02, 2024-03 are archived: the values of these months are not shown, nor counted in the lifetime figures, until a system administrator restores them (Administration, Data retention).',
    );
  });

  it('says nothing when no month of the period is archived', async () => {
    answering(undefined);
    render();
    // The answer has arrived: the KPI shows its value (no figure) instead of a skeleton.
    await screen.findByTestId('kpi-co2-reduction-value');
    expect(screen.queryByTestId('archived-months')).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { FleetCii } from '@portal/contracts/carbon';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { FleetCiiCard } from './FleetCiiCard';

const row = (shipId: string, shipName: string, rating: string | null, projectedRating: string | null) => ({
  shipId,
  shipName,
  attained: rating ? 5 : null,
  rating,
  projectedAttained: projectedRating ? 5.5 : null,
  projectedRating,
  missing: rating ? null : "The ship's deadweight is not entered.",
});

const fleet = {
  year: new Date().getUTCFullYear(),
  // Not in the card's order: the card orders them itself.
  ships: [
    row('s1', 'Aurora', 'A', 'B'),
    row('s2', 'Boreas', 'C', 'E'),
    row('s3', 'Cirrus', null, null),
    row('s4', 'Delphin', 'D', 'D'),
  ],
} as FleetCii;
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return Response.json(fleet);
    }),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the fleet CII card', () => {
  it('puts the ships heading for D or E first, each a link to its Carbon tab', async () => {
    renderWithProviders(<FleetCiiCard />);
    const rows = await screen.findAllByTestId('fleet-cii-row');
    expect(rows.map((r) => within(r).getByRole('link').textContent)).toEqual([
      'Boreas',
      'Delphin',
      'Aurora',
      'Cirrus',
    ]);
    expect(rows.map((r) => r.getAttribute('data-at-risk'))).toEqual(['true', 'true', 'false', 'false']);
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/ship/s2/carbon');
    expect(screen.getByTestId('fleet-cii-summary').textContent).toBe(
      '2 of 4 ship(s) rated or heading for D or E',
    );
    expect(within(rows[3]!).getByText("The ship's deadweight is not entered.")).toBeTruthy();
    expect(asked[0]).toContain(`/api/cii/fleet?year=${fleet.year}`);
  });

  it("shows only the fleet filter's ships", async () => {
    renderWithProviders(<FleetCiiCard shipIds={['s1', 's3']} />);
    const rows = await screen.findAllByTestId('fleet-cii-row');
    expect(rows.map((r) => r.getAttribute('data-ship-id'))).toEqual(['s1', 's3']);
    expect(screen.getByTestId('fleet-cii-summary').textContent).toBe(
      'No ship rated or heading for D or E (2 ship(s))',
    );
  });
});

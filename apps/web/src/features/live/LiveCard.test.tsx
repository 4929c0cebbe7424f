import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { Facility } from '@portal/contracts/facilities';
import type { LiveReadout } from '@portal/contracts/live';
import { latestDataLabel } from '@portal/contracts/rules';
import { useFacilities } from '../../lib/queries/facilities';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { LiveCard } from './LiveCard';

const SAMPLE_TIME = '2026-11-29T03:41:00.000Z';

const readout: LiveReadout = {
  facilityId: 'ship-1',
  link: { online: true, since: '2026-11-29T03:00:00.000Z', lastMessageOn: SAMPLE_TIME },
  values: [
    {
      dataSourceId: 'ds-1',
      dataSourceName: 'Gateway',
      channel: 'SO2_PPM',
      name: 'SO2',
      unit: 'ppm',
      localId: null,
      sourceTime: SAMPLE_TIME,
      value: 12.5,
      isHistorical: false,
    },
  ],
};

/** The ship list as the server answers it: no data until the stream's ingest moved the ship's data range. */
let listLatest: string | null;
const asked: string[] = [];

beforeEach(() => {
  listLatest = null;
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      asked.push(url);
      if (url.includes('/facilities/ship-1/live')) {
        // The readout's sample is stored: the ship's data range now reaches it.
        listLatest = SAMPLE_TIME;
        return Response.json(readout);
      }
      return Response.json([{ id: 'ship-1', name: 'Nordic Star', dataTimeStampMax: listLatest } as Facility]);
    }),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The ship dashboard's header and Live card, as ShipDashboardPage puts them: the header reads the ship list. */
function ShipHeaderAndLive() {
  const ship = useFacilities().data?.[0];
  if (!ship) return null;
  return (
    <>
      <span data-testid="latest-data">Latest data: {latestDataLabel(ship.dataTimeStampMax)}</span>
      <LiveCard facilityId={ship.id} latestData={ship.dataTimeStampMax} />
    </>
  );
}

describe('the Live card of the ship dashboard', () => {
  it("brings the header's latest data to the streamed sample without reloading the ship list by hand", async () => {
    renderWithProviders(<ShipHeaderAndLive />);
    expect((await screen.findByTestId('latest-data')).textContent).toBe('Latest data: No data');
    expect((await screen.findByTestId('live-value-text')).textContent).toBe('12.5 ppm');
    await waitFor(() =>
      expect(screen.getByTestId('latest-data').textContent).toBe(
        `Latest data: ${latestDataLabel(SAMPLE_TIME)}`,
      ),
    );
    // The list was asked once more for the new sample, not on every readout.
    const lists = () => asked.filter((u) => !u.includes('/live')).length;
    expect(lists()).toBe(2);
  });
});

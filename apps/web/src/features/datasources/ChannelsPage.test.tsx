import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { NO_FUEL_ATTRIBUTES } from '@portal/contracts/fuel-channels';
import type { DataSourceChannel } from '@portal/contracts/datasources';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import ChannelsPage from './ChannelsPage';

const channel = (over: Partial<DataSourceChannel>): DataSourceChannel => ({
  id: 'm1',
  dataSourceId: 'ds1',
  localId: null,
  source: 'EGCS1_SO2_ppm',
  name: 'SO2_PPM',
  fullName: 'Logger.SO2_PPM',
  dataType: 'Double',
  unit: 'ppm',
  description: null,
  qualityScore: 0,
  isCustom: false,
  ...NO_FUEL_ATTRIBUTES,
  ...over,
});
const CUSTOM = channel({
  id: 'c1',
  source: 'SO2_CORRECTED',
  name: 'SO2_CORRECTED',
  fullName: 'Logger.SO2_CORRECTED',
  isCustom: true,
});
const DATA_SOURCE = { id: 'ds1', name: 'Logger', isPrimary: true, channels: [channel({}), CUSTOM] };

const calls: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  if (method !== 'GET') {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    return method === 'DELETE' ? new Response(null, { status: 204 }) : Response.json({ ...CUSTOM, ...body });
  }
  if (url.includes('/facility/ship-1/datasource')) return Response.json([DATA_SOURCE]);
  if (url.includes('/samplechannels'))
    return Response.json([
      {
        channel: 'EGCS1_SO2_ppm',
        description: null,
        dataType: 'Double',
        unit: 'ppm',
        decimals: 1,
        minSampleValue: 0,
        maxSampleValue: 80,
        minscale: 0,
        maxscale: 100,
      },
    ]);
  return Response.json({});
});

function renderPage() {
  renderWithProviders(
    <Routes>
      <Route path="/facilities/:facilityId/config/channels" element={<ChannelsPage />} />
    </Routes>,
    { route: '/facilities/ship-1/config/channels' },
  );
}

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ChannelsPage', () => {
  it('opens the custom channel dialog for a custom channel chosen in the tree, and saves it there', async () => {
    renderPage();
    // The tree once the data sources are in (a text query: a role query over the whole page takes about a second in
    // jsdom, longer than findBy waits, so it must not be the one that waits for the answer).
    await screen.findByText('Custom channel');
    fireEvent.click(screen.getByRole('button', { name: /SO2_CORRECTED Custom channel/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Custom channel' });
    expect(screen.queryByTestId('mapping-panel')).toBeNull();
    expect((within(dialog).getByLabelText(/Source/) as HTMLInputElement).value).toBe('SO2_CORRECTED');
    expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('SO2_CORRECTED');

    fireEvent.change(within(dialog).getByLabelText(/Unit/), { target: { value: 'ppm' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: expect.stringMatching(
          /\/api\/algorithm\/facilitydatasource\/ds1\/facilitydatasourcechannels\/c1$/,
        ),
        body: expect.objectContaining({ source: 'SO2_CORRECTED', unit: 'ppm', isCustom: true }),
      },
    ]);
  });

  it('removes a custom channel from its dialog; a mapped channel still opens the mapping panel', async () => {
    renderPage();
    // The tree once the data sources are in (a text query: a role query over the whole page takes about a second in
    // jsdom, longer than findBy waits, so it must not be the one that waits for the answer).
    await screen.findByText('Custom channel');
    fireEvent.click(screen.getByRole('button', { name: /SO2_CORRECTED Custom channel/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Custom channel' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.map((c) => [c.method, c.url.split('/api/')[1]])).toEqual([
      ['DELETE', 'algorithm/facilitydatasource/ds1/facilitydatasourcechannels/c1'],
    ]);

    fireEvent.click(await screen.findByRole('button', { name: /EGCS1_SO2_ppm/ }));
    expect(await screen.findByTestId('mapping-panel')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

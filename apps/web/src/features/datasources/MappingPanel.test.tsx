import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FUEL_CHANNEL_MESSAGES, NO_FUEL_ATTRIBUTES } from '@portal/contracts/fuel-channels';
import type { DataSourceChannel } from '@portal/contracts/datasources';
import type { DataSource } from '@portal/contracts/datasources';
import { renderWithProviders, testQueryClient, testSettings } from '../../ui/testing/render';
import { dataSourcesQuery } from './datasources-api';
import { MappingPanel } from './MappingPanel';

const channel = (over: Partial<DataSourceChannel>): DataSourceChannel => ({
  id: 'm1',
  dataSourceId: 'ds1',
  localId: null,
  source: 'BOILER_FLOW',
  name: 'BOILER_FUEL_FLOW',
  fullName: 'Logger.BOILER_FUEL_FLOW',
  dataType: 'Double',
  unit: 'kg/h',
  description: null,
  qualityScore: 0,
  isCustom: false,
  ...NO_FUEL_ATTRIBUTES,
  ...over,
});
const BOILER = channel({ consumer: 'BOILER', fuelTypeSource: 'fixed', fuelType: 'MDO_MGO' });
const FUEL_TYPE = channel({
  id: 'm2',
  source: 'FUEL_TYPE',
  name: 'FUEL_TYPE',
  fullName: 'Logger.FUEL_TYPE',
  dataType: 'Integer',
  unit: null,
});

const calls: { method: string; body: Record<string, unknown> }[] = [];
let refusal: Record<string, string> | null = null;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  if (method === 'GET')
    return String(input).includes('/datasource')
      ? Response.json([{ id: 'ds1', name: 'Logger', isPrimary: true, channels: [BOILER, FUEL_TYPE] }])
      : Response.json([]);
  const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
  calls.push({ method, body });
  if (refusal)
    return Response.json(
      { code: 'VALIDATION_FAILED', message: Object.values(refusal).join('; '), fields: refusal },
      { status: 400 },
    );
  return Response.json({ ...BOILER, ...body });
});

beforeEach(() => {
  calls.length = 0;
  refusal = null;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The panel as the page shows it: the ship's data sources already read for the tree beside it. */
function renderPanel(mapping: DataSourceChannel) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(dataSourcesQuery('ship-1').queryKey, [
    { id: 'ds1', name: 'Logger', isPrimary: true, channels: [BOILER, FUEL_TYPE] } as unknown as DataSource,
  ]);
  return renderWithProviders(<MappingPanel facilityId="ship-1" dataSourceId="ds1" mapping={mapping} />, {
    queryClient,
  });
}

describe("the mapping panel's fuel fields", () => {
  it("show a fuel flow's consumer and fuel, and send them changed", async () => {
    renderPanel(BOILER);
    const panel = within(screen.getByTestId('mapping-panel'));
    expect(panel.getByRole('combobox', { name: 'Consumer' }).textContent).toBe('Boiler');
    expect(panel.getByRole('combobox', { name: 'Fuel' }).textContent).toBe('MDO/MGO');
    fireEvent.click(panel.getByRole('radio', { name: 'A fuel type channel' }));
    fireEvent.click(panel.getByRole('button', { name: 'Update mapping' }));
    // Not sent: the channel is missing, said with the API's text.
    expect(panel.getByText(FUEL_CHANNEL_MESSAGES.channelRequired)).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.mouseDown(panel.getByRole('combobox', { name: 'Fuel type channel' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Logger.FUEL_TYPE' }));
    fireEvent.click(panel.getByRole('button', { name: 'Update mapping' }));
    await waitFor(() => expect(calls).toHaveLength(1), { timeout: 10_000 });
    expect(calls[0]).toEqual({
      method: 'PUT',
      body: expect.objectContaining({
        consumer: 'BOILER',
        fuelTypeSource: 'channel',
        fuelType: null,
        fuelTypeChannelId: 'm2',
        lngEngine: null,
      }),
    });
  });

  it("show the API's refusal at the field it names", async () => {
    refusal = { fuelTypeChannelId: FUEL_CHANNEL_MESSAGES.channelNotOfShip };
    renderPanel(channel({ consumer: 'BOILER', fuelTypeSource: 'channel', fuelTypeChannelId: 'm2' }));
    const panel = within(screen.getByTestId('mapping-panel'));
    await screen.findByRole('combobox', { name: 'Fuel type channel' });
    fireEvent.click(panel.getByRole('button', { name: 'Update mapping' }));
    await waitFor(() => expect(calls).toHaveLength(1), { timeout: 10_000 });
    await waitFor(() =>
      expect(panel.getAllByText(FUEL_CHANNEL_MESSAGES.channelNotOfShip).length).toBeGreaterThan(0),
    );
  });

  it('are not there for a channel that is no fuel flow', () => {
    renderPanel(channel({ unit: 'ppm', name: 'SO2_PPM' }));
    expect(screen.queryByTestId('fuel-fields')).toBeNull();
  });
});

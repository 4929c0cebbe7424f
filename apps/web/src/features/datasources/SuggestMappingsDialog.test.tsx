import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NO_FUEL_ATTRIBUTES } from '@portal/contracts/fuel-channels';
import type {
  ChannelMappingListItem,
  DataSource,
  DataSourceChannel,
  RawChannel,
  SuggestedMappings,
} from '@portal/contracts/datasources';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { SuggestMappingsDialog } from './SuggestMappingsDialog';

const mapping = (id: string, name: string, source: string): DataSourceChannel => ({
  id,
  dataSourceId: 'ds1',
  localId: null,
  source,
  name,
  fullName: `Logger.${name}`,
  dataType: 'Double',
  unit: null,
  description: null,
  qualityScore: 0,
  isCustom: false,
  ...NO_FUEL_ATTRIBUTES,
});
/** The imported configuration: two mappings the calculations read, two that no calculation reads. */
const CHANNELS = [
  mapping('m1', 'FUEL_FLOW', 'ME_FO_Flow_kgh'),
  mapping('m2', 'SO2_PPM', 'EGCS1_SO2_ppm'),
  // With its ISO 19848 local id: the mapping Apply removes and Undo brings back keeps it.
  {
    ...mapping('m3', 'AMBIENT_AIR_TEMP', 'Amb_Air_T_C'),
    localId: '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature',
  },
  mapping('m4', 'SHIP_SPEED', 'GPS_SOG_kn'),
];
const DATA_SOURCE = { id: 'ds1', name: 'Logger', channels: CHANNELS } as unknown as DataSource;
const raw = (channel: string): RawChannel => ({
  channel,
  description: null,
  dataType: 'Double',
  unit: null,
  decimals: 1,
  minSampleValue: 0,
  maxSampleValue: 1,
  minscale: 0,
  maxscale: 1,
});
const SUGGESTIONS: SuggestedMappings = {
  fileName: 'AMS_TREND_20260309.csv',
  organizationId: 'org',
  acceptConfidence: 0.7,
  proposals: [
    {
      field: 'FUEL_FLOW',
      column: 'ME1_FO_FLOW_KGH',
      unit: null,
      confidence: 0.93,
      reasons: ['Known name'],
      mappingId: 'm1',
      matchesExisting: false,
      consumer: null,
      fuelType: null,
    },
    {
      field: 'SO2_PPM',
      column: 'SO2_OUT_PPM',
      unit: null,
      confidence: 0.5,
      reasons: ['Name like'],
      mappingId: 'm2',
      matchesExisting: false,
      consumer: null,
      fuelType: null,
    },
  ],
  unmatchedFields: [],
  unmappedColumns: [],
  columns: [raw('ME1_FO_FLOW_KGH'), raw('SO2_OUT_PPM')],
  mappingsWithoutColumn: [
    { id: 'm3', name: 'AMBIENT_AIR_TEMP', source: 'Amb_Air_T_C', readByCalculation: false },
    { id: 'm4', name: 'SHIP_SPEED', source: 'GPS_SOG_kn', readByCalculation: false },
  ],
};

const puts: ChannelMappingListItem[][] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  if (init?.method === 'PUT') {
    const list = JSON.parse(String(init.body)) as ChannelMappingListItem[];
    puts.push(list);
    return new Response(JSON.stringify(list), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }
  const body = url.includes('suggested-mappings') ? SUGGESTIONS : url.endsWith('/version') ? {} : [];
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

/** The channels screen's part: the dialog open until it closes itself. */
function Screen() {
  const [open, setOpen] = useState(true);
  return open ? (
    <SuggestMappingsDialog facilityId="ship-1" dataSource={DATA_SOURCE} onClose={() => setOpen(false)} />
  ) : null;
}

function renderScreen() {
  renderWithProviders(<Screen />);
}

const suggestions = () => screen.getByRole('dialog', { name: 'Suggest mappings for Logger' });

beforeEach(() => {
  puts.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SuggestMappingsDialog', () => {
  it('asks before removing mappings, naming each; Cancel changes nothing', async () => {
    renderScreen();
    await within(await screen.findByRole('dialog')).findByText(/Columns of AMS_TREND_20260309.csv/);
    fireEvent.click(within(suggestions()).getByRole('button', { name: 'Accept all' }));
    expect(within(suggestions()).getByText('Mappings: 2 changed, 2 removed')).toBeTruthy();
    fireEvent.click(within(suggestions()).getByRole('button', { name: 'Apply' }));

    const confirm = await screen.findByRole('dialog', { name: 'Remove 2 mapping(s)?' });
    const listed = within(within(confirm).getByRole('list', { name: 'Mappings that would be removed' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(listed).toEqual(['AMBIENT_AIR_TEMPColumn Amb_Air_T_C', 'SHIP_SPEEDColumn GPS_SOG_kn']);
    expect(puts).toEqual([]);

    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove 2 mapping(s)?' })).toBeNull());
    expect(puts).toEqual([]);
    expect(suggestions()).toBeTruthy();
  });

  it('applies after the yes, then Undo puts the previous mappings back with their ids and local ids', async () => {
    renderScreen();
    await within(await screen.findByRole('dialog')).findByText(/Columns of AMS_TREND_20260309.csv/);
    fireEvent.click(within(suggestions()).getByRole('button', { name: 'Accept all' }));
    fireEvent.click(within(suggestions()).getByRole('button', { name: 'Apply' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove 2 mapping(s)?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove and apply' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts).toHaveLength(1);
    expect(puts[0]!.map((i) => [i.id, i.source])).toEqual([
      ['m1', 'ME1_FO_FLOW_KGH'],
      ['m2', 'SO2_OUT_PPM'],
    ]);
    expect(screen.getByTestId('notification').textContent).toContain(
      'Changes were saved. Mappings: 2 changed, 2 removed',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('The previous mappings were restored');
    expect(puts).toHaveLength(2);
    expect(puts[1]!.map((i) => [i.id, i.name, i.source, i.localId])).toEqual(
      CHANNELS.map((c) => [c.id, c.name, c.source, c.localId]),
    );
  });

  it('applies at once when nothing would be removed', async () => {
    renderScreen();
    await within(await screen.findByRole('dialog')).findByText(/Columns of AMS_TREND_20260309.csv/);
    fireEvent.click(within(suggestions()).getByRole('checkbox', { name: /Remove the 2 mappings/ }));
    fireEvent.click(within(suggestions()).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: /Remove/ })).toBeNull();
    expect(puts[0]!.map((i) => i.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { RecalculationRequest } from '@portal/contracts/execution';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import CalculationQueuePage from './CalculationQueuePage';

const row = (over: Partial<RecalculationRequest>): RecalculationRequest => ({
  id: 'r',
  fieldName: 'F',
  reportName: null,
  version: 1,
  revision: 0,
  recalculationRequestedOn: '2025-03-07T10:15:00.000Z',
  recalculationQueuedOn: null,
  ...over,
});

let pending: RecalculationRequest[] = [];
const calls: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  // The app's own calls (version, offline check) are not the queue's.
  if (!url.includes('/api/algorithm/calculations/')) return Response.json({});
  const body = init?.body ? (JSON.parse(String(init.body)) as { ids: string[] }) : undefined;
  calls.push({ method, url, body });
  if (method === 'GET') return Response.json(pending);
  return Response.json({ count: body!.ids.length });
});

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/facilities/:facilityId/config/calculation-queue" element={<CalculationQueuePage />} />
      <Route path="/report-config/calculation-queue" element={<CalculationQueuePage />} />
    </Routes>,
    { route: path },
  );
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const enabled = () => ({
  remove: !button('Remove from queue').disabled,
  cancel: !button('Cancel execution').disabled,
  execute: !button('Execute').disabled,
});
const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CalculationQueuePage', () => {
  it('lists the ship’s measurement field requests oldest first with version.revision and both dates', async () => {
    pending = [
      row({
        id: 'b',
        fieldName: 'WASHWATER_PH',
        version: 3,
        revision: 2,
        recalculationRequestedOn: '2025-03-08T09:00:00.000Z',
      }),
      row({
        id: 'a',
        fieldName: 'SO2_PPM',
        version: 1,
        revision: 0,
        recalculationRequestedOn: '2025-03-07T10:15:00.000Z',
        recalculationQueuedOn: '2025-03-07T11:00:00.000Z',
      }),
    ];
    renderAt('/facilities/ship-1/config/calculation-queue');
    expect(screen.getByText('Pending report field or measurement field recalculations')).toBeTruthy();
    await screen.findByText('SO2_PPM');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Measurement field', 'Calculation version', 'Requested on', 'Queued on']);
    expect(
      bodyRows().map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['', 'SO2_PPM', '1.0', '2025.03.07 10:15', '2025.03.07 11:00'],
      ['', 'WASHWATER_PH', '3.2', '2025.03.08 09:00', ''],
    ]);
    expect(calls[0]!.url).toContain(
      '/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=ship-1',
    );
  });

  it('shows No pending recalculations for an empty queue, and the report field columns under report config', async () => {
    pending = [];
    renderAt('/report-config/calculation-queue');
    await screen.findByText('No pending recalculations');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Report', 'Report field', 'Calculation version', 'Requested on', 'Queued on']);
    expect(calls[0]!.url).toContain('/api/algorithm/calculations/report-fields?recalculationRequested=true');
    expect(enabled()).toEqual({ remove: false, cancel: false, execute: false });
  });

  it('enables Execute and Remove for requested rows only, and Cancel for queued rows only', async () => {
    pending = [
      row({ id: 'requested', fieldName: 'SO2_PPM' }),
      row({
        id: 'queued',
        fieldName: 'CO2_PCT',
        recalculationRequestedOn: '2025-03-08T00:00:00.000Z',
        recalculationQueuedOn: '2025-03-08T01:00:00.000Z',
      }),
    ];
    renderAt('/facilities/ship-1/config/calculation-queue');
    await screen.findByText('SO2_PPM');
    expect(enabled()).toEqual({ remove: false, cancel: false, execute: false });
    fireEvent.click(screen.getByLabelText('Select SO2_PPM'));
    expect(enabled()).toEqual({ remove: true, cancel: false, execute: true });
    fireEvent.click(screen.getByLabelText('Select CO2_PCT'));
    expect(enabled()).toEqual({ remove: false, cancel: false, execute: false });
    fireEvent.click(screen.getByLabelText('Select SO2_PPM'));
    expect(enabled()).toEqual({ remove: false, cancel: true, execute: false });
  });

  it.each([
    ['Execute', 'POST', '/recalculation/execute', '2 recalculation(s) queued for execution'],
    ['Remove from queue', 'DELETE', '/recalculation', '2 recalculation(s) removed from queue'],
  ])('%s sends the selected ids and tells how many', async (name, method, path, text) => {
    pending = [
      row({ id: 'a', fieldName: 'SO2_PPM' }),
      row({ id: 'b', fieldName: 'CO2_PCT', recalculationRequestedOn: '2025-03-09T00:00:00.000Z' }),
    ];
    renderAt('/facilities/ship-1/config/calculation-queue');
    await screen.findByText('SO2_PPM');
    fireEvent.click(screen.getByLabelText('Select all'));
    fireEvent.click(button(name));
    expect(await screen.findByText(text)).toBeTruthy();
    const action = calls.find((c) => c.method === method)!;
    expect(action.url).toMatch(new RegExp(`/api/algorithm/calculations/measurement-fields${path}$`));
    expect(action.body).toEqual({ ids: ['a', 'b'] });
    // The selection is cleared and the list is asked for again.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    expect(enabled()).toEqual({ remove: false, cancel: false, execute: false });
  });

  it('Cancel execution cancels the queued rows', async () => {
    pending = [row({ id: 'q', fieldName: 'CO2_PCT', recalculationQueuedOn: '2025-03-08T01:00:00.000Z' })];
    renderAt('/facilities/ship-1/config/calculation-queue');
    await screen.findByText('CO2_PCT');
    fireEvent.click(screen.getByLabelText('Select CO2_PCT'));
    fireEvent.click(button('Cancel execution'));
    expect(await screen.findByText('1 recalculation(s) cancelled in queue')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ body: { ids: ['q'] } });
    expect(calls.find((c) => c.method === 'POST')!.url).toMatch(/measurement-fields\/recalculation\/cancel$/);
  });
});

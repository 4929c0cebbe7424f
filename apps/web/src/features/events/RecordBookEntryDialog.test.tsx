import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RecordBookEntryView } from '@portal/contracts/events';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { RecordBookEntryDialog } from './RecordBookEntryDialog';

const entry = (over: Partial<RecordBookEntryView>): RecordBookEntryView => ({
  id: 'e1',
  sequence: 7,
  kind: 'fuel-change-over',
  occurredOn: '2026-11-20T10:00:00.000Z',
  recordedOn: '2026-11-20T10:05:00.000Z',
  recordedBy: 'south.lee',
  latitude: null,
  longitude: null,
  eventId: null,
  correctsId: null,
  text: 'Changed over to MGO (fuel of 0.08 % m/m sulfur from then on)',
  fuelSulfurPct: 0.08,
  fuelType: null,
  body: { text: 'Changed over to MGO', fuelSulfurPct: 0.08 },
  previousHash: '0'.repeat(64),
  hash: '1'.repeat(64),
  ...over,
});

const posts: Record<string, unknown>[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  if ((init?.method ?? 'GET') !== 'POST' || !String(input).includes('/record-book')) return Response.json([]);
  const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
  posts.push(body);
  return Response.json(entry({ id: 'e2', kind: 'correction', correctsId: 'e1' }), { status: 201 });
});

function renderDialog(correcting?: RecordBookEntryView) {
  const onClose = vi.fn();
  renderWithProviders(<RecordBookEntryDialog facilityId="f1" correcting={correcting} onClose={onClose} />);
  return onClose;
}

beforeEach(() => {
  posts.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('correcting a record book entry', () => {
  it("offers a fuel change-over's sulfur content as recorded, and sends it emptied when the change-over did not happen", async () => {
    const onClose = renderDialog(entry({}));
    const sulfur = screen.getByLabelText(/Fuel sulfur from then on/);
    expect(sulfur).toHaveProperty('value', '0.08');
    expect(screen.getByText('Empty if the change-over did not happen')).toBeTruthy();
    fireEvent.change(sulfur, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save correction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([
      expect.objectContaining({ kind: 'correction', correctsId: 'e1', fuelSulfurPct: null }),
    ]);
  });

  it('keeps the fuel a change-over recorded, so its correction sends it again for the carbon ledger', async () => {
    const onClose = renderDialog(
      entry({ fuelType: 'MDO_MGO', body: { text: 'x', fuelSulfurPct: 0.08, fuelType: 'MDO_MGO' } }),
    );
    expect(screen.getByRole('combobox', { name: 'Fuel in use from then on' }).textContent).toContain(
      'Diesel/gas oil (MDO/MGO)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save correction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([
      expect.objectContaining({ kind: 'correction', fuelSulfurPct: 0.08, fuelType: 'MDO_MGO' }),
    ]);
  });

  it('asks no sulfur content when correcting another kind of entry', () => {
    renderDialog(
      entry({ kind: 'note', fuelSulfurPct: null, text: 'Pump inspected', body: { text: 'Pump inspected' } }),
    );
    expect(screen.queryByLabelText(/Fuel sulfur from then on/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Fuel in use from then on' })).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Bdn } from '@portal/contracts/carbon';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { BdnDialog } from './BdnDialog';

const note: Bdn = {
  id: 'n1',
  shipId: 'f1',
  recordBookEntryId: 'e1',
  enteredBy: 'admin',
  enteredAt: '2026-10-12T09:00:00.000Z',
  deliveredAt: '2026-10-12T08:30:00.000Z',
  portId: 'NLRTM',
  portName: 'Rotterdam',
  fuelType: 'HFO',
  massTonnes: 800,
  sulfurPercent: 2.7,
  lcvMjPerKg: 40.2,
  densityKgM3: 985,
  bdnNumber: 'RTM-2026-0312',
};

const sent: { method: string; url: string; body: Record<string, unknown> | null }[] = [];
let answer: () => Response = () => Response.json(note);
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  if (method === 'GET') return Response.json({ reference: null, total: 0, items: [] });
  sent.push({ method, url: String(input), body: init?.body ? JSON.parse(String(init.body)) : null });
  return answer();
});

beforeEach(() => {
  sent.length = 0;
  answer = () => Response.json(note);
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dialog = () => within(screen.getByTestId('bdn-dialog'));

describe('the bunker delivery note dialog', () => {
  it('says at each field what is missing before anything is sent', () => {
    renderWithProviders(<BdnDialog facilityId="f1" onClose={vi.fn()} />);
    fireEvent.click(dialog().getByRole('button', { name: 'Add note' }));
    expect(dialog().getByText('Choose the fuel delivered')).toBeTruthy();
    expect(dialog().getByText('Enter the mass delivered in t')).toBeTruthy();
    expect(dialog().getByText('Enter the sulfur content in % m/m')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("shows the API's refusal at the field it names, until the field changes", async () => {
    answer = () =>
      Response.json(
        {
          code: 'VALIDATION_FAILED',
          message: 'Sulfur is at most 5 % m/m',
          fields: { sulfurPercent: 'Sulfur is at most 5 % m/m' },
        },
        { status: 400 },
      );
    const onClose = vi.fn();
    renderWithProviders(<BdnDialog facilityId="f1" note={note} onClose={onClose} />);
    expect(dialog().getByTestId('bdn-massTonnes')).toHaveProperty('value', '800');
    fireEvent.click(dialog().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog().getByText('Sulfur is at most 5 % m/m')).toBeTruthy());
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: expect.stringContaining('/api/bunker-notes/n1'),
        body: expect.objectContaining({ portId: 'NLRTM', massTonnes: 800, sulfurPercent: 2.7 }),
      },
    ]);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.change(dialog().getByTestId('bdn-sulfurPercent'), { target: { value: '2.5' } });
    expect(dialog().queryByText('Sulfur is at most 5 % m/m')).toBeNull();
  });

  it('sends a port typed and not chosen as the port name on the note', async () => {
    answer = () => Response.json(note, { status: 201 });
    const onClose = vi.fn();
    renderWithProviders(
      <BdnDialog facilityId="f1" note={{ ...note, portId: null, portName: null }} onClose={onClose} />,
    );
    fireEvent.change(dialog().getByTestId('bdn-port'), { target: { value: 'Off Skagen' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]?.body).toMatchObject({ portId: null, portName: 'Off Skagen' });
  });
});

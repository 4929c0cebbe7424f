import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Voyage } from '@portal/contracts/carbon';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { CargoDialog } from './CargoDialog';

const voyage: Voyage = {
  id: 'v1',
  shipId: 'f1',
  from: { portCallId: 'c1', portId: 'DEHAM', portName: 'Hamburg', country: 'DE' },
  to: { portCallId: 'c2', portId: 'NLRTM', portName: 'Rotterdam', country: 'NL' },
  departure: '2026-10-01T06:00:00.000Z',
  arrival: '2026-10-02T18:00:00.000Z',
  durationHours: 36,
  distanceNm: 290,
  hoursUnderWay: 30,
  hoursNotUnderWay: 6,
  hoursWithoutPosition: 0,
  fuel: [],
  hoursWithoutFuelData: {},
  co2Tonnes: 100,
  cargo: null,
};

const puts: { url: string; body: unknown }[] = [];
let answer: () => Response;

beforeEach(() => {
  puts.length = 0;
  answer = () => Response.json({ ...voyage, cargo: { ...(puts.at(-1)!.body as object), source: 'ENTERED' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      puts.push({ url: String(input), body: JSON.parse(String(init!.body)) });
      return answer();
    }),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tonnes = () => screen.getByRole('textbox', { name: 'Cargo' });
const teu = () => screen.getByRole('textbox', { name: 'TEU' });
const save = () => screen.getByRole('button', { name: 'Save' });

describe('Cargo of the voyage', () => {
  it('sends laden with the tonnes, TEU left empty, through PUT voyages/{id}/cargo', async () => {
    const onClose = vi.fn();
    renderWithProviders(<CargoDialog voyage={voyage} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Cargo of the voyage' })).toBeTruthy();
    // Neither laden nor ballast chosen yet: nothing to send.
    expect(save()).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('radio', { name: 'Laden' }));
    fireEvent.change(tonnes(), { target: { value: '70000' } });
    fireEvent.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts).toEqual([
      {
        url: expect.stringContaining('/api/voyages/v1/cargo'),
        body: { laden: true, cargoTonnes: 70_000, teu: null },
      },
    ]);
  });

  it("says what is wrong with the API's words before anything is sent", () => {
    renderWithProviders(<CargoDialog voyage={voyage} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('radio', { name: 'In ballast' }));
    fireEvent.change(tonnes(), { target: { value: '-5' } });
    fireEvent.change(teu(), { target: { value: '1.5' } });
    expect(screen.getByText('Cargo cannot be negative')).toBeTruthy();
    expect(screen.getByText('TEU is a whole number')).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);
    fireEvent.change(tonnes(), { target: { value: 'a lot' } });
    expect(screen.getByText('Cargo must be a number of tonnes')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it("shows the server's refusal under its field", async () => {
    answer = () =>
      Response.json(
        {
          code: 'VALIDATION_FAILED',
          message: 'cargoTonnes: Cargo is at most 1,000,000 t',
          fields: { cargoTonnes: 'Cargo is at most 1,000,000 t' },
        },
        { status: 400 },
      );
    const onClose = vi.fn();
    renderWithProviders(
      <CargoDialog
        voyage={{ ...voyage, cargo: { laden: true, cargoTonnes: 10, teu: null, source: 'ENTERED' } }}
        onClose={onClose}
      />,
    );
    // The cargo entered is where the form starts.
    expect(screen.getByRole('radio', { name: 'Laden' })).toHaveProperty('checked', true);
    expect(tonnes()).toHaveProperty('value', '10');
    fireEvent.click(save());
    expect(await screen.findAllByText('Cargo is at most 1,000,000 t')).not.toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });
});

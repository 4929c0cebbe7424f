import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { RunPanel, type SelectedFile } from './RunPanel';

let status = 202;
const requests: { url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  requests.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
  return new Response(
    JSON.stringify(status < 400 ? { id: 'e1', state: 'queued' } : { code: 'INTERNAL', message: 'x' }),
    { status, headers: { 'content-type': 'application/json' } },
  );
});

const FILES: SelectedFile[] = [
  { id: 'f2', timeStampMin: '2025-03-08T00:00:00.000Z', timeStampMax: '2025-03-08T23:59:00.000Z' },
  { id: 'f1', timeStampMin: '2025-03-07T00:05:00.000Z', timeStampMax: '2025-03-07T23:59:00.000Z' },
];

const queued: string[] = [];

function renderPanel(files: SelectedFile[]) {
  const view = (f: SelectedFile[]) => (
    <RunPanel facilityId="ship-1" selectedFiles={f} onQueued={(id) => queued.push(id)} />
  );
  const result = renderWithProviders(view(files));
  return { ...result, select: (f: SelectedFile[]) => result.rerender(view(f)) };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

beforeEach(() => {
  status = 202;
  requests.length = 0;
  queued.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RunPanel', () => {
  it('sets the period from the selected files, clears it with the selection, and needs all four parts', () => {
    const { select } = renderPanel(FILES);
    expect([
      field('From date').value,
      field('From time').value,
      field('To date').value,
      field('To time').value,
    ]).toEqual(['2025-03-07', '00:05', '2025-03-08', '23:59']);
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(field('To time'), { target: { value: '' } });
    expect(screen.getByText('Not filled out')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    select([]);
    expect(field('From date').value).toBe('');
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows no messages for an untouched empty period, and says Not filled out for the missing parts once one is typed', () => {
    renderPanel([]);
    expect(screen.queryByText('Not filled out')).toBeNull();
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(field('From date'), { target: { value: '2025-03-07' } });
    expect(screen.getAllByText('Not filled out')).toHaveLength(3);
  });

  it('refuses a to time before the from time on the same day', () => {
    renderPanel(FILES);
    fireEvent.change(field('To date'), { target: { value: '2025-03-07' } });
    fireEvent.change(field('To time'), { target: { value: '00:00' } });
    expect(screen.getByText('To time cannot be before from time')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends the period with :00.000Z and :59.999Z and the files, and tells the user it runs in the background', async () => {
    renderPanel(FILES);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText(MESSAGES.EXECUTION_SUCCESS)).toBeTruthy();
    const execute = requests.find((r) =>
      r.url.endsWith('/api/algorithm/calculations/measurement-field/execute'),
    );
    expect(execute!.body).toEqual({
      facilityId: 'ship-1',
      from: '2025-03-07T00:05:00.000Z',
      to: '2025-03-08T23:59:59.999Z',
      facilityDataSourceFileIds: ['f2', 'f1'],
    });
    // The queued execution's id, for the files screen to follow it.
    expect(queued).toEqual(['e1']);
  });

  it('shows the default error when the request fails', async () => {
    status = 500;
    renderPanel(FILES);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByText('Something went wrong! Please try again')).toBeTruthy());
  });
});

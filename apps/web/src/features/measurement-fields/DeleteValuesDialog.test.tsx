import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { DeleteValuesDialog } from './DeleteValuesDialog';

const deletes: URL[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(String(input));
  if (init?.method === 'DELETE') {
    deletes.push(url);
    return Response.json(url.pathname.includes('reports') ? { deleted: 744 } : { measurementChunks: 31 });
  }
  return Response.json({});
});

const PERIOD = {
  type: 'lastMonth' as const,
  from: new Date('2026-03-01T00:00:00.000Z'),
  to: new Date('2026-03-31T23:59:59.999Z'),
};

function renderDialog(onClose = vi.fn()) {
  renderWithProviders(
    <DeleteValuesDialog facilityId="ship-1" shipName="Atlantic Meridian" period={PERIOD} onClose={onClose} />,
  );
  return onClose;
}

beforeEach(() => {
  deletes.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DeleteValuesDialog', () => {
  it("says what goes for good, then deletes the period's measurement field and report values, whole UTC days", async () => {
    const onClose = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Delete values of Atlantic Meridian' });
    expect(dialog.textContent).toContain('will be deleted for good');
    expect(within(dialog).getByTestId('delete-values-summary').textContent).toBe(
      '2026-03-01 to 2026-03-31: measurement field values and report values.',
    );
    expect(deletes).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete values' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(deletes.map((u) => [u.pathname, Object.fromEntries(u.searchParams)])).toEqual([
      [
        '/api/algorithm/measurement-fields/values',
        { facilityId: 'ship-1', from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z' },
      ],
      [
        '/api/algorithm/reports/values',
        { facilityId: 'ship-1', from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z' },
      ],
    ]);
    // The colons of the instants go encoded (spec part 1, section 7).
    expect(deletes[1]!.search).toContain('from=2026-03-01T00%3A00%3A00.000Z');
    expect((await screen.findByTestId('notification')).textContent).toBe('Values were deleted successfully!');
  });

  it('deletes only what is ticked, and nothing while nothing is', async () => {
    renderDialog();
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Measurement field values' }));
    fireEvent.click(
      within(dialog).getByRole('checkbox', { name: "Report values (the dashboards' figures)" }),
    );
    expect(within(dialog).getByText('Choose the values to delete')).toBeTruthy();
    expect(
      (within(dialog).getByRole('button', { name: 'Delete values' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    fireEvent.click(
      within(dialog).getByRole('checkbox', { name: "Report values (the dashboards' figures)" }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete values' }));
    await waitFor(() => expect(deletes).toHaveLength(1));
    expect(deletes[0]!.pathname).toBe('/api/algorithm/reports/values');
  });

  it('Cancel deletes nothing', () => {
    const onClose = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(deletes).toEqual([]);
  });
});

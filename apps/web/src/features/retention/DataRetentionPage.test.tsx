import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { StorageMonths } from '@portal/contracts/retention';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import DataRetentionPage from './DataRetentionPage';

let stored: StorageMonths;
const requests: { method: string; url: string }[] = [];
let failRestore = false;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const url = String(input);
  requests.push({ method, url });
  const restore = /storage\/months\/(\d{4}-\d{2})\/restore$/.exec(url);
  if (method === 'POST' && restore) {
    if (failRestore)
      return Response.json(
        {
          message:
            'report_values holds rows of 2024-03 stored after it was archived: the month is not restored',
        },
        { status: 409 },
      );
    stored = { ...stored, archived: stored.archived.filter((m) => m.month !== restore[1]) };
    return Response.json({ tables: ['report_values_y2024m03'] });
  }
  return Response.json(stored);
});

beforeEach(() => {
  stored = {
    online: ['2024-04', '2024-05', '2026-11'],
    archived: [
      { month: '2023-01', archivedOn: '2026-02-01T03:00:00.000Z', reason: 'retention' },
      { month: '2024-03', archivedOn: '2026-11-20T10:30:00.000Z', reason: 'administrator' },
    ],
    archiveBefore: '2023-12',
  };
  requests.length = 0;
  failRestore = false;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DataRetentionPage', () => {
  it('lists the archived months with when and why, and restores one', async () => {
    renderWithProviders(<DataRetentionPage />);
    const rows = await screen.findAllByTestId('archived-month');
    expect(rows.map((r) => r.getAttribute('data-month'))).toEqual(['2023-01', '2024-03']);
    // The reason is a chip from sm on, a line under the date on a phone (jsdom renders both).
    expect(within(rows[0]!).getAllByText('Retention').length).toBeGreaterThan(0);
    expect(within(rows[1]!).getAllByText('By an administrator').length).toBeGreaterThan(0);
    expect(screen.getByTestId('data-retention-summary').textContent).toBe(
      "Data online: 2024-04 to 2026-11 (3 months with data). Months before 2023-12 are past every organization's retention and are archived by the retention job.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Restore 2024-03' }));
    await waitFor(() => expect(screen.getAllByTestId('archived-month')).toHaveLength(1));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      expect.stringMatching(/\/api\/storage\/months\/2024-03\/restore$/),
    ]);
    expect(await screen.findByText('2024-03 was restored: its data are back on the dashboards')).toBeTruthy();
  });

  it("says why a restore was refused, and keeps the month's row", async () => {
    failRestore = true;
    renderWithProviders(<DataRetentionPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Restore 2024-03' }));
    expect(await screen.findByText(/stored after it was archived: the month is not restored/)).toBeTruthy();
    expect(screen.getAllByTestId('archived-month')).toHaveLength(2);
  });

  it('says when no month is archived', async () => {
    stored = { online: [], archived: [], archiveBefore: '0000-01' };
    renderWithProviders(<DataRetentionPage />);
    expect(await screen.findByText('No month is archived')).toBeTruthy();
    expect(screen.getByTestId('data-retention-summary').textContent).toContain('No month has data online.');
  });
});

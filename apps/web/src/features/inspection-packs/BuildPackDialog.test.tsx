import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { monthPackPeriod, previousMonth } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { BuildPackDialog } from './BuildPackDialog';

const posts: { url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  if ((init?.method ?? 'GET') !== 'POST') return Response.json([]);
  const body = JSON.parse(String(init!.body)) as { from: string; to: string };
  posts.push({ url: String(input), body });
  return Response.json(
    {
      id: 'p1',
      facilityId: 'f1',
      ...body,
      state: 'queued',
      progress: 0,
      stage: null,
      scheduled: false,
      requestedBy: 'north.anna',
      requestedOn: new Date().toISOString(),
      startedOn: null,
      finishedOn: null,
      pdfSha256: null,
      zipBytes: null,
      originals: null,
      fileName: 'Ship_inspection_pack.zip',
      error: null,
    },
    { status: 202 },
  );
});

function renderDialog() {
  const onClose = vi.fn();
  renderWithProviders(<BuildPackDialog facilityId="f1" onClose={onClose} />);
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

describe('Build inspection pack', () => {
  const lastMonth = monthPackPeriod(previousMonth(new Date()))!;

  it('offers last month and asks for its first and last day', async () => {
    const onClose = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Build inspection pack' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'A calendar month' })).toHaveProperty('checked', true);
    fireEvent.click(screen.getByRole('button', { name: 'Build' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([
      { url: expect.stringContaining('/api/facilities/f1/inspection-packs'), body: lastMonth },
    ]);
  });

  it('takes days instead of a month', async () => {
    const onClose = renderDialog();
    fireEvent.click(screen.getByRole('radio', { name: 'Days' }));
    expect(screen.getByText('At most 400 days')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Build' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts.map((p) => p.body)).toEqual([lastMonth]);
  });
});

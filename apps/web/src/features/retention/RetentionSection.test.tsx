import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Retention } from '@portal/contracts/retention';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { RetentionSection } from './RetentionSection';

let stored: Retention = { months: 36, expired: 'archive', keptFrom: '2023-12' };
const requests: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  requests.push({ method, url: String(input), body });
  if (method === 'PUT') stored = { ...stored, ...(body as object) };
  return new Response(JSON.stringify(stored), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
});

beforeEach(() => {
  stored = { months: 36, expired: 'archive', keptFrom: '2023-12' };
  requests.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RetentionSection', () => {
  it('shows the setting, refuses less than 18 months, and saves months and deletion', async () => {
    renderWithProviders(<RetentionSection organizationId="org-1" />);
    const months = (await screen.findByLabelText('Months kept online')) as HTMLInputElement;
    expect(months.value).toBe('36');
    expect(screen.getByText('Kept online from 2023-12')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save retention' }) as HTMLButtonElement;
    fireEvent.change(months, { target: { value: '12' } });
    expect(screen.getByText('Data must be kept at least 18 months (2021 EGCS Guidelines, 7.4)')).toBeTruthy();
    expect(save.disabled).toBe(true);
    fireEvent.change(months, { target: { value: '24' } });
    fireEvent.click(screen.getByLabelText('Delete (cannot be undone)'));
    expect(screen.getByText(/will be deleted for good/)).toBeTruthy();
    fireEvent.click(save);
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
      url: expect.stringContaining('organizations/org-1/retention'),
      body: { months: 24, expired: 'delete' },
    });
  });
});

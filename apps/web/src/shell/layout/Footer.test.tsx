import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PortalSettings } from '@portal/contracts/environment';
import { Footer } from './Footer';

vi.mock('../../lib/auth', () => ({
  userManager: () => ({ getUser: async () => null }),
  redirectToLogin: vi.fn(),
}));

const settings = (supportPhone: string) =>
  ({ apiBaseUrl: '/api/', supportPhone, companyText: 'Scrubber Fleet Monitoring' }) as PortalSettings;

function renderFooter() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Footer />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ version: '1.6.7', build: 'abc' })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Footer', () => {
  it('shows no support line when no phone is configured: no made-up number', () => {
    window.settings = settings('');
    renderFooter();
    expect(screen.queryByText(/Support/)).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('Scrubber Fleet Monitoring')).toBeTruthy();
  });

  it('shows the configured phone as a number to call', () => {
    window.settings = settings('+47 21 00 00 00');
    renderFooter();
    const link = screen.getByRole('link', { name: '+47 21 00 00 00' });
    expect(link.getAttribute('href')).toBe('tel:+4721000000');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { Footer } from './Footer';

const settings = (supportPhone: string) =>
  testSettings({ supportPhone, companyText: 'Scrubber Fleet Monitoring' });

const renderFooter = () => renderWithProviders(<Footer />);

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

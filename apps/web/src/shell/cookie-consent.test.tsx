import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { COOKIE_CONSENT_KEY, CookieConsentGate } from './cookie-consent';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const page = <h1>Stop alert e-mails</h1>;

describe('cookie consent', () => {
  it('replaces the portal until cookies are accepted', async () => {
    render(<CookieConsentGate path="/events">{page}</CookieConsentGate>);
    expect(screen.queryByRole('heading', { name: 'Stop alert e-mails' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Cookies' }).getAttribute('aria-modal')).toBe('true');
    await act(async () => screen.getByRole('button', { name: 'Accept cookies' }).click());
    expect(screen.getByRole('heading', { name: 'Stop alert e-mails' })).toBeTruthy();
    expect(localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('true');
  });

  it('shows the unsubscribe page at once, the sheet above it and covering nothing', async () => {
    render(<CookieConsentGate path="/unsubscribe">{page}</CookieConsentGate>);
    const heading = screen.getByRole('heading', { name: 'Stop alert e-mails' });
    const sheet = screen.getByRole('region', { name: 'Cookies' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getComputedStyle(sheet).position).not.toBe('fixed');
    // In the page's flow, before the page.
    expect(sheet.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Accept cookies' }).click());
    expect(screen.queryByRole('region', { name: 'Cookies' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Stop alert e-mails' })).toBeTruthy();
  });
});

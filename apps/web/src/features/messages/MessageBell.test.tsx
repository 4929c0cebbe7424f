import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlertSnapshot } from '@portal/contracts/alerts';
import type { Message } from '@portal/contracts/messages';
import { alertBellText, alertBellTitle, eventLink } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { MessageBell } from './MessageBell';

// An alert in the bell: a short title, the ship, the value with its unit and a link, not an e-mail's text.

const snapshot: AlertSnapshot = {
  facilityId: 'f1',
  facilityName: 'Atlantic Meridian',
  eventId: 'e1',
  type: 'washwater-exceedance',
  typeName: 'Washwater exceedance',
  classification: 'malfunction',
  reportRequired: true,
  start: '2026-11-20T02:00:00.000Z',
  end: '2026-11-20T03:30:00.000Z',
  durationMinutes: 90,
  worstValue: 6,
  limit: 6.5,
  channel: 'WASHWATER_PH',
  fault: null,
};

beforeEach(() => {
  window.settings = testSettings();
  const message: Message = {
    id: 'm1',
    title: alertBellTitle('opened', snapshot),
    text: alertBellText('opened', snapshot, eventLink(window.location.origin, 'e1')),
    showFrom: '2026-11-20T03:31:00.000Z',
    showTo: '2026-12-20T03:31:00.000Z',
    notify: false,
    type: 'Alert',
    isPersonal: true,
    facilityId: 'f1',
    isRead: false,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).includes('/api/messages') ? Response.json([message]) : Response.json({}),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an alert in the bell', () => {
  it('shows its title, the ship, the pH against its minimum, and "Open the event" linking to it', async () => {
    renderWithProviders(<MessageBell />);
    fireEvent.click(screen.getByTestId('message-bell'));
    const [item] = await screen.findAllByTestId('message');
    expect(within(item!).getByRole('heading').textContent).toBe(
      'Washwater exceedance (pH below its minimum)',
    );
    expect(item!.textContent).toContain('Atlantic Meridian');
    expect(item!.textContent).toContain('pH 6.00 (minimum 6.50)');
    expect(item!.textContent).toContain('Malfunction, report required · 1 h 30 min');
    const link = within(item!).getByTestId('message-link');
    expect(link.textContent).toBe('Open the event');
    expect(link.getAttribute('href')).toBe('/events/e1');
    expect(item!.textContent).not.toContain('http');
    expect(item!.textContent).not.toContain('Duration:');
  });
});

describe('the bell says when it has decided whether to open by itself', () => {
  const notice = (notify: boolean): Message => ({
    id: notify ? 'notify' : 'quiet',
    title: 'Maintenance on Friday',
    text: 'Uploads pause on Friday.',
    showFrom: '2026-11-20T00:00:00.000Z',
    showTo: '2026-12-20T00:00:00.000Z',
    notify,
    type: 'Message',
    isPersonal: false,
    facilityId: null,
    isRead: false,
  });
  const showBell = (messages: Message[]) => {
    sessionStorage.clear();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/api/messages') ? Response.json(messages) : Response.json({}),
      ),
    );
    renderWithProviders(<MessageBell />);
    return screen.getByTestId('message-bell');
  };

  it('not before its messages are in; then at once when none asks to open it, and it stays closed', async () => {
    const bell = showBell([notice(false)]);
    expect(bell.getAttribute('data-settled')).toBe('false');
    await waitFor(() => expect(bell.getAttribute('data-settled')).toBe('true'));
    expect(bell.getAttribute('aria-label')).toBe('Messages, 1 unread');
    expect(screen.queryByRole('region', { name: 'Messages' })).toBeNull();
  });

  it('once it has opened for an unread message flagged notify', async () => {
    const bell = showBell([notice(true)]);
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Messages, 1 unread'));
    expect(bell.getAttribute('data-settled')).toBe('false');
    await waitFor(() => expect(bell.getAttribute('data-settled')).toBe('true'));
    expect(screen.getByRole('region', { name: 'Messages' })).toBeTruthy();
  });
});

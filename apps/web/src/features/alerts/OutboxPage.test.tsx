import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { outboxResendMessage, type OutboxList, type OutboxMail } from '@portal/contracts/alerts';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import OutboxPage from './OutboxPage';

const mail = (over: Partial<OutboxMail>): OutboxMail => ({
  id: 'm',
  idempotencyKey: 'k',
  kind: 'alert',
  to: 'anna@nordic.example',
  subject: 'Baltic Tern: Scrubber off while required',
  text: 'text',
  html: '<p>text</p>',
  createdOn: '2026-11-20T10:00:00.000Z',
  sentOn: null,
  sendAfter: null,
  status: 'sent',
  transport: 'smtp',
  attempts: 1,
  error: null,
  ...over,
});

let list: OutboxList;
const posts: unknown[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  if (!url.includes('/api/admin/outbox')) return Response.json({});
  if ((init?.method ?? 'GET') === 'GET') return Response.json(list);
  const body = JSON.parse(String(init!.body)) as { ids?: string[] };
  posts.push(body);
  const resent = body.ids ? body.ids.length : list.failed;
  return Response.json({ resent, message: outboxResendMessage(resent) });
});

function renderPage() {
  return renderWithProviders(<OutboxPage />);
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

describe('the outbox', () => {
  const withFailed = (): OutboxList => ({
    items: [
      mail({ id: 'failed-1', status: 'failed', attempts: 3, error: 'connect ECONNREFUSED 127.0.0.1:25' }),
      mail({ id: 'sent-1', status: 'sent', sentOn: '2026-11-20T10:00:05.000Z' }),
    ],
    total: 2,
    transport: 'smtp',
    failed: 4,
  });

  it('offers a failed e-mail to be sent again, and says it was queued', async () => {
    list = withFailed();
    renderPage();
    expect((await screen.findByTestId('outbox-failed')).textContent).toContain('4 e-mails failed.');
    const rows = screen.getAllByTestId('outbox-row');
    expect(within(rows[1]!).queryByRole('button', { name: /^Send again/ })).toBeNull();
    fireEvent.click(within(rows[0]!).getByRole('button', { name: /^Send again/ }));
    await waitFor(() => expect(posts).toEqual([{ ids: ['failed-1'] }]));
    expect(await screen.findByText('1 e-mail queued to be sent again.')).toBeTruthy();
  });

  it('sends all failed e-mails again, those on other pages too', async () => {
    list = withFailed();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Send all again' }));
    await waitFor(() => expect(posts).toEqual([{ allFailed: true }]));
    expect(await screen.findByText('4 e-mails queued to be sent again.')).toBeTruthy();
  });

  it('says until when an e-mail held by quiet hours waits', async () => {
    list = {
      items: [mail({ id: 'held-1', status: 'pending', attempts: 0, sendAfter: '2026-11-21T05:00:00.000Z' })],
      total: 1,
      transport: 'smtp',
      failed: 0,
    };
    renderPage();
    const [row] = await screen.findAllByTestId('outbox-row');
    expect(row!.textContent).toContain('Quiet hours: goes at 2026.11.21 05:00 UTC');
  });

  it('has nothing to send again when no e-mail failed', async () => {
    list = { items: [mail({ id: 'sent-1' })], total: 1, transport: 'outbox', failed: 0 };
    renderPage();
    await screen.findAllByTestId('outbox-row');
    expect(screen.queryByTestId('outbox-failed')).toBeNull();
    expect(screen.queryByRole('button', { name: /Send/ })).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_EVENT_RULES, type ComplianceEvent, type EventReport } from '@portal/contracts/events';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { ReportCard } from './ReportCard';

const HASH = 'c0ffee'.repeat(10) + 'beef';
const event: ComplianceEvent = {
  id: 'ev1',
  facilityId: 'f1',
  facilityName: 'Gulf Horizon',
  type: 'scrubber-off',
  start: '2025-06-02T04:00:00.000Z',
  end: '2025-06-02T07:30:00.000Z',
  ongoing: false,
  durationMinutes: 210,
  worstValue: null,
  limit: null,
  startPosition: null,
  endPosition: null,
  classification: 'malfunction',
  reportRequired: true,
  channel: null,
  fault: null,
  state: 'acknowledged',
  acknowledgedOn: null,
  acknowledgedBy: null,
  cause: null,
  actionsTaken: null,
  comment: null,
  closedOn: null,
  closedBy: null,
  reportSentOn: '2025-06-02',
  rules: DEFAULT_EVENT_RULES,
};
const sent: EventReport = {
  shipName: 'Gulf Horizon',
  imo: '9876543',
  position: '51.9500° N, 3.9000° E',
  start: '2025.06.02 04:00 UTC',
  duration: '3 h 30 min',
  egcs: 'Open loop',
  instrument: 'SO2/CO2 emission monitoring',
  cause: 'Scrubber equipment',
  actionsTaken: 'Pump restarted',
  actionsPlanned: 'Replace the motor',
  expectedRepair: 'Within 3 days',
  sentOn: '2025-06-02',
  revision: 1,
  sha256: HASH,
  revisions: [
    {
      number: 1,
      reason: null,
      createdBy: 'south.lee',
      createdOn: '2025-06-02T09:00:00.000Z',
      sentOn: '2025-06-02',
      sentBy: 'south.lee',
      sha256: HASH,
    },
  ],
};

const requests: { method: string; url: string; body: unknown }[] = [];
let answer: EventReport = sent;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  requests.push({ method, url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
  if (method === 'POST' && String(input).endsWith('/report/revisions')) {
    answer = {
      ...sent,
      sentOn: null,
      revision: 2,
      sha256: null,
      revisions: [
        ...sent.revisions,
        {
          number: 2,
          reason: 'The flag State asked for the repair date',
          createdBy: 'south.maria',
          createdOn: '2025-06-04T14:30:00.000Z',
          sentOn: null,
          sentBy: null,
          sha256: null,
        },
      ],
    };
    return Response.json(answer, { status: 201 });
  }
  return Response.json(answer);
});

function renderCard() {
  renderWithProviders(<ReportCard event={event} />);
}

beforeEach(() => {
  requests.length = 0;
  answer = sent;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the report card of a sent report', () => {
  it('shows it frozen: read only, when and with which SHA-256 it was sent, no Save and no Mark as sent', async () => {
    renderCard();
    expect(await screen.findByText(`Sent on 2025.06.02 · SHA-256 ${HASH}`)).toBeTruthy();
    expect(screen.getByTestId('report-expectedRepair')).toHaveProperty('readOnly', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as sent' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download (PDF)' })).toBeTruthy();
    const revisions = screen.getByTestId('report-revisions');
    expect(within(revisions).getByText('Revision 1 · Sent on 2025.06.02 by south.lee')).toBeTruthy();
    expect(within(revisions).getByRole('button', { name: 'Download revision 1 (PDF)' })).toBeTruthy();
  });

  it('makes a new revision for the reason given, and then edits it as the first', async () => {
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'New revision' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make revision' }));
    expect(within(dialog).getByText('Say why the report is revised')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
    fireEvent.change(within(dialog).getByTestId('revision-reason'), {
      target: { value: 'The flag State asked for the repair date' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make revision' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: expect.stringContaining('/events/ev1/report/revisions') as string,
        body: { reason: 'The flag State asked for the repair date' },
      },
    ]);
    expect(
      await screen.findByText(
        'Revision 2, superseding revision 1: not sent yet. Edit it and mark it as sent.',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('report-expectedRepair')).toHaveProperty('readOnly', false);
    expect(screen.getByRole('button', { name: 'Mark as sent' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New revision' })).toBeNull();
    expect(screen.getByText('Revision 2 · Not sent yet')).toBeTruthy();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { ComplianceCalendar, ComplianceDeadline } from '@portal/contracts/compliance-calendar';
import { renderWithProviders, testSettings, TEST_PROFILE } from '../../ui/testing/render';
import CalendarPage from './CalendarPage';
import { deadlineWhen, doneBody, stateSummary } from './display';

const deadline = (patch: Partial<ComplianceDeadline>): ComplianceDeadline => ({
  code: 'DCS_REPORT',
  regime: 'IMO_DCS',
  regimeName: 'IMO DCS',
  title: 'IMO DCS data reported to the flag State',
  dueOn: '2026-03-31',
  reportingYear: 2025,
  citation: 'MARPOL Annex VI, regulation 27.3',
  secondary: false,
  state: 'overdue',
  daysLeft: -242,
  done: null,
  remindedAt: null,
  ...patch,
});

const calendar: ComplianceCalendar = {
  organizationId: 'org-1',
  year: 2026,
  today: '2026-11-28',
  reminderDays: 14,
  deadlines: [
    deadline({}),
    deadline({
      code: 'EU_ETS_SURRENDER',
      regime: 'EU_ETS',
      regimeName: 'EU ETS',
      title: 'EU allowances surrendered for the verified emissions',
      dueOn: '2026-09-30',
      secondary: true,
      state: 'done',
      daysLeft: -59,
      done: {
        on: '2026-09-25',
        note: 'Registry transfer EU-123',
        by: 'north.admin',
        recordedAt: '2026-09-25T10:00:00.000Z',
        source: 'person',
      },
    }),
  ],
};
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return Response.json(calendar);
    }),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the compliance calendar page', () => {
  it("shows each deadline's date, state in words and what was recorded, from the organization's calendar", async () => {
    renderWithProviders(<CalendarPage />, { route: '/carbon/calendar?year=2026' });
    const rows = await screen.findAllByTestId('deadline');
    expect(asked[0]).toContain('/organizations/org-1/compliance-calendar?year=2026');
    expect(rows.map((r) => within(r).getByTestId('deadline-state').textContent)).toEqual(['Overdue', 'Done']);
    expect(within(rows[0]!).getByTestId('deadline-when').textContent).toBe('242 days overdue');
    expect(within(rows[1]!).getByText('Registry transfer EU-123')).toBeTruthy();
    expect(within(rows[1]!).getByText(/date confirmed from a secondary source/)).toBeTruthy();
    expect(screen.getByTestId('calendar-summary').textContent).toBe('Nordic, 2026: 1 overdue, 0 due, 1 done');
  });

  it('offers "Mark as done" to administrators only', async () => {
    renderWithProviders(<CalendarPage />, { route: '/carbon/calendar?year=2026' });
    await screen.findAllByTestId('deadline');
    expect(screen.queryByTestId('mark-done')).toBeNull();
    cleanup();
    renderWithProviders(<CalendarPage />, {
      route: '/carbon/calendar?year=2026',
      profile: { ...TEST_PROFILE, roles: ['UserAdmin'] },
    });
    const rows = await screen.findAllByTestId('deadline');
    expect(within(rows[0]!).getByRole('button', { name: /Mark as done/ })).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: /Take back/ })).toBeTruthy();
  });
});

describe('the calendar display rules', () => {
  it('says how long is left or how late, and counts the states', () => {
    expect(deadlineWhen({ state: 'due', daysLeft: 1, done: null })).toBe('1 day left');
    expect(
      deadlineWhen({
        state: 'done',
        daysLeft: -10,
        done: { on: '2026-03-01', note: '', by: 'v@example.com', recordedAt: '', source: 'verifier' },
      }),
    ).toBe('Verified on 2026.03.01 (the verifier v@example.com)');
    expect(deadlineWhen({ state: 'due', daysLeft: 0, done: null })).toBe('Due today');
    expect(deadlineWhen({ state: 'overdue', daysLeft: -1, done: null })).toBe('1 day overdue');
    expect(stateSummary([{ state: 'due' }, { state: 'due' }, { state: 'overdue' }])).toBe(
      '1 overdue, 2 due, 0 done',
    );
  });

  it("refuses a day in the future and hostile text in the note, with the API's words", () => {
    expect(doneBody({ doneOn: '2026-12-01', note: '' }, '2026-11-28').errors?.doneOn).toBe(
      'The day it was done cannot be in the future',
    );
    expect(doneBody({ doneOn: '2026-11-01', note: 'a\u0000b' }, '2026-11-28').errors?.note).toBeTruthy();
    expect(doneBody({ doneOn: '2026-11-01', note: 'Ref 1' }, '2026-11-28').body).toEqual({
      doneOn: '2026-11-01',
      note: 'Ref 1',
    });
  });
});

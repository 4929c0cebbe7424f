import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { DEFAULT_EVENT_RULES, type ComplianceEvent, type EventList } from '@portal/contracts/events';
import { EventFacts } from './EventFacts';
import { EventTable } from './EventTable';

/** The events list's rows and the event page's facts describe each event by its criterion, with the unit. */
const event = (over: Partial<ComplianceEvent>): ComplianceEvent => ({
  id: 'e1',
  facilityId: 'f1',
  facilityName: 'Atlantic Meridian',
  type: 'emission-exceedance',
  start: '2026-11-20T02:00:00.000Z',
  end: '2026-11-20T03:30:00.000Z',
  ongoing: false,
  durationMinutes: 90,
  worstValue: null,
  limit: null,
  startPosition: null,
  endPosition: null,
  classification: 'malfunction',
  reportRequired: true,
  channel: null,
  fault: null,
  state: 'open',
  acknowledgedOn: null,
  acknowledgedBy: null,
  cause: null,
  actionsTaken: null,
  comment: null,
  closedOn: null,
  closedBy: null,
  reportSentOn: null,
  rules: DEFAULT_EVENT_RULES,
  ...over,
});

const ph = event({
  id: 'ph',
  type: 'washwater-exceedance',
  channel: 'WASHWATER_PH',
  worstValue: 6,
  limit: 6.5,
});
const so2 = event({ id: 'so2', worstValue: 5.2, limit: 4.3 });
const pah = event({
  id: 'pah',
  type: 'washwater-exceedance',
  channel: 'WASHWATER_PAH',
  worstValue: 120,
  limit: 50,
});
const gap = event({ id: 'gap', type: 'data-gap', classification: null, reportRequired: false });

afterEach(cleanup);

describe('the events list', () => {
  it('heads the value column neutrally and gives each row its measure, limit and unit', () => {
    const list: EventList = {
      items: [ph, so2, pah, gap],
      total: 4,
      totalCapped: false,
      openByType: {},
      reportsDue: 0,
      openByFacility: {},
    };
    render(
      <MemoryRouter>
        <EventTable list={list} loading={false} page={0} onPage={() => {}} showShip />
      </MemoryRouter>,
    );
    const table = screen.getByTestId('event-table');
    expect(within(table).getByRole('columnheader', { name: 'Worst value' })).toBeTruthy();
    expect(within(table).queryByText('Worst SO2/CO2 ratio')).toBeNull();
    const row = (id: string) => table.querySelector(`[data-event-id="${id}"]`) as HTMLElement;
    expect(within(row('ph')).getByTestId('event-link').textContent).toBe(
      'Washwater exceedance (pH below its minimum)',
    );
    expect(within(row('ph')).getByTestId('event-value').textContent).toBe('pH 6.00 (minimum 6.50)');
    expect(within(row('so2')).getByTestId('event-value').textContent).toBe('SO2/CO2 ratio 5.20 (limit 4.30)');
    expect(within(row('pah')).getByTestId('event-value').textContent).toBe(
      'PAH above inlet 120.0 µg/L (limit 50.0 µg/L)',
    );
    expect(within(row('gap')).getByTestId('event-value').textContent).toBe('–');
  });
});

describe("the event page's facts", () => {
  it('name the criterion, the instrument and the worst value with its minimum and unit', () => {
    render(
      <MemoryRouter>
        <EventFacts event={ph} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('fact-type').textContent).toBe('Washwater exceedance (pH below its minimum)');
    expect(screen.getByTestId('fact-instrument').textContent).toBe(
      'Washwater pH monitoring at the overboard discharge',
    );
    expect(screen.getByText('Lowest reading')).toBeTruthy();
    expect(screen.getByTestId('fact-worst').textContent).toBe('pH 6.00 (minimum 6.50)');
    expect(screen.queryByText(/SO2/)).toBeNull();
  });
});

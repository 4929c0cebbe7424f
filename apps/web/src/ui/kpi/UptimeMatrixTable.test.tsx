import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { buildUptimeMatrix, customPeriod } from '@portal/contracts/rules';
import { UptimeMatrixTable, uptimeCellText } from './UptimeMatrixTable';

describe('uptimeCellText', () => {
  it('truncates to one decimal, says No data, and leaves hours that do not exist empty', () => {
    expect(uptimeCellText(99.99)).toBe('99.9 %');
    expect(uptimeCellText(100)).toBe('100.0 %');
    expect(uptimeCellText(107.25)).toBe('107.2 %');
    expect(uptimeCellText('NO_DATA')).toBe('No data');
    expect(uptimeCellText('INVALID_DATE')).toBe('');
  });
});

describe('UptimeMatrixTable', () => {
  it('has a row per day and a column per UTC hour, each cell the hour of that day', () => {
    const period = customPeriod('2024-03-01', '2024-03-02');
    const matrix = buildUptimeMatrix(
      [
        { timestamp: '2024-03-01T05:00:00Z', value: 98.76 },
        { timestamp: '2024-03-02T23:00:00Z', value: 100 },
      ],
      period,
      'hourly',
    );
    render(<UptimeMatrixTable matrix={matrix} />);
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3); // the header and two days
    expect(within(rows[0]!).getAllByRole('columnheader')).toHaveLength(25);
    const first = within(rows[1]!).getAllByRole('cell');
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('2024.03.01');
    expect(first[5]!.textContent).toBe('98.7 %');
    expect(first[6]!.textContent).toBe('No data');
    expect(within(rows[2]!).getAllByRole('cell')[23]!.textContent).toBe('100.0 %');
  });
});

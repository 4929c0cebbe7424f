import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { DEFAULT_DELIMITED_CONFIGURATION } from '@portal/contracts/readers';
import { validateReaderForm } from '@portal/contracts/forms';
import { ReaderConfigurationForm } from './ReaderConfigurationForm';

function Harness({ header = [] as string[] }) {
  const [json, setJson] = useState(JSON.stringify(DEFAULT_DELIMITED_CONFIGURATION, null, 2));
  return (
    <ReaderConfigurationForm
      readerId="delimited-text"
      value={json}
      onChange={setJson}
      header={header}
      errors={validateReaderForm('delimited-text', json)}
    />
  );
}

const json = () =>
  JSON.parse((screen.getByLabelText('Parser configuration (JSON)') as HTMLTextAreaElement).value);

afterEach(cleanup);

describe('reader configuration form', () => {
  it('writes a choice of the form into the JSON under Advanced', () => {
    render(<Harness />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Delimiter' }));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Tab' }));
    fireEvent.change(screen.getByLabelText('Unit row'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText(/^First data row/), { target: { value: '3' } });
    expect(json()).toMatchObject({ delimiter: '\t', unitRow: 2, firstDataRow: 3 });
  });

  it('shows an edit of the JSON in the form, and says what is wrong', () => {
    render(<Harness />);
    const text = screen.getByLabelText('Parser configuration (JSON)');
    fireEvent.change(text, {
      target: {
        value: JSON.stringify({ ...DEFAULT_DELIMITED_CONFIGURATION, headerRow: 4, firstDataRow: 3 }),
      },
    });
    expect(screen.getByLabelText(/^Header row/)).toHaveProperty('value', '4');
    expect(screen.getByText('The first data row must come after the header row')).toBeTruthy();
    fireEvent.change(text, { target: { value: '{"delimiter": ' } });
    expect(
      screen.getByText('The parser configuration is not valid JSON; correct it under Advanced.'),
    ).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Delimiter' })).toBeNull();
  });

  it('offers the Unix formats and a custom pattern with the hint of its tokens', () => {
    render(<Harness />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Timestamp format' }));
    const options = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'ISO 8601 (2026-01-31T13:45:00)',
      'Unix seconds (1769867100)',
      'Unix milliseconds (1769867100000)',
      'Excel serial date (46053.5729)',
      'Custom pattern',
    ]);
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Custom pattern' }));
    expect(screen.getByLabelText(/^Pattern/)).toHaveProperty('value', 'YYYY-MM-DD HH:mm:ss');
    expect(screen.getByText(/^YYYY MM DD HH mm ss SSS; any other character as written/)).toBeTruthy();
    expect(json().timestampFormat).toBe('YYYY-MM-DD HH:mm:ss');
  });
});

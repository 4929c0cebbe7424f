import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { DEFAULT_CONSTANTS, parseDisplayedTimestamp, TestDataEditor, type TestRow } from './TestDataEditor';

afterEach(cleanup);

function Editor({ initial, onRows }: { initial: TestRow[]; onRows: (rows: TestRow[]) => void }) {
  const [rows, setRows] = useState(initial);
  return (
    <TestDataEditor
      rows={rows}
      onRows={(next) => {
        setRows(next);
        onRows(next);
      }}
      inputNames={['X']}
      constants={DEFAULT_CONSTANTS}
      onConstants={() => undefined}
      disabled={false}
    />
  );
}

describe('test data timestamps', () => {
  it('shows YYYY.MM.DD HH:mm (UTC), and the exact value while editing', () => {
    const onRows = vi.fn();
    render(<Editor initial={[{ timestamp: '2026-11-22T00:00:30.250Z', values: {} }]} onRows={onRows} />);
    const field = screen.getByLabelText('Timestamp 1') as HTMLInputElement;
    expect(field.value).toBe('2026.11.22 00:00');
    fireEvent.focus(field);
    expect(field.value).toBe('2026-11-22T00:00:30.250Z');
    fireEvent.blur(field);
    // Looking at it changes nothing: the seconds the display leaves out are still sent.
    expect(onRows).not.toHaveBeenCalled();
    expect(field.value).toBe('2026.11.22 00:00');
  });

  it('takes a typed YYYY.MM.DD HH:mm as UTC, and keeps text that is no date as typed', () => {
    const onRows = vi.fn();
    render(<Editor initial={[{ timestamp: '2026-11-22T00:00:00.000Z', values: {} }]} onRows={onRows} />);
    const field = screen.getByLabelText('Timestamp 1') as HTMLInputElement;
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: '2026.12.01 13:45' } });
    fireEvent.blur(field);
    expect(onRows).toHaveBeenLastCalledWith([{ timestamp: '2026-12-01T13:45:00.000Z', values: {} }]);
    expect(field.value).toBe('2026.12.01 13:45');
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: 'tomorrow' } });
    fireEvent.blur(field);
    expect(onRows).toHaveBeenLastCalledWith([{ timestamp: 'tomorrow', values: {} }]);
    expect(field.value).toBe('tomorrow');
  });

  it('parses only real days and times', () => {
    expect(parseDisplayedTimestamp('2024.02.29 23:59')).toBe('2024-02-29T23:59:00.000Z');
    for (const text of [
      '2023.02.29 10:00',
      '2026.11.22 24:00',
      '2026-11-22 10:00',
      '2026.11.22',
      '2026.11.22 10:00 extra',
    ])
      expect(parseDisplayedTimestamp(text)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  addUtcMonths,
  endOfUtcDay,
  formatDate,
  formatDateOnly,
  formatDateTime,
  formatDateTimeSeconds,
  formatTimeOnly,
  latestDataLabel,
  NO_DATA,
  NOT_SPECIFIED,
  parseDateOnly,
  parseTimeOnly,
  startOfUtcDay,
  toDate,
  UNKNOWN,
} from './dates';

describe('date display', () => {
  it('formats in UTC whatever the offset in the text', () => {
    expect(formatDate('2024-03-01T01:30:00+02:00')).toBe('2024.02.29');
    expect(formatDateOnly('2024-03-01T01:30:00+02:00')).toBe('2024-02-29');
    expect(formatDateTime('2024-03-01T01:30:00+02:00')).toBe('2024.02.29 23:30');
  });

  it('pads months, days, hours and minutes', () => {
    const d = new Date(Date.UTC(2025, 0, 5, 7, 3));
    expect(formatDate(d)).toBe('2025.01.05');
    expect(formatDateOnly(d)).toBe('2025-01-05');
    expect(formatDateTime(d)).toBe('2025.01.05 07:03');
    expect(formatTimeOnly(d)).toBe('07:03');
  });

  it('shows the seconds, and milliseconds when there are some, for logger rows', () => {
    expect(formatDateTimeSeconds('2026-03-01T09:00:10.000Z')).toBe('2026.03.01 09:00:10');
    expect(formatDateTimeSeconds('2026-03-01T09:00:10.250Z')).toBe('2026.03.01 09:00:10.250');
    expect(formatDateTimeSeconds(null)).toBe('No data');
  });

  it('uses a 24-hour clock at the last minute of the year', () => {
    expect(formatDateTime(Date.UTC(2023, 11, 31, 23, 59, 59, 999))).toBe('2023.12.31 23:59');
  });

  it('shows No data for missing or invalid dates', () => {
    expect(formatDate(null)).toBe(NO_DATA);
    expect(formatDateOnly(undefined)).toBe(NO_DATA);
    expect(formatDateTime('not a date')).toBe(NO_DATA);
    expect(formatDate('')).toBe(NO_DATA);
  });

  it('labels the latest data of a ship', () => {
    expect(latestDataLabel('2024-12-31T23:59:59.999Z')).toBe('2024.12.31');
    expect(latestDataLabel(null)).toBe('No data');
  });

  it('keeps the placeholders word for word', () => {
    expect([NO_DATA, NOT_SPECIFIED, UNKNOWN]).toEqual(['No data', 'Not specified', 'Unknown']);
  });
});

describe('UTC day helpers', () => {
  it('finds the start and end of a UTC day', () => {
    const d = new Date('2024-02-29T15:00:00Z');
    expect(startOfUtcDay(d).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(endOfUtcDay(d).toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });

  it('adds months clamped to the last day of the month', () => {
    expect(addUtcMonths(new Date('2024-01-31T00:00:00Z'), 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addUtcMonths(new Date('2023-01-31T00:00:00Z'), 1).toISOString()).toBe('2023-02-28T00:00:00.000Z');
    expect(addUtcMonths(new Date('2023-11-30T12:00:00Z'), 3).toISOString()).toBe('2024-02-29T12:00:00.000Z');
  });

  it('parses date-only texts and rejects days that do not exist', () => {
    expect(parseDateOnly('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDateOnly('2023-02-29')).toBeNull();
    expect(parseDateOnly('2023-13-01')).toBeNull();
    expect(parseDateOnly('2023-1-01')).toBeNull();
  });

  it('parses HH:mm and rejects out-of-range times', () => {
    expect(parseTimeOnly('00:00')).toBe(0);
    expect(parseTimeOnly('23:59')).toBe(1439);
    expect(parseTimeOnly('24:00')).toBeNull();
    expect(parseTimeOnly('12:60')).toBeNull();
    expect(parseTimeOnly('9:30')).toBeNull();
  });

  it('reads epoch numbers and rejects invalid values', () => {
    expect(toDate(0)?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(toDate('garbage')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  canSetCustomPeriod,
  CUSTOM_PERIOD_MESSAGES,
  customPeriod,
  lastMonthPeriod,
  latest90Period,
  OFFERED_PERIOD_TYPES,
  periodDays,
  restorePeriod,
  serializePeriod,
  validateCustomPeriod,
} from './period';

const iso = (p: { from: Date; to: Date }) => [p.from.toISOString(), p.to.toISOString()];

describe('lastMonthPeriod', () => {
  it('is the previous calendar month in UTC', () => {
    expect(iso(lastMonthPeriod(new Date('2024-05-15T10:00:00Z')))).toEqual([
      '2024-04-01T00:00:00.000Z',
      '2024-04-30T23:59:59.999Z',
    ]);
  });

  it('crosses the year end in January', () => {
    expect(iso(lastMonthPeriod(new Date('2024-01-01T00:00:00Z')))).toEqual([
      '2023-12-01T00:00:00.000Z',
      '2023-12-31T23:59:59.999Z',
    ]);
  });

  it('ends on Feb 29 in a leap year and Feb 28 otherwise', () => {
    expect(lastMonthPeriod(new Date('2024-03-31T23:59:59.999Z')).to.toISOString()).toBe(
      '2024-02-29T23:59:59.999Z',
    );
    expect(lastMonthPeriod(new Date('2023-03-01T00:00:00Z')).to.toISOString()).toBe(
      '2023-02-28T23:59:59.999Z',
    );
  });

  it('uses the UTC month, not the local one', () => {
    // 2024-06-01 01:00 in UTC+3 is still May 31 in UTC, so last month is April.
    expect(lastMonthPeriod(new Date('2024-06-01T01:00:00+03:00')).from.toISOString()).toBe(
      '2024-04-01T00:00:00.000Z',
    );
  });
});

describe('latest90Period', () => {
  it('runs from 91 days ago to the end of yesterday', () => {
    const p = latest90Period(new Date('2024-03-01T12:00:00Z'));
    expect(iso(p)).toEqual(['2023-12-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z']);
    expect(periodDays(p)).toBe(91);
  });
});

describe('customPeriod', () => {
  it('runs from the start of the from day to the end of the to day', () => {
    expect(iso(customPeriod('2024-02-28', '2024-02-29'))).toEqual([
      '2024-02-28T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
    ]);
  });

  it('takes the UTC day of Date values and orders the two days', () => {
    const p = customPeriod(new Date('2025-01-02T18:00:00Z'), new Date('2024-12-31T05:00:00Z'));
    expect(iso(p)).toEqual(['2024-12-31T00:00:00.000Z', '2025-01-02T23:59:59.999Z']);
    expect(periodDays(p)).toBe(3);
  });

  it('covers one whole day when both days are equal', () => {
    expect(periodDays(customPeriod('2024-01-01', '2024-01-01'))).toBe(1);
  });

  it('rejects a value that is not a day', () => {
    expect(() => customPeriod('2023-02-29', '2023-03-01')).toThrow(RangeError);
  });
});

describe('canSetCustomPeriod', () => {
  it('needs exactly two dates', () => {
    expect(canSetCustomPeriod(['2024-01-01', '2024-01-05'])).toBe(true);
    expect(canSetCustomPeriod([new Date(), new Date()])).toBe(true);
    expect(canSetCustomPeriod(['2024-01-01'])).toBe(false);
    expect(canSetCustomPeriod(['2024-01-01', '2024-01-02', '2024-01-03'])).toBe(false);
    expect(canSetCustomPeriod([])).toBe(false);
    expect(canSetCustomPeriod(null)).toBe(false);
    expect(canSetCustomPeriod(['2024-01-01', null])).toBe(false);
    expect(canSetCustomPeriod(['2024-01-01', 'nonsense'])).toBe(false);
  });

  const now = new Date('2024-03-10T08:00:00Z');

  it('refuses From after To instead of swapping them', () => {
    expect(canSetCustomPeriod(['2024-02-05', '2024-02-01'], now)).toBe(false);
    expect(canSetCustomPeriod(['2024-02-01', '2024-02-01'], now)).toBe(true);
  });

  it('refuses a day after today (UTC)', () => {
    expect(canSetCustomPeriod(['2024-03-01', '2024-03-10'], now)).toBe(true);
    expect(canSetCustomPeriod(['2024-03-01', '2024-03-11'], now)).toBe(false);
    expect(canSetCustomPeriod(['2024-03-11', '2024-03-12'], now)).toBe(false);
  });
});

describe('validateCustomPeriod', () => {
  const now = new Date('2024-03-10T23:30:00Z');

  it('says nothing about empty or valid fields', () => {
    expect(validateCustomPeriod(null, null, now)).toEqual({});
    expect(validateCustomPeriod('2024-03-01', null, now)).toEqual({});
    expect(validateCustomPeriod('2024-03-01', '2024-03-10', now)).toEqual({});
  });

  it('puts From after To on the To field', () => {
    expect(validateCustomPeriod('2024-03-05', '2024-03-01', now)).toEqual({
      to: CUSTOM_PERIOD_MESSAGES.toBeforeFrom,
    });
  });

  it('refuses days after the current UTC day on the field that has one', () => {
    expect(validateCustomPeriod('2024-03-11', null, now)).toEqual({ from: CUSTOM_PERIOD_MESSAGES.future });
    expect(validateCustomPeriod('2024-03-01', '2024-03-11', now)).toEqual({
      to: CUSTOM_PERIOD_MESSAGES.future,
    });
    // A local evening already on the next day elsewhere is still today in UTC.
    expect(validateCustomPeriod('2024-03-10', '2024-03-10', now)).toEqual({});
  });

  it('refuses a text that is no day', () => {
    expect(validateCustomPeriod('2023-02-29', '2023-03-01', now)).toEqual({
      from: CUSTOM_PERIOD_MESSAGES.invalidDay,
    });
  });
});

describe('stored period', () => {
  const now = new Date('2024-03-10T08:00:00Z');

  it('offers lastMonth and custom only', () => {
    expect(OFFERED_PERIOD_TYPES).toEqual(['lastMonth', 'custom']);
  });

  it('restores a custom period exactly', () => {
    const p = customPeriod('2023-12-30', '2024-01-02');
    expect(restorePeriod(serializePeriod(p), now)).toEqual(p);
  });

  it('recomputes lastMonth and latest90 against the current time', () => {
    const stored = serializePeriod(lastMonthPeriod(new Date('2020-07-01T00:00:00Z')));
    expect(restorePeriod(stored, now)).toEqual(lastMonthPeriod(now));
    expect(restorePeriod(serializePeriod(latest90Period(new Date('2020-01-01'))), now)).toEqual(
      latest90Period(now),
    );
  });

  it.each([
    ['nothing stored', null],
    ['empty text', ''],
    ['broken JSON', '{"type":'],
    ['unknown type', '{"type":"lastYear"}'],
    ['a bare string', '"custom"'],
    ['custom without days', '{"type":"custom"}'],
    ['custom with an impossible day', '{"type":"custom","from":"2023-02-29","to":"2023-03-02"}'],
    ['custom with reversed days', '{"type":"custom","from":"2024-02-02","to":"2024-01-02"}'],
  ])('falls back to lastMonth with %s', (_, stored) => {
    expect(restorePeriod(stored, now)).toEqual(lastMonthPeriod(now));
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatByteSize,
  INSPECTION_PACK_PERIOD_MESSAGES as M,
  inspectionPackFileName,
  monthPackPeriod,
  packPeriodInstants,
  packPeriodLabel,
  packPeriodProblem,
  previousMonth,
} from './inspection-packs';
import { newInspectionPackSchema } from '../inspection-packs';

describe('the period of an inspection pack', () => {
  it('is a month from its first to its last day, February of a leap year included', () => {
    expect(monthPackPeriod('2025-03')).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    expect(monthPackPeriod('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthPackPeriod('2025-02')).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(monthPackPeriod('2025-13')).toBeNull();
    expect(monthPackPeriod('March')).toBeNull();
  });

  it('schedules the previous calendar month in UTC, December across New Year', () => {
    expect(previousMonth(new Date('2025-04-10T08:00:00Z'))).toBe('2025-03');
    expect(previousMonth(new Date('2025-01-01T00:30:00Z'))).toBe('2024-12');
    // Still the last day of March in UTC, though April already in Tokyo.
    expect(previousMonth(new Date('2025-03-31T23:30:00Z'))).toBe('2025-02');
  });

  it('stands for the instants from the first day 00:00 to the day after the last, UTC', () => {
    const { from, to } = packPeriodInstants({ from: '2025-03-01', to: '2025-03-31' });
    expect([from.toISOString(), to.toISOString()]).toEqual([
      '2025-03-01T00:00:00.000Z',
      '2025-04-01T00:00:00.000Z',
    ]);
  });

  it('is refused when a day is not one, the days are reversed, it is too long or it starts today or later', () => {
    const today = new Date('2025-04-10T12:00:00Z');
    expect(packPeriodProblem({ from: '2025-03-01', to: '2025-03-31' }, today)).toBeNull();
    expect(packPeriodProblem({ from: '2025-02-30', to: '2025-03-31' }, today)).toEqual({
      field: 'from',
      message: M.invalidDay,
    });
    expect(packPeriodProblem({ from: '2025-03-05', to: '2025-03-01' }, today)).toEqual({
      field: 'to',
      message: M.order,
    });
    expect(packPeriodProblem({ from: '2024-01-01', to: '2025-02-04' }, today)?.message).toBe(M.tooLong);
    expect(packPeriodProblem({ from: '2024-01-01', to: '2025-02-03' }, today)).toBeNull();
    expect(packPeriodProblem({ from: '2025-04-10', to: '2025-04-10' }, today)?.message).toBe(M.future);
    expect(packPeriodProblem({ from: '2025-04-09', to: '2025-04-10' }, today)).toBeNull();
  });

  it('is checked by the request schema with the field that is wrong', () => {
    const parsed = newInspectionPackSchema.safeParse({ from: '2025-03-05', to: '2025-03-01' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['to'], message: M.order });
    expect(
      newInspectionPackSchema.safeParse({ from: '2025-03-05T00:00:00Z', to: '2025-03-06' }).success,
    ).toBe(false);
  });

  it('reads as a month when it is one, else as its days', () => {
    expect(packPeriodLabel({ from: '2025-03-01', to: '2025-03-31' })).toBe('March 2025');
    expect(packPeriodLabel({ from: '2025-03-01', to: '2025-03-30' })).toBe('2025.03.01 to 2025.03.30');
    expect(packPeriodLabel({ from: '2025-03-04', to: '2025-03-04' })).toBe('2025.03.04');
  });
});

describe('the file of a pack', () => {
  it('is named after the ship (made safe) and the period', () => {
    expect(inspectionPackFileName('MV Nordic Star', { from: '2025-03-01', to: '2025-03-31' })).toBe(
      'MV_Nordic_Star_2025-03_inspection_pack.zip',
    );
    expect(inspectionPackFileName('Łódź / Πόλη', { from: '2025-03-03', to: '2025-03-05' })).toBe(
      'Łódź_Πόλη_2025-03-03_2025-03-05_inspection_pack.zip',
    );
    expect(inspectionPackFileName('東方 "A:B"', { from: '2025-03-03', to: '2025-03-05' })).toBe(
      '東方_A_B_2025-03-03_2025-03-05_inspection_pack.zip',
    );
    expect(inspectionPackFileName('../..', { from: '2025-03-03', to: '2025-03-05' })).toBe(
      'ship_2025-03-03_2025-03-05_inspection_pack.zip',
    );
  });

  it('states its size as people read it', () => {
    expect(formatByteSize(840)).toBe('840 B');
    expect(formatByteSize(12_400)).toBe('12.4 kB');
    expect(formatByteSize(318_000_000)).toBe('318 MB');
    expect(formatByteSize(1_234_000_000)).toBe('1.2 GB');
  });
});

import { describe, expect, it } from 'vitest';
import { deadlineState, deadlinesOfYear, daysUntil, reminderDue } from './calendar';
import { daysInYear, projectToYearEnd, scrubberEconomics } from './scrubber-economics';

describe('compliance calendar', () => {
  it('lists the deadlines of 2026 for the reporting year 2025, in date order, without UK ETS yet', () => {
    const days = deadlinesOfYear(2026).map((d) => `${d.dueOn} ${d.code}`);
    expect(days).toEqual([
      '2026-01-31 MRV_REPORT_TO_VERIFIER',
      '2026-01-31 FUELEU_REPORT_TO_VERIFIER',
      '2026-03-31 DCS_REPORT',
      '2026-03-31 MRV_VERIFIED_REPORT',
      '2026-03-31 MRV_COMPANY_DATA',
      '2026-03-31 FUELEU_REPORT_RECORDED',
      '2026-04-30 FUELEU_FLEXIBILITY',
      '2026-06-30 FUELEU_DOCUMENT_OF_COMPLIANCE',
      '2026-09-30 EU_ETS_SURRENDER',
    ]);
    expect(deadlinesOfYear(2026).every((d) => d.reportingYear === 2025)).toBe(true);
  });

  it('adds UK ETS from 2027 (maritime in the UK ETS from 1 July 2026) and has no FuelEU before 2026', () => {
    const codes = deadlinesOfYear(2027).map((d) => d.code);
    expect(codes).toContain('UK_ETS_REPORT');
    expect(codes).toContain('UK_ETS_SURRENDER');
    expect(deadlinesOfYear(2025).map((d) => d.code)).toEqual([
      'MRV_REPORT_TO_VERIFIER',
      'DCS_REPORT',
      'MRV_VERIFIED_REPORT',
      'MRV_COMPANY_DATA',
      'EU_ETS_SURRENDER',
    ]);
  });

  it('is due up to and on its day, overdue from the day after, done once recorded', () => {
    expect(deadlineState('2026-03-31', null, '2026-03-31')).toBe('due');
    expect(deadlineState('2026-03-31', null, '2026-04-01')).toBe('overdue');
    expect(deadlineState('2026-03-31', '2026-04-03', '2026-11-28')).toBe('done');
    expect(daysUntil('2026-03-31', '2026-03-17')).toBe(14);
  });

  it('reminds from 14 days before to the day itself, never when done', () => {
    expect(reminderDue('2026-09-30', null, '2026-09-15')).toBe(false);
    expect(reminderDue('2026-09-30', null, '2026-09-16')).toBe(true);
    expect(reminderDue('2026-09-30', null, '2026-09-30')).toBe(true);
    expect(reminderDue('2026-09-30', null, '2026-10-01')).toBe(false);
    expect(reminderDue('2026-09-30', '2026-09-20', '2026-09-25')).toBe(false);
  });
});

describe('scrubber economics', () => {
  it('saves the spread on the HSFO burnt, less the fuel its power takes at the HSFO price', () => {
    // 1,000 t HSFO at a spread of 150 EUR/t = 150,000; 20 t of penalty fuel at 450 EUR/t = 9,000.
    const e = scrubberEconomics(
      { hsfoTonnes: 1000, penaltyTonnes: 20 },
      { hsfoEurPerTonne: 450, vlsfoEurPerTonne: 600 },
    );
    expect(e).toEqual({
      spreadEurPerTonne: 150,
      fuelSavedEur: 150_000,
      penaltyEur: 9_000,
      netEur: 141_000,
      paying: true,
    });
  });

  it('does not pay when the spread closes', () => {
    const e = scrubberEconomics(
      { hsfoTonnes: 1000, penaltyTonnes: 20 },
      { hsfoEurPerTonne: 500, vlsfoEurPerTonne: 505 },
    );
    expect(e.netEur).toBe(-5_000);
    expect(e.paying).toBe(false);
  });

  it('projects to the year end at the rate per day with data', () => {
    // 100 over 73 days with data, 292 days of the year left: 100 + 100 / 73 x 292 = 500.
    expect(projectToYearEnd(100, 73, 292)).toBe(500);
    expect(projectToYearEnd(100, 73, 0)).toBe(100);
    expect(projectToYearEnd(100, 0, 365)).toBeNull();
    expect(daysInYear(2028)).toBe(366);
  });
});

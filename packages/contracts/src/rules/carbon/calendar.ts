/**
 * The compliance calendar (issue "Step 5 of 7"; docs/decisions/0119-compliance-calendar-and-cockpit.md): every
 * deadline an organization's ships meet in a calendar year under IMO DCS, EU MRV, EU ETS, FuelEU Maritime and UK
 * ETS, each for the reporting year before it, with its state (done, due, overdue) and when its reminder goes.
 *
 * Dates are days (YYYY-MM-DD, UTC). A deadline "by 31 March" is met on 31 March itself: it is overdue from the day
 * after. Each date is checked against the instrument's text where the text could be read; `secondary` says where
 * only a secondary source (a verifier's, a regulator's or a law firm's summary) was read.
 */

export const REGIMES = ['IMO_DCS', 'EU_MRV', 'EU_ETS', 'FUELEU', 'UK_ETS'] as const;
export type Regime = (typeof REGIMES)[number];

export const REGIME_NAMES: Record<Regime, string> = {
  IMO_DCS: 'IMO DCS',
  EU_MRV: 'EU MRV',
  EU_ETS: 'EU ETS',
  FUELEU: 'FuelEU Maritime',
  UK_ETS: 'UK ETS',
};

export const DEADLINE_CODES = [
  'DCS_REPORT',
  'MRV_REPORT_TO_VERIFIER',
  'MRV_VERIFIED_REPORT',
  'MRV_COMPANY_DATA',
  'EU_ETS_SURRENDER',
  'FUELEU_REPORT_TO_VERIFIER',
  'FUELEU_REPORT_RECORDED',
  'FUELEU_FLEXIBILITY',
  'FUELEU_DOCUMENT_OF_COMPLIANCE',
  'UK_ETS_REPORT',
  'UK_ETS_SURRENDER',
] as const;
export type DeadlineCode = (typeof DEADLINE_CODES)[number];

export interface DeadlineRule {
  code: DeadlineCode;
  regime: Regime;
  /** What is due, in the words shown. */
  title: string;
  /** The day of the year after the reporting year (month 1-12). */
  month: number;
  day: number;
  /** The first reporting year the deadline applies to. */
  firstReportingYear: number;
  /** The instrument, article and paragraph. */
  citation: string;
  /** True when the date could only be checked against a secondary source, not the instrument's own text. */
  secondary: boolean;
}

export const DEADLINE_RULES: readonly DeadlineRule[] = [
  {
    // MARPOL Annex VI reg. 27.3 (MEPC.278(70)): "within three months after the end of each calendar year, the ship
    // shall report to its Administration ... the aggregated value for each datum specified in appendix IX"; data
    // collected from calendar year 2019 (reg. 27.1). Read in the regulation's text.
    code: 'DCS_REPORT',
    regime: 'IMO_DCS',
    title: 'IMO DCS data reported to the flag State',
    month: 3,
    day: 31,
    firstReportingYear: 2019,
    citation: 'MARPOL Annex VI, regulation 27.3',
    secondary: false,
  },
  {
    // Regulation (EU) 2015/757 art. 11(1) as amended by Regulation (EU) 2023/957: emissions report of each ship to
    // the verifier by 31 January, from 2025. Only secondary sources could be read (the amending text's stored copy
    // showed its recitals, not art. 11).
    code: 'MRV_REPORT_TO_VERIFIER',
    regime: 'EU_MRV',
    title: 'EU MRV emissions report of each ship sent to the verifier',
    month: 1,
    day: 31,
    firstReportingYear: 2024,
    citation: 'Regulation (EU) 2015/757, art. 11(1), as amended by Regulation (EU) 2023/957',
    secondary: true,
  },
  {
    // Regulation (EU) 2015/757 art. 11(1) as amended: the satisfactorily verified emissions report to the Commission
    // and the flag State by 31 March (and, for ETS, verified emissions by 31 March: the Dutch Emissions Authority's
    // summary). Secondary only.
    code: 'MRV_VERIFIED_REPORT',
    regime: 'EU_MRV',
    title: 'EU MRV verified emissions report submitted (THETIS-MRV)',
    month: 3,
    day: 31,
    firstReportingYear: 2024,
    citation: 'Regulation (EU) 2015/757, art. 11(1), as amended by Regulation (EU) 2023/957',
    secondary: true,
  },
  {
    // Regulation (EU) 2015/757 art. 11a(1), inserted by Regulation (EU) 2023/957 (rules: Delegated Regulation (EU)
    // 2023/2849, adopted under art. 11a(4)): verified emissions data aggregated at company level to the administering
    // authority by 31 March. Secondary only.
    code: 'MRV_COMPANY_DATA',
    regime: 'EU_MRV',
    title: 'EU MRV company-level aggregated emissions data submitted to the administering authority',
    month: 3,
    day: 31,
    firstReportingYear: 2024,
    citation: 'Regulation (EU) 2015/757, art. 11a(1), inserted by Regulation (EU) 2023/957',
    secondary: true,
  },
  {
    // Directive 2003/87/EC art. 12(2a) and (3), as amended by Directive (EU) 2023/959: shipping companies surrender
    // allowances for the previous year's verified emissions by 30 September, first for 2024. The consolidated art. 12
    // read names shipping companies' obligations "under paragraph 3"; the 30 September date from the Dutch Emissions
    // Authority's summary of ETS deadlines. Secondary for the date.
    code: 'EU_ETS_SURRENDER',
    regime: 'EU_ETS',
    title: 'EU allowances surrendered for the verified emissions',
    month: 9,
    day: 30,
    firstReportingYear: 2024,
    citation: 'Directive 2003/87/EC, art. 12(2a) and (3), as amended by Directive (EU) 2023/959',
    secondary: true,
  },
  {
    // Regulation (EU) 2023/1805 art. 15(1): FuelEU report of each ship to the verifier by 31 January, from 2026 (the
    // reporting period 2025). DNV's and Lloyd's Register's timetables; the Regulation's text of art. 15 was not read.
    code: 'FUELEU_REPORT_TO_VERIFIER',
    regime: 'FUELEU',
    title: 'FuelEU report of each ship sent to the verifier',
    month: 1,
    day: 31,
    firstReportingYear: 2025,
    citation: 'Regulation (EU) 2023/1805, art. 15(1)',
    secondary: true,
  },
  {
    // Regulation (EU) 2023/1805 art. 16(1): the verifier records the verified report and the compliance balance in
    // the FuelEU database by 31 March. DNV's timetable. Secondary.
    code: 'FUELEU_REPORT_RECORDED',
    regime: 'FUELEU',
    title: 'FuelEU report verified and recorded in the FuelEU database',
    month: 3,
    day: 31,
    firstReportingYear: 2025,
    citation: 'Regulation (EU) 2023/1805, art. 16(1)',
    secondary: true,
  },
  {
    // Regulation (EU) 2023/1805 arts. 20(1) and 21(3): banking, borrowing and pooling recorded in the FuelEU database
    // by 30 April. DNV's timetable. Secondary.
    code: 'FUELEU_FLEXIBILITY',
    regime: 'FUELEU',
    title: 'FuelEU banking, borrowing and pooling recorded',
    month: 4,
    day: 30,
    firstReportingYear: 2025,
    citation: 'Regulation (EU) 2023/1805, arts. 20(1) and 21(3)',
    secondary: true,
  },
  {
    // Regulation (EU) 2023/1805 art. 23(3) (penalty paid first, art. 23(2)): the FuelEU document of compliance held
    // by 30 June. DNV's timetable ("By 30 June each year: Verifier issues FuelEU Document of Compliance"). Secondary.
    code: 'FUELEU_DOCUMENT_OF_COMPLIANCE',
    regime: 'FUELEU',
    title: 'FuelEU document of compliance held (penalty paid first, if any)',
    month: 6,
    day: 30,
    firstReportingYear: 2025,
    citation: 'Regulation (EU) 2023/1805, art. 23(3)',
    secondary: true,
  },
  {
    // The Greenhouse Gas Emissions Trading Scheme Order 2020 (SI 2020/1265) as amended by the Extension to Maritime
    // Activities Order 2026 (SI 2026/392, Part 4ZA and Schedule 2A): maritime from 1 July 2026; the annual emissions
    // report by 31 March of the following year. Secondary only (a law firm's summary of the 2026 Order; the UK ETS
    // feature's UK_ETS_REPORT_DUE in uk-ets.ts cites Hill Dickinson's note and the Commons debate of 3 February 2026).
    code: 'UK_ETS_REPORT',
    regime: 'UK_ETS',
    title: 'UK ETS verified emissions report submitted (METS)',
    month: 3,
    day: 31,
    firstReportingYear: 2026,
    citation: 'Greenhouse Gas Emissions Trading Scheme Order 2020, Part 4ZA and Schedule 2A (SI 2026/392)',
    secondary: true,
  },
  {
    // The same Order: allowances surrendered by 30 April (UK_ETS_SURRENDER_DUE in uk-ets.ts: Hill Dickinson's note on
    // the Authority's interim response). Secondary only. For the 2026 emissions the Authority announced one surrender
    // for 2026 and 2027 together in April 2028 (trade press, NOT verified against the Order): the calendar keeps
    // 30 April 2027, as the UK ETS feature does, until the Order's text is read.
    code: 'UK_ETS_SURRENDER',
    regime: 'UK_ETS',
    title: 'UK allowances surrendered for the verified emissions',
    month: 4,
    day: 30,
    firstReportingYear: 2026,
    citation: 'Greenhouse Gas Emissions Trading Scheme Order 2020, Part 4ZA and Schedule 2A (SI 2026/392)',
    secondary: true,
  },
];

/** Days before a deadline that its reminder goes, once, to the organization's administrators. */
export const DEADLINE_REMINDER_DAYS = 14;

export const DEADLINE_STATES = ['done', 'due', 'overdue'] as const;
export type DeadlineState = (typeof DEADLINE_STATES)[number];

export interface Deadline extends DeadlineRule {
  /** The calendar year the deadline falls in. */
  year: number;
  /** The reporting year it is for (the year before). */
  reportingYear: number;
  /** YYYY-MM-DD. */
  dueOn: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The deadlines that fall in `year` (for the reporting year before it), in date order, then in the rules' order. */
export function deadlinesOfYear(year: number): Deadline[] {
  const reportingYear = year - 1;
  return DEADLINE_RULES.filter((r) => reportingYear >= r.firstReportingYear)
    .map((r) => ({ ...r, year, reportingYear, dueOn: `${year}-${pad(r.month)}-${pad(r.day)}` }))
    .sort((a, b) => a.dueOn.localeCompare(b.dueOn));
}

/** Whole days from `today` to `dueOn` (negative once past). */
export const daysUntil = (dueOn: string, today: string) => Math.round((dayMs(dueOn) - dayMs(today)) / DAY_MS);

/** Done once someone recorded it; overdue from the day after its date; due until then. */
export function deadlineState(dueOn: string, doneOn: string | null, today: string): DeadlineState {
  if (doneOn) return 'done';
  return daysUntil(dueOn, today) < 0 ? 'overdue' : 'due';
}

/** Its reminder is due from `days` before the deadline to the deadline itself, while it is not done. */
export function reminderDue(
  dueOn: string,
  doneOn: string | null,
  today: string,
  days = DEADLINE_REMINDER_DAYS,
): boolean {
  if (doneOn) return false;
  const left = daysUntil(dueOn, today);
  return left >= 0 && left <= days;
}

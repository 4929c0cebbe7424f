import { z } from 'zod';
import { userText } from './forms/text';
import { DEADLINE_CODES, DEADLINE_STATES, REGIMES } from './rules/carbon/calendar';

/**
 * The compliance calendar's API (apps/api/src/features/compliance-calendar; decision 0119): an organization's
 * deadlines of a calendar year (rules/carbon/calendar.ts) with their state, and the "done" a person records.
 */

const instant = z.iso.datetime({ offset: true });
const day = z.iso.date({ message: 'Must be a date (YYYY-MM-DD)' });

export const deadlineCodeSchema = z.enum(DEADLINE_CODES, { error: 'Unknown deadline' });

export const complianceDeadlineSchema = z.object({
  code: deadlineCodeSchema,
  regime: z.enum(REGIMES),
  regimeName: z.string(),
  title: z.string(),
  /** YYYY-MM-DD: met on that day, overdue from the next. */
  dueOn: day,
  reportingYear: z.number().int(),
  citation: z.string(),
  /** True when the date could only be checked against a secondary source. */
  secondary: z.boolean(),
  state: z.enum(DEADLINE_STATES),
  /** Whole days from today (negative once past). */
  daysLeft: z.number().int(),
  done: z
    .object({
      on: day,
      note: z.string(),
      by: z.string(),
      recordedAt: instant,
      /** A person's "done", or (IMO DCS) the verifier's opinion on the year's figures (features/verification). */
      source: z.enum(['person', 'verifier']),
    })
    .nullable()
    .describe(
      "What says it was done: a person (the day, a note, who and when they recorded it) or, for the IMO DCS report, the verifier's satisfactory opinion on the reporting year.",
    ),
  /** When the reminder went to the organization's administrators; null before. */
  remindedAt: instant.nullable(),
});
export type ComplianceDeadline = z.infer<typeof complianceDeadlineSchema>;

export const complianceCalendarSchema = z.object({
  organizationId: z.string(),
  year: z.number().int(),
  /** The day the states are of (UTC). */
  today: day,
  /** Days before a deadline that its reminder goes. */
  reminderDays: z.number().int(),
  deadlines: z.array(complianceDeadlineSchema),
});
export type ComplianceCalendar = z.infer<typeof complianceCalendarSchema>;

export const CALENDAR_MIN_YEAR = 2020;
export const CALENDAR_MAX_YEAR = 2100;

export const calendarYearSchema = z.coerce
  .number({ error: 'Year must be a number' })
  .int('Year must be a whole number')
  .min(CALENDAR_MIN_YEAR, `Year is from ${CALENDAR_MIN_YEAR}`)
  .max(CALENDAR_MAX_YEAR, `Year is at most ${CALENDAR_MAX_YEAR}`);

export const calendarQuerySchema = z.object({
  year: calendarYearSchema.describe(
    'The calendar year whose deadlines are listed (for the reporting year before).',
  ),
});

export const deadlineDoneInputSchema = z.object({
  doneOn: day.describe('The day it was done (YYYY-MM-DD).'),
  note: userText()
    .max(500, 'A note is at most 500 characters')
    .default('')
    .describe('What was done: the verifier, the reference, the registry transaction.'),
});
export type DeadlineDoneInput = z.input<typeof deadlineDoneInputSchema>;

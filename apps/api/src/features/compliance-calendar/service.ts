import { sql, type Kysely } from 'kysely';
import type {
  ComplianceCalendar,
  ComplianceDeadline,
  DeadlineDoneInput,
} from '@portal/contracts/compliance-calendar';
import {
  DEADLINE_REMINDER_DAYS,
  REGIME_NAMES,
  dayOf,
  daysUntil,
  deadlineState,
  deadlinesOfYear,
  type DeadlineCode,
} from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { auditedChange } from '../audit/audit';
import type { Caller } from '../access/caller';

/**
 * The compliance calendar (decision 0119): an organization's deadlines of a calendar year from the rules
 * (rules/carbon/calendar.ts), each with what a person recorded as done and when its reminder went. The portal does
 * not file anything with a verifier or registry itself, so "done" is what a person records (audited).
 */

export const today = (now = Date.now()) => dayOf(now);

export async function calendarOf(
  db: Kysely<Database>,
  organizationId: string,
  year: number,
  now = Date.now(),
): Promise<ComplianceCalendar> {
  const [marks, reminders, opinion] = await Promise.all([
    db
      .selectFrom('compliance_deadline_marks')
      .select(['code', sql<string>`done_on::text`.as('done_on'), 'note', 'marked_by_name', 'marked_on'])
      .where('organization_id', '=', organizationId)
      .where('year', '=', year)
      .execute(),
    db
      .selectFrom('compliance_deadline_reminders')
      .select(['code', 'sent_on'])
      .where('organization_id', '=', organizationId)
      .where('year', '=', year)
      .execute(),
    verifiedOpinion(db, organizationId, year - 1),
  ]);
  const day = today(now);
  const markOf = new Map(marks.map((m) => [m.code, m]));
  const reminderOf = new Map(reminders.map((r) => [r.code, r.sent_on]));
  return {
    organizationId,
    year,
    today: day,
    reminderDays: DEADLINE_REMINDER_DAYS,
    deadlines: deadlinesOfYear(year).map((d) => {
      const mark = markOf.get(d.code);
      const reminded = reminderOf.get(d.code);
      return {
        code: d.code,
        regime: d.regime,
        regimeName: REGIME_NAMES[d.regime],
        title: d.title,
        dueOn: d.dueOn,
        reportingYear: d.reportingYear,
        citation: d.citation,
        secondary: d.secondary,
        ...doneOf(d.code, d.dueOn, day, mark, opinion),
        remindedAt: reminded ? new Date(reminded).toISOString() : null,
      };
    }),
  };
}

type Mark = { done_on: string; note: string; marked_by_name: string; marked_on: Date };
type Opinion = { opinion: string; recorded_by_name: string; recorded_on: Date };

/**
 * The latest opinion of the organization's verifier on a year's figures (features/verification: the IMO DCS totals of
 * its own ships), when it is satisfactory (with or without comments); null otherwise.
 */
export async function verifiedOpinion(
  db: Kysely<Database>,
  organizationId: string,
  reportingYear: number,
): Promise<Opinion | null> {
  const latest = await db
    .selectFrom('verification_opinions')
    .select(['opinion', 'recorded_by_name', 'recorded_on'])
    .where('organization_id', '=', organizationId)
    .where('year', '=', reportingYear)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest && latest.opinion !== 'not-verified' ? latest : null;
}

const OPINION_TEXT: Record<string, string> = {
  satisfactory: 'satisfactory',
  'satisfactory-with-comments': 'satisfactory with comments',
};

/**
 * A deadline's state and what says it is done: a person's mark, else (the IMO DCS report only) the verifier's
 * satisfactory opinion on the reporting year's figures, the IMO DCS totals it verifies (MARPOL Annex VI reg. 27.7).
 */
export function doneOf(
  code: DeadlineCode,
  dueOn: string,
  today: string,
  mark: Mark | undefined,
  opinion: Opinion | null,
): Pick<ComplianceDeadline, 'state' | 'daysLeft' | 'done'> {
  const done: ComplianceDeadline['done'] = mark
    ? {
        on: mark.done_on,
        note: mark.note,
        by: mark.marked_by_name,
        recordedAt: new Date(mark.marked_on).toISOString(),
        source: 'person',
      }
    : code === 'DCS_REPORT' && opinion
      ? {
          on: new Date(opinion.recorded_on).toISOString().slice(0, 10),
          note: `The verifier's opinion on the figures: ${OPINION_TEXT[opinion.opinion] ?? opinion.opinion}.`,
          by: opinion.recorded_by_name,
          recordedAt: new Date(opinion.recorded_on).toISOString(),
          source: 'verifier',
        }
      : null;
  return { state: deadlineState(dueOn, done?.on ?? null, today), daysLeft: daysUntil(dueOn, today), done };
}

/** The deadline of that year, or 404 (a code of no deadline that year, such as UK ETS before 2027). */
function deadlineOf(year: number, code: DeadlineCode) {
  const deadline = deadlinesOfYear(year).find((d) => d.code === code);
  if (!deadline) throw notFound('Deadline not found');
  return deadline;
}

/** Records a deadline as done (replacing what was recorded before), audited. */
export async function markDone(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  year: number,
  code: DeadlineCode,
  input: Required<DeadlineDoneInput>,
): Promise<void> {
  deadlineOf(year, code);
  if (input.doneOn > today()) throw badRequest('The day it was done cannot be in the future');
  await auditedChange(
    db,
    caller,
    async (trx) => {
      const values = {
        done_on: input.doneOn,
        note: input.note,
        marked_by: caller.apiKey ? null : caller.userId,
        marked_by_name: caller.username,
        marked_on: new Date(),
      };
      await trx
        .insertInto('compliance_deadline_marks')
        .values({ organization_id: organizationId, year, code, ...values })
        .onConflict((oc) => oc.columns(['organization_id', 'year', 'code']).doUpdateSet(values))
        .execute();
    },
    {
      action: 'compliance-calendar.done',
      subject: organizationId,
      detail: { year, code, doneOn: input.doneOn, note: input.note },
    },
  );
}

/** Takes back a "done" recorded by mistake, audited; the deadline is due (or overdue) again. */
export async function unmarkDone(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  year: number,
  code: DeadlineCode,
): Promise<void> {
  deadlineOf(year, code);
  await auditedChange(
    db,
    caller,
    async (trx) => {
      const removed = await trx
        .deleteFrom('compliance_deadline_marks')
        .where('organization_id', '=', organizationId)
        .where('year', '=', year)
        .where('code', '=', code)
        .returning(sql<string>`done_on::text`.as('done_on'))
        .executeTakeFirst();
      if (!removed) throw notFound('Nothing was recorded for this deadline');
      return removed.done_on;
    },
    (doneOn) => ({
      action: 'compliance-calendar.undone',
      subject: organizationId,
      detail: { year, code, doneOn },
    }),
  );
}

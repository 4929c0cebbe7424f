import { sql, type Kysely } from 'kysely';
import type { ComplianceCalendar, DeadlineDoneInput } from '@portal/contracts/compliance-calendar';
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
  const [marks, reminders] = await Promise.all([
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
        state: deadlineState(d.dueOn, mark?.done_on ?? null, day),
        daysLeft: daysUntil(d.dueOn, day),
        done: mark
          ? {
              on: mark.done_on,
              note: mark.note,
              by: mark.marked_by_name,
              recordedAt: new Date(mark.marked_on).toISOString(),
            }
          : null,
        remindedAt: reminded ? new Date(reminded).toISOString() : null,
      };
    }),
  };
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

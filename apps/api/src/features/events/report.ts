import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  eventReportFieldsOf,
  type EventReport,
  type EventReportFields,
  type EventReportRevision,
  type EventReportStatus,
  type NewEventReportRevision,
} from '@portal/contracts/events';
import { formatDate } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { appendRecordBookEntries, lockEvent, storeEventReport } from '../../storage';
import type { Caller } from '../access/caller';
import { auditedChange } from '../audit/audit';
import { eventReportPdf } from './documents';
import { findVisibleEvent, presentEvent } from './queries';
import { actor, personEntry, reportFields, type EventRow } from './service';

/**
 * The report to the flag State and the port State as sent (docs/decisions/0104-sent-reports.md). Marking it sent
 * renders its PDF once and keeps the bytes, with their SHA-256 in the record book's "Report sent" entry; from then on
 * the report is frozen. A correction is the next revision: made with a reason, edited, and sent like the first.
 *
 * The event's `report` holds the current revision's fields and `report_sent_on` its sent day (frozen when set);
 * `event_report_revisions` holds each revision, open until sent, then kept as sent (a trigger refuses changes).
 */

type RevisionRow = {
  revision: number;
  reason: string | null;
  created_on: Date;
  created_by_name: string | null;
  sent_on: Date | string | null;
  sent_by_name: string | null;
  sha256: string | null;
};

const day = (d: Date | string | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

const NOT_REQUIRED = 'This event needs no report to the flag State and the port State';
export const REPORT_MESSAGES = {
  frozen: (sentOn: string) =>
    `The report was sent on ${formatDate(sentOn)} and can no longer be changed: make a new revision to correct it`,
  sentAlready: (revision: number, sentOn: string) =>
    `Revision ${revision} of the report was sent on ${formatDate(sentOn)} already: make a new revision to correct it`,
  notSentYet: 'The report has not been sent yet: edit it and mark it as sent',
  revisionOpen: (revision: number) =>
    `Revision ${revision} of the report has not been sent yet: edit it and mark it as sent`,
  revisionNotFound: 'Revision not found',
  pdfNotKept: (revision: number) =>
    `The PDF of revision ${revision} was not kept: it was sent before the portal kept sent reports`,
  revisionNotSent: (revision: number) => `Revision ${revision} of the report has not been sent`,
} as const;

function revisionsOf(db: Kysely<Database>, eventId: string): Promise<RevisionRow[]> {
  return db
    .selectFrom('event_report_revisions')
    .select(['revision', 'reason', 'created_on', 'created_by_name', 'sent_on', 'sent_by_name', 'sha256'])
    .where('event_id', '=', eventId)
    .orderBy('revision')
    .execute();
}

const presentRevision = (r: RevisionRow): EventReportRevision => ({
  number: r.revision,
  reason: r.reason,
  createdBy: r.created_by_name,
  createdOn: new Date(r.created_on).toISOString(),
  sentOn: day(r.sent_on),
  sentBy: r.sent_by_name,
  sha256: r.sha256,
});

/**
 * The current revision: the last one made, or the next when none is open and the report is not frozen (revision 1
 * before the report is first sent).
 */
function current(row: EventRow, revisions: readonly RevisionRow[]) {
  const last = revisions.at(-1);
  const frozen = row.report_sent_on !== null;
  const open = last && last.sent_on === null ? last : undefined;
  const number = frozen || open ? (last?.revision ?? 1) : (last?.revision ?? 0) + 1;
  return { number, frozen, open, sent: frozen ? last : undefined };
}

async function presentReport(db: Kysely<Database>, row: EventRow): Promise<EventReport> {
  const [fields, revisions] = await Promise.all([reportFields(db, row), revisionsOf(db, row.id)]);
  const now = current(row, revisions);
  return {
    ...fields,
    sentOn: day(row.report_sent_on),
    revision: now.number,
    sha256: now.sent?.sha256 ?? null,
    revisions: revisions.map(presentRevision),
  };
}

/** GET /api/events/{id}/report: the current revision's fields (a draft filled from the event at first) and every revision. */
export async function eventReport(db: Kysely<Database>, caller: Caller, id: string): Promise<EventReport> {
  return presentReport(db, await findVisibleEvent(db, caller, id));
}

function assertRequired(row: EventRow) {
  if (!row.report_required) throw badRequest(NOT_REQUIRED);
}

/** The event's row, locked for the rest of the transaction: one change to its report at a time. */
async function lockedEvent(trx: Transaction<Database>, caller: Caller, id: string): Promise<EventRow> {
  await lockEvent(trx, id);
  return findVisibleEvent(trx, caller, id);
}

/** PUT /api/events/{id}/report: the current revision as edited; refused (409) once it is sent. */
export async function saveEventReport(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  input: EventReportFields,
): Promise<EventReport> {
  const before = await findVisibleEvent(db, caller, id);
  assertRequired(before);
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const row = await lockedEvent(trx, caller, id);
      const sentOn = day(row.report_sent_on);
      if (sentOn) throw conflict(REPORT_MESSAGES.frozen(sentOn));
      await storeEventReport(trx, id, JSON.stringify(eventReportFieldsOf(input)));
    },
    { action: 'event.report.save', subject: id, detail: { facilityId: before.facility_id } },
  );
  return eventReport(db, caller, id);
}

/**
 * POST /api/events/{id}/report/sent: the current revision was sent on that day. Its PDF is rendered once and kept with
 * its SHA-256, which the record book's entry holds; the report is frozen from then on.
 */
export async function markEventReportSent(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  sentOn: string,
): Promise<EventReport> {
  const before = await findVisibleEvent(db, caller, id);
  assertRequired(before);
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const row = await lockedEvent(trx, caller, id);
      const revisions = await revisionsOf(trx, id);
      const now = current(row, revisions);
      const sentAlready = day(row.report_sent_on);
      if (sentAlready) throw conflict(REPORT_MESSAGES.sentAlready(now.number, sentAlready));
      const fields = await reportFields(trx, row);
      const reason = now.open?.reason ?? null;
      const pdf = await eventReportPdf(presentEvent(row), fields, { number: now.number, reason, sentOn });
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      const sentColumns = {
        report: JSON.stringify(fields),
        sent_on: sentOn,
        sent_by: caller.userId,
        sent_by_name: caller.username,
        sent_recorded_on: new Date(),
        pdf,
        sha256,
      };
      if (now.open)
        await trx
          .updateTable('event_report_revisions')
          .set(sentColumns)
          .where('event_id', '=', id)
          .where('revision', '=', now.number)
          .execute();
      else
        await trx
          .insertInto('event_report_revisions')
          .values({
            facility_id: row.facility_id,
            event_id: id,
            revision: now.number,
            reason: null,
            created_by: caller.userId,
            created_by_name: caller.username,
            ...sentColumns,
          })
          .execute();
      await storeEventReport(trx, id, JSON.stringify(fields), sentOn);
      await appendRecordBookEntries(trx, row.facility_id, [
        personEntry(caller, row, 'report-sent', {
          sentOn,
          revision: now.number,
          ...(reason !== null ? { reason } : {}),
          sha256,
        }),
      ]);
      return { revision: now.number, sha256 };
    },
    (result) => ({
      action: 'event.report.sent',
      subject: id,
      detail: { facilityId: before.facility_id, sentOn, ...result },
    }),
  );
  return eventReport(db, caller, id);
}

/**
 * POST /api/events/{id}/report/revisions: supersedes the sent report with the next revision, made by the caller for
 * a reason. Its fields are those sent, with the ones given replacing them; it is edited and sent like the first.
 */
export async function reviseEventReport(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  input: NewEventReportRevision,
): Promise<EventReport> {
  const before = await findVisibleEvent(db, caller, id);
  assertRequired(before);
  const { reason, ...given } = input;
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const row = await lockedEvent(trx, caller, id);
      const revisions = await revisionsOf(trx, id);
      const now = current(row, revisions);
      if (now.open) throw conflict(REPORT_MESSAGES.revisionOpen(now.number));
      if (!now.frozen) throw conflict(REPORT_MESSAGES.notSentYet);
      const fields = eventReportFieldsOf({
        ...(await reportFields(trx, row)),
        ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
      });
      const number = now.number + 1;
      await trx
        .insertInto('event_report_revisions')
        .values({
          facility_id: row.facility_id,
          event_id: id,
          revision: number,
          reason,
          report: JSON.stringify(fields),
          created_by: caller.userId,
          created_by_name: caller.username,
        })
        .execute();
      await storeEventReport(trx, id, JSON.stringify(fields), null);
      return number;
    },
    (revision) => ({
      action: 'event.report.revise',
      subject: id,
      detail: { facilityId: before.facility_id, revision, reason },
    }),
  );
  return eventReport(db, caller, id);
}

/** A sent revision's PDF, the bytes as they were sent (404 for a revision not sent, or whose PDF was not kept). */
export async function revisionPdf(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  revision: number,
): Promise<{ pdf: Buffer; sha256: string }> {
  await findVisibleEvent(db, caller, id);
  const row = await db
    .selectFrom('event_report_revisions')
    .select(['pdf', 'sha256', 'sent_on'])
    .where('event_id', '=', id)
    .where('revision', '=', revision)
    .executeTakeFirst();
  if (!row) throw notFound(REPORT_MESSAGES.revisionNotFound);
  if (row.sent_on === null) throw notFound(REPORT_MESSAGES.revisionNotSent(revision));
  if (!row.pdf || !row.sha256) throw notFound(REPORT_MESSAGES.pdfNotKept(revision));
  return { pdf: Buffer.from(row.pdf), sha256: row.sha256 };
}

/**
 * GET /api/events/{id}/report/download: once sent, the PDF as sent (the same bytes); before, the current revision
 * rendered now (a report sent before the portal kept PDFs is rendered from its stored fields).
 */
export async function currentReportPdf(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
): Promise<{ pdf: Buffer; revision: number }> {
  const row = await findVisibleEvent(db, caller, id);
  const revisions = await revisionsOf(db, id);
  const now = current(row, revisions);
  if (now.sent?.sha256) return { ...(await revisionPdf(db, caller, id, now.number)), revision: now.number };
  const pdf = await eventReportPdf(presentEvent(row), await reportFields(db, row), {
    number: now.number,
    reason: now.open?.reason ?? null,
    sentOn: day(row.report_sent_on),
  });
  return { pdf, revision: now.number };
}

/**
 * The state of each event's report (the inspection pack lists it): not required, draft (revision 1 not sent yet, or a
 * later revision being edited), or sent, with the current revision's number, day and SHA-256. Events not found are
 * left out; whether the caller may see them is the caller's business.
 */
export async function reportStatusOf(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<Map<string, EventReportStatus>> {
  const statuses = new Map<string, EventReportStatus>();
  if (eventIds.length === 0) return statuses;
  const rows = await db
    .selectFrom('compliance_events as e')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('event_report_revisions')
          .select(['event_id', (b) => b.fn.max('revision').as('last')])
          .where('event_id', 'in', [...eventIds])
          .groupBy('event_id')
          .as('m'),
      (join) => join.onRef('m.event_id', '=', 'e.id'),
    )
    .leftJoin('event_report_revisions as r', (join) =>
      join.onRef('r.event_id', '=', 'e.id').onRef('r.revision', '=', 'm.last'),
    )
    .select(['e.id', 'e.report_required', 'e.report_sent_on', 'r.revision', 'r.sent_on', 'r.sha256'])
    .where('e.id', 'in', [...eventIds])
    .execute();
  for (const row of rows) {
    const sentOn = day(row.report_sent_on);
    const last = row.revision ?? 0;
    const open = row.revision !== null && row.sent_on === null;
    statuses.set(row.id, {
      required: row.report_required,
      state: !row.report_required ? 'not-required' : sentOn ? 'sent' : 'draft',
      revision: sentOn || open ? Math.max(last, 1) : last + 1,
      sentOn,
      sha256: sentOn ? (row.sha256 ?? null) : null,
    });
  }
  return statuses;
}

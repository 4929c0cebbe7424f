import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import {
  EVENT_CAUSE_NAMES,
  EVENT_TYPE_NAMES,
  RECORD_BOOK_KIND_NAMES,
  eventReportFieldsOf,
  type AcknowledgeEvent,
  type ComplianceEvent,
  type ComplianceEventDetail,
  type EventReportFields,
  type EventRules,
  type RecordBookEntryView,
  type newRecordBookEntrySchema,
} from '@portal/contracts/events';
import { CHANNEL_FUEL_TYPES, type ChannelFuelType } from '@portal/contracts/fuel-channels';
import {
  eventInstrumentText,
  eventTitle,
  eventValueText,
  formatDateTime,
  worstReadingLabel,
} from '@portal/contracts/rules';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../errors';
import {
  appendRecordBookEntries,
  findRecordBookEntry,
  readRecordBook,
  storeAcknowledgement,
  storeEventClosed,
  type RecordBookEntry,
} from '../../storage';
import type { Caller } from '../access/caller';
import { auditedChange } from '../audit/audit';
import { requestRecalculation } from '../executions/derived';
import { JOB_NAMES, queueOf } from '../../jobs';
import type { Services } from '../../services';
import { findEvent, findVisibleEvent, presentEvent } from './queries';

export type EventRow = Awaited<ReturnType<typeof findVisibleEvent>>;
export const actor = (caller: Caller) => ({ userId: caller.userId, organizationId: caller.organizationId });

/** The record book entry of something a person did to an event: at the event's start position, now. */
export function personEntry(
  caller: Caller,
  row: EventRow,
  kind: string,
  body: Record<string, unknown>,
): Parameters<typeof appendRecordBookEntries>[2][number] {
  return {
    kind,
    occurredOn: new Date(),
    recordedBy: caller.userId,
    recordedByName: caller.username,
    latitude: row.end_latitude ?? row.start_latitude,
    longitude: row.end_longitude ?? row.start_longitude,
    eventId: row.id,
    correctsId: null,
    body: {
      type: row.type,
      ...(row.channel ? { channel: row.channel, fault: row.fault } : {}),
      typeName: EVENT_TYPE_NAMES[row.type as keyof typeof EVENT_TYPE_NAMES],
      ...body,
    },
  };
}

/**
 * Acknowledges an event with its cause, actions and comment; again, a new revision of the acknowledgement (the event
 * shows the latest, its detail every revision). Audited and in the book, in one transaction.
 */
export async function acknowledgeEvent(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  input: AcknowledgeEvent,
): Promise<ComplianceEventDetail> {
  const row = await findVisibleEvent(db, caller, id);
  if (row.closed_on) throw badRequest('The event is closed');
  const at = new Date();
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await storeAcknowledgement(trx, row, {
        cause: input.cause,
        actionsTaken: input.actionsTaken,
        comment: input.comment,
        at,
        by: caller.userId,
      });
      await appendRecordBookEntries(trx, row.facility_id, [
        personEntry(caller, row, 'event-acknowledged', {
          cause: input.cause,
          causeName: EVENT_CAUSE_NAMES[input.cause],
          actionsTaken: input.actionsTaken,
          comment: input.comment,
        }),
      ]);
    },
    { action: 'event.acknowledge', subject: id, detail: { facilityId: row.facility_id, cause: input.cause } },
  );
  return findEvent(db, caller, id);
}

/** Closes an event: a UserAdmin of an organization that sees the ship, or a SystemAdmin. */
export async function closeEvent(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
  comment: string,
): Promise<ComplianceEvent> {
  const row = await findVisibleEvent(db, caller, id);
  if (caller.role === 'User') throw forbidden('Only an administrator may close an event');
  if (row.closed_on) throw badRequest('The event is closed already');
  if (row.ongoing) throw badRequest('The event is still going on: it can be closed once it has ended');
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await storeEventClosed(trx, id, caller.userId);
      await appendRecordBookEntries(trx, row.facility_id, [
        personEntry(caller, row, 'event-closed', { comment }),
      ]);
    },
    { action: 'event.close', subject: id, detail: { facilityId: row.facility_id } },
  );
  return presentEvent(await findVisibleEvent(db, caller, id));
}

const formatPosition = (latitude: number | null, longitude: number | null) =>
  latitude === null || longitude === null
    ? 'Not known'
    : `${Math.abs(latitude).toFixed(4)}° ${latitude >= 0 ? 'N' : 'S'}, ${Math.abs(longitude).toFixed(4)}° ${longitude >= 0 ? 'E' : 'W'}`;
/** The spec's date format (YYYY.MM.DD HH:mm), in UTC and saying so. */
const utc = (d: Date) => `${formatDateTime(d)} UTC`;
function formatDuration(minutes: number) {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h ${m} min` : `${m} min`;
}

/**
 * The report's fields: what was saved (or sent), else filled from the event, the ship and the annotations.
 * report.ts adds its revisions and freezes it once sent.
 */
export async function reportFields(db: Kysely<Database>, row: EventRow): Promise<EventReportFields> {
  if (row.report) return eventReportFieldsOf(row.report);
  const ship = await db
    .selectFrom('facilities')
    .select(['name', 'imo', 'scrubber_system_type', 'number_of_scrubbers'])
    .where('id', '=', row.facility_id)
    .executeTakeFirstOrThrow();
  const event = presentEvent(row);
  return {
    shipName: ship.name,
    imo: ship.imo ?? '',
    position: formatPosition(row.start_latitude, row.start_longitude),
    start: utc(new Date(row.start_on)),
    duration: event.ongoing
      ? `${formatDuration(event.durationMinutes)} so far (still going on)`
      : formatDuration(event.durationMinutes),
    egcs: [
      ship.scrubber_system_type,
      ship.number_of_scrubbers ? `${ship.number_of_scrubbers} scrubber(s)` : '',
    ]
      .filter(Boolean)
      .join(', '),
    instrument: eventInstrumentText(event),
    cause: event.cause ? `${EVENT_CAUSE_NAMES[event.cause]}${event.comment ? `: ${event.comment}` : ''}` : '',
    actionsTaken: event.actionsTaken ?? '',
    actionsPlanned: '',
    expectedRepair: '',
  };
}

/** A person's text as a sentence of the line: ended by one full stop, not two. */
const sentence = (text: unknown) => {
  const t = String(text ?? '').trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** The event an entry's body names, as the event description reads it (rules/event-description.ts). */
function describedIn(b: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const number = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    type: text(b.type) ?? '',
    channel: text(b.channel),
    fault: text(b.fault),
    worstValue: number(b.worstValue),
    limit: number(b.limit),
  };
}

/** ", lowest reading pH 6.00 (minimum 6.50)": an event entry's worst value with its unit; nothing without one. */
function readingOf(b: Record<string, unknown>): string {
  const event = describedIn(b);
  return event.worstValue === null
    ? ''
    : `, ${worstReadingLabel(event).toLowerCase()} ${eventValueText(event)}`;
}

/** One line saying what an entry records, for the screen and the export. */
export function entryText(entry: RecordBookEntry): string {
  const b = entry.body as Record<string, string | number | boolean | null | undefined>;
  // The event's title by its criterion or channel ("Washwater exceedance (pH below its minimum)"); the name the
  // entry was written with for entries that do not carry them.
  const name = b.type ? eventTitle(describedIn(b)) : ((b.typeName as string | undefined) ?? '');
  const when = (iso: unknown) => (typeof iso === 'string' ? utc(new Date(iso)) : 'still going on');
  switch (entry.kind) {
    case 'event':
      return `${name} from ${when(b.start)} to ${when(b.end)}${b.classificationName ? `, ${String(b.classificationName).toLowerCase()}` : ''}${b.reportRequired ? ', report to flag and port State required' : ''}${readingOf(b)}`;
    case 'event-ended':
      return `${name} ended at ${when(b.end)} after ${formatDuration(Number(b.durationMinutes ?? 0))}`;
    case 'event-changed':
      return `${name} now from ${when(b.start)} to ${when(b.end)}${b.classificationName ? `, ${String(b.classificationName).toLowerCase()}` : ''}${readingOf(b)} (the data it is derived from changed)`;
    case 'event-withdrawn':
      return `${name} from ${when(b.start)} withdrawn: ${String(b.reason ?? '')}`;
    case 'event-acknowledged':
      return `${name} acknowledged. Cause: ${String(b.causeName ?? '')}. Actions taken: ${sentence(b.actionsTaken)}${b.comment ? ` ${sentence(b.comment)}` : ''}`;
    case 'event-closed':
      return `${name} closed${b.comment ? `: ${String(b.comment)}` : ''}`;
    case 'report-sent': {
      const sent = `${name}: report to the flag State and the port State sent on ${String(b.sentOn ?? '').replaceAll('-', '.')}`;
      // Reports sent before the portal kept them name no revision and no PDF (docs/decisions/0104).
      if (typeof b.revision !== 'number') return sent;
      const superseding =
        b.revision > 1 ? `, superseding revision ${b.revision - 1}: ${sentence(b.reason)}` : '.';
      return `${sent}, revision ${b.revision}${superseding} SHA-256 of the PDF as sent: ${String(b.sha256 ?? '')}`;
    }
    default: {
      const sulfur = fuelSulfurOf(entry);
      const fuel = fuelTypeOf(entry);
      const said = [
        fuel !== null ? FUEL_TYPE_NAMES[fuel] : null,
        sulfur !== null ? `${sulfur} % m/m sulfur` : null,
      ].filter((x) => x !== null);
      return `${String(b.text ?? '')}${said.length ? ` (fuel of ${said.join(', ')} from then on)` : ''}`;
    }
  }
}

export function presentEntry(entry: RecordBookEntry): RecordBookEntryView {
  return {
    id: entry.id,
    sequence: entry.sequence,
    kind: entry.kind,
    occurredOn: entry.occurredOn.toISOString(),
    recordedOn: entry.recordedOn.toISOString(),
    recordedBy: entry.recordedByName,
    latitude: entry.latitude,
    longitude: entry.longitude,
    eventId: entry.eventId,
    correctsId: entry.correctsId,
    text: entryText(entry),
    fuelSulfurPct: fuelSulfurOf(entry),
    fuelType: fuelTypeOf(entry),
    body: entry.body,
    previousHash: entry.previousHash,
    hash: entry.hash,
  };
}

/** The sulfur content a fuel change-over entry (or its correction) records, % m/m; null for other entries. */
export const fuelSulfurOf = (entry: { body: unknown }): number | null => {
  const value = (entry.body as { fuelSulfurPct?: unknown } | null)?.fuelSulfurPct;
  return typeof value === 'number' ? value : null;
};

/** The fuel a fuel change-over entry (or its correction) says is in use from then on; null when it says none. */
export const fuelTypeOf = (entry: { body: unknown }): ChannelFuelType | null => {
  const value = (entry.body as { fuelType?: unknown } | null)?.fuelType;
  return (CHANNEL_FUEL_TYPES as readonly unknown[]).includes(value) ? (value as ChannelFuelType) : null;
};

const FUEL_TYPE_ONLY_ON_CHANGE_OVER = 'Only a fuel change-over records the fuel in use';

/**
 * A person's entry in a ship's record book (a correction refers to an entry of the same book). A fuel change-over
 * and its correction change which "scrubber off while required" samples count (docs/decisions/0080): in the same
 * transaction the ship's events are asked to be derived again from the change-over on (an execution of those days
 * up to the ship's last data, as the recalculation queue runs them).
 */
export async function addRecordBookEntry(
  services: Services,
  caller: Caller,
  facilityId: string,
  input: z.output<typeof newRecordBookEntrySchema>,
): Promise<RecordBookEntryView> {
  const { db } = services.database;
  let corrected: { kind: string; occurredOn: Date; body: unknown } | undefined;
  if (input.correctsId) {
    corrected = await findRecordBookEntry(db, facilityId, input.correctsId);
    if (!corrected) throw notFound('Record book entry not found');
  }
  const correctsChangeOver =
    corrected !== undefined && (corrected.kind === 'fuel-change-over' || fuelSulfurOf(corrected) !== null);
  if (input.kind === 'correction' && input.fuelSulfurPct !== null && !correctsChangeOver)
    throw badRequest('Only a fuel change-over records the sulfur content of the fuel', {
      fuelSulfurPct: 'Only a fuel change-over records the sulfur content of the fuel',
    });
  if (input.kind !== 'fuel-change-over' && !correctsChangeOver && input.fuelType !== null)
    throw badRequest(FUEL_TYPE_ONLY_ON_CHANGE_OVER, { fuelType: FUEL_TYPE_ONLY_ON_CHANGE_OVER });
  const fuelSulfurPct =
    input.kind === 'fuel-change-over' || input.kind === 'correction' ? input.fuelSulfurPct : null;
  const fuelType = input.kind === 'fuel-change-over' || correctsChangeOver ? input.fuelType : null;
  const occurredOn = new Date(input.occurredOn);
  const changesFuel = input.kind === 'fuel-change-over' || correctsChangeOver;
  const [entry] = await auditedChange(
    db,
    actor(caller),
    async (trx: Transaction<Database>) => {
      const entries = await appendRecordBookEntries(trx, facilityId, [
        {
          kind: input.kind,
          occurredOn,
          recordedBy: caller.userId,
          recordedByName: caller.username,
          latitude: input.latitude,
          longitude: input.longitude,
          eventId: null,
          correctsId: input.correctsId,
          body: {
            text: input.text,
            kindName: RECORD_BOOK_KIND_NAMES[input.kind],
            ...(fuelSulfurPct !== null ? { fuelSulfurPct } : {}),
            ...(fuelType !== null ? { fuelType } : {}),
          },
        },
      ]);
      // The fuel in use changed (or its correction withdrew one): the ledger's fuel types from the change-overs.
      if (fuelType !== null || (corrected !== undefined && fuelTypeOf(corrected) !== null))
        await queueOf(services).sendInTransaction(trx, JOB_NAMES.carbonLedger, { facilityId });
      if (changesFuel) {
        const from = new Date(
          Math.min(occurredOn.getTime(), corrected ? corrected.occurredOn.getTime() : Infinity),
        );
        const ship = await trx
          .selectFrom('facilities')
          .select(['data_timestamp_min', 'data_timestamp_max'])
          .where('id', '=', facilityId)
          .executeTakeFirst();
        const first = ship?.data_timestamp_min ? new Date(ship.data_timestamp_min) : null;
        const last = ship?.data_timestamp_max ? new Date(ship.data_timestamp_max) : null;
        if (first && last && from <= last)
          await requestRecalculation(services, facilityId, from < first ? first : from, last, trx);
      }
      return entries;
    },
    (entries) => ({
      action: input.kind === 'correction' ? 'recordbook.correct' : 'recordbook.add',
      subject: facilityId,
      detail: { entryId: entries[0]!.id, kind: input.kind, correctsId: input.correctsId },
    }),
  );
  return presentEntry(entry!);
}

export async function recordBook(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: string; to?: string },
): Promise<RecordBookEntryView[]> {
  const entries = await readRecordBook(db, facilityId, {
    from: range.from ? new Date(range.from) : undefined,
    to: range.to ? new Date(range.to) : undefined,
  });
  return entries.map(presentEntry);
}

/**
 * Sets (or with null, clears) an organization's event rules, audited. They apply to what the engine derives from
 * then on; events derived before keep the rules stored with them until their period is executed again.
 */
export async function saveOrganizationEventRules(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  rules: EventRules | null,
): Promise<void> {
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      if (rules === null)
        await trx
          .deleteFrom('organization_event_rules')
          .where('organization_id', '=', organizationId)
          .execute();
      else
        await trx
          .insertInto('organization_event_rules')
          .values({ organization_id: organizationId, rules: JSON.stringify(rules) })
          .onConflict((oc) =>
            oc
              .column('organization_id')
              .doUpdateSet({ rules: JSON.stringify(rules), updated_on: new Date() }),
          )
          .execute();
    },
    { action: 'event.rules', subject: organizationId, detail: rules ?? { useDefaults: true } },
  );
}

import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { PartitionedTable } from '../db/partitions';
import { assertMonthsOnline } from './archived-months';

/**
 * A ship's compliance events (`compliance_events`, with `compliance_event_annotations`, the acknowledgements as
 * given; docs/decisions/0080-compliance-events.md): derived by the engine, which replaces the events around an
 * executed period in its transaction (matched to keep ids, so what people added stays), annotated by people
 * (acknowledgement, closure, the flag/port State report). Every write of the table is here; the screens' lists and
 * filters (features/events/queries.ts) and the alerts and webhooks joining an event read it where they are.
 */

/** Its month partitions: an event's start decides its month; its annotations stay beside it (docs/decisions/0125-partitions-and-retention.md). */
export const EVENTS_MONTHS: PartitionedTable = {
  table: 'compliance_events',
  column: 'start_on',
  kind: 'timestamptz',
};

/** What the engine writes of an event: everything but its id, its ship and what people added. */
export interface DerivedEventColumns {
  type: string;
  start_on: Date;
  end_on: Date;
  ongoing: boolean;
  worst_value: number | null;
  limit_value: number | null;
  start_latitude: number | null;
  start_longitude: number | null;
  end_latitude: number | null;
  end_longitude: number | null;
  classification: string | null;
  report_required: boolean;
  channel: string | null;
  fault: string | null;
  /** The rules in force, as JSON. */
  rules: string;
}

/**
 * The stored events of a ship starting inside [from, to), with what matching and the record book read of them: the
 * columns that tell one event from another of its type (channel and fault: a washwater criterion, a sensor's
 * channel and kind of fault), its times and class. The one reader of stored events for matching; its row type comes
 * from the query, so a column matching needs cannot be left out of it.
 */
export function readStoredEvents(
  db: Kysely<Database> | Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
) {
  return db
    .selectFrom('compliance_events')
    .select([
      'id',
      'type',
      'channel',
      'fault',
      'start_on',
      'end_on',
      'ongoing',
      'classification',
      'report_required',
      'acknowledged_on',
    ])
    .where('facility_id', '=', facilityId)
    .where('start_on', '>=', new Date(from))
    .where('start_on', '<', new Date(to))
    .orderBy('start_on')
    .orderBy('id')
    .execute();
}
export type StoredEvent = Awaited<ReturnType<typeof readStoredEvents>>[number];

/**
 * The earliest start and the latest end of a ship's events that start before `at` and end at `at - reachMs` or later
 * (the events an episode at `at` would join); nulls when there are none.
 */
export async function readEventsCrossing(
  db: Kysely<Database>,
  facilityId: string,
  at: number,
  reachMs: number,
): Promise<{ start: number | null; end: number | null }> {
  const row = await db
    .selectFrom('compliance_events')
    .select((eb) => [eb.fn.min('start_on').as('start'), eb.fn.max('end_on').as('end')])
    .where('facility_id', '=', facilityId)
    .where('start_on', '<', new Date(at))
    .where('end_on', '>=', new Date(at - reachMs))
    .executeTakeFirst();
  return {
    start: row?.start ? new Date(row.start).getTime() : null,
    end: row?.end ? new Date(row.end).getTime() : null,
  };
}

/** A ship's transient and repeated events starting inside [from, to): their start, type and channel. */
export async function readTransientStarts(
  db: Kysely<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<{ start: number; type: string; channel: string | null }[]> {
  const rows = await db
    .selectFrom('compliance_events')
    .select(['start_on', 'type', 'channel'])
    .where('facility_id', '=', facilityId)
    .where('classification', 'in', ['transient', 'repeated'])
    .where('start_on', '>=', new Date(from))
    .where('start_on', '<', new Date(to))
    .execute();
  return rows.map((r) => ({ start: new Date(r.start_on).getTime(), type: r.type, channel: r.channel }));
}

const EVENTS_PER_INSERT = 1000;

/** Inserts derived events with the ids given (made by the caller, so its record book entries name them). */
export async function insertEvents(
  trx: Transaction<Database>,
  facilityId: string,
  events: readonly { id: string; columns: DerivedEventColumns }[],
): Promise<void> {
  if (events.length > 0) {
    let first = Infinity;
    let last = -Infinity;
    for (const { columns } of events) {
      const at = new Date(columns.start_on).getTime();
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    await assertMonthsOnline(trx, new Date(first), new Date(last));
  }
  for (let at = 0; at < events.length; at += EVENTS_PER_INSERT)
    await trx
      .insertInto('compliance_events')
      .values(
        events
          .slice(at, at + EVENTS_PER_INSERT)
          .map(({ id, columns }) => ({ id, facility_id: facilityId, ...columns })),
      )
      .execute();
}

/** Sets what the engine derived of a stored event again (its id and what people added stay). */
export async function updateDerivedEvent(
  trx: Transaction<Database>,
  id: string,
  columns: DerivedEventColumns,
): Promise<void> {
  await trx.updateTable('compliance_events').set(columns).where('id', '=', id).execute();
}

/** Deletes events no longer derived. */
export async function deleteEvents(trx: Transaction<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('compliance_events')
    .where('id', 'in', [...ids])
    .execute();
}

/** Holds the event's row for the rest of the transaction: one change of its annotations or report at a time. */
export async function lockEvent(trx: Transaction<Database>, id: string): Promise<void> {
  await trx.selectFrom('compliance_events').select('id').where('id', '=', id).forUpdate().execute();
}

export interface Acknowledgement {
  cause: string;
  actionsTaken: string;
  comment: string;
  /** When and by whom it was given. */
  at: Date;
  by: string;
}

/**
 * Stores an acknowledgement: the event shows it (the first acknowledgement's time and person stay), and it is kept
 * as the next revision of the event's annotations. Numbered once the update holds the event's row: two
 * acknowledgements at once take turns. Returns the revision.
 */
export async function storeAcknowledgement(
  trx: Transaction<Database>,
  event: { id: string; acknowledged_on: Date | null; acknowledged_by: string | null },
  acknowledgement: Acknowledgement,
): Promise<number> {
  const { cause, actionsTaken, comment, at, by } = acknowledgement;
  await trx
    .updateTable('compliance_events')
    .set({
      acknowledged_on: event.acknowledged_on ?? at,
      acknowledged_by: event.acknowledged_by ?? by,
      cause,
      actions_taken: actionsTaken,
      comment,
    })
    .where('id', '=', event.id)
    .execute();
  const last = await trx
    .selectFrom('compliance_event_annotations')
    .select((eb) => eb.fn.max('revision').as('revision'))
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  const revision = Number(last?.revision ?? 0) + 1;
  await trx
    .insertInto('compliance_event_annotations')
    .values({
      event_id: event.id,
      revision,
      cause,
      actions_taken: actionsTaken,
      comment,
      acknowledged_on: at,
      acknowledged_by: by,
    })
    .execute();
  return revision;
}

/** Marks the event closed, now, by that person. */
export async function storeEventClosed(trx: Transaction<Database>, id: string, by: string): Promise<void> {
  await trx
    .updateTable('compliance_events')
    .set({ closed_on: new Date(), closed_by: by })
    .where('id', '=', id)
    .execute();
}

/**
 * Stores the current revision of the event's flag/port State report (its fields, as JSON) and, when given, the day
 * it was sent (null: not sent, a new revision being edited).
 */
export async function storeEventReport(
  trx: Transaction<Database>,
  id: string,
  report: string,
  sentOn?: string | null,
): Promise<void> {
  await trx
    .updateTable('compliance_events')
    .set(sentOn === undefined ? { report } : { report, report_sent_on: sentOn })
    .where('id', '=', id)
    .execute();
}

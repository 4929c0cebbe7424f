import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  DEFAULT_EVENT_RULES,
  EVENT_COUNT_LIMIT,
  eventRulesSchema,
  type ComplianceEvent,
  type ComplianceEventDetail,
  type EventAnnotation,
  type EventCause,
  type EventClassification,
  type EventList,
  type EventState,
  type EventRules,
  type EventType,
  type eventListQuerySchema,
} from '@portal/contracts/events';
import type { z } from 'zod';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

type ListQuery = z.output<typeof eventListQuerySchema>;

/** The event's columns with its ship's name and the names of who acknowledged and closed it. */
function eventRows(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('compliance_events as e')
    .innerJoin('facilities as f', 'f.id', 'e.facility_id')
    .leftJoin('users as a', 'a.id', 'e.acknowledged_by')
    .leftJoin('users as c', 'c.id', 'e.closed_by')
    .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
    .selectAll('e')
    .select([
      'f.name as facility_name',
      'a.username as acknowledged_by_name',
      'c.username as closed_by_name',
    ]);
}
type EventRow = Awaited<ReturnType<ReturnType<typeof eventRows>['executeTakeFirstOrThrow']>>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const day = (d: Date | string | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

export const stateOf = (row: { closed_on: Date | null; acknowledged_on: Date | null }): EventState =>
  row.closed_on ? 'closed' : row.acknowledged_on ? 'acknowledged' : 'open';

export function presentEvent(row: EventRow): ComplianceEvent {
  const start = new Date(row.start_on).getTime();
  const end = new Date(row.end_on).getTime();
  const rules = eventRulesSchema.safeParse(row.rules);
  const position = (latitude: number | null, longitude: number | null) =>
    latitude === null || longitude === null ? null : { latitude, longitude };
  return {
    id: row.id,
    facilityId: row.facility_id,
    facilityName: row.facility_name,
    type: row.type as EventType,
    start: new Date(start).toISOString(),
    end: row.ongoing ? null : new Date(end).toISOString(),
    ongoing: row.ongoing,
    durationMinutes: Math.round((end - start) / 60_000),
    worstValue: row.worst_value,
    limit: row.limit_value,
    startPosition: position(row.start_latitude, row.start_longitude),
    endPosition: position(row.end_latitude, row.end_longitude),
    classification: row.classification as EventClassification | null,
    reportRequired: row.report_required,
    channel: row.channel,
    fault: row.fault,
    state: stateOf(row),
    acknowledgedOn: iso(row.acknowledged_on),
    acknowledgedBy: row.acknowledged_by_name ?? null,
    cause: row.cause as EventCause | null,
    actionsTaken: row.actions_taken,
    comment: row.comment,
    closedOn: iso(row.closed_on),
    closedBy: row.closed_by_name ?? null,
    reportSentOn: day(row.report_sent_on),
    rules: rules.success ? rules.data : DEFAULT_EVENT_RULES,
  };
}

/** The list's filters as conditions on `e` (compliance_events). */
function conditions(filter: ListQuery): Expression<SqlBool>[] {
  const c: Expression<SqlBool>[] = [];
  if (filter.from) c.push(sql<SqlBool>`e.end_on >= ${new Date(filter.from)}`);
  if (filter.to) c.push(sql<SqlBool>`e.start_on < ${new Date(filter.to)}`);
  if (filter.facilityId) c.push(sql<SqlBool>`e.facility_id = ${filter.facilityId}`);
  if (filter.type) c.push(sql<SqlBool>`e.type in (${sql.join(filter.type)})`);
  if (filter.classification) c.push(sql<SqlBool>`e.classification in (${sql.join(filter.classification)})`);
  if (filter.reportRequired) c.push(sql<SqlBool>`e.report_required = ${filter.reportRequired === 'true'}`);
  if (filter.state) {
    const states = filter.state.map((s) =>
      s === 'closed'
        ? sql<SqlBool>`e.closed_on is not null`
        : s === 'acknowledged'
          ? sql<SqlBool>`(e.closed_on is null and e.acknowledged_on is not null)`
          : sql<SqlBool>`(e.closed_on is null and e.acknowledged_on is null)`,
    );
    c.push(sql<SqlBool>`(${sql.join(states, sql` or `)})`);
  }
  return c;
}

/** The events of the ships the caller sees, alone (every event's ship exists: a foreign key). */
function visibleEvents(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('compliance_events as e')
    .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')));
}

/**
 * The events needing attention that nobody acknowledged or whose report is due (`attention` 0 or 1), counted per
 * ship and type over the list's filter but its state: read from the index alone, which holds every column used here
 * (migration 0042: a column added here belongs in its INCLUDE list too, or each event costs a table page again).
 */
export function openEventCounts(db: Kysely<Database>, caller: Caller, filter: ListQuery) {
  return visibleEvents(db, caller)
    .where((eb) => eb.and(conditions({ ...filter, state: undefined })))
    .where('e.attention', '<=', 1)
    .select([
      'e.facility_id',
      'e.type',
      (eb) => eb.fn.countAll<string>().as('n'),
      sql<string>`count(*) filter (where e.report_required and e.report_sent_on is null)`.as('due'),
      sql<string>`count(*) filter (where e.classification in ('malfunction', 'repeated'))`.as('malfunctions'),
    ])
    .groupBy(['e.facility_id', 'e.type']);
}

/**
 * The list, in the order of `attention` (migration 0016): reports due, then open events needing attention
 * (malfunction, repeated, data gap, sensor fault), open informational ones, acknowledged, closed; newest first in
 * each. The counts are of the events needing attention that nobody acknowledged or whose report is due.
 */
export async function listEvents(
  db: Kysely<Database>,
  caller: Caller,
  filter: ListQuery,
): Promise<EventList> {
  // The page from the index in the list's order (compliance_events_attention): no sort of the period's events.
  const [rows, total, open] = await Promise.all([
    eventRows(db, caller)
      .where((eb) => eb.and(conditions(filter)))
      .orderBy(sql`e.attention`)
      .orderBy(sql`e.start_on`, 'desc')
      .orderBy(sql`e.id`)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    // Counted up to a bound: a fleet's year can hold tens of thousands (ECA crossings, transients), and no one
    // pages that far; the list says "more than" instead.
    db
      .selectFrom(
        visibleEvents(db, caller)
          .where((eb) => eb.and(conditions(filter)))
          .select(sql`1`.as('one'))
          .limit(EVENT_COUNT_LIMIT + 1)
          .as('matching'),
      )
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    openEventCounts(db, caller, filter).execute(),
  ]);
  const openByType: Record<string, number> = {};
  const openByFacility: EventList['openByFacility'] = {};
  for (const o of open) {
    openByType[o.type] = (openByType[o.type] ?? 0) + Number(o.n);
    const ship = (openByFacility[o.facility_id] ??= { open: 0, malfunctions: 0, reportsDue: 0 });
    ship.open += Number(o.n);
    ship.malfunctions += Number(o.malfunctions);
    ship.reportsDue += Number(o.due);
  }
  return {
    items: rows.map(presentEvent),
    total: Math.min(Number(total.n), EVENT_COUNT_LIMIT),
    totalCapped: Number(total.n) > EVENT_COUNT_LIMIT,
    openByType,
    reportsDue: open.reduce((sum, o) => sum + Number(o.due), 0),
    openByFacility,
  };
}

/**
 * A ship's events overlapping [from, to), oldest first: its visibility is checked by the caller of this (the
 * inspection pack's request), so it reads without one.
 */
export async function shipEventsInPeriod(
  db: Kysely<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<ComplianceEvent[]> {
  const rows = await db
    .selectFrom('compliance_events as e')
    .innerJoin('facilities as f', 'f.id', 'e.facility_id')
    .leftJoin('users as a', 'a.id', 'e.acknowledged_by')
    .leftJoin('users as c', 'c.id', 'e.closed_by')
    .selectAll('e')
    .select(['f.name as facility_name', 'a.username as acknowledged_by_name', 'c.username as closed_by_name'])
    .where('e.facility_id', '=', facilityId)
    .where('e.end_on', '>=', from)
    .where('e.start_on', '<', to)
    .orderBy('e.start_on')
    .orderBy('e.type')
    .orderBy('e.id')
    .execute();
  return rows.map(presentEvent);
}

/** An event of a ship the caller sees; another organization's answers as a missing one. */
export async function findVisibleEvent(db: Kysely<Database>, caller: Caller, id: string): Promise<EventRow> {
  const row = await eventRows(db, caller).where('e.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Event not found');
  return row;
}

/** The event's acknowledgements, oldest first, with the names of who gave them. */
export async function eventAnnotations(db: Kysely<Database>, eventId: string): Promise<EventAnnotation[]> {
  const rows = await db
    .selectFrom('compliance_event_annotations as n')
    .leftJoin('users as u', 'u.id', 'n.acknowledged_by')
    .select(['n.revision', 'n.acknowledged_on', 'u.username', 'n.cause', 'n.actions_taken', 'n.comment'])
    .where('n.event_id', '=', eventId)
    .orderBy('n.revision')
    .execute();
  return rows.map((r) => ({
    revision: r.revision,
    acknowledgedOn: new Date(r.acknowledged_on).toISOString(),
    acknowledgedBy: r.username ?? null,
    cause: r.cause as EventCause,
    actionsTaken: r.actions_taken,
    comment: r.comment,
  }));
}

/** An event of a ship the caller sees, with its acknowledgements (GET /api/events/{id}). */
export async function findEvent(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
): Promise<ComplianceEventDetail> {
  const event = presentEvent(await findVisibleEvent(db, caller, id));
  return { ...event, annotations: await eventAnnotations(db, id) };
}

/** A ship's name and IMO number (its visibility checked before). */
export function shipOf(db: Kysely<Database>, facilityId: string) {
  return db
    .selectFrom('facilities')
    .select(['name', 'imo'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
}

/** The event rules in force for an organization: its own, or the defaults. */
export async function organizationEventRules(
  db: Kysely<Database>,
  organizationId: string,
): Promise<{ rules: EventRules; isDefault: boolean }> {
  const row = await db
    .selectFrom('organization_event_rules')
    .select('rules')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const parsed = row ? eventRulesSchema.safeParse(row.rules) : null;
  return parsed?.success
    ? { rules: parsed.data, isDefault: false }
    : { rules: DEFAULT_EVENT_RULES, isDefault: true };
}

import type { Transaction } from 'kysely';
import {
  DEFAULT_EVENT_RULES,
  EVENT_CLASSIFICATION_NAMES,
  EVENT_TYPE_NAMES,
  type EventClassification,
  type EventType,
} from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import { appendRecordBookEntries, type RecordBookEntryInput } from '../../storage/record-book';
import type { DerivedEvent } from './compliance-events';
import type { EventDerivation } from './derive-events';

/** The name the engine's own record book entries carry. */
export const ENGINE_NAME = 'Portal (derived from the data)';

interface StoredEvent {
  id: string;
  type: string;
  channel: string | null;
  fault: string | null;
  start_on: Date;
  end_on: Date;
  ongoing: boolean;
  classification: string | null;
  report_required: boolean;
  acknowledged_on: Date | null;
}

const ms = (d: Date) => new Date(d).getTime();

/**
 * Pairs stored events with derived ones of the same type: the stored event overlapping a derived one most (an
 * instant event: at the same time) keeps its id and what people added, so a rerun changes nothing and moved
 * boundaries keep the annotations on the overlapping event. Returns pairs, derived events without a stored one,
 * and stored events no longer derived.
 */
export function matchEvents(
  stored: readonly StoredEvent[],
  derived: readonly DerivedEvent[],
): { pairs: [StoredEvent, DerivedEvent][]; added: DerivedEvent[]; withdrawn: StoredEvent[] } {
  const free = new Set(stored);
  const pairs: [StoredEvent, DerivedEvent][] = [];
  const added: DerivedEvent[] = [];
  for (const event of derived) {
    let best: StoredEvent | undefined;
    let bestOverlap = -Infinity;
    for (const s of free) {
      if (s.type !== event.type || s.channel !== event.channel || s.fault !== event.fault) continue;
      const instant = event.start === event.end;
      const overlap = instant
        ? ms(s.start_on) === event.start
          ? 0
          : -Infinity
        : Math.min(ms(s.end_on), event.end) - Math.max(ms(s.start_on), event.start);
      if ((instant ? overlap === 0 : overlap > 0) && overlap > bestOverlap) {
        best = s;
        bestOverlap = overlap;
      }
    }
    if (best) {
      free.delete(best);
      pairs.push([best, event]);
    } else added.push(event);
  }
  return { pairs, added, withdrawn: [...free] };
}

const describe = (e: DerivedEvent) => ({
  type: e.type,
  ...(e.channel ? { channel: e.channel, fault: e.fault } : {}),
  typeName: EVENT_TYPE_NAMES[e.type],
  start: new Date(e.start).toISOString(),
  end: e.ongoing ? null : new Date(e.end).toISOString(),
  durationMinutes: Math.round((e.end - e.start) / 60_000),
  classification: e.classification,
  classificationName: e.classification ? EVENT_CLASSIFICATION_NAMES[e.classification] : null,
  reportRequired: e.reportRequired,
  worstValue: e.worstValue,
  limit: e.limit,
});

/**
 * Step "store events", in the replacing transaction: the derived events replace the stored ones starting inside
 * the window (matched by {@link matchEvents}), and the record book gets an entry for each event that appears, ends,
 * changes class or boundaries, or is no longer derived. A rerun over unchanged data writes nothing.
 */
export async function storeComplianceEvents(
  trx: Transaction<Database>,
  facilityId: string,
  derivation: EventDerivation | null,
): Promise<number> {
  if (!derivation) return 0;
  const { windowFrom, windowTo, events, rules } = derivation;
  const stored = (await trx
    .selectFrom('compliance_events')
    .select([
      'id',
      'type',
      'start_on',
      'end_on',
      'ongoing',
      'classification',
      'report_required',
      'acknowledged_on',
    ])
    .where('facility_id', '=', facilityId)
    .where('start_on', '>=', new Date(windowFrom))
    .where('start_on', '<', new Date(windowTo))
    .execute()) as StoredEvent[];
  const { pairs, added, withdrawn } = matchEvents(stored, events);
  const entries: RecordBookEntryInput[] = [];
  const entry = (
    kind: string,
    event: DerivedEvent,
    eventId: string,
    body: Record<string, unknown>,
    at = event.start,
  ): RecordBookEntryInput => {
    const position = at === event.start ? event.startPosition : event.endPosition;
    return {
      kind,
      occurredOn: new Date(at),
      recordedBy: null,
      recordedByName: ENGINE_NAME,
      latitude: position?.latitude ?? null,
      longitude: position?.longitude ?? null,
      eventId,
      correctsId: null,
      body: { ...describe(event), ...body },
    };
  };
  const columns = (e: DerivedEvent) => ({
    type: e.type,
    start_on: new Date(e.start),
    end_on: new Date(e.end),
    ongoing: e.ongoing,
    worst_value: e.worstValue,
    limit_value: e.limit,
    start_latitude: e.startPosition?.latitude ?? null,
    start_longitude: e.startPosition?.longitude ?? null,
    end_latitude: e.endPosition?.latitude ?? null,
    end_longitude: e.endPosition?.longitude ?? null,
    classification: e.classification,
    report_required: e.reportRequired,
    channel: e.channel,
    fault: e.fault,
    rules: JSON.stringify(rules),
  });

  if (withdrawn.length) {
    await trx
      .deleteFrom('compliance_events')
      .where(
        'id',
        'in',
        withdrawn.map((w) => w.id),
      )
      .execute();
    for (const w of withdrawn)
      entries.push({
        kind: 'event-withdrawn',
        occurredOn: new Date(w.start_on),
        recordedBy: null,
        recordedByName: ENGINE_NAME,
        latitude: null,
        longitude: null,
        eventId: w.id,
        correctsId: null,
        body: {
          type: w.type,
          typeName: EVENT_TYPE_NAMES[w.type as EventType] ?? w.type,
          start: new Date(w.start_on).toISOString(),
          end: new Date(w.end_on).toISOString(),
          reason: 'The data it was derived from changed or was deleted',
        },
      });
  }
  for (const [s, e] of pairs) {
    const moved = ms(s.start_on) !== e.start || (!e.ongoing && !s.ongoing && ms(s.end_on) !== e.end);
    const reclassified = s.classification !== e.classification || s.report_required !== e.reportRequired;
    const ended = s.ongoing && !e.ongoing;
    const unchanged = !moved && !reclassified && !ended && ms(s.end_on) === e.end && s.ongoing === e.ongoing;
    if (unchanged) continue;
    await trx.updateTable('compliance_events').set(columns(e)).where('id', '=', s.id).execute();
    if (ended) entries.push(entry('event-ended', e, s.id, {}, e.end));
    if (moved || reclassified)
      entries.push(
        entry('event-changed', e, s.id, {
          previous: {
            start: new Date(s.start_on).toISOString(),
            end: s.ongoing ? null : new Date(s.end_on).toISOString(),
            classification: s.classification as EventClassification | null,
            reportRequired: s.report_required,
          },
          annotationsKept: s.acknowledged_on !== null,
        }),
      );
  }
  for (const e of added) {
    const row = await trx
      .insertInto('compliance_events')
      .values({ facility_id: facilityId, ...columns(e) })
      .returning('id')
      .executeTakeFirstOrThrow();
    entries.push(entry('event', e, row.id, {}));
  }
  entries.sort((a, b) => a.occurredOn.getTime() - b.occurredOn.getTime());
  await appendRecordBookEntries(trx, facilityId, entries);
  return pairs.length + added.length;
}

/** Removes the events starting inside [from, to) (their values were deleted), each noted in the record book. */
export async function withdrawEvents(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<number> {
  return storeComplianceEvents(trx, facilityId, {
    windowFrom: from,
    windowTo: to,
    events: [],
    rules: DEFAULT_EVENT_RULES,
  });
}

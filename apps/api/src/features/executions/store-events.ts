import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  DEFAULT_EVENT_RULES,
  EVENT_CLASSIFICATION_NAMES,
  EVENT_TYPE_NAMES,
  type EventClassification,
  type EventType,
} from '@portal/contracts/events';
import { alertLevel } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import {
  appendRecordBookEntries,
  deleteEvents,
  insertEvents,
  readStoredEvents,
  updateDerivedEvent,
  type DerivedEventColumns,
  type RecordBookEntryInput,
  type StoredEvent,
} from '../../storage';
import type { DerivedEvent } from './compliance-events';
import type { EventDerivation } from './derive-events';
import { NO_ALERTS, type AlertOutboxPort, type EventChange } from './ports';

/** The name the engine's own record book entries carry. */
export const ENGINE_NAME = 'Portal (derived from the data)';

/** What makes an event the same event as another of its type: the type, channel and fault. */
export const eventKind = (e: Pick<StoredEvent, 'type' | 'channel' | 'fault'>): string =>
  `${e.type}|${e.channel ?? ''}|${e.fault ?? ''}`;

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
  const key = eventKind;
  // Candidates per kind, with their times read once.
  const byKey = new Map<string, { event: StoredEvent; start: number; end: number; free: boolean }[]>();
  for (const event of stored) {
    const list = byKey.get(key(event)) ?? [];
    list.push({ event, start: ms(event.start_on), end: ms(event.end_on), free: true });
    byKey.set(key(event), list);
  }
  const pairs: [StoredEvent, DerivedEvent][] = [];
  const added: DerivedEvent[] = [];
  for (const event of derived) {
    let best: { event: StoredEvent; start: number; end: number; free: boolean } | undefined;
    let bestOverlap = -Infinity;
    const instant = event.start === event.end;
    for (const candidate of byKey.get(key(event)) ?? []) {
      if (!candidate.free) continue;
      const overlap = instant
        ? candidate.start === event.start
          ? 0
          : -Infinity
        : Math.min(candidate.end, event.end) - Math.max(candidate.start, event.start);
      if ((instant ? overlap === 0 : overlap > 0) && overlap > bestOverlap) {
        best = candidate;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.free = false;
      pairs.push([best.event, event]);
    } else added.push(event);
  }
  const withdrawn = [...byKey.values()]
    .flat()
    .filter((c) => c.free)
    .map((c) => c.event);
  return { pairs, added, withdrawn };
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
 * In the same transaction, the alert outbox gets an alert for each recent event that opens, is classified up
 * (transient -> malfunction or repeated -> report required) or ends (the alerts' port, ports.ts).
 */
export async function storeComplianceEvents(
  trx: Transaction<Database>,
  facilityId: string,
  derivation: EventDerivation | null,
  alerts: AlertOutboxPort,
): Promise<number> {
  if (!derivation) return 0;
  const { windowFrom, windowTo, events, rules } = derivation;
  const stored = await readStoredEvents(trx, facilityId, windowFrom, windowTo);
  const { pairs, added, withdrawn } = matchEvents(stored, events);
  const entries: RecordBookEntryInput[] = [];
  const alertChanges: EventChange[] = [];
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
  const columns = (e: DerivedEvent): DerivedEventColumns => ({
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

  await deleteEvents(
    trx,
    withdrawn.map((w) => w.id),
  );
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
        ...(w.channel ? { channel: w.channel, fault: w.fault } : {}),
        start: new Date(w.start_on).toISOString(),
        end: new Date(w.end_on).toISOString(),
        reason: 'The data it was derived from changed or was deleted',
      },
    });
  for (const [s, e] of pairs) {
    const moved = ms(s.start_on) !== e.start || (!e.ongoing && !s.ongoing && ms(s.end_on) !== e.end);
    const reclassified = s.classification !== e.classification || s.report_required !== e.reportRequired;
    const ended = s.ongoing && !e.ongoing;
    // Its end is no longer known (the data after it was deleted): going on again, as far as the data tells.
    const reopened = !s.ongoing && e.ongoing;
    const unchanged = !moved && !reclassified && !ended && ms(s.end_on) === e.end && s.ongoing === e.ongoing;
    if (unchanged) continue;
    await updateDerivedEvent(trx, s.id, columns(e));
    if (ended) entries.push(entry('event-ended', e, s.id, {}, e.end));
    if (alertLevel(e) > alertLevel({ classification: s.classification, reportRequired: s.report_required }))
      alertChanges.push({ kind: 'classified-up', eventId: s.id, event: e });
    if (ended) alertChanges.push({ kind: 'resolved', eventId: s.id, event: e });
    if (moved || reclassified || reopened)
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
  // New events in one statement, their ids made here so each record book entry names its event.
  const inserted = added.map((e) => ({ id: randomUUID(), e }));
  await insertEvents(
    trx,
    facilityId,
    inserted.map(({ id, e }) => ({ id, columns: columns(e) })),
  );
  for (const { id, e } of inserted) {
    entries.push(entry('event', e, id, {}));
    alertChanges.push({ kind: 'opened', eventId: id, event: e });
  }
  entries.sort((a, b) => a.occurredOn.getTime() - b.occurredOn.getTime());
  await appendRecordBookEntries(trx, facilityId, entries);
  await alerts.recordEventChanges(trx, facilityId, alertChanges);
  return pairs.length + added.length;
}

/** Removes the events starting inside [from, to) (their values were deleted), each noted in the record book. */
export async function withdrawEvents(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<number> {
  // Nothing is derived, so no event opens, rises or ends: no alert.
  return storeComplianceEvents(
    trx,
    facilityId,
    { windowFrom: from, windowTo: to, events: [], rules: DEFAULT_EVENT_RULES },
    NO_ALERTS,
  );
}

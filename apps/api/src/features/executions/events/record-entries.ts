import {
  EVENT_CLASSIFICATION_NAMES,
  EVENT_TYPE_NAMES,
  type EventRules,
  type EventType,
} from '@portal/contracts/events';
import type { DerivedEventColumns, RecordBookEntryInput, StoredEvent } from '../../../storage';
import type { DerivedEvent } from './types';

/** The name the engine's own record book entries carry. */
export const ENGINE_NAME = 'Portal (derived from the data)';

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
 * Sub-step "record book entry" (pure): the engine's entry of `kind` about a derived event, at its start (with the
 * start's position) or at `at` (the end's position), describing the event with `body` added.
 */
export function engineEntry(
  kind: string,
  event: DerivedEvent,
  eventId: string,
  body: Record<string, unknown>,
  at = event.start,
): RecordBookEntryInput {
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
}

/** The entry of a stored event no longer derived. */
export function withdrawnEntry(w: StoredEvent): RecordBookEntryInput {
  return {
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
  };
}

/** Sub-step "event columns" (pure): a derived event as its row stores it, with the rules in force. */
export function eventColumns(e: DerivedEvent, rules: EventRules): DerivedEventColumns {
  return {
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
  };
}

import type { EventType } from '@portal/contracts/events';
import type { StoredEvent } from '../../../storage';
import { MIN, T0 } from './test-inputs';
import type { DerivedEvent } from './types';

/** A derived event of the store sub-steps' tests, from `start` to `end` minutes after T0. */
export const derived = (type: EventType, start: number, end: number, more: Partial<DerivedEvent> = {}) =>
  ({
    type,
    start: T0 + start * MIN,
    end: T0 + end * MIN,
    ongoing: false,
    worstValue: null,
    limit: null,
    startPosition: { latitude: 1, longitude: 2 },
    endPosition: { latitude: 3, longitude: 4 },
    classification: 'malfunction',
    reportRequired: false,
    channel: null,
    fault: null,
    ...more,
  }) satisfies DerivedEvent;

/** The stored event `e` would be. */
export const stored = (id: string, e: DerivedEvent, more: Partial<StoredEvent> = {}): StoredEvent => ({
  id,
  type: e.type,
  channel: e.channel,
  fault: e.fault,
  start_on: new Date(e.start),
  end_on: new Date(e.end),
  ongoing: e.ongoing,
  classification: e.classification,
  report_required: e.reportRequired,
  acknowledged_on: null,
  ...more,
});

import type { Transaction } from 'kysely';
import type { AlertKind, AlertSnapshot } from '@portal/contracts/alerts';
import { alertLevel } from '@portal/contracts/rules';
import { EVENT_TYPE_NAMES } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import { JOB_NAMES } from '../../jobs/contract';
import type { Services } from '../../services';
import type { AlertOutboxPort, EventChange, EventChangeFacts } from '../executions/ports';

/**
 * The alert outbox (docs/decisions/0091-alerts.md): alerts are rows written in the transaction of the event change
 * that causes them, so an event change never commits without its alert nor an alert without its change. A worker
 * fans them out afterwards (fan-out.ts); a crash in between leaves the row to the next fan-out or sweep. The engine
 * writes it through its port (features/executions/ports.ts `AlertOutboxPort`), which `alertOutbox` implements.
 */

/** What the engine knows of an event when it changes (its port's type). */
export type AlertEventFacts = EventChangeFacts;
export type EventAlertChange = EventChange;

/** How the engine writes alerts: the age limit of ALERTS_MAX_AGE_HOURS, and who hears of new ones. */
export interface AlertOutboxOptions {
  maxAgeHours: number;
  /** ms; the clock (tests set it). */
  now?: number;
  /** Called inside the transaction when alerts were written: run.ts sends the fan-out job in it. */
  notify?: (trx: Transaction<Database>) => Promise<void>;
}

/** Without options (a test or benchmark calling the engine directly): the default age limit, nobody notified. */
export const DEFAULT_ALERT_OUTBOX: AlertOutboxOptions = { maxAgeHours: 72 };

/** The engine's alert outbox (its port) with these options. */
export function alertOutbox(options: AlertOutboxOptions = DEFAULT_ALERT_OUTBOX): AlertOutboxPort {
  return {
    recordEventChanges: (trx, facilityId, changes) => recordEventAlerts(trx, facilityId, changes, options),
  };
}

/**
 * The alert outbox of the process's engine: the configured age limit (ALERTS_MAX_AGE_HOURS), and, once the queue
 * runs, the fan-out job sent in the transaction that wrote alerts (the job exists exactly when the alerts do).
 */
export function alertOutboxOf(services: Services): AlertOutboxPort {
  return alertOutbox({
    maxAgeHours: services.config.ALERTS_MAX_AGE_HOURS ?? DEFAULT_ALERT_OUTBOX.maxAgeHours,
    notify: fanOutNotifier(services),
  });
}

/** Sends the fan-out job in the transaction that wrote alerts (once the queue runs): also the zone warnings'. */
export function fanOutNotifier(services: Services): NonNullable<AlertOutboxOptions['notify']> {
  return async (trx) => {
    await services.queue?.sendInTransaction(trx, JOB_NAMES.alertFanOut, {});
  };
}

/**
 * The key that makes an alert one: an event opens once, rises to a level once, ends once, is reminded of once. A
 * rerun of the same period, or one that lowers and raises the class again, writes nothing new.
 */
export function dedupeKey(kind: AlertKind, eventId: string, level: number): string {
  return kind === 'classified-up' ? `${eventId}:level-${level}` : `${eventId}:${kind}`;
}

/**
 * Is the change recent enough to alert? The event must reach into the last `maxAgeHours` (its end, or its latest
 * data while it lasts): a backfill of last year's files alerts nobody, an event that is still going on does.
 */
export const isRecent = (event: Pick<AlertEventFacts, 'end'>, maxAgeHours: number, now: number) =>
  event.end >= now - maxAgeHours * 3_600_000;

export function snapshotOf(
  facility: { id: string; name: string },
  eventId: string,
  e: AlertEventFacts,
): AlertSnapshot {
  return {
    facilityId: facility.id,
    facilityName: facility.name,
    eventId,
    type: e.type,
    typeName: EVENT_TYPE_NAMES[e.type] ?? e.type,
    classification: e.classification,
    reportRequired: e.reportRequired,
    start: new Date(e.start).toISOString(),
    end: e.ongoing ? null : new Date(e.end).toISOString(),
    durationMinutes: Math.round((e.end - e.start) / 60_000),
    worstValue: e.worstValue,
    limit: e.limit,
    channel: e.channel,
    fault: e.fault,
  };
}

/**
 * Writes the alerts of a ship's event changes in the caller's transaction (the engine's replacing one): those recent
 * enough, each once (its dedupe key). Returns how many were written; `notify` hears of them in the transaction.
 */
export async function recordEventAlerts(
  trx: Transaction<Database>,
  facilityId: string,
  changes: readonly EventAlertChange[],
  options: AlertOutboxOptions = DEFAULT_ALERT_OUTBOX,
): Promise<number> {
  const now = options.now ?? Date.now();
  const recent = changes.filter((c) => isRecent(c.event, options.maxAgeHours, now));
  if (!recent.length) return 0;
  const facility = await trx
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  let written = 0;
  for (let at = 0; at < recent.length; at += 500) {
    const rows = recent.slice(at, at + 500).map((c) => {
      const level = alertLevel(c.event);
      return {
        facility_id: facilityId,
        event_id: c.eventId,
        kind: c.kind,
        level,
        dedupe_key: dedupeKey(c.kind, c.eventId, level),
        occurred_on: new Date(c.kind === 'resolved' ? c.event.end : c.event.start),
        snapshot: JSON.stringify(snapshotOf(facility, c.eventId, c.event)),
      };
    });
    const inserted = await trx
      .insertInto('alerts')
      .values(rows)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .execute();
    written += inserted.length;
  }
  if (written && options.notify) await options.notify(trx);
  return written;
}

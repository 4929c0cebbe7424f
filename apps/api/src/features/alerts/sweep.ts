import { sql } from 'kysely';
import { DEFAULT_REMINDER_HOURS } from '@portal/contracts/alerts';
import type { EventClassification, EventType } from '@portal/contracts/events';
import type { Services } from '../../services';
import { composeDigests, dueDigestDays } from './digest';
import { fanOutPending } from './fan-out';
import { dedupeKey, snapshotOf } from './outbox';

const HOUR_MS = 3_600_000;

/**
 * Reminders due at `now`: events that require a report, alerted at that level (opened or classified up to report
 * required) at least the organization's reminder hours ago (DEFAULT_REMINDER_HOURS without a setting), and still
 * neither acknowledged nor closed. One reminder per event (its dedupe key), written to the outbox like any alert;
 * the fan-out sends it to the subscribers and escalates it to the organization's UserAdmins. Returns those written.
 */
export async function writeDueReminders(services: Services, now = Date.now()): Promise<number> {
  const { db } = services.database;
  const due = await sql<{
    event_id: string;
    alerted_on: Date;
    reminder_hours: number;
    facility_id: string;
    facility_name: string;
    type: string;
    start_on: Date;
    end_on: Date;
    ongoing: boolean;
    classification: string | null;
    report_required: boolean;
    worst_value: number | null;
    limit_value: number | null;
    channel: string | null;
    fault: string | null;
  }>`
    with alerted as (
      select a.event_id, min(a.created_on) as alerted_on
      from alerts a
      where a.level = 3 and a.kind in ('opened', 'classified-up')
        and not exists (select 1 from alerts r where r.event_id = a.event_id and r.kind = 'reminder')
      group by a.event_id
    )
    select al.event_id, al.alerted_on, coalesce(d.reminder_hours, ${DEFAULT_REMINDER_HOURS})::int as reminder_hours,
           e.facility_id, f.name as facility_name, e.type, e.start_on, e.end_on, e.ongoing, e.classification,
           e.report_required, e.worst_value, e.limit_value, e.channel, e.fault
    from alerted al
    join compliance_events e on e.id = al.event_id
    join facilities f on f.id = e.facility_id
    left join organization_alert_defaults d on d.organization_id = f.primary_organization_id
    where e.report_required and e.acknowledged_on is null and e.closed_on is null
      and al.alerted_on <= ${new Date(now)}::timestamptz
        - make_interval(hours => coalesce(d.reminder_hours, ${DEFAULT_REMINDER_HOURS})::int)
  `.execute(db);
  if (!due.rows.length) return 0;
  const rows = due.rows.map((r) => {
    const facts = {
      type: r.type as EventType,
      start: new Date(r.start_on).getTime(),
      end: new Date(r.end_on).getTime(),
      ongoing: r.ongoing,
      classification: r.classification as EventClassification | null,
      reportRequired: r.report_required,
      worstValue: r.worst_value,
      limit: r.limit_value,
      channel: r.channel,
      fault: r.fault,
    };
    const snapshot = {
      ...snapshotOf({ id: r.facility_id, name: r.facility_name }, r.event_id, facts),
      waitedHours: Math.floor((now - new Date(r.alerted_on).getTime()) / HOUR_MS),
    };
    return {
      facility_id: r.facility_id,
      event_id: r.event_id,
      kind: 'reminder',
      level: 3,
      dedupe_key: dedupeKey('reminder', r.event_id, 3),
      occurred_on: new Date(new Date(r.alerted_on).getTime() + r.reminder_hours * HOUR_MS),
      snapshot: JSON.stringify(snapshot),
    };
  });
  const inserted = await db
    .insertInto('alerts')
    .values(rows)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}

/**
 * The periodic sweep (ALERTS_SWEEP_SECONDS): reminders due, then every alert not fanned out yet (those a crash
 * between the event's commit and the fan-out job left behind, and the reminders), then the digests due.
 */
export async function sweepAlerts(
  services: Services,
  now = Date.now(),
): Promise<{ reminders: number; fannedOut: number; digests: number }> {
  const reminders = await writeDueReminders(services, now);
  const fannedOut = await fanOutPending(services);
  let digests = 0;
  for (const day of await dueDigestDays(services, now)) digests += await composeDigests(services, day);
  return { reminders, fannedOut, digests };
}

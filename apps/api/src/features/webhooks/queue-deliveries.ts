import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import {
  EVENT_CLASSIFICATIONS,
  EVENT_TYPE_NAMES,
  type EventClassification,
  type EventType,
} from '@portal/contracts/events';
import {
  type WebhookAlertKind,
  type WebhookDeliveryKind,
  type WebhookPayload,
} from '@portal/contracts/webhooks';
import { eventLink, eventValueUnit } from '@portal/contracts/rules';
import {
  shipMapLink,
  ZONE_WARNING_ALERT_KIND,
  type ZoneWarningSnapshot,
} from '@portal/contracts/zone-warnings';
import type { Database } from '../../db/schema';
import { JOB_NAMES } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';

/** An alert of the alert outbox (features/alerts), as the webhooks deliver it. */
export interface WebhookAlert {
  alertId: string;
  kind: WebhookAlertKind;
  eventId: string;
  facilityId: string;
}

/**
 * Queues the deliveries of an alert, inside the caller's transaction (the one that writes or claims the alert): one
 * delivery per enabled webhook of each organization that sees the ship (its owner, and those it is shared with) and
 * wants the event's type, each with its first attempt's job. The idempotency key (alert id and webhook id) makes a
 * second call for the same alert create nothing. The body is made now and sent as it is on every attempt.
 * Returns the number of deliveries created.
 */
export async function queueWebhookDeliveries(
  trx: Transaction<Database>,
  alert: WebhookAlert,
  services: Services,
): Promise<number> {
  const event = await trx
    .selectFrom('compliance_events as e')
    .innerJoin('facilities as f', 'f.id', 'e.facility_id')
    .select([
      'e.id',
      'e.type',
      'e.classification',
      'e.report_required',
      'e.start_on',
      'e.end_on',
      'e.ongoing',
      'e.worst_value',
      'e.limit_value',
      'e.channel',
      'e.fault',
      'f.id as facility_id',
      'f.name as facility_name',
      'f.imo',
    ])
    .where('e.id', '=', alert.eventId)
    .where('e.facility_id', '=', alert.facilityId)
    .executeTakeFirst();
  if (!event) return 0;
  const webhooks = await webhooksWanting(trx, event.facility_id, event.type);
  if (!webhooks.length) return 0;

  const { publicUrl } = services.config;
  const start = new Date(event.start_on).getTime();
  const end = new Date(event.end_on).getTime();
  const type = event.type as EventType;
  const link = eventLink(publicUrl, event.id);
  const createdOn = new Date().toISOString();
  const eventPayload: NonNullable<WebhookPayload['event']> = {
    id: event.id,
    type,
    typeName: EVENT_TYPE_NAMES[type] ?? event.type,
    classification: EVENT_CLASSIFICATIONS.includes(event.classification as EventClassification)
      ? (event.classification as EventClassification)
      : null,
    reportRequired: event.report_required,
    start: new Date(start).toISOString(),
    end: event.ongoing ? null : new Date(end).toISOString(),
    ongoing: event.ongoing,
    durationMinutes: Math.round((end - start) / 60_000),
    worstValue: event.worst_value,
    limit: event.limit_value,
    unit:
      event.worst_value === null
        ? null
        : eventValueUnit({ type, channel: event.channel, fault: event.fault }),
    channel: event.channel,
    link,
  };

  return queueToEach(
    trx,
    services,
    webhooks,
    { kind: alert.kind, alertId: alert.alertId, eventId: event.id, facilityId: event.facility_id },
    (id, webhook) => ({
      id,
      kind: alert.kind,
      createdOn,
      event: eventPayload,
      ship: { id: event.facility_id, name: event.facility_name, imo: event.imo },
      organization: { id: webhook.organization_id, name: webhook.organization_name },
      link,
    }),
  );
}

/**
 * Inserts a delivery unless one with its idempotency key exists, and sends its first attempt's job; true when it was
 * inserted.
 */
export async function queueDelivery(
  trx: Transaction<Database>,
  services: Services,
  delivery: {
    id: string;
    webhookId: string;
    idempotencyKey: string;
    kind: WebhookDeliveryKind;
    alertId: string | null;
    eventId: string | null;
    facilityId: string | null;
    body: string;
  },
): Promise<boolean> {
  const row = await trx
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      webhook_id: delivery.webhookId,
      idempotency_key: delivery.idempotencyKey,
      kind: delivery.kind,
      alert_id: delivery.alertId,
      event_id: delivery.eventId,
      facility_id: delivery.facilityId,
      body: delivery.body,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.webhookDelivery, {
    deliveryId: delivery.id,
    attempt: 1,
  });
  return true;
}

/**
 * Queues the deliveries of a zone warning's alert (docs/decisions/0123-zone-warnings.md), in the fan-out's
 * transaction: one per enabled webhook of each organization that sees the ship and wants zone warnings
 * ('zone-warning' among its event types), each once by its idempotency key (alert id and webhook id). The body
 * carries `zoneWarning` instead of `event`, and links the ship's map.
 */
export async function queueZoneWarningWebhookDeliveries(
  trx: Transaction<Database>,
  alertId: string,
  warning: ZoneWarningSnapshot,
  services: Services,
): Promise<number> {
  const ship = await trx
    .selectFrom('facilities')
    .select(['id', 'name', 'imo'])
    .where('id', '=', warning.facilityId)
    .executeTakeFirst();
  if (!ship) return 0;
  const webhooks = await webhooksWanting(trx, ship.id, ZONE_WARNING_ALERT_KIND);
  const link = shipMapLink(services.config.publicUrl, ship.id);
  const createdOn = new Date().toISOString();
  return queueToEach(
    trx,
    services,
    webhooks,
    { kind: ZONE_WARNING_ALERT_KIND, alertId, eventId: null, facilityId: ship.id },
    (id, webhook) => ({
      id,
      kind: ZONE_WARNING_ALERT_KIND,
      createdOn,
      event: null,
      zoneWarning: {
        id: warning.warningId,
        zoneKind: warning.zoneKind,
        zoneName: warning.zoneName,
        mode: warning.mode,
        text: warning.text,
        entryAt: warning.entryAt,
        entry: warning.entry,
        minutes: warning.minutes,
        courseDeg: warning.courseDeg,
        speedKn: warning.speedKn,
      },
      ship: { id: ship.id, name: ship.name, imo: ship.imo },
      organization: { id: webhook.organization_id, name: webhook.organization_name },
      link,
    }),
  );
}

/** A webhook that wants an alert, with its organization (named in the body). */
interface WantingWebhook {
  id: string;
  organization_id: string;
  organization_name: string;
}

/**
 * The enabled webhooks that want an alert of `eventType` (an event type, or the zone-warning kind) about the ship:
 * those of its owner and of the organizations it is shared with, oldest first.
 */
function webhooksWanting(
  trx: Transaction<Database>,
  facilityId: string,
  eventType: string,
): Promise<WantingWebhook[]> {
  return trx
    .selectFrom('webhooks as w')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'o.id as organization_id', 'o.name as organization_name'])
    .where('w.enabled', '=', true)
    .where(sql<boolean>`${eventType} = any(w.event_types)`)
    .where((eb) =>
      eb.or([
        eb(
          'w.organization_id',
          '=',
          eb.selectFrom('facilities').select('primary_organization_id').where('id', '=', facilityId),
        ),
        eb(
          'w.organization_id',
          'in',
          eb
            .selectFrom('organization_facility_access')
            .select('organization_id')
            .where('facility_id', '=', facilityId),
        ),
      ]),
    )
    .orderBy('w.created_on')
    .execute();
}

/**
 * One delivery of an alert per webhook, each once by its idempotency key (alert id and webhook id), with the body
 * `payload` makes for it. Returns the number created.
 */
async function queueToEach(
  trx: Transaction<Database>,
  services: Services,
  webhooks: readonly WantingWebhook[],
  alert: { kind: WebhookDeliveryKind; alertId: string; eventId: string | null; facilityId: string },
  payload: (id: string, webhook: WantingWebhook) => WebhookPayload,
): Promise<number> {
  let created = 0;
  for (const webhook of webhooks) {
    const id = randomUUID();
    const queued = await queueDelivery(trx, services, {
      id,
      webhookId: webhook.id,
      idempotencyKey: `${alert.alertId}:${webhook.id}`,
      ...alert,
      body: JSON.stringify(payload(id, webhook)),
    });
    if (queued) created++;
  }
  return created;
}

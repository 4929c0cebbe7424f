import type { Transaction } from 'kysely';
import type { AlertSnapshot } from '@portal/contracts/alerts';
import type { WebhookAlertKind } from '@portal/contracts/webhooks';
import { alertBellText, alertBellTitle, eventLink, quietHoursEnd } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { jobQueueOf, type Services } from '../../services';
import { queueWebhookDeliveries, queueZoneWarningWebhookDeliveries } from '../webhooks/queue-deliveries';
import { JOB_NAMES, type AlertEmailJob } from '../../jobs/contract';
import { recipientsOf, type Recipient } from './recipients';
import { composeAlertMail, type AnyAlertSnapshot } from './render';
import {
  shipMapLink,
  ZONE_WARNING_ALERT_KIND,
  zoneWarningBellText,
  zoneWarningBellTitle,
  type ZoneWarningSnapshot,
} from '@portal/contracts/zone-warnings';
import { unsubscribeKey, unsubscribeLinks, unsubscribeToken } from './unsubscribe';

/** How long an alert stays in the bell (its personal message's showTo). */
export const ALERT_MESSAGE_DAYS = 30;
/** The type of an alert's personal message (the messages feature: hidden from the administrators' lists). */
export const ALERT_MESSAGE_TYPE = 'Alert';

export interface StoredAlert {
  id: string;
  facility_id: string;
  event_id: string;
  kind: string;
  created_on: Date;
  snapshot: unknown;
}

/** The idempotency key of a delivery: one alert, one recipient, one channel. */
export const deliveryKey = (alertId: string, userId: string, channel: string) =>
  `${alertId}:${userId}:${channel}`;

interface FanOutContext {
  trx: Transaction<Database>;
  alert: StoredAlert;
  snapshot: AnyAlertSnapshot;
  baseUrl: string;
  now: Date;
  /** The key of the recipients' unsubscribe links (unsubscribe.ts). */
  unsubscribeKey: Buffer;
  /**
   * E-mail deliveries to send after the fan-out commits, by when (ms; 0: at once, else the end of the recipient's
   * quiet hours): one e-mail job per alert and time, sent in the transaction.
   */
  emails: Map<number, string[]>;
}

/** A recipient's channel: writes its delivery, once (the idempotency key), in the fan-out's transaction. */
type RecipientChannel = (context: FanOutContext, recipient: Recipient) => Promise<void>;

/** The bell's title and text of an alert: an event's, or a zone warning's (linking the ship's map). */
function bellMessage(kind: string, snapshot: AnyAlertSnapshot, baseUrl: string) {
  if (kind === ZONE_WARNING_ALERT_KIND) {
    const s = snapshot as ZoneWarningSnapshot;
    return {
      title: zoneWarningBellTitle(s),
      text: zoneWarningBellText(s, shipMapLink(baseUrl, s.facilityId)),
    };
  }
  const s = snapshot as AlertSnapshot;
  return { title: alertBellTitle(kind, s), text: alertBellText(kind, s, eventLink(baseUrl, s.eventId)) };
}

/**
 * In the portal: a personal message in the recipient's bell, delivered at once (it is a row, not a send), written
 * for the bell: a short title, the ship, the value with its unit and the link (not the e-mail's text).
 */
const inApp: RecipientChannel = async ({ trx, alert, snapshot, baseUrl, now }, recipient) => {
  const delivery = await trx
    .insertInto('alert_deliveries')
    .values({
      idempotency_key: deliveryKey(alert.id, recipient.userId, 'in-app'),
      alert_id: alert.id,
      user_id: recipient.userId,
      channel: 'in-app',
      status: 'sent',
      transport: 'in-app',
      attempts: 1,
      sent_on: now,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!delivery) return;
  const message = await trx
    .insertInto('messages')
    .values({
      ...bellMessage(alert.kind, snapshot, baseUrl),
      show_from: now,
      show_to: new Date(now.getTime() + ALERT_MESSAGE_DAYS * 86_400_000),
      notify: false,
      type: ALERT_MESSAGE_TYPE,
      is_personal: true,
      facility_id: alert.facility_id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('message_recipients')
    .values({ message_id: message.id, user_id: recipient.userId })
    .execute();
  await trx
    .updateTable('alert_deliveries')
    .set({ message_id: message.id })
    .where('id', '=', delivery.id)
    .execute();
};

/**
 * E-mail: as they happen, the e-mail composed now and sent by the e-mail job after the commit; for a daily digest,
 * held until the digest of the alert's day (digest.ts).
 */
const email: RecipientChannel = async (context, recipient) => {
  const { trx, alert, snapshot, baseUrl } = context;
  const digest = recipient.delivery === 'digest';
  const quietUntil = digest ? null : quietHoursEnd(recipient.quietHours, context.now.getTime());
  const mail = digest
    ? null
    : composeAlertMail(
        alert.kind,
        snapshot,
        baseUrl,
        unsubscribeLinks(baseUrl, unsubscribeToken(context.unsubscribeKey, recipient.userId)).page,
      );
  const delivery = await trx
    .insertInto('alert_deliveries')
    .values({
      idempotency_key: deliveryKey(alert.id, recipient.userId, 'email'),
      alert_id: alert.id,
      user_id: recipient.userId,
      channel: 'email',
      status: digest ? 'held' : 'pending',
      address: recipient.email,
      subject: mail?.subject ?? null,
      text_body: mail?.text ?? null,
      html_body: mail?.html ?? null,
      send_after: quietUntil === null ? null : new Date(quietUntil),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (delivery && !digest) {
    const at = quietUntil ?? 0;
    context.emails.set(at, [...(context.emails.get(at) ?? []), delivery.id]);
  }
};

const RECIPIENT_CHANNELS: Record<string, RecipientChannel> = { 'in-app': inApp, email };

/**
 * The organizations' channels of an alert, beside the recipients' own: the webhooks of the organizations that see
 * the ship (features/webhooks), their deliveries written in this same transaction, each once by its idempotency key.
 */
const ORGANIZATION_CHANNELS: ((
  trx: Transaction<Database>,
  services: Services,
  alert: StoredAlert,
) => Promise<unknown>)[] = [
  (trx, services, alert) =>
    alert.kind === ZONE_WARNING_ALERT_KIND
      ? queueZoneWarningWebhookDeliveries(trx, alert.id, alert.snapshot as ZoneWarningSnapshot, services)
      : queueWebhookDeliveries(
          trx,
          {
            alertId: alert.id,
            kind: alert.kind as WebhookAlertKind,
            eventId: alert.event_id,
            facilityId: alert.facility_id,
          },
          services,
        ),
];

/**
 * Fans one alert out to its deliveries, in the caller's transaction: the recipients of the moment (recipients.ts:
 * who may see the ship and wants the event), one delivery per recipient and channel, each once by its idempotency
 * key, so a fan-out that runs again (a crash before its commit, a second worker) adds nothing. The e-mail job is
 * sent in the same transaction. Returns the deliveries written.
 */
export async function fanOutAlert(
  trx: Transaction<Database>,
  services: Services,
  alert: StoredAlert,
  key: Buffer,
  now = new Date(),
): Promise<number> {
  const snapshot = alert.snapshot as AnyAlertSnapshot;
  const context: FanOutContext = {
    trx,
    alert,
    snapshot,
    baseUrl: services.config.publicUrl,
    now,
    unsubscribeKey: key,
    emails: new Map(),
  };
  const recipients = await recipientsOf(trx, { facilityId: alert.facility_id, kind: alert.kind, snapshot });
  let written = 0;
  for (const recipient of recipients)
    for (const channel of recipient.channels) {
      await RECIPIENT_CHANNELS[channel]!(context, recipient);
      written++;
    }
  for (const channel of ORGANIZATION_CHANNELS) await channel(trx, services, alert);
  for (const [at, deliveryIds] of context.emails) {
    const job: AlertEmailJob = { deliveryIds };
    await jobQueueOf(services).sendInTransaction(
      trx,
      JOB_NAMES.alertEmail,
      job,
      at ? { startAfter: new Date(at) } : undefined,
    );
  }
  await trx.updateTable('alerts').set({ fanned_out_on: now }).where('id', '=', alert.id).execute();
  return written;
}

/**
 * Fans out every alert of the outbox not fanned out yet, oldest first, each in its own transaction. Alerts another
 * worker holds are skipped (it fans them out); a crash leaves the alert as it was, for the next run.
 */
export async function fanOutPending(services: Services, options: { limit?: number } = {}): Promise<number> {
  const { db } = services.database;
  const limit = options.limit ?? Infinity;
  let done = 0;
  // Read before the transactions: the embedded database has one connection, which a transaction holds.
  const key = await unsubscribeKey(db);
  while (done < limit) {
    const claimed = await db.transaction().execute(async (trx) => {
      const alert = await trx
        .selectFrom('alerts')
        .select(['id', 'facility_id', 'event_id', 'kind', 'created_on', 'snapshot'])
        .where('fanned_out_on', 'is', null)
        .orderBy('created_on')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!alert) return false;
      await fanOutAlert(trx, services, alert, key);
      return true;
    });
    if (!claimed) break;
    done++;
  }
  return done;
}

import { WEBHOOK_HEADERS } from '@portal/contracts/webhooks';
import { webhookSettingsSchema, type Config } from '../../config';
import { JOB_NAMES, type JobOutcome, type WebhookDeliveryJob } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';
import { parseNetworkList } from '../../networks';
import type { AddressPolicy } from './addresses';
import { nextAttemptAt } from './schedule';
import { postWebhook, type AttemptResult, type Resolver } from './send';
import { signWebhookBody } from './signature';

/** The operator's address policy (config.ts: WEBHOOK_ALLOW_PRIVATE_NETWORKS, WEBHOOK_ALLOWED_NETWORKS). */
export function addressPolicyOf(config: Config): AddressPolicy {
  const settings = webhookSettingsSchema.parse(config);
  const parsed = parseNetworkList(settings.WEBHOOK_ALLOWED_NETWORKS);
  return {
    allowPrivateNetworks: settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    allowedNetworks: 'networks' in parsed ? parsed.networks : [],
  };
}

export interface DeliveryOptions {
  /** The host name resolver (the system's by default). */
  resolve?: Resolver;
}

/**
 * One attempt of a webhook delivery (the webhook-delivery job). Sends the stored body signed with the webhook's
 * current secret and a fresh timestamp, then, in one transaction, logs the attempt, updates the delivery and, when it
 * failed and the retry window allows, sends the job of the next attempt to start after the backoff. A job whose
 * attempt is already logged (sent twice, or retried after the log committed) or whose delivery is finished sends
 * nothing. A process stopped between the POST and the log makes the queue retry the job: the receiver may then get
 * the delivery twice, with the same X-Portal-Delivery id.
 */
export async function runWebhookDelivery(
  services: Services,
  job: WebhookDeliveryJob,
  options: DeliveryOptions = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.kind',
      'd.body',
      'd.status',
      'd.attempts',
      'd.created_on',
      'w.url',
      'w.secret',
      'w.enabled',
    ])
    .where('d.id', '=', job.deliveryId)
    .executeTakeFirst();
  if (!row || row.status !== 'pending' || row.attempts >= job.attempt)
    return { status: 'skipped', reason: 'nothing to send' };

  const settings = webhookSettingsSchema.parse(services.config);
  const startedOn = new Date();
  let result: AttemptResult;
  if (!row.enabled && row.kind !== 'test')
    result = { outcome: 'refused', responseStatus: null, error: 'The webhook is disabled', durationMs: 0 };
  else {
    const timestamp = Math.floor(startedOn.getTime() / 1000);
    result = await postWebhook({
      url: row.url,
      body: row.body,
      headers: {
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signWebhookBody(row.secret, timestamp, row.body),
        [WEBHOOK_HEADERS.delivery]: row.id,
        [WEBHOOK_HEADERS.kind]: row.kind,
      },
      policy: addressPolicyOf(services.config),
      timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      resolve: options.resolve,
    });
  }

  const delivered = result.outcome === 'delivered';
  // Refused (the address is not allowed, the webhook disabled) is final: it would be refused again.
  const retry = !delivered && result.outcome !== 'refused';
  const next = retry ? nextAttemptAt(job.attempt, new Date(row.created_on), new Date(), settings) : null;
  const finishedOn = next ? null : new Date();
  await db.transaction().execute(async (trx) => {
    const logged = await trx
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: row.id,
        attempt: job.attempt,
        started_on: startedOn,
        duration_ms: result.durationMs,
        outcome: result.outcome,
        response_status: result.responseStatus,
        error: result.error?.slice(0, 1000) ?? null,
        next_attempt_on: next,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .returning('attempt')
      .executeTakeFirst();
    if (!logged) return;
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: delivered ? 'delivered' : next ? 'pending' : 'failed',
        attempts: job.attempt,
        next_attempt_on: next,
        finished_on: finishedOn,
        last_response_status: result.responseStatus,
        last_error: result.error?.slice(0, 1000) ?? null,
      })
      .where('id', '=', row.id)
      .where('attempts', '<', job.attempt)
      .execute();
    if (next)
      await jobQueueOf(services).sendInTransaction(
        trx,
        JOB_NAMES.webhookDelivery,
        { deliveryId: row.id, attempt: job.attempt + 1 },
        { startAfter: next },
      );
  });
  return { status: 'done' };
}

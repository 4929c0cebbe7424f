import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { WebhookTopic } from '@portal/contracts/webhooks';
import type {
  Webhook,
  WebhookAttemptOutcome,
  WebhookDelivery,
  WebhookDeliveryKind,
  WebhookDeliveryStatus,
  WebhookPayload,
  WebhookWithSecret,
} from '@portal/contracts/webhooks';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { Services } from '../../services';
import type { Caller } from '../access/caller';
import { requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { organizationExists } from '../facilities/queries';
import { addressPolicyOf } from './deliver';
import { queueDelivery } from './queue-deliveries';
import { resolveTarget, type Resolver } from './send';
import { newWebhookSecret } from './signature';

const actor = (caller: Caller) => ({ userId: caller.userId, organizationId: caller.organizationId });
const iso = (value: Date | string) => new Date(value).toISOString();
const hint = (secret: string) => secret.slice(-4);

/** The organization's administrator or a SystemAdmin; another organization's (or none) is 404, a User 403. */
export async function requireWebhookAdmin(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
): Promise<void> {
  requireManageOrganization(caller, organizationId);
  if (!(await organizationExists(db, organizationId))) throw notFound('Organization not found');
}

function webhookRows(db: Kysely<Database>) {
  return db
    .selectFrom('webhooks as w')
    .select([
      'w.id',
      'w.organization_id',
      'w.url',
      'w.event_types',
      'w.enabled',
      'w.secret',
      'w.created_on',
      'w.updated_on',
      'w.secret_rotated_on',
    ])
    .select((eb) =>
      eb
        .selectFrom('webhook_deliveries as d')
        .select(
          sql<string>`json_build_object('status', d.status, 'createdOn', d.created_on, 'responseStatus', d.last_response_status)::text`.as(
            'last',
          ),
        )
        .whereRef('d.webhook_id', '=', 'w.id')
        .orderBy('d.created_on', 'desc')
        .limit(1)
        .as('last_delivery'),
    );
}

type WebhookRow = Awaited<ReturnType<ReturnType<typeof webhookRows>['executeTakeFirstOrThrow']>>;

function toWebhook(row: WebhookRow): Webhook {
  const last = row.last_delivery
    ? (JSON.parse(row.last_delivery) as {
        status: WebhookDeliveryStatus;
        createdOn: string;
        responseStatus: number | null;
      })
    : null;
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    eventTypes: row.event_types as WebhookTopic[],
    enabled: row.enabled,
    secretHint: hint(row.secret),
    createdOn: iso(row.created_on),
    updatedOn: iso(row.updated_on),
    secretRotatedOn: iso(row.secret_rotated_on),
    lastDelivery: last
      ? { status: last.status, createdOn: iso(last.createdOn), responseStatus: last.responseStatus }
      : null,
  };
}

export async function listWebhooks(db: Kysely<Database>, organizationId: string): Promise<Webhook[]> {
  const rows = await webhookRows(db)
    .where('w.organization_id', '=', organizationId)
    .orderBy('w.created_on')
    .orderBy('w.id')
    .execute();
  return rows.map(toWebhook);
}

/** The organization's webhook, or 404 (another organization's is not revealed). */
export async function findWebhook(
  db: Kysely<Database>,
  organizationId: string,
  webhookId: string,
): Promise<Webhook & { secret: string }> {
  const row = await webhookRows(db)
    .where('w.organization_id', '=', organizationId)
    .where('w.id', '=', webhookId)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook not found');
  return { ...toWebhook(row), secret: row.secret };
}

/**
 * Refuses (400, on the url field) a URL whose host is not found or resolves to an address the operator does not
 * allow: loopback, private, link-local and the like (docs/decisions/0092-webhooks.md). Checked again at each send.
 */
export async function assertUrlAllowed(services: Services, url: string, resolve?: Resolver): Promise<void> {
  const target = await resolveTarget(url, addressPolicyOf(services.config), resolve);
  if (!target.ok) throw badRequest(`url: ${target.reason}`, { url: target.reason });
}

export interface WebhookInput {
  url: string;
  eventTypes: WebhookTopic[];
  enabled: boolean;
}

export async function createWebhook(
  services: Services,
  caller: Caller,
  organizationId: string,
  input: WebhookInput,
): Promise<WebhookWithSecret> {
  const { db } = services.database;
  await assertUrlAllowed(services, input.url);
  const secret = newWebhookSecret();
  const id = await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const row = await trx
        .insertInto('webhooks')
        .values({
          organization_id: organizationId,
          url: input.url,
          event_types: input.eventTypes,
          enabled: input.enabled,
          secret,
          created_by: caller.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    (webhookId) => ({
      action: 'webhook.create',
      subject: webhookId,
      detail: { organizationId, url: input.url, eventTypes: input.eventTypes, enabled: input.enabled },
    }),
  );
  return { ...(await findWebhook(db, organizationId, id)), secret };
}

export async function updateWebhook(
  services: Services,
  caller: Caller,
  organizationId: string,
  webhookId: string,
  input: WebhookInput,
): Promise<Webhook> {
  const { db } = services.database;
  const before = await findWebhook(db, organizationId, webhookId);
  if (input.url !== before.url) await assertUrlAllowed(services, input.url);
  await auditedChange(
    db,
    actor(caller),
    (trx) =>
      trx
        .updateTable('webhooks')
        .set({
          url: input.url,
          event_types: input.eventTypes,
          enabled: input.enabled,
          updated_on: new Date(),
        })
        .where('id', '=', webhookId)
        .where('organization_id', '=', organizationId)
        .execute(),
    {
      action: 'webhook.update',
      subject: webhookId,
      detail: {
        organizationId,
        url: input.url,
        eventTypes: input.eventTypes,
        enabled: input.enabled,
        before: { url: before.url, eventTypes: before.eventTypes, enabled: before.enabled },
      },
    },
  );
  const { secret: _secret, ...webhook } = await findWebhook(db, organizationId, webhookId);
  return webhook;
}

/** A new secret: deliveries from now on (retries of older ones too) are signed with it; shown once. */
export async function rotateWebhookSecret(
  services: Services,
  caller: Caller,
  organizationId: string,
  webhookId: string,
): Promise<WebhookWithSecret> {
  const { db } = services.database;
  await findWebhook(db, organizationId, webhookId);
  const secret = newWebhookSecret();
  await auditedChange(
    db,
    actor(caller),
    (trx) =>
      trx
        .updateTable('webhooks')
        .set({ secret, secret_rotated_on: new Date(), updated_on: new Date() })
        .where('id', '=', webhookId)
        .where('organization_id', '=', organizationId)
        .execute(),
    { action: 'webhook.rotate-secret', subject: webhookId, detail: { organizationId } },
  );
  return { ...(await findWebhook(db, organizationId, webhookId)), secret };
}

export async function deleteWebhook(
  services: Services,
  caller: Caller,
  organizationId: string,
  webhookId: string,
): Promise<void> {
  const { db } = services.database;
  const webhook = await findWebhook(db, organizationId, webhookId);
  await auditedChange(
    db,
    actor(caller),
    (trx) =>
      trx
        .deleteFrom('webhooks')
        .where('id', '=', webhookId)
        .where('organization_id', '=', organizationId)
        .execute(),
    { action: 'webhook.delete', subject: webhookId, detail: { organizationId, url: webhook.url } },
  );
}

/** "Send test": a delivery of kind 'test' to this webhook, enabled or not, logged and retried like the others. */
export async function sendTestDelivery(
  services: Services,
  caller: Caller,
  organizationId: string,
  webhookId: string,
): Promise<WebhookDelivery> {
  const { db } = services.database;
  await findWebhook(db, organizationId, webhookId);
  const organization = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  const payload: WebhookPayload = {
    id,
    kind: 'test',
    createdOn: new Date().toISOString(),
    event: null,
    ship: null,
    organization: { id: organization.id, name: organization.name },
    link: services.config.publicUrl,
  };
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await queueDelivery(trx, services, {
        id,
        webhookId,
        idempotencyKey: `test:${id}`,
        kind: 'test',
        alertId: null,
        eventId: null,
        facilityId: null,
        body: JSON.stringify(payload),
      });
    },
    { action: 'webhook.test', subject: webhookId, detail: { organizationId, deliveryId: id } },
  );
  const [delivery] = await listDeliveries(db, webhookId, { limit: 1, id });
  return delivery!;
}

/** The webhook's newest deliveries, each with its attempts (the delivery log of the screen). */
export async function listDeliveries(
  db: Kysely<Database>,
  webhookId: string,
  options: { limit: number; id?: string },
): Promise<WebhookDelivery[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('compliance_events as e', 'e.id', 'd.event_id')
    .leftJoin('facilities as f', 'f.id', 'd.facility_id')
    .select([
      'd.id',
      'd.kind',
      'd.event_id',
      'e.type as event_type',
      'f.name as ship_name',
      'd.status',
      'd.created_on',
      'd.attempts',
      'd.next_attempt_on',
      'd.finished_on',
      'd.last_response_status',
      'd.last_error',
    ])
    .where('d.webhook_id', '=', webhookId);
  if (options.id) query = query.where('d.id', '=', options.id);
  const deliveries = await query
    .orderBy('d.created_on', 'desc')
    .orderBy('d.id')
    .limit(options.limit)
    .execute();
  if (!deliveries.length) return [];
  const attempts = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  return deliveries.map((d) => ({
    id: d.id,
    kind: d.kind as WebhookDeliveryKind,
    eventId: d.event_id,
    eventType: d.event_type,
    shipName: d.ship_name,
    status: d.status,
    createdOn: iso(d.created_on),
    attempts: d.attempts,
    nextAttemptOn: d.next_attempt_on ? iso(d.next_attempt_on) : null,
    finishedOn: d.finished_on ? iso(d.finished_on) : null,
    lastResponseStatus: d.last_response_status,
    lastError: d.last_error,
    attemptLog: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({
        attempt: a.attempt,
        startedOn: iso(a.started_on),
        durationMs: a.duration_ms,
        outcome: a.outcome as WebhookAttemptOutcome,
        responseStatus: a.response_status,
        error: a.error,
        nextAttemptOn: a.next_attempt_on ? iso(a.next_attempt_on) : null,
      })),
  }));
}

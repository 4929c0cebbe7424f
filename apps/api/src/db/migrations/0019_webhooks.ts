import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (issue 19, docs/decisions/0092-webhooks.md):
 * - `webhooks`: per organization, a URL, the event types it wants, the secret the deliveries are signed with (kept
 *   as given to the receiver: the server needs it to sign), and whether it is enabled.
 * - `webhook_deliveries`: one per alert and webhook (idempotency_key: alert id and webhook id, so queueing an alert
 *   twice makes nothing new) or per test; the body is made when it is queued and sent as it is on every attempt.
 * - `webhook_delivery_attempts`: every attempt, its outcome and when the next one is due.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE webhooks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      url text NOT NULL,
      event_types text[] NOT NULL,
      secret text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_on timestamptz NOT NULL DEFAULT now(),
      updated_on timestamptz NOT NULL DEFAULT now(),
      secret_rotated_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhooks_organization ON webhooks (organization_id);

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      idempotency_key text NOT NULL UNIQUE,
      kind text NOT NULL,
      alert_id text,
      event_id uuid,
      facility_id uuid,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_on timestamptz,
      created_on timestamptz NOT NULL DEFAULT now(),
      finished_on timestamptz,
      last_response_status integer,
      last_error text
    );
    CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_on DESC);

    CREATE TABLE webhook_delivery_attempts (
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      started_on timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      outcome text NOT NULL,
      response_status integer,
      error text,
      next_attempt_on timestamptz,
      PRIMARY KEY (delivery_id, attempt)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE webhook_delivery_attempts;
    DROP TABLE webhook_deliveries;
    DROP TABLE webhooks;
  `.execute(db);
}

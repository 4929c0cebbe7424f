import { sql, type Kysely } from 'kysely';

/**
 * Alerts (docs/decisions/0091-alerts.md).
 *
 * - `alerts`: the outbox. A row is written in the transaction of the event change that causes it (the engine's
 *   replacing transaction, or the sweep's reminder), so an event change and its alert commit together; `dedupe_key`
 *   makes each (event, kind, level) one alert however often the period is executed again.
 * - `alert_deliveries`: one row per alert, recipient and channel (or per user and day for a digest), unique by its
 *   idempotency key, so a fan-out that runs again delivers nothing twice; it holds the e-mail as composed and its
 *   state. With no SMTP server configured these rows are the embedded outbox a SystemAdmin reads.
 * - `alert_subscriptions`: a user's address and own settings (none: the organization's defaults).
 * - `organization_alert_defaults`: an organization's defaults for its users and the reminder's hours.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE alerts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      -- No reference: an alert that was sent stays as it was sent when its event is withdrawn.
      event_id uuid NOT NULL,
      kind text NOT NULL,
      level smallint NOT NULL,
      dedupe_key text NOT NULL UNIQUE,
      occurred_on timestamptz NOT NULL,
      created_on timestamptz NOT NULL DEFAULT now(),
      snapshot jsonb NOT NULL,
      fanned_out_on timestamptz
    );
    CREATE INDEX alerts_pending ON alerts (created_on) WHERE fanned_out_on IS NULL;
    CREATE INDEX alerts_event ON alerts (event_id);
    CREATE INDEX alerts_created ON alerts (created_on);

    CREATE TABLE alert_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      idempotency_key text NOT NULL UNIQUE,
      alert_id uuid REFERENCES alerts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      channel text NOT NULL,
      kind text NOT NULL DEFAULT 'alert',
      digest_day date,
      digest_id uuid REFERENCES alert_deliveries(id) ON DELETE SET NULL,
      -- pending -> sent | failed; held: waits for the user's daily digest; digested: went out in one.
      status text NOT NULL,
      address text,
      subject text,
      text_body text,
      html_body text,
      transport text,
      message_id text,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_on timestamptz NOT NULL DEFAULT now(),
      sent_on timestamptz
    );
    CREATE INDEX alert_deliveries_user ON alert_deliveries (user_id, created_on DESC);
    CREATE INDEX alert_deliveries_mail ON alert_deliveries (created_on DESC)
      WHERE channel = 'email' AND status IN ('pending', 'sent', 'failed');
    CREATE INDEX alert_deliveries_held ON alert_deliveries (user_id) WHERE status = 'held';

    CREATE TABLE alert_subscriptions (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      email text,
      -- null: the organization's defaults apply.
      settings jsonb,
      updated_on timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE organization_alert_defaults (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      -- null: the portal's defaults apply.
      settings jsonb,
      reminder_hours integer NOT NULL,
      updated_on timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE organization_alert_defaults;
    DROP TABLE alert_subscriptions;
    DROP TABLE alert_deliveries;
    DROP TABLE alerts;
  `.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Quiet hours (docs/decisions/0091-alerts.md): an alert e-mail held until the recipient's quiet hours end keeps that
 * time, so the outbox says why it is still pending and until when. Null: sent as soon as its job runs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE alert_deliveries ADD COLUMN send_after timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE alert_deliveries DROP COLUMN send_after`.execute(db);
}

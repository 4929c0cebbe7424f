import { sql, type Kysely } from 'kysely';

/**
 * The compliance calendar and the cost cockpit (docs/decisions/0119-compliance-calendar-and-cockpit.md).
 *
 * - `compliance_deadline_marks`: a deadline of an organization's calendar year recorded as done by a person (the
 *   day, a note, who); one per organization, year and deadline. Removing it makes the deadline due again.
 * - `compliance_deadline_reminders`: the reminder of a deadline sent to the organization's administrators, once
 *   (the key: organization, year, deadline), written in the transaction of its deliveries.
 * - `fuel_prices`: the HSFO and VLSFO prices an organization enters, € per tonne, one per organization and day.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE compliance_deadline_marks (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      year integer NOT NULL,
      code text NOT NULL,
      done_on date NOT NULL,
      note text NOT NULL DEFAULT '',
      marked_by uuid REFERENCES users(id) ON DELETE SET NULL,
      marked_by_name text NOT NULL,
      marked_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, year, code)
    );

    CREATE TABLE compliance_deadline_reminders (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      year integer NOT NULL,
      code text NOT NULL,
      sent_on timestamptz NOT NULL DEFAULT now(),
      recipients integer NOT NULL,
      PRIMARY KEY (organization_id, year, code)
    );

    CREATE TABLE fuel_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      price_on date NOT NULL,
      hsfo_eur_per_tonne double precision NOT NULL CHECK (hsfo_eur_per_tonne > 0),
      vlsfo_eur_per_tonne double precision NOT NULL CHECK (vlsfo_eur_per_tonne > 0),
      entered_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_by_name text NOT NULL,
      entered_on timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, price_on)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE fuel_prices;
    DROP TABLE compliance_deadline_reminders;
    DROP TABLE compliance_deadline_marks;
  `.execute(db);
}

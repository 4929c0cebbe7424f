import { sql, type Kysely } from 'kysely';

/**
 * A verifier's seat (docs/decisions/0115-verifier.md):
 *
 * - `users.role` takes 'Verifier': a user of the organization it verifies, who reads only (app.ts, features/access).
 * - `verifier_invitations`: per verifier user, the address invited, the token's SHA-256 (the link the e-mail holds,
 *   used once to choose a password) and when it was accepted.
 * - `verifier_years`: the years a verifier may read and verify; the access version moves with them, so a year
 *   taken away applies on the next call.
 * - `verification_findings`: per organization and year, non-conformities and misstatements (the figure, the
 *   evidence, the values and whether the difference is above 5 %).
 * - `verification_opinions`: per organization and year, the opinions in sequence, each with the fingerprint of the
 *   year's figures it was given on and the findings it covers, SHA-256 chained like the record book
 *   (storage/record-book.ts's chain rule) and append-only (trigger).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE users DROP CONSTRAINT users_role_check;
    ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('SystemAdmin', 'UserAdmin', 'User', 'Verifier'));

    CREATE TABLE verifier_invitations (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      email text NOT NULL,
      token_sha256 text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      invited_on timestamptz NOT NULL DEFAULT now(),
      accepted_on timestamptz
    );
    CREATE INDEX verifier_invitations_organization ON verifier_invitations (organization_id);

    CREATE TABLE verifier_years (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      year integer NOT NULL,
      PRIMARY KEY (user_id, year)
    );
    CREATE TRIGGER verifier_years_access_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON verifier_years FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();

    CREATE TABLE verification_findings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      year integer NOT NULL,
      facility_id uuid REFERENCES facilities(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('non-conformity', 'misstatement')),
      description text NOT NULL,
      figure text,
      evidence text,
      reported_value double precision,
      evidence_value double precision,
      difference_percent double precision,
      above_threshold boolean NOT NULL,
      version integer NOT NULL,
      recorded_by uuid REFERENCES users(id) ON DELETE SET NULL,
      recorded_by_name text NOT NULL,
      recorded_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX verification_findings_year ON verification_findings (organization_id, year, recorded_on);

    CREATE TABLE verification_opinions (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      year integer NOT NULL,
      sequence integer NOT NULL,
      opinion text NOT NULL CHECK (opinion IN ('satisfactory', 'satisfactory-with-comments', 'not-verified')),
      comment text NOT NULL,
      version integer NOT NULL,
      figures_fingerprint text NOT NULL,
      figures jsonb NOT NULL,
      finding_ids text[] NOT NULL,
      recorded_by uuid REFERENCES users(id) ON DELETE SET NULL,
      recorded_by_name text NOT NULL,
      recorded_on timestamptz NOT NULL,
      previous_hash text NOT NULL,
      hash text NOT NULL,
      UNIQUE (organization_id, year, sequence)
    );

    CREATE FUNCTION verification_opinions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- The organization's removal cascades: its opinions go with it. Anything else is refused.
      IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM organizations WHERE id = OLD.organization_id) THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'A verification opinion is never changed: a new opinion follows it';
    END $$;
    CREATE TRIGGER verification_opinions_append_only BEFORE UPDATE OR DELETE ON verification_opinions
      FOR EACH ROW EXECUTE FUNCTION verification_opinions_append_only();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER verification_opinions_append_only ON verification_opinions;
    DROP FUNCTION verification_opinions_append_only();
    DROP TABLE verification_opinions;
    DROP TABLE verification_findings;
    DROP TABLE verifier_years;
    DROP TABLE verifier_invitations;
    DELETE FROM users WHERE role = 'Verifier';
    ALTER TABLE users DROP CONSTRAINT users_role_check;
    ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('SystemAdmin', 'UserAdmin', 'User'));
  `.execute(db);
}

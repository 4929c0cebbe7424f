import { sql, type Kysely } from 'kysely';

/** Organizations, users, ships and who may see which; the identity provider's storage; settings. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE organizations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      email text,
      phone text,
      priority boolean NOT NULL DEFAULT false,
      link_key char(7) NOT NULL UNIQUE,
      is_provider boolean NOT NULL DEFAULT false,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX organizations_name_key ON organizations (lower(name));

    -- A link lets each of the two organizations share its own ships with the other (stored once per direction).
    CREATE TABLE organization_links (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      linked_organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      created_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, linked_organization_id),
      CHECK (organization_id <> linked_organization_id)
    );

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      username text NOT NULL,
      password_hash text NOT NULL,
      role text NOT NULL CHECK (role IN ('SystemAdmin', 'UserAdmin', 'User')),
      -- Access tokens issued before this moment are refused (sign-out, password change, deletion).
      tokens_valid_after timestamptz NOT NULL DEFAULT to_timestamp(0),
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_username_key ON users (lower(username));
    CREATE INDEX users_organization_idx ON users (organization_id);

    CREATE TABLE user_visits (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      section text NOT NULL,
      visited_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, section)
    );

    CREATE TABLE facilities (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      imo text,
      primary_organization_id uuid NOT NULL REFERENCES organizations(id),
      scrubber_system_type text,
      number_of_scrubbers integer,
      system_manufacturer text,
      total_effect_kw double precision,
      start_date timestamptz,
      end_date timestamptz,
      image_base64 text,
      data_timestamp_min timestamptz,
      data_timestamp_max timestamptz,
      data_coverage double precision,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX facilities_primary_organization_idx ON facilities (primary_organization_id);

    -- Secondary organizations: linked organizations the owner shared the ship with.
    CREATE TABLE organization_facility_access (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      PRIMARY KEY (facility_id, organization_id)
    );
    CREATE INDEX organization_facility_access_org_idx ON organization_facility_access (organization_id);

    CREATE TABLE user_facility_access (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      PRIMARY KEY (user_id, facility_id)
    );
    CREATE INDEX user_facility_access_facility_idx ON user_facility_access (facility_id);

    -- Storage of the embedded OpenID provider (sessions, grants, codes, refresh tokens, interactions).
    CREATE TABLE oidc_payloads (
      model text NOT NULL,
      id text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      account_id text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (model, id)
    );
    CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (grant_id);
    CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (uid);
    CREATE INDEX oidc_payloads_account_idx ON oidc_payloads (account_id);
    CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads (expires_at);

    CREATE TABLE settings (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_on timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      user_id uuid,
      organization_id uuid,
      action text NOT NULL,
      subject text,
      detail jsonb
    );
    CREATE INDEX audit_log_at_idx ON audit_log (at);

    CREATE TABLE client_errors (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      user_id uuid,
      message text NOT NULL,
      detail jsonb
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE client_errors, audit_log, settings, oidc_payloads, user_facility_access, organization_facility_access, facilities, user_visits, users, organization_links, organizations CASCADE`.execute(
    db,
  );
}

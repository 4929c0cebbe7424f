import { sql, type Kysely } from 'kysely';

/**
 * One number that changes with anything a caller's identity or ship access depends on: users (name, role,
 * organization, sign-out cut-off), organizations (name, priority), ships (name, IMO, owner) and the two access
 * tables. Every API process reads it once per request and keeps callers and visible fleets cached under it
 * (features/auth/verify.ts), so a change made through any process, or by hand in SQL, applies on the next call
 * everywhere. Statement triggers keep it: no code path can forget. They fire BEFORE the statement, so the version
 * row is locked before any row of the statement is (no lock-order deadlock between two access changes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE access_version (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version bigint NOT NULL
    );
    INSERT INTO access_version (singleton, version) VALUES (true, 1);

    CREATE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE access_version SET version = version + 1;
      RETURN NULL;
    END $$;

    CREATE TRIGGER users_access_version BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF username, role, organization_id, tokens_valid_after
      ON users FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
    CREATE TRIGGER organizations_access_version BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF name, priority
      ON organizations FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
    CREATE TRIGGER facilities_access_version BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF name, imo, primary_organization_id
      ON facilities FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
    CREATE TRIGGER organization_facility_access_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON organization_facility_access FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
    CREATE TRIGGER user_facility_access_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON user_facility_access FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER users_access_version ON users;
    DROP TRIGGER organizations_access_version ON organizations;
    DROP TRIGGER facilities_access_version ON facilities;
    DROP TRIGGER organization_facility_access_version ON organization_facility_access;
    DROP TRIGGER user_facility_access_version ON user_facility_access;
    DROP FUNCTION bump_access_version();
    DROP TABLE access_version;
  `.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Ports (docs/decisions/0108-ports.md): the sea-port reference that ships with the product and an organization's own
 * additions and corrections.
 *
 * - `ports`: the reference, UN/LOCODE's ports with a position (features/ports/data/ports.json), replaced whole at a
 *   start whose data file differs from the one loaded (features/ports/reference.ts); `port_reference` says which.
 * - `organization_ports`: an organization's own port (no locode, or a code the reference does not have) or its
 *   correction of a reference port (the reference's locode): a point with a radius in nautical miles, or a polygon
 *   (a GeoJSON Polygon's rings, [lon, lat]), active from and to a day (inclusive; open when null). One correction
 *   per reference port and organization. No foreign key to `ports`: a new release may drop a code an organization
 *   still uses.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE port_reference (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      release text NOT NULL,
      digest text NOT NULL,
      sources jsonb NOT NULL,
      count integer NOT NULL,
      loaded_on timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE ports (
      locode text PRIMARY KEY,
      name text NOT NULL,
      name_ascii text,
      country text NOT NULL,
      subdivision text,
      lat double precision NOT NULL,
      lon double precision NOT NULL,
      functions text NOT NULL,
      status text NOT NULL,
      area text,
      position_source text NOT NULL
    );
    CREATE INDEX ports_lat_lon ON ports (lat, lon);

    CREATE TABLE organization_ports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      locode text,
      name text NOT NULL,
      country text NOT NULL,
      subdivision text,
      area text,
      lat double precision NOT NULL,
      lon double precision NOT NULL,
      radius_nm double precision NOT NULL DEFAULT 5 CHECK (radius_nm > 0),
      polygon jsonb,
      active_from date,
      active_to date,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_on timestamptz NOT NULL DEFAULT now(),
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_on timestamptz NOT NULL DEFAULT now(),
      CHECK (active_from IS NULL OR active_to IS NULL OR active_from <= active_to)
    );
    CREATE INDEX organization_ports_organization ON organization_ports (organization_id);
    CREATE UNIQUE INDEX organization_ports_locode ON organization_ports (organization_id, locode)
      WHERE locode IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE organization_ports;
    DROP TABLE ports;
    DROP TABLE port_reference;
  `.execute(db);
}

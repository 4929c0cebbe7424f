import type { ColumnType, Generated } from 'kysely';

type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
/** A `date` column, written as YYYY-MM-DD; read it as text (`::text`), never as a Date. */
type NullableDay = ColumnType<Date | string | null, string | null | undefined, string | null>;

/** Which reference is loaded (migration 0024): one row. */
export interface PortReferenceTable {
  singleton: Generated<boolean>;
  release: string;
  digest: string;
  sources: Json;
  count: number;
  loaded_on: GeneratedTimestamp;
}

/** A reference port (features/ports/data/ports.json). */
export interface PortsTable {
  locode: string;
  name: string;
  name_ascii: string | null;
  country: string;
  subdivision: string | null;
  lat: number;
  lon: number;
  functions: string;
  status: string;
  area: string | null;
  /** U: UN/LOCODE's coordinates; W: the World Port Index's harbour. */
  position_source: string;
}

/** An organization's own port or its correction of a reference port. */
export interface OrganizationPortsTable {
  id: Generated<string>;
  organization_id: string;
  locode: string | null;
  name: string;
  country: string;
  subdivision: string | null;
  area: string | null;
  lat: number;
  lon: number;
  radius_nm: Generated<number>;
  /** [lon, lat] rings of a GeoJSON Polygon, or null for a circle. */
  polygon: NullableJson;
  active_from: NullableDay;
  active_to: NullableDay;
  created_by: string | null;
  created_on: GeneratedTimestamp;
  updated_by: string | null;
  updated_on: GeneratedTimestamp;
}

export interface PortTables {
  port_reference: PortReferenceTable;
  ports: PortsTable;
  organization_ports: OrganizationPortsTable;
}

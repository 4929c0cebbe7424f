import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A ship's warning of a zone ahead (migration 0035_zone_warnings). */
export interface ZoneWarningsTable {
  id: Generated<string>;
  facility_id: string;
  zone_kind: string;
  zone_name: string;
  mode: string;
  text: string;
  entry_at: Timestamp;
  entry_latitude: number;
  entry_longitude: number;
  minutes: number;
  course_deg: number;
  speed_kn: number;
  raised_on: GeneratedTimestamp;
  updated_on: GeneratedTimestamp;
  cleared_on: NullableTimestamp;
  clearance: string | null;
}

/** An organization's horizon of zone warnings (migration 0035_zone_warnings). */
export interface OrganizationZoneWarningSettingsTable {
  organization_id: string;
  horizon_minutes: number;
  updated_on: GeneratedTimestamp;
}

export interface ZoneWarningTables {
  zone_warnings: ZoneWarningsTable;
  organization_zone_warning_settings: OrganizationZoneWarningSettingsTable;
}

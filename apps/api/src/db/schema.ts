import type { ColumnType, Generated } from 'kysely';
import type { ShipType } from '@portal/contracts/ship-particulars';
import type { IngestionTables } from './tables/ingestion';
import type { CalculationTables } from './tables/calculations';
import type { ValueTables } from './tables/values';
import type { EventTables } from './tables/events';
import type { AdministrationTables } from './tables/administration';
import type { WebhookTables } from './tables/webhooks';
import type { AlertTables } from './tables/alerts';
import type { InspectionPackTables } from './tables/inspection-packs';
import type { PortTables } from './tables/ports';
import type { CarbonTables } from './tables/carbon';
import type { VerificationTables } from './tables/verification';
import type { ComplianceTables } from './tables/compliance';
import type { ZoneWarningTables } from './tables/zone-warnings';
import type { RateLimitTables } from './tables/rate-limits';

/**
 * Row types of the database, one interface per table, grouped by domain. Each domain's migration in
 * db/migrations creates its tables; its row types live in db/tables/<domain>.ts and are joined here.
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  email: string | null;
  phone: string | null;
  priority: Generated<boolean>;
  link_key: string;
  is_provider: Generated<boolean>;
  created_on: GeneratedTimestamp;
  /** Months its ships' data stay online (at least 18, migration 0037; docs/decisions/0125). */
  retention_months: Generated<number>;
  /** What happens to its data older than that: archived (default) or, when an administrator says so, deleted. */
  retention_expired: Generated<'archive' | 'delete'>;
}

/** A month whose partitions are detached into the archive schema (storage/partitions.ts, migration 0037). */
export interface ArchivedMonthsTable {
  month: string;
  archived_on: GeneratedTimestamp;
  archived_by: string | null;
  reason: 'retention' | 'administrator';
  tables: string[];
}

export interface OrganizationLinksTable {
  organization_id: string;
  linked_organization_id: string;
  created_on: GeneratedTimestamp;
}

export interface UsersTable {
  id: Generated<string>;
  organization_id: string;
  username: string;
  password_hash: string;
  role: 'SystemAdmin' | 'UserAdmin' | 'User' | 'Verifier';
  tokens_valid_after: GeneratedTimestamp;
  created_on: GeneratedTimestamp;
}

export interface UserVisitsTable {
  user_id: string;
  section: string;
  visited_on: GeneratedTimestamp;
}

export interface FacilitiesTable {
  id: Generated<string>;
  name: string;
  imo: string | null;
  primary_organization_id: string;
  scrubber_system_type: string | null;
  number_of_scrubbers: number | null;
  system_manufacturer: string | null;
  total_effect_kw: number | null;
  start_date: Timestamp | null;
  end_date: Timestamp | null;
  image_base64: string | null;
  data_timestamp_min: Timestamp | null;
  data_timestamp_max: Timestamp | null;
  data_coverage: number | null;
  created_on: GeneratedTimestamp;
  /** MEPC.353(78) ship type code (packages/contracts/src/ship-particulars.ts); migration 0025. */
  ship_type: Generated<ShipType | null>;
  deadweight_tonnes: Generated<number | null>;
  gross_tonnage: Generated<number | null>;
}

export interface OrganizationFacilityAccessTable {
  organization_id: string;
  facility_id: string;
}

export interface UserFacilityAccessTable {
  user_id: string;
  facility_id: string;
}

export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  account_id: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_on: GeneratedTimestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: GeneratedTimestamp;
  user_id: string | null;
  organization_id: string | null;
  action: string;
  subject: string | null;
  detail: ColumnType<unknown, string | null, string | null> | null;
}

export interface ClientErrorsTable {
  id: Generated<number>;
  at: GeneratedTimestamp;
  user_id: string | null;
  message: string;
  detail: ColumnType<unknown, string | null, string | null> | null;
}

/** One row: changes with anything callers and their ships depend on (migration 0010_access_version). */
export interface AccessVersionTable {
  singleton: Generated<boolean>;
  version: ColumnType<string, never, never>;
}

export interface PlatformTables {
  access_version: AccessVersionTable;
  organizations: OrganizationsTable;
  archived_months: ArchivedMonthsTable;
  organization_links: OrganizationLinksTable;
  users: UsersTable;
  user_visits: UserVisitsTable;
  facilities: FacilitiesTable;
  organization_facility_access: OrganizationFacilityAccessTable;
  user_facility_access: UserFacilityAccessTable;
  oidc_payloads: OidcPayloadsTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  client_errors: ClientErrorsTable;
}

export interface Database
  extends
    PlatformTables,
    IngestionTables,
    CalculationTables,
    ValueTables,
    AdministrationTables,
    EventTables,
    WebhookTables,
    AlertTables,
    InspectionPackTables,
    PortTables,
    CarbonTables,
    VerificationTables,
    ComplianceTables,
    ZoneWarningTables,
    RateLimitTables {}

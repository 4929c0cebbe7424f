import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;

export type InspectionPackState = 'queued' | 'building' | 'ready' | 'failed';

/** A pack of a ship and a period [period_from, period_to) and its build (migration 0023). */
export interface InspectionPacksTable {
  id: Generated<string>;
  facility_id: string;
  period_from: Timestamp;
  period_to: Timestamp;
  state: Generated<InspectionPackState>;
  /** 0 to 1. */
  progress: Generated<number>;
  /** What the build is doing ("Originals 120 of 365"). */
  stage: string | null;
  scheduled: Generated<boolean>;
  requested_by: string | null;
  requested_by_name: string | null;
  requested_on: GeneratedTimestamp;
  started_on: NullableTimestamp;
  finished_on: NullableTimestamp;
  pdf_sha256: string | null;
  pdf_bytes: number | null;
  /** bigint (read as a number: db/connection.ts). */
  zip_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  originals: number | null;
  error: string | null;
}

/** The zip of a ready pack, in order. */
export interface InspectionPackPartsTable {
  pack_id: string;
  part: number;
  content: Bytes;
}

/** An organization's monthly pack of a ship and who gets its link. */
export interface InspectionPackSchedulesTable {
  id: Generated<string>;
  facility_id: string;
  organization_id: string;
  recipient_ids: string[];
  /** YYYY-MM: the last month whose pack was queued. */
  last_month: string | null;
  created_by: string | null;
  created_on: GeneratedTimestamp;
  updated_on: GeneratedTimestamp;
}

export interface InspectionPackTables {
  inspection_packs: InspectionPacksTable;
  inspection_pack_parts: InspectionPackPartsTable;
  inspection_pack_schedules: InspectionPackSchedulesTable;
}

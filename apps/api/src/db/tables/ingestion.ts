import type { ColumnType, Generated } from 'kysely';
import type {
  ChannelConsumer,
  ChannelFuelType,
  ChannelLngEngine,
  FuelTypeSource,
} from '@portal/contracts/fuel-channels';
import type { StreamFindingKind } from '@portal/contracts/data-health';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;
type Json<T> = ColumnType<T, string, string>;

export interface FacilityDataSourcesTable {
  id: Generated<string>;
  facility_id: string;
  name: string;
  note: string | null;
  is_primary: Generated<boolean>;
  reader_id: string;
  reader_configuration: string;
  measure_frequency_seconds: number;
  utc_offset_minutes: Generated<number>;
  sample_file_name: string | null;
  sample_file: Bytes | null;
  sample_channels: Json<unknown> | null;
  created_on: GeneratedTimestamp;
}

export interface DataSourceChannelsTable {
  id: Generated<string>;
  facility_id: string;
  data_source_id: string;
  source: string;
  name: string;
  data_type: 'Double' | 'Integer' | 'UTCDateTime' | 'Boolean' | 'String';
  unit: string | null;
  description: string | null;
  quality_score: Generated<number>;
  is_custom: Generated<boolean>;
  created_on: GeneratedTimestamp;
  /** A fuel flow channel's (packages/contracts/src/fuel-channels.ts); migration 0025. All null on other channels. */
  consumer: Generated<ChannelConsumer | null>;
  fuel_type_source: Generated<FuelTypeSource | null>;
  fuel_type: Generated<ChannelFuelType | null>;
  fuel_type_channel_id: Generated<string | null>;
  /** The channel's ISO 19848-style local id (packages/contracts/src/local-id.ts); migration 0033. */
  local_id: Generated<string | null>;
  lng_engine: Generated<ChannelLngEngine | null>;
}

export interface DataFilesTable {
  id: Generated<string>;
  facility_id: string;
  data_source_id: string;
  file_name: string;
  content_sha256: string;
  byte_size: number;
  row_count: number;
  time_stamp_min: Timestamp;
  time_stamp_max: Timestamp;
  imported_on: GeneratedTimestamp;
  imported_by: string | null;
  has_samples: Generated<boolean>;
  /** Set when the file was deleted from the list but its samples were kept (migration 0006). */
  removed_on: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The upload's warnings (DataFileWarning[], migration 0015), as JSON text on insert. */
  warnings: ColumnType<unknown, string | undefined, string>;
}

/** Thresholds of an organization per measurement field (migration 0015); a field without a row takes the default. */
export interface DataHealthThresholdsTable {
  organization_id: string;
  field_name: string;
  min: number | null;
  max: number | null;
  stale_hours: number | null;
  flat_line_hours: number | null;
  updated_on: GeneratedTimestamp;
}

/** The ship list's data health badge per ship, and the fingerprint of what it was computed from (migration 0015). */
export interface DataHealthSummariesTable {
  facility_id: string;
  fingerprint: string;
  summary: ColumnType<unknown, string, string>;
  computed_on: GeneratedTimestamp;
}

export interface DataFileOriginalsTable {
  facility_id: string;
  data_file_id: string;
  /** Order of the part (migration 0008): the original is the concatenation of its parts. */
  part: Generated<number>;
  compression: Generated<string>;
  content: Bytes;
}

export interface RawTimestampsTable {
  facility_id: string;
  data_file_id: string;
  time_stamp_min: Timestamp;
  time_stamp_max: Timestamp;
  row_count: number;
  timestamps: Bytes;
}

export interface RawValuesTable {
  facility_id: string;
  data_file_id: string;
  channel: string;
  data_type: string;
  values: Bytes;
}

/** An organization's own name of a logger column for a measurement field (migration 0014). */
export interface ChannelAliasesTable {
  id: Generated<string>;
  organization_id: string;
  field: string;
  alias: string;
  created_by: string | null;
  created_on: GeneratedTimestamp;
}

/** A sample that arrived over the stream (migration 0033; storage/samples.ts). */
export interface StreamSamplesTable {
  facility_id: string;
  data_source_id: string;
  channel: string;
  source_time: Timestamp;
  value: number | null;
  is_historical: Generated<boolean>;
  received_on: GeneratedTimestamp;
}

/** A data health finding of the stream (migration 0033; features/live). */
export interface StreamFindingsTable {
  id: Generated<string>;
  facility_id: string;
  data_source_id: string | null;
  kind: StreamFindingKind;
  source_time: Timestamp | null;
  detail: Json<Record<string, unknown>>;
  found_on: GeneratedTimestamp;
}

/** Whether a ship's edge node is online (migration 0033; features/live). */
export interface StreamLinksTable {
  facility_id: string;
  online: boolean;
  changed_on: GeneratedTimestamp;
  last_message_on: Timestamp | null;
}

export interface IngestionTables {
  facility_data_sources: FacilityDataSourcesTable;
  data_source_channels: DataSourceChannelsTable;
  data_files: DataFilesTable;
  data_file_originals: DataFileOriginalsTable;
  raw_timestamps: RawTimestampsTable;
  raw_values: RawValuesTable;
  channel_aliases: ChannelAliasesTable;
  data_health_thresholds: DataHealthThresholdsTable;
  data_health_summaries: DataHealthSummariesTable;
  stream_samples: StreamSamplesTable;
  stream_findings: StreamFindingsTable;
  stream_links: StreamLinksTable;
}

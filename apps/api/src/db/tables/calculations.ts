import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;
export type ChannelDataType = 'Double' | 'Integer' | 'UTCDateTime' | 'Boolean' | 'String';

export interface MeasurementFieldsTable {
  id: Generated<string>;
  name: string;
  data_type: ChannelDataType;
  unit: string | null;
  documentation: string | null;
  required_sample_interval_seconds: Generated<number>;
  position: Generated<number>;
  created_on: GeneratedTimestamp;
}

interface CalculationColumns {
  id: Generated<string>;
  version: Generated<number>;
  revision: Generated<number>;
  comment: string | null;
  documentation: string | null;
  input_ids: Json<string[]>;
  transform_algorithm: Generated<string>;
  quality_score: Generated<number>;
  approved_on: Timestamp | null;
  approved_by: string | null;
  valid_from: Timestamp | null;
  valid_to: Timestamp | null;
  recalculation_requested_on: Timestamp | null;
  recalculation_queued_on: Timestamp | null;
  created_on: GeneratedTimestamp;
  updated_on: GeneratedTimestamp;
}

export interface MeasurementFieldCalculationsTable extends CalculationColumns {
  facility_id: string;
  measurement_field_id: string;
  required_sample_interval_seconds: Generated<number>;
  preload_interval_seconds: Generated<number>;
  output_type: Generated<ChannelDataType>;
}

export interface ReportsTable {
  id: string;
  name: string;
  target: 'Facility' | 'FacilityGroup';
  documentation: string | null;
  information: string | null;
  position: Generated<number>;
}

export type AggregateType = 'Average' | 'Sum' | 'Min' | 'Max' | 'Last' | 'Count';

export interface ReportFieldsTable {
  id: Generated<string>;
  report_id: string;
  name: string;
  position: Generated<number>;
  as_lifetime: Generated<boolean>;
  as_series: Generated<boolean>;
  by_facility: Generated<boolean>;
  facility_aggregate_type: Generated<AggregateType>;
  time_aggregate_type: Generated<AggregateType>;
  format: string | null;
  format_note: string | null;
  interface_type: string | null;
  unit: string | null;
  note: string | null;
  documentation: string | null;
}

export interface ReportFieldCalculationsTable extends CalculationColumns {
  report_field_id: string;
  algorithm_seconds_span: Generated<number>;
}

export interface CalculationTables {
  measurement_fields: MeasurementFieldsTable;
  measurement_field_calculations: MeasurementFieldCalculationsTable;
  reports: ReportsTable;
  report_fields: ReportFieldsTable;
  report_field_calculations: ReportFieldCalculationsTable;
}

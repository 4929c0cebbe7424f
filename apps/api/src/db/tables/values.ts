import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;
/** A date column (UTC day): read as a Date at 00:00 UTC or a 'YYYY-MM-DD' string depending on the driver. */
type Day = ColumnType<Date | string, Date | string, Date | string>;

export interface MeasurementValuesTable {
  facility_id: string;
  measurement_field_id: string;
  day: Day;
  row_count: number;
  timestamps: Bytes;
  values: Bytes;
}

export interface ReportValuesTable {
  facility_id: string;
  report_field_id: string;
  span_start: Timestamp;
  value: number | null;
}

export interface ReportValuesDailyTable {
  facility_id: string;
  report_field_id: string;
  day: Day;
  value_sum: number;
  value_count: number;
  value_min: number | null;
  value_max: number | null;
  span_count: number;
}

/** A ship's field over a UTC calendar month (month: its first day) or year (year: 1 January), migration 0036. */
export interface ReportValuesPeriodTable {
  facility_id: string;
  report_field_id: string;
  value_sum: number;
  value_count: number;
  value_min: number | null;
  value_max: number | null;
  span_count: number;
  /** The last day with a value; null when none had one. */
  latest_day: Day | null;
}
export interface ReportValuesMonthlyTable extends ReportValuesPeriodTable {
  month: Day;
}
export interface ReportValuesYearlyTable extends ReportValuesPeriodTable {
  year: Day;
}

export interface ExecutionsTable {
  id: Generated<string>;
  facility_id: string;
  kind: 'execute' | 'recalculation';
  period_from: Timestamp;
  period_to: Timestamp;
  data_file_ids: ColumnType<string[], string | undefined, string>;
  detail: ColumnType<unknown, string | null | undefined, string | null> | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  requested_by: string | null;
  requested_on: GeneratedTimestamp;
  started_on: NullableTimestamp;
  finished_on: NullableTimestamp;
  attempts: Generated<number>;
  error: string | null;
  job_id: string | null;
  /** What a finished run did (ExecutionCounts of features/executions/engine.ts); null until it is done. */
  counts: ColumnType<unknown, string | null | undefined, string | null> | null;
  /** 'upload': queued by an upload, joined by the ship's later uploads until it starts (migration 0017_api_keys). */
  origin: ColumnType<'request' | 'upload', 'request' | 'upload' | undefined, 'request' | 'upload'>;
  /** How many uploads an upload execution gathered. */
  uploads: Generated<number>;
}

/** One row: changes with everything report answers depend on (migration 0012_execution_status). */
/** A ship's values version (migration 0041): moves with every change of its daily roll-up. */
export interface ShipValuesVersionsTable {
  facility_id: string;
  version: ColumnType<string, never, never>;
}

export interface ReportsVersionTable {
  singleton: Generated<boolean>;
  version: ColumnType<string, never, never>;
}

/**
 * A ship's data source's windows of streamed samples waiting for their execution (migration 0034_execution_windows;
 * features/executions/live.ts): disjoint [from, to) pairs in epoch ms, merged by each request.
 */
export interface ExecutionWindowsTable {
  id: Generated<string>;
  facility_id: string;
  data_source_id: string;
  windows: ColumnType<[number, number][], string | undefined, string>;
  requests: Generated<number>;
  first_requested_on: GeneratedTimestamp;
}

export interface ValueTables {
  measurement_values: MeasurementValuesTable;
  report_values: ReportValuesTable;
  report_values_daily: ReportValuesDailyTable;
  report_values_monthly: ReportValuesMonthlyTable;
  report_values_yearly: ReportValuesYearlyTable;
  executions: ExecutionsTable;
  execution_windows: ExecutionWindowsTable;
  reports_version: ReportsVersionTable;
  ship_values_versions: ShipValuesVersionsTable;
}

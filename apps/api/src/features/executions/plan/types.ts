import type { FacilityConstants, OutputType } from '@portal/formula';
import type { EventRules } from '@portal/contracts/events';
import type { DataHealthThreshold } from '@portal/contracts/data-health';

/** What one execution computes: a ship's period (whole UTC days, or a live window: live.ts), and which fields. */
export interface ComputeRequest {
  facilityId: string;
  /**
   * Whole UTC days (from a day start to the exclusive start of the day after the last), or a live window on the
   * calculations' grids (live/windows.ts: every measurement interval and report span divides its edges).
   */
  from: number;
  to: number;
  /** Measurement fields to recompute ('all', or these ids); the others are read from storage when needed. */
  measurementFieldIds: 'all' | ReadonlySet<string>;
  /** Report fields to recompute. */
  reportFieldIds: 'all' | ReadonlySet<string>;
  /** Time budget of one evaluation of a calculation (ms). */
  budgetMs?: number;
  /** Stage timings (ms) are added here when given. */
  timings?: Record<string, number>;
}

export interface MeasurementCalc {
  id: string;
  fieldId: string;
  version: number;
  revision: number;
  interval: number;
  preload: number;
  inputIds: string[];
  algorithm: string;
  outputType: OutputType;
  validFrom: number;
  validTo: number;
  approvedOn: number;
}

export interface ReportCalc {
  id: string;
  fieldId: string;
  version: number;
  revision: number;
  span: number;
  inputIds: string[];
  algorithm: string;
  validFrom: number;
  validTo: number;
  approvedOn: number;
}

export interface Channel {
  id: string;
  data_source_id: string;
  source: string;
  name: string;
}

/** Step 1's result: the ship's configuration and what to compute, in which order. */
export interface ExecutionPlan {
  request: ComputeRequest;
  constants: FacilityConstants;
  /** The primary data source (its timestamps are the targets), if the ship has one. */
  primaryId: string | undefined;
  /** Data source id -> name, for errors. */
  dataSourceNames: Map<string, string>;
  channels: Channel[];
  channelById: Map<string, Channel>;
  /** Measurement field id -> name (every field of the catalogue). */
  fieldName: Map<string, string>;
  /** Approved measurement calculations in the period, per field (requested or not). */
  measurementCalcsByField: Map<string, MeasurementCalc[]>;
  /** The measurement fields to recompute, inputs first. */
  order: string[];
  /** Approved report calculations in the period of the requested report fields, per field. */
  reportCalcsByField: Map<string, ReportCalc[]>;
  /** Report field id -> `<report> <field>`, for errors. */
  reportFieldNames: Map<string, string>;
  /** The compliance event rules in force for the ship's organization, and the end of the ship's data (ms). */
  events: {
    rules: EventRules;
    dataEnd: number | null;
    thresholdOf: (fieldName: string) => DataHealthThreshold;
  };
}

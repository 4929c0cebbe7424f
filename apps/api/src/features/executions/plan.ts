import type { Kysely } from 'kysely';
import type { FacilityConstants, OutputType } from '@portal/formula';
import { DEFAULT_EVENT_RULES, eventRulesSchema, type EventRules } from '@portal/contracts/events';
import type { DataHealthThreshold } from '@portal/contracts/data-health';
import type { Database } from '../../db/schema';
import { ExecutionError } from './calculations';
import type { DataHealthPort } from './ports';
import { CycleError, dependencyOrder } from './series';

/** What one execution computes: a ship's whole UTC days, and which fields. */
export interface ComputeRequest {
  facilityId: string;
  /** Whole UTC days: from is a day start, to the (exclusive) start of the day after the last. */
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

const time = (d: Date | null | undefined, fallback: number) => (d ? new Date(d).getTime() : fallback);

/** A measurement field's name, else a channel's name, else the id. */
export const nameOf = (plan: Pick<ExecutionPlan, 'fieldName' | 'channelById'>, id: string) =>
  plan.fieldName.get(id) ?? plan.channelById.get(id)?.name ?? id;

/**
 * Step "load configuration and plan": the ship's constants, data sources and channels, the approved calculations
 * valid in the period, and the measurement fields to recompute in dependency order (a cycle fails the execution);
 * the event rules and, through data health's port, the channels' thresholds.
 */
export async function loadPlan(
  db: Kysely<Database>,
  request: ComputeRequest,
  dataHealth: Pick<DataHealthPort, 'thresholdsOf'>,
): Promise<ExecutionPlan> {
  const { facilityId, from, to } = request;
  const facility = await db
    .selectFrom('facilities')
    .select([
      'id',
      'name',
      'imo',
      'number_of_scrubbers',
      'scrubber_system_type',
      'total_effect_kw',
      'primary_organization_id',
      'data_timestamp_max',
    ])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!facility) throw new ExecutionError('The ship no longer exists');
  const constants: FacilityConstants = {
    Facility_IMO: facility.imo ?? '',
    Facility_NumberOfScrubbers: facility.number_of_scrubbers ?? 0,
    Facility_ScrubberSystemType: facility.scrubber_system_type ?? '',
    Facility_TotalEffectKW: facility.total_effect_kw ?? 0,
  };
  const dataSources = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'name', 'is_primary'])
    .where('facility_id', '=', facilityId)
    .execute();
  const primary = dataSources.find((d) => d.is_primary);
  const channels = await db
    .selectFrom('data_source_channels')
    .select(['id', 'data_source_id', 'source', 'name'])
    .where('facility_id', '=', facilityId)
    .execute();
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  const fieldName = new Map(fields.map((f) => [f.id, f.name]));

  const periodStart = new Date(from);
  const periodEnd = new Date(to);
  const measurementRows = await db
    .selectFrom('measurement_field_calculations')
    .select([
      'id',
      'measurement_field_id',
      'version',
      'revision',
      'required_sample_interval_seconds',
      'preload_interval_seconds',
      'input_ids',
      'transform_algorithm',
      'output_type',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  const measurementCalcs: MeasurementCalc[] = measurementRows.map((r) => ({
    id: r.id,
    fieldId: r.measurement_field_id,
    version: r.version,
    revision: r.revision,
    interval: r.required_sample_interval_seconds,
    preload: r.preload_interval_seconds,
    inputIds: r.input_ids ?? [],
    algorithm: r.transform_algorithm,
    outputType: r.output_type as OutputType,
    validFrom: time(r.valid_from, -Infinity),
    validTo: time(r.valid_to, Infinity),
    approvedOn: time(r.approved_on, 0),
  }));
  const reportRows = await db
    .selectFrom('report_field_calculations')
    .select([
      'id',
      'report_field_id',
      'version',
      'revision',
      'algorithm_seconds_span',
      'input_ids',
      'transform_algorithm',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  const reportCalcs: ReportCalc[] = reportRows.map((r) => ({
    id: r.id,
    fieldId: r.report_field_id,
    version: r.version,
    revision: r.revision,
    span: r.algorithm_seconds_span,
    inputIds: r.input_ids ?? [],
    algorithm: r.transform_algorithm,
    validFrom: time(r.valid_from, -Infinity),
    validTo: time(r.valid_to, Infinity),
    approvedOn: time(r.approved_on, 0),
  }));

  // Which measurement fields to compute: the requested ones that have a calculation in the period.
  const measurementCalcsByField = new Map<string, MeasurementCalc[]>();
  for (const c of measurementCalcs)
    measurementCalcsByField.set(c.fieldId, [...(measurementCalcsByField.get(c.fieldId) ?? []), c]);
  const wanted = request.measurementFieldIds;
  const dependsOn = new Map<string, Set<string>>();
  for (const [fieldId, calcs] of measurementCalcsByField) {
    if (wanted !== 'all' && !wanted.has(fieldId)) continue;
    dependsOn.set(fieldId, new Set(calcs.flatMap((c) => c.inputIds.filter((id) => fieldName.has(id)))));
  }
  let order: string[];
  try {
    order = dependencyOrder(dependsOn, (id) => nameOf({ fieldName, channelById }, id));
  } catch (error) {
    if (error instanceof CycleError) throw new ExecutionError(error.message);
    throw error;
  }

  const reportCalcsByField = new Map<string, ReportCalc[]>();
  for (const c of reportCalcs) {
    if (request.reportFieldIds !== 'all' && !request.reportFieldIds.has(c.fieldId)) continue;
    reportCalcsByField.set(c.fieldId, [...(reportCalcsByField.get(c.fieldId) ?? []), c]);
  }

  const reportFieldNames = new Map(
    reportCalcsByField.size
      ? (
          await db
            .selectFrom('report_fields')
            .select(['id', 'name', 'report_id'])
            .where('id', 'in', [...reportCalcsByField.keys()])
            .execute()
        ).map((r) => [r.id, `${r.report_id} ${r.name}`])
      : [],
  );

  const organizationRules = await db
    .selectFrom('organization_event_rules')
    .select('rules')
    .where('organization_id', '=', facility.primary_organization_id)
    .executeTakeFirst();
  const rules = eventRulesSchema.safeParse({
    ...DEFAULT_EVENT_RULES,
    ...((organizationRules?.rules as object | undefined) ?? {}),
  });

  return {
    request,
    constants,
    primaryId: primary?.id,
    dataSourceNames: new Map(dataSources.map((d) => [d.id, d.name])),
    channels,
    channelById,
    fieldName,
    measurementCalcsByField,
    order,
    reportCalcsByField,
    reportFieldNames,
    events: {
      rules: rules.success ? rules.data : DEFAULT_EVENT_RULES,
      dataEnd: facility.data_timestamp_max ? new Date(facility.data_timestamp_max).getTime() : null,
      thresholdOf: await dataHealth.thresholdsOf(db, facility.primary_organization_id),
    },
  };
}

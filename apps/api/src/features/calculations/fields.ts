import type { Kysely } from 'kysely';
import { DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';
import {
  measurementFieldStatus,
  type MeasurementField,
  type MeasurementFieldDataSource,
} from '@portal/contracts/measurement-fields';
import type { Database } from '../../db/schema';
import { inForce } from './store';

/** The catalogue of measurement fields of the product (DOMAIN.md). Idempotent: existing fields (by name) are kept. */
export async function ensureMeasurementFieldCatalogue(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('measurement_fields')
    .values(
      DEFAULT_MEASUREMENT_FIELDS.map((f, position) => ({
        name: f.name,
        data_type: f.dataType,
        unit: f.unit || null,
        documentation: f.documentation,
        required_sample_interval_seconds: f.requiredSampleIntervalInSeconds,
        position,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

type FieldRow = Awaited<ReturnType<typeof fieldRows>>[number];
type CalcSummary = {
  measurement_field_id: string;
  version: number;
  revision: number;
  quality_score: number;
  comment: string | null;
  approved_on: Date | null;
  valid_from: Date | null;
  valid_to: Date | null;
  recalculation_requested_on: Date | null;
  recalculation_queued_on: Date | null;
  created_on: Date;
};

export function fieldRows(db: Kysely<Database>, id?: string) {
  let query = db.selectFrom('measurement_fields').selectAll();
  if (id) query = query.where('id', '=', id);
  return query.orderBy('position').orderBy('name').execute();
}

export async function calculationSummaries(
  db: Kysely<Database>,
  facilityId: string,
  fieldId?: string,
): Promise<CalcSummary[]> {
  let query = db
    .selectFrom('measurement_field_calculations')
    .select([
      'measurement_field_id',
      'version',
      'revision',
      'quality_score',
      'comment',
      'approved_on',
      'valid_from',
      'valid_to',
      'recalculation_requested_on',
      'recalculation_queued_on',
      'created_on',
    ])
    .where('facility_id', '=', facilityId);
  if (fieldId) query = query.where('measurement_field_id', '=', fieldId);
  return query.orderBy('version', 'desc').orderBy('revision', 'desc').execute();
}

/** A field with its counts and status on a ship; `calcs` undefined means the catalogue without a ship. */
export function toMeasurementField(
  field: FieldRow,
  calcs: CalcSummary[] | undefined,
  now = new Date(),
): MeasurementField {
  const base = {
    id: field.id,
    name: field.name,
    dataType: field.data_type,
    unit: field.unit,
    requiredSampleIntervalInSeconds: field.required_sample_interval_seconds,
    documentation: field.documentation,
  };
  if (!calcs) {
    return {
      ...base,
      version: null,
      revision: null,
      status: null,
      calculations: 0,
      approvedCalculations: 0,
      activeCalculationRating: null,
      activeCalculationComment: null,
    };
  }
  const approved = calcs.filter((c) => c.approved_on);
  const active = inForce(approved, now);
  const current = active ?? approved[0] ?? calcs[0];
  return {
    ...base,
    version: current?.version ?? null,
    revision: current?.revision ?? null,
    status: measurementFieldStatus({
      calculations: calcs.length,
      approvedCalculations: approved.length,
      validNow: Boolean(active),
      validNowPending: Boolean(
        active && (active.recalculation_requested_on || active.recalculation_queued_on),
      ),
    }),
    calculations: calcs.length,
    approvedCalculations: approved.length,
    activeCalculationRating: (active ?? approved[0])?.quality_score ?? null,
    activeCalculationComment: (active ?? approved[0])?.comment ?? null,
  };
}

/** The ship's data sources with all their channels; marks those the field's calculations read. */
export async function dataSourcesWithChannels(
  db: Kysely<Database>,
  facilityId: string,
  fieldId: string,
): Promise<MeasurementFieldDataSource[]> {
  const [sources, channels, calcs] = await Promise.all([
    db
      .selectFrom('facility_data_sources')
      .select(['id', 'name', 'is_primary'])
      .where('facility_id', '=', facilityId)
      .orderBy('is_primary', 'desc')
      .orderBy('name')
      .execute(),
    db
      .selectFrom('data_source_channels')
      .select(['id', 'data_source_id', 'name', 'source', 'data_type', 'unit'])
      .where('facility_id', '=', facilityId)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('measurement_field_calculations')
      .select('input_ids')
      .where('facility_id', '=', facilityId)
      .where('measurement_field_id', '=', fieldId)
      .execute(),
  ]);
  const used = new Set(calcs.flatMap((c) => c.input_ids ?? []));
  return sources.map((s) => ({
    id: s.id,
    name: s.name,
    isPrimary: s.is_primary,
    channels: channels
      .filter((c) => c.data_source_id === s.id)
      .map((c) => ({
        id: c.id,
        name: c.name,
        source: c.source,
        dataType: c.data_type,
        unit: c.unit,
        usedByField: used.has(c.id),
      })),
  }));
}

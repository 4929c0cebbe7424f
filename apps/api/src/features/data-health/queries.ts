import { sql, type Kysely, type Transaction } from 'kysely';
import {
  defaultThreshold,
  type DataHealthThreshold,
  type DataHealthThresholdEntry,
  type DataHealthThresholdsBody,
} from '@portal/contracts/data-health';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

/** A ship the caller sees, with what the health view needs of it; undefined for any other. */
export function findVisibleFacility(db: Kysely<Database>, caller: Caller, facilityId: string) {
  return db
    .selectFrom('facilities')
    .select(['id', 'primary_organization_id', 'data_timestamp_max'])
    .where('id', '=', facilityId)
    .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
    .executeTakeFirst();
}

/** The ship's data sources and their channel mappings (custom channels have no samples of their own). */
export async function mappedChannels(db: Kysely<Database>, facilityId: string) {
  return db
    .selectFrom('data_source_channels as c')
    .innerJoin('facility_data_sources as d', 'd.id', 'c.data_source_id')
    .select([
      'c.id',
      'c.source',
      'c.name',
      'c.unit',
      'c.data_source_id',
      'd.name as data_source_name',
      'd.is_primary',
      'd.measure_frequency_seconds',
    ])
    .where('c.facility_id', '=', facilityId)
    .where('c.is_custom', '=', false)
    .orderBy('d.is_primary', 'desc')
    .orderBy('d.name')
    .orderBy('c.name')
    .execute();
}

/** The thresholds in force for an organization, by measurement field: its own rows; the defaults for the rest. */
export async function thresholdsOf(
  db: Kysely<Database>,
  organizationId: string,
): Promise<(fieldName: string) => DataHealthThreshold> {
  const rows = await db
    .selectFrom('data_health_thresholds')
    .select(['field_name', 'min', 'max', 'stale_hours', 'flat_line_hours'])
    .where('organization_id', '=', organizationId)
    .execute();
  const own = new Map(
    rows.map((r) => [
      r.field_name,
      {
        fieldName: r.field_name,
        min: r.min,
        max: r.max,
        staleHours: r.stale_hours,
        flatLineHours: r.flat_line_hours,
      },
    ]),
  );
  return (fieldName) => own.get(fieldName) ?? defaultThreshold(fieldName);
}

/**
 * GET thresholds: every measurement field of the catalogue, every field with a default and every field the
 * organization set, each with the values in force.
 */
export async function listThresholds(
  db: Kysely<Database>,
  organizationId: string,
  defaults: readonly DataHealthThreshold[],
): Promise<DataHealthThresholdEntry[]> {
  const [rows, fields] = await Promise.all([
    db
      .selectFrom('data_health_thresholds')
      .select(['field_name', 'min', 'max', 'stale_hours', 'flat_line_hours'])
      .where('organization_id', '=', organizationId)
      .execute(),
    db.selectFrom('measurement_fields').select('name').execute(),
  ]);
  const own = new Map(rows.map((r) => [r.field_name, r]));
  const names = [
    ...new Set([...defaults.map((d) => d.fieldName), ...fields.map((f) => f.name), ...own.keys()]),
  ];
  return names.map((fieldName) => {
    const r = own.get(fieldName);
    return r
      ? {
          fieldName,
          min: r.min,
          max: r.max,
          staleHours: r.stale_hours,
          flatLineHours: r.flat_line_hours,
          isDefault: false,
        }
      : { ...defaultThreshold(fieldName), isDefault: true };
  });
}

/** PUT thresholds: sets each given field's thresholds, or removes them (back to the default) with `useDefault`. */
export async function saveThresholds(
  trx: Transaction<Database>,
  organizationId: string,
  body: DataHealthThresholdsBody,
): Promise<void> {
  for (const t of body.thresholds) {
    if (t.useDefault) {
      await trx
        .deleteFrom('data_health_thresholds')
        .where('organization_id', '=', organizationId)
        .where('field_name', '=', t.fieldName)
        .execute();
      continue;
    }
    const values = {
      min: t.min,
      max: t.max,
      stale_hours: t.staleHours,
      flat_line_hours: t.flatLineHours,
      updated_on: new Date(),
    };
    await trx
      .insertInto('data_health_thresholds')
      .values({ organization_id: organizationId, field_name: t.fieldName, ...values })
      .onConflict((oc) => oc.columns(['organization_id', 'field_name']).doUpdateSet(values))
      .execute();
  }
}

/**
 * Per ship the caller sees: the stored badge summary and the fingerprint of what a summary depends on (its files,
 * data sources, mappings, its organization's thresholds and event rules), computed in one light query. A summary whose
 * fingerprint differs is computed again.
 */
export function summaryRows(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('facilities as f')
    .leftJoin('data_health_summaries as s', 's.facility_id', 'f.id')
    .select([
      'f.id',
      'f.primary_organization_id',
      'f.data_timestamp_max',
      's.fingerprint as stored_fingerprint',
      's.summary',
      // 'v2': summaries count gaps and low coverage since; the organization's event rules give the gap's length.
      sql<string>`md5(concat_ws('|', 'v2',
        f.data_timestamp_max::text,
        (select r.rules::text from organization_event_rules r where r.organization_id = f.primary_organization_id),
        (select count(*)::text || ':' || coalesce(sum(row_count), 0)::text || ':' || coalesce(max(imported_on)::text, '')
           from data_files d where d.facility_id = f.id and d.has_samples),
        (select string_agg(d.id::text || ':' || d.measure_frequency_seconds::text, ',' order by d.id)
           from facility_data_sources d where d.facility_id = f.id),
        (select string_agg(c.id::text || ':' || c.source || ':' || c.name, ',' order by c.id)
           from data_source_channels c where c.facility_id = f.id and not c.is_custom),
        (select count(*)::text || ':' || coalesce(max(updated_on)::text, '')
           from data_health_thresholds t where t.organization_id = f.primary_organization_id)
      ))`.as('fingerprint'),
    ])
    .where(facilityVisibleTo(db, caller, sql.ref('f.id')))
    .orderBy('f.name')
    .execute();
}

export async function storeSummary(
  db: Kysely<Database>,
  facilityId: string,
  fingerprint: string,
  summary: unknown,
): Promise<void> {
  const values = { fingerprint, summary: JSON.stringify(summary), computed_on: new Date() };
  await db
    .insertInto('data_health_summaries')
    .values({ facility_id: facilityId, ...values })
    .onConflict((oc) => oc.column('facility_id').doUpdateSet(values))
    .execute();
}

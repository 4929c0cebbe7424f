import type { Kysely } from 'kysely';
import { DEFAULT_MEASUREMENT_FIELDS, isRawField, validateSyntax } from '@portal/formula';
import type { Database } from '../../db/schema';
import { ensureMeasurementFieldCatalogue } from './fields';

export interface SeedCalculationsResult {
  /** Fields that got an approved default calculation now. */
  created: string[];
  /** Fields that already had a calculation on the ship (left alone). */
  existing: string[];
  /** Fields left without one: a raw field without a channel of its name, or a derived field missing an input. */
  skipped: string[];
}

/**
 * The measurement field catalogue and, for one ship, an approved default calculation of every default field,
 * valid from `validFrom` with no end: the demo's ships and the tests. See addDefaultMeasurementCalculations.
 */
export function seedDefaultMeasurementCalculations(
  db: Kysely<Database>,
  facilityId: string,
  validFrom: Date,
): Promise<SeedCalculationsResult> {
  return addDefaultMeasurementCalculations(db, facilityId, { approvedFrom: validFrom });
}

/**
 * For one ship, the default calculation of every default field that has none: approved and valid from
 * `approvedFrom` (the demo), or a draft when it is null (a configurator's "Add default calculations": the drafts are
 * then read, changed where the ship differs, and approved with a validity like any other). Raw fields read the
 * ship's channel mapping of the same name (case-insensitive, the primary data source's first); derived fields read
 * the other measurement fields. Idempotent: a field that already has a calculation on the ship is left as it is.
 * No recalculation is requested: the approval of a draft asks for it, and the demo executes its uploads afterwards.
 */
export async function addDefaultMeasurementCalculations(
  db: Kysely<Database>,
  facilityId: string,
  options: { approvedFrom: Date | null },
): Promise<SeedCalculationsResult> {
  await ensureMeasurementFieldCatalogue(db);
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  const fieldId = new Map(fields.map((f) => [f.name.toLowerCase(), f.id]));
  const channels = await db
    .selectFrom('data_source_channels as c')
    .innerJoin('facility_data_sources as s', 's.id', 'c.data_source_id')
    .select(['c.id', 'c.name'])
    .where('c.facility_id', '=', facilityId)
    .orderBy('s.is_primary', 'desc')
    .orderBy('c.created_on')
    .execute();
  const channelId = new Map<string, string>();
  for (const c of channels)
    if (!channelId.has(c.name.toLowerCase())) channelId.set(c.name.toLowerCase(), c.id);
  const withCalculation = new Set(
    (
      await db
        .selectFrom('measurement_field_calculations')
        .select('measurement_field_id')
        .where('facility_id', '=', facilityId)
        .execute()
    ).map((r) => r.measurement_field_id),
  );

  const result: SeedCalculationsResult = { created: [], existing: [], skipped: [] };
  const available = new Set<string>();
  const now = new Date();
  // The defaults list derived fields after the fields they read, so one pass suffices.
  for (const def of DEFAULT_MEASUREMENT_FIELDS) {
    const id = fieldId.get(def.name.toLowerCase())!;
    if (withCalculation.has(id)) {
      result.existing.push(def.name);
      available.add(def.name);
      continue;
    }
    const isRaw = isRawField(def);
    const inputIds = def.inputNames.map((name) =>
      isRaw
        ? channelId.get(name.toLowerCase())
        : available.has(name)
          ? fieldId.get(name.toLowerCase())
          : undefined,
    );
    if (inputIds.some((i) => i === undefined)) {
      result.skipped.push(def.name);
      continue;
    }
    const errors = validateSyntax(def.transformAlgorithm, {
      kind: 'measurement-field',
      inputNames: def.inputNames,
      outputType: def.dataType,
    });
    if (errors.length)
      throw new Error(`The default calculation of ${def.name} does not validate: ${errors[0]!.message}`);
    await db
      .insertInto('measurement_field_calculations')
      .values({
        facility_id: facilityId,
        measurement_field_id: id,
        version: 1,
        revision: 0,
        comment: 'Default calculation',
        documentation: def.documentation,
        required_sample_interval_seconds: def.requiredSampleIntervalInSeconds,
        preload_interval_seconds: def.preloadIntervalInSeconds,
        input_ids: JSON.stringify(inputIds),
        transform_algorithm: def.transformAlgorithm,
        output_type: def.dataType,
        quality_score: 5,
        approved_on: options.approvedFrom ? now : null,
        valid_from: options.approvedFrom,
        valid_to: null,
      })
      .execute();
    result.created.push(def.name);
    available.add(def.name);
  }
  return result;
}

import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { updateFacilityBodySchema } from '@portal/contracts/ship-info';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';

type ParticularKey = 'shipType' | 'deadweightTonnes' | 'grossTonnage';
const PARTICULAR_COLUMNS = {
  shipType: 'ship_type',
  deadweightTonnes: 'deadweight_tonnes',
  grossTonnage: 'gross_tonnage',
} as const satisfies Record<ParticularKey, string>;

/** A ship particular the edit changed: its value before and after. */
export type ParticularChanges = Partial<Record<ParticularKey, { from: unknown; to: unknown }>>;

/**
 * Changes a ship's information (its name, IMO, scrubber system, dates and image) and the particulars the body gives
 * (a particular left out stays as it is). Answers the particulars that changed, for the audit entry.
 */
export async function updateFacilityInfo(
  trx: Transaction<Database>,
  id: string,
  body: z.output<typeof updateFacilityBodySchema>,
): Promise<ParticularChanges> {
  const before = await trx
    .selectFrom('facilities')
    .select(['ship_type', 'deadweight_tonnes', 'gross_tonnage'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound('Ship not found');
  const changes: ParticularChanges = {};
  const particulars: {
    ship_type?: typeof body.shipType;
    deadweight_tonnes?: number | null;
    gross_tonnage?: number | null;
  } = {};
  for (const key of Object.keys(PARTICULAR_COLUMNS) as ParticularKey[]) {
    const value = body[key];
    if (value === undefined) continue;
    const column = PARTICULAR_COLUMNS[key];
    (particulars as Record<string, unknown>)[column] = value;
    if (before[column] !== value) changes[key] = { from: before[column], to: value };
  }
  await trx
    .updateTable('facilities')
    .set({
      ...particulars,
      name: body.name,
      imo: body.imo || null,
      scrubber_system_type: body.scrubberSystemType || null,
      number_of_scrubbers: body.numberOfScrubbers,
      total_effect_kw: body.totalEffectKW,
      system_manufacturer: body.systemManufacturer,
      start_date: body.startDate,
      end_date: body.endDate,
      image_base64: body.imageBase64,
    })
    .where('id', '=', id)
    .execute();
  return changes;
}

/** A ship's upload credentials, newest first. */
export function uploadCredentials(db: Kysely<Database>, facilityId: string) {
  return db
    .selectFrom('upload_credentials')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .orderBy('created_on', 'desc')
    .execute();
}

/** A ship that exists: its id and name. */
export function facilityIdAndName(db: Kysely<Database>, facilityId: string) {
  return db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
}

/** Revokes a ship's upload credential (once: a revoked one keeps its time), or "Upload credential not found" (404). */
export async function revokeUploadCredential(
  trx: Transaction<Database>,
  facilityId: string,
  credentialId: string,
): Promise<void> {
  const updated = await trx
    .updateTable('upload_credentials')
    .set({ revoked_on: sql<Date>`coalesce(revoked_on, now())` })
    .where('id', '=', credentialId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw notFound('Upload credential not found');
}

/** The data sources the ship's uploader sends to, the primary one first. */
/** The ship's data sources for the uploader's configuration: how their files are read, and their channels. */
export async function uploaderDataSources(db: Kysely<Database>, facilityId: string) {
  const sources = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'name', 'is_primary', 'reader_id', 'reader_configuration', 'utc_offset_minutes'])
    .where('facility_id', '=', facilityId)
    .orderBy('is_primary', 'desc')
    .orderBy('name')
    .execute();
  const channels = await db
    .selectFrom('data_source_channels')
    .select(['data_source_id', 'source', 'unit', 'local_id'])
    .where('facility_id', '=', facilityId)
    .orderBy('source')
    .execute();
  return sources.map((source) => ({
    ...source,
    channels: channels
      .filter((c) => c.data_source_id === source.id)
      // The local id goes into the DBIRTH (decision 0120), where the portal's host finds the channel by it first.
      .map((c) => ({ name: c.source, unit: c.unit, ...(c.local_id ? { localId: c.local_id } : {}) })),
  }));
}

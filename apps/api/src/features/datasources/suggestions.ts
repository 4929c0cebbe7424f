import type { Kysely, Selectable } from 'kysely';
import {
  ACCEPT_CONFIDENCE,
  KNOWN_FIELDS,
  suggestMappings,
  type OrganizationAlias,
} from '@portal/contracts/channel-suggestions';
import type { RawChannel, SuggestedMappings } from '@portal/contracts/datasources';
import { parseReaderConfiguration, READER_IDS } from '@portal/contracts/readers';
import type { Database } from '../../db/schema';
import type { FacilityDataSourcesTable } from '../../db/tables/ingestion';
import { badRequest, notFound } from '../../errors';
import { parseDataFile, ReaderError, sampleChannels } from '../../readers';
import type { OriginalStore } from '../../storage';
import { sampleChannelsOf } from './queries';

/** Columns are read from at most this much of a delimited file: the first hours of a logger file show its channels. */
const SUGGESTION_READ_BYTES = 4 * 1024 * 1024;

type DataSourceRow = Selectable<FacilityDataSourcesTable>;

/** The first `max` bytes of a delimited file, cut after its last whole line. */
export function headOfDelimited(content: Buffer, max: number): Buffer {
  if (content.length <= max) return content;
  const end = content.lastIndexOf(0x0a, max);
  return end > 0 ? content.subarray(0, end + 1) : content.subarray(0, max);
}

/**
 * The columns to propose from: an uploaded file of the data source (`fileId`), else its sample file, else its latest
 * uploaded file (an imported configuration has mappings but maybe no sample yet).
 */
export async function suggestionColumns(
  db: Kysely<Database>,
  originals: OriginalStore,
  dataSource: DataSourceRow,
  fileId: string | undefined,
): Promise<{ fileName: string; columns: RawChannel[] }> {
  if (fileId === undefined && dataSource.sample_file_name && dataSource.sample_channels)
    return { fileName: dataSource.sample_file_name, columns: sampleChannelsOf(dataSource) };
  let query = db
    .selectFrom('data_files')
    .select(['id', 'file_name'])
    .where('data_source_id', '=', dataSource.id)
    .where('removed_on', 'is', null);
  query =
    fileId === undefined
      ? query.orderBy('imported_on', 'desc').orderBy('id')
      : query.where('id', '=', fileId);
  const file = await query.executeTakeFirst();
  if (!file) {
    if (fileId !== undefined) throw notFound('File not found');
    throw badRequest(
      'The data source has no sample file and no uploaded file: add a sample file to get suggested mappings',
    );
  }
  const original = await originals.read(db, { facilityId: dataSource.facility_id, dataFileId: file.id });
  if (!original) throw notFound(`The original of ${file.file_name} is not stored`);
  const configuration = parseReaderConfiguration(dataSource.reader_id, dataSource.reader_configuration);
  if (!configuration.ok)
    throw badRequest(`The parser configuration is not valid: ${configuration.errors.join('; ')}`);
  const content =
    dataSource.reader_id === READER_IDS.delimited
      ? headOfDelimited(original, SUGGESTION_READ_BYTES)
      : original;
  try {
    const parsed = await parseDataFile(
      { fileName: file.file_name, content },
      { readerId: dataSource.reader_id, configuration: configuration.configuration },
      { utcTimezoneOffsetInMinutes: dataSource.utc_offset_minutes },
    );
    return { fileName: file.file_name, columns: sampleChannels(parsed) };
  } catch (error) {
    if (error instanceof ReaderError) throw badRequest(`${file.file_name}: ${error.message}`);
    throw error;
  }
}

export interface MappingRow {
  id: string;
  name: string;
  source: string;
  unit: string | null;
  isCustom: boolean;
  /**
   * An approved calculation of the ship reads it, or a fuel flow mapping of the ship reads its fuel type from it
   * (the carbon ledger's): either way it is not to be removed as unused.
   */
  readByCalculation: boolean;
}

/**
 * The data source's mappings, each marked when an approved calculation of its ship reads it or another mapping reads
 * its fuel type from it.
 */
export async function mappingsWithUse(
  db: Kysely<Database>,
  dataSource: DataSourceRow,
): Promise<MappingRow[]> {
  const [channels, calculations, fuelTypeChannels] = await Promise.all([
    db
      .selectFrom('data_source_channels')
      .select(['id', 'name', 'source', 'unit', 'is_custom'])
      .where('data_source_id', '=', dataSource.id)
      .orderBy('created_on')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('measurement_field_calculations')
      .select('input_ids')
      .where('facility_id', '=', dataSource.facility_id)
      .where('approved_on', 'is not', null)
      .execute(),
    db
      .selectFrom('data_source_channels')
      .select('fuel_type_channel_id')
      .where('facility_id', '=', dataSource.facility_id)
      .where('fuel_type_channel_id', 'is not', null)
      .execute(),
  ]);
  const read = new Set([
    ...calculations.flatMap((c) => c.input_ids ?? []),
    ...fuelTypeChannels.flatMap((c) => c.fuel_type_channel_id ?? []),
  ]);
  return channels.map((c) => ({
    id: c.id,
    name: c.name,
    source: c.source,
    unit: c.unit,
    isCustom: c.is_custom,
    readByCalculation: read.has(c.id),
  }));
}

const KNOWN_ORDER = Object.keys(KNOWN_FIELDS);
const knownRank = (name: string) => {
  const i = KNOWN_ORDER.indexOf(name.toUpperCase());
  return i < 0 ? KNOWN_ORDER.length : i;
};

/**
 * The suggested mappings of a data source for a file's columns. The fields are the mappings its ship's approved
 * calculations read (their names are what the calculations use); a data source none of whose mappings is read yet
 * gets proposals for every field the portal knows (DOMAIN.md), to start from.
 */
export function presentSuggestions(input: {
  fileName: string;
  organizationId: string;
  columns: RawChannel[];
  mappings: MappingRow[];
  aliases: OrganizationAlias[];
}): SuggestedMappings {
  const { columns, mappings } = input;
  const read = mappings.filter((m) => !m.isCustom && m.readByCalculation);
  const byName = new Map(mappings.filter((m) => !m.isCustom).map((m) => [m.name.toUpperCase(), m]));
  const fields = (
    read.length > 0
      ? read.map((m) => ({ name: m.name, unit: m.unit, mapping: m as MappingRow | undefined }))
      : KNOWN_ORDER.map((name) => ({ name, unit: null, mapping: byName.get(name) }))
  ).sort((a, b) => knownRank(a.name) - knownRank(b.name) || a.name.localeCompare(b.name));
  const result = suggestMappings({ fields, columns, aliases: input.aliases });
  const mappingOf = new Map(fields.map((f) => [f.name, f.mapping]));
  const proposals = result.proposals.map((p) => {
    const mapping = mappingOf.get(p.field);
    return { ...p, mappingId: mapping?.id ?? null, matchesExisting: mapping?.source === p.column };
  });
  const changed = new Set(proposals.flatMap((p) => p.mappingId ?? []));
  // A mapping that no proposal changes keeps reading its column.
  const kept = mappings.filter((m) => !m.isCustom && !changed.has(m.id));
  const keptSources = new Set(kept.map((m) => m.source));
  const proposed = new Set(proposals.map((p) => p.column));
  const columnNames = new Set(columns.map((c) => c.channel));
  return {
    fileName: input.fileName,
    organizationId: input.organizationId,
    acceptConfidence: ACCEPT_CONFIDENCE,
    proposals,
    unmatchedFields: result.unmatchedFields.map((field) => {
      const mapping = mappingOf.get(field);
      return { field, mappingId: mapping?.id ?? null, source: mapping?.source ?? null };
    }),
    unmappedColumns: columns.filter((c) => !proposed.has(c.channel) && !keptSources.has(c.channel)),
    columns,
    mappingsWithoutColumn: kept
      .filter((m) => !columnNames.has(m.source))
      .map((m) => ({ id: m.id, name: m.name, source: m.source, readByCalculation: m.readByCalculation })),
  };
}

/** The aliases of the organization that owns the data source's ship, and that organization's id. */
export async function ownerAliases(
  db: Kysely<Database>,
  facilityId: string,
): Promise<{ organizationId: string; aliases: OrganizationAlias[] }> {
  const ship = await db
    .selectFrom('facilities')
    .select('primary_organization_id')
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  const aliases = await db
    .selectFrom('channel_aliases')
    .select(['field', 'alias'])
    .where('organization_id', '=', ship.primary_organization_id)
    .execute();
  return { organizationId: ship.primary_organization_id, aliases };
}

import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  defaultImportValidFrom,
  type ChannelMappingListItem,
  type DataSourceChannelValues,
} from '@portal/contracts/datasources';
import {
  CHANNEL_LIST_MESSAGES,
  channelMappingListProblems,
  type ChannelListProblem,
  type DataSourceValues,
} from '@portal/contracts/forms';
import { parseReaderConfiguration } from '@portal/contracts/readers';
import { normalizeLocalId } from '@portal/contracts/local-id';
import {
  fuelChannelProblems,
  mergeFuelAttributes,
  NO_FUEL_ATTRIBUTES,
  type FuelChannelAttributes,
  type FuelChannelState,
} from '@portal/contracts/fuel-channels';
import type { OriginalKey } from '../../storage';
import type { Database } from '../../db/schema';
import type { DataSourceChannelsTable } from '../../db/tables/ingestion';
import { badRequest, conflict } from '../../errors';
import {
  extensionOf,
  parseDataFile,
  ReaderError,
  readerDefinition,
  sampleChannels,
  type RawChannel,
} from '../../readers';
import { updateFacilityDataRange } from './range';
import { importedValidity } from './import-validity';
import { removedMappingIds } from './queries';
import {
  assertNoFuelTypeReaders,
  fuelAttributesOf,
  fuelColumnsOf,
  shipChannels,
  stateOf,
  throwChannelProblems,
} from './fuel';

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/** Checks the reader and its configuration; answers a message per mistake on the form's fields. */
export function checkReader(
  values: Pick<DataSourceValues, 'dataSourceReaderId' | 'dataSourceReaderConfiguration'>,
): void {
  if (!readerDefinition(values.dataSourceReaderId)) {
    throw badRequest(`Unknown data source reader '${values.dataSourceReaderId}'`, {
      dataSourceReaderId: `Unknown data source reader '${values.dataSourceReaderId}'`,
    });
  }
  const parsed = parseReaderConfiguration(values.dataSourceReaderId, values.dataSourceReaderConfiguration);
  if (!parsed.ok) {
    const message = parsed.errors.join('; ');
    throw badRequest(`The parser configuration is not valid: ${message}`, {
      dataSourceReaderConfiguration: message,
    });
  }
}

const nameTaken = (name: string) =>
  badRequest(`A data source named ${name} already exists on this ship`, {
    name: `A data source named ${name} already exists on this ship`,
  });

/**
 * Exactly one primary data source per ship: the first becomes primary by itself, and marking one primary
 * un-marks the other in the same transaction.
 */
async function settlePrimary(
  trx: Transaction<Database>,
  facilityId: string,
  dataSourceId: string,
  wantsPrimary: boolean,
): Promise<void> {
  const current = await trx
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  if (wantsPrimary || !current) {
    if (current && current.id !== dataSourceId)
      await trx
        .updateTable('facility_data_sources')
        .set({ is_primary: false })
        .where('id', '=', current.id)
        .execute();
    await trx
      .updateTable('facility_data_sources')
      .set({ is_primary: true })
      .where('id', '=', dataSourceId)
      .execute();
  }
}

export async function createDataSource(
  db: Kysely<Database>,
  facilityId: string,
  values: DataSourceValues,
): Promise<string> {
  checkReader(values);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('facility_data_sources')
        .values({
          facility_id: facilityId,
          name: values.name,
          note: values.note || null,
          is_primary: false,
          reader_id: values.dataSourceReaderId,
          reader_configuration: values.dataSourceReaderConfiguration,
          measure_frequency_seconds: values.measureFrequencyInSeconds,
          utc_offset_minutes: values.utcTimezoneOffsetInMinutes,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await settlePrimary(trx, facilityId, row.id, values.isPrimary);
      return row.id;
    });
    await updateFacilityDataRange(db, facilityId);
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
}

export async function updateDataSource(
  db: Kysely<Database>,
  facilityId: string,
  dataSourceId: string,
  values: DataSourceValues,
  wasPrimary: boolean,
): Promise<void> {
  checkReader(values);
  if (wasPrimary && !values.isPrimary) {
    const others = await db
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', facilityId)
      .where('id', '!=', dataSourceId)
      .executeTakeFirst();
    if (others)
      throw badRequest('Mark another data source as primary instead', {
        isPrimary: 'Mark another data source as primary instead',
      });
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('facility_data_sources')
        .set({
          name: values.name,
          note: values.note || null,
          reader_id: values.dataSourceReaderId,
          reader_configuration: values.dataSourceReaderConfiguration,
          measure_frequency_seconds: values.measureFrequencyInSeconds,
          utc_offset_minutes: values.utcTimezoneOffsetInMinutes,
        })
        .where('id', '=', dataSourceId)
        .execute();
      await settlePrimary(trx, facilityId, dataSourceId, values.isPrimary);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
  await updateFacilityDataRange(db, facilityId);
}

/**
 * Deletes a data source with its channels, files and samples; another data source becomes primary if this one was.
 * Returns the deleted files, whose originals the caller removes once this is committed (`originals.removeDeleted`).
 */
export async function deleteDataSource(
  db: Kysely<Database>,
  facilityId: string,
  dataSourceId: string,
): Promise<OriginalKey[]> {
  const files = await db.transaction().execute(async (trx) => {
    // A channel of another data source that reads its fuel type from one of this one's keeps it from going.
    await assertNoFuelTypeReaders(
      trx,
      facilityId,
      await trx
        .selectFrom('data_source_channels')
        .selectAll()
        .where('data_source_id', '=', dataSourceId)
        .execute(),
    );
    const files = await trx
      .selectFrom('data_files')
      .select('id')
      .where('data_source_id', '=', dataSourceId)
      .execute();
    const deleted = await trx
      .deleteFrom('facility_data_sources')
      .where('id', '=', dataSourceId)
      .returning('is_primary')
      .executeTakeFirst();
    if (deleted?.is_primary) {
      const next = await trx
        .selectFrom('facility_data_sources')
        .select('id')
        .where('facility_id', '=', facilityId)
        .orderBy('created_on')
        .orderBy('id')
        .executeTakeFirst();
      if (next)
        await trx
          .updateTable('facility_data_sources')
          .set({ is_primary: true })
          .where('id', '=', next.id)
          .execute();
    }
    return files;
  });
  await updateFacilityDataRange(db, facilityId);
  return files.map((f) => ({ facilityId, dataFileId: f.id }));
}

/** Forgets a data source's sample file and its raw channels. */
export async function clearSampleFile(db: Kysely<Database>, dataSourceId: string): Promise<void> {
  await db
    .updateTable('facility_data_sources')
    .set({ sample_file: null, sample_file_name: null, sample_channels: null })
    .where('id', '=', dataSourceId)
    .execute();
}

/** Parses a sample file with the data source's reader and keeps it with its raw channels; replaces an earlier sample. */
export async function saveSampleFile(
  db: Kysely<Database>,
  dataSource: { id: string; reader_id: string; reader_configuration: string; utc_offset_minutes: number },
  file: { fileName: string; content: Buffer },
): Promise<RawChannel[]> {
  const reader = readerDefinition(dataSource.reader_id);
  const extension = extensionOf(file.fileName);
  if (!reader || !reader.acceptedFileExtensions.includes(extension)) {
    throw badRequest(
      `${file.fileName}: the data source accepts ${reader?.acceptedFileExtensions.join(', ') ?? 'no files'} as a sample file.`,
    );
  }
  const configuration = parseReaderConfiguration(dataSource.reader_id, dataSource.reader_configuration);
  if (!configuration.ok)
    throw badRequest(`The parser configuration is not valid: ${configuration.errors.join('; ')}`);
  let channels: RawChannel[];
  try {
    const parsed = await parseDataFile(
      file,
      { readerId: dataSource.reader_id, configuration: configuration.configuration },
      { utcTimezoneOffsetInMinutes: dataSource.utc_offset_minutes },
    );
    channels = sampleChannels(parsed);
  } catch (error) {
    if (error instanceof ReaderError) throw badRequest(`${file.fileName}: ${error.message}`);
    throw error;
  }
  await db
    .updateTable('facility_data_sources')
    .set({
      sample_file_name: file.fileName,
      sample_file: file.content,
      sample_channels: JSON.stringify(channels),
    })
    .where('id', '=', dataSource.id)
    .execute();
  return channels;
}

const channelNameTaken = (name: string) =>
  badRequest(`A channel named ${name} already exists in this data source`, {
    name: `A channel named ${name} already exists in this data source`,
  });

type ChannelValues = DataSourceChannelValues;

/**
 * Checks a channel as it would be after the change (with its `id` when it is a stored one) against the ship's other
 * channels: 400 naming each problem on its field.
 */
async function checkFuelAttributes(
  db: Kysely<Database>,
  facilityId: string,
  channel: Omit<FuelChannelState, 'key' | 'editable'>,
): Promise<void> {
  const others = (await shipChannels(db, facilityId)).filter((c) => c.id !== channel.id);
  throwChannelProblems(
    fuelChannelProblems([...others.map((c) => stateOf(c)), { ...channel, key: 'this', editable: true }]),
  );
}

/** What the audit entry of a single channel's change names: the fuel attributes that changed, before and after. */
function fuelChanges(before: FuelChannelAttributes, after: FuelChannelAttributes) {
  const changes: Partial<Record<keyof FuelChannelAttributes, { from: unknown; to: unknown }>> = {};
  for (const key of Object.keys(after) as (keyof FuelChannelAttributes)[])
    if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
  return changes;
}

/**
 * Maps a raw channel (one mapping per raw channel) or adds a custom channel, with its fuel attributes when it is a
 * fuel flow channel. Runs inside the caller's transaction; answers the new id and the fuel attributes it has.
 */
export async function createChannel(
  db: Kysely<Database>,
  dataSource: { id: string; facility_id: string },
  values: ChannelValues,
): Promise<{ id: string; fuel: FuelChannelAttributes }> {
  const isCustom = values.isCustom === true;
  if (!isCustom) {
    const mapped = await db
      .selectFrom('data_source_channels')
      .select('name')
      .where('data_source_id', '=', dataSource.id)
      .where('source', '=', values.source)
      .where('is_custom', '=', false)
      .executeTakeFirst();
    if (mapped) throw conflict(`The channel ${values.source} is already mapped as ${mapped.name}`);
  }
  const fuel = mergeFuelAttributes(values);
  await checkFuelAttributes(db, dataSource.facility_id, {
    name: values.name,
    unit: values.unit || null,
    dataType: values.dataType,
    ...fuel,
  });
  try {
    const row = await db
      .insertInto('data_source_channels')
      .values({
        facility_id: dataSource.facility_id,
        data_source_id: dataSource.id,
        source: values.source.trim(),
        name: values.name,
        data_type: values.dataType,
        unit: values.unit || null,
        description: values.description || null,
        quality_score: values.qualityScore ?? 0,
        is_custom: isCustom,
        local_id: values.localId ?? null,
        ...fuelColumnsOf(fuel),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, fuel };
  } catch (error) {
    if (isUniqueViolation(error)) throw channelNameTaken(values.name);
    throw error;
  }
}

/**
 * Changes a channel; fuel attributes the body leaves out stay as they are. Runs inside the caller's transaction;
 * answers the fuel attributes that changed (for the audit entry).
 */
export async function updateChannel(
  db: Kysely<Database>,
  before: Selectable<DataSourceChannelsTable>,
  values: ChannelValues,
): Promise<Partial<Record<keyof FuelChannelAttributes, { from: unknown; to: unknown }>>> {
  const fuel = mergeFuelAttributes(values, fuelAttributesOf(before));
  await checkFuelAttributes(db, before.facility_id, {
    id: before.id,
    name: values.name,
    unit: values.unit || null,
    dataType: values.dataType,
    ...fuel,
  });
  try {
    await db
      .updateTable('data_source_channels')
      .set({
        source: values.source.trim(),
        name: values.name,
        data_type: values.dataType,
        unit: values.unit || null,
        description: values.description || null,
        quality_score: values.qualityScore ?? 0,
        // Left out, the local id stays as it is (a client that does not know it does not clear it).
        ...(values.localId !== undefined ? { local_id: values.localId } : {}),
        ...fuelColumnsOf(fuel),
      })
      .where('id', '=', before.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw channelNameTaken(values.name);
    throw error;
  }
  return fuelChanges(fuelAttributesOf(before), fuel);
}

/**
 * Copies the data sources (with their sample files and raw channels, so the channels screen shows them at once),
 * channels and measurement field calculations of one ship to another that has none yet; the calculations' input ids
 * of channels point at the new channels, and their validity starts at `validFrom` (import-validity.ts): the date
 * picked in the import dialog, else defaultImportValidFrom (the target's earliest data, else an open start).
 */
export async function importConfiguration(
  db: Kysely<Database>,
  targetFacilityId: string,
  sourceFacilityId: string,
  validFrom: Date | null = null,
): Promise<{ dataSources: number; channels: number; calculations: number; validFrom: string }> {
  const result = await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', targetFacilityId)
      .executeTakeFirst();
    if (existing)
      throw conflict('The ship already has data sources; import a configuration into a ship without any');
    const start = validFrom ?? new Date(defaultImportValidFrom(await earliestData(trx, targetFacilityId)));
    const sources = await trx
      .selectFrom('facility_data_sources')
      .selectAll()
      .where('facility_id', '=', sourceFacilityId)
      .orderBy('created_on')
      .execute();
    const channelIds = new Map<string, string>();
    let channelCount = 0;
    for (const { id, facility_id: _f, created_on: _c, sample_channels, ...source } of sources) {
      const inserted = await trx
        .insertInto('facility_data_sources')
        .values({
          ...source,
          facility_id: targetFacilityId,
          sample_channels: sample_channels === null ? null : JSON.stringify(sample_channels),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const channels = await trx
        .selectFrom('data_source_channels')
        .selectAll()
        .where('data_source_id', '=', id)
        .execute();
      for (const {
        id: channelId,
        facility_id: _cf,
        data_source_id: _d,
        created_on: _cc,
        ...channel
      } of channels) {
        const copy = await trx
          .insertInto('data_source_channels')
          .values({ ...channel, facility_id: targetFacilityId, data_source_id: inserted.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        channelIds.set(channelId, copy.id);
        channelCount++;
      }
    }
    // A copied flow channel reads its fuel type from the copy of its fuel type channel, not from the other ship's.
    const copiedReaders = await trx
      .selectFrom('data_source_channels')
      .select(['id', 'fuel_type_channel_id'])
      .where('facility_id', '=', targetFacilityId)
      .where('fuel_type_channel_id', 'is not', null)
      .execute();
    for (const reader of copiedReaders) {
      const copied = channelIds.get(reader.fuel_type_channel_id!);
      if (copied === undefined) throw new Error(`The fuel type channel of ${reader.id} was not copied`);
      await trx
        .updateTable('data_source_channels')
        .set({ fuel_type_channel_id: copied })
        .where('id', '=', reader.id)
        .execute();
    }
    const calculations = await trx
      .selectFrom('measurement_field_calculations')
      .selectAll()
      .where('facility_id', '=', sourceFacilityId)
      .orderBy('valid_from')
      .execute();
    const validity = importedValidity(
      calculations.map((c) => ({
        fieldId: c.measurement_field_id,
        approved: c.approved_on !== null,
        validFrom: c.valid_from === null ? null : new Date(c.valid_from),
        validTo: c.valid_to === null ? null : new Date(c.valid_to),
      })),
      start,
    );
    let copied = 0;
    for (const [
      i,
      { id: _id, facility_id: _f, created_on: _c, updated_on: _u, input_ids, ...calculation },
    ] of calculations.entries()) {
      const valid = validity[i];
      if (!valid) continue;
      const inputs = (
        typeof input_ids === 'string' ? (JSON.parse(input_ids) as string[]) : (input_ids ?? [])
      ).map((inputId) => channelIds.get(inputId) ?? inputId);
      await trx
        .insertInto('measurement_field_calculations')
        .values({
          ...calculation,
          facility_id: targetFacilityId,
          input_ids: JSON.stringify(inputs),
          valid_from: valid.validFrom,
          valid_to: valid.validTo,
        })
        .execute();
      copied++;
    }
    return {
      dataSources: sources.length,
      channels: channelCount,
      calculations: copied,
      validFrom: start.toISOString(),
    };
  });
  await updateFacilityDataRange(db, targetFacilityId);
  return result;
}

export interface ChannelListChange {
  added: number;
  changed: number;
  removed: number;
  /** Mappings an earlier list removed that this one brought back with their ids (an Undo). */
  restored: number;
  /** The mappings the list removed, named in the audit entry: a later list may bring them back. */
  removedMappings: {
    id: string;
    name: string;
    source: string;
    fuel?: FuelChannelAttributes;
    localId?: string;
  }[];
}

/**
 * Replaces a data source's mappings with a list (PUT facilitydatasourcechannels): an item with the id of one of its
 * mappings keeps that id (the calculations read channels by id) and takes the item's values, an item without an id
 * is added, a mapping the list leaves out is removed. An item with the id of a mapping an earlier list removed from
 * this data source (the audit entries of those lists name them) brings it back with that id, so that an Undo
 * restores the mappings as they were; any other id is refused. The whole list is checked first and refused with
 * every problem named; nothing changes then. Runs inside the caller's transaction.
 */
export async function replaceChannels(
  trx: Transaction<Database>,
  dataSource: { id: string; facility_id: string },
  list: readonly ChannelMappingListItem[],
): Promise<ChannelListChange> {
  const existing = await trx
    .selectFrom('data_source_channels')
    .selectAll()
    .where('data_source_id', '=', dataSource.id)
    .execute();
  const byId = new Map(existing.map((c) => [c.id, c]));
  const restorable = await removedMappingIds(
    trx,
    dataSource.id,
    list.flatMap((item) => (item.id !== undefined && !byId.has(item.id) ? [item.id] : [])),
  );
  const problems: ChannelListProblem[] = channelMappingListProblems(list);
  list.forEach((item, index) => {
    if (item.id !== undefined && !byId.has(item.id) && !restorable.has(item.id))
      problems.push({ path: `${index}.id`, message: 'Not a channel of this data source' });
  });
  // The fuel attributes an item leaves out stay as the mapping has them (or had them, for one brought back).
  const knownId = (item: ChannelMappingListItem) =>
    item.id !== undefined && (byId.has(item.id) || restorable.has(item.id)) ? item.id : undefined;
  const fuelOf = list.map((item) => {
    const before = item.id === undefined ? undefined : byId.get(item.id);
    const base = before
      ? fuelAttributesOf(before)
      : ((item.id === undefined ? null : restorable.get(item.id)?.fuel) ?? NO_FUEL_ATTRIBUTES);
    return mergeFuelAttributes(item, base);
  });
  const keptIds = new Set(list.flatMap((item) => knownId(item) ?? []));
  const others = (await shipChannels(trx, dataSource.facility_id)).filter(
    (c) => c.data_source_id !== dataSource.id,
  );
  const fuelProblems = fuelChannelProblems(
    [
      ...others.map((c) => ({ ...stateOf(c), key: `other:${c.id}` })),
      ...list.map((item, index): FuelChannelState => ({
        key: String(index),
        id: knownId(item),
        name: item.name.trim(),
        unit: item.unit || null,
        dataType: item.dataType,
        editable: true,
        ...fuelOf[index]!, // one per item
      })),
    ],
    existing
      .filter((c) => !keptIds.has(c.id))
      .map((c) => ({ key: `removed:${c.id}`, id: c.id, name: c.name })),
  );
  for (const p of fuelProblems)
    problems.push({
      path: p.key.startsWith('removed:')
        ? `removed.${p.key.slice('removed:'.length)}`
        : `${p.key}.${p.field}`,
      message: p.message,
    });
  if (problems.length > 0) {
    const order = (path: string) => {
      const index = Number.parseInt(path, 10);
      return Number.isNaN(index) ? Number.POSITIVE_INFINITY : index;
    };
    problems.sort((a, b) => order(a.path) - order(b.path));
    throw badRequest(
      `${CHANNEL_LIST_MESSAGES.notValid(new Set(problems.map((p) => p.path.split('.')[0])).size)}: ${problems
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
      Object.fromEntries(problems.map((p) => [p.path, p.message])),
    );
  }
  const rows = list.map((item, index) => {
    const before = item.id === undefined ? undefined : byId.get(item.id);
    return {
      ...(before ? { id: before.id, created_on: before.created_on } : {}),
      ...(item.id !== undefined && restorable.has(item.id) ? { id: item.id } : {}),
      facility_id: dataSource.facility_id,
      data_source_id: dataSource.id,
      source: item.source.trim(),
      name: item.name.trim(),
      data_type: item.dataType as (typeof existing)[number]['data_type'],
      unit: item.unit || null,
      description: item.description || null,
      quality_score: item.qualityScore ?? 0,
      is_custom: item.isCustom === true,
      // Checked above (channelMappingListProblems); left out, a kept mapping keeps its local id and one brought back
      // gets the one it had when it was removed.
      local_id:
        item.localId !== undefined
          ? normalizeLocalId(item.localId)
          : (before?.local_id ?? (item.id === undefined ? null : (restorable.get(item.id)?.localId ?? null))),
      ...fuelColumnsOf(fuelOf[index]!),
    };
  });
  const same = (row: (typeof rows)[number]) => {
    const before = row.id === undefined ? undefined : byId.get(row.id);
    return (
      before !== undefined &&
      before.source === row.source &&
      before.name === row.name &&
      before.data_type === row.data_type &&
      before.unit === row.unit &&
      before.description === row.description &&
      before.quality_score === row.quality_score &&
      before.is_custom === row.is_custom &&
      before.local_id === row.local_id &&
      before.consumer === row.consumer &&
      before.fuel_type_source === row.fuel_type_source &&
      before.fuel_type === row.fuel_type &&
      before.fuel_type_channel_id === row.fuel_type_channel_id &&
      before.lng_engine === row.lng_engine
    );
  };
  const kept = new Set(rows.flatMap((r) => r.id ?? []));
  // Names are unique per data source whatever their case: the rows go and come back with their ids, so that two
  // mappings may swap names in one list. The fuel type channel they read is checked at commit (migration 0025).
  if (existing.length > 0)
    await trx.deleteFrom('data_source_channels').where('data_source_id', '=', dataSource.id).execute();
  if (rows.length > 0) await trx.insertInto('data_source_channels').values(rows).execute();
  const removed = existing.filter((c) => !kept.has(c.id));
  return {
    added: rows.filter((r) => r.id === undefined).length,
    changed: rows.filter((r) => r.id !== undefined && byId.has(r.id) && !same(r)).length,
    removed: removed.length,
    restored: rows.filter((r) => r.id !== undefined && restorable.has(r.id)).length,
    removedMappings: removed.map((c) => ({
      id: c.id,
      name: c.name,
      source: c.source,
      // Brought back by a later list that leaves them out, a mapping gets its fuel attributes and local id back
      // from here.
      ...(c.consumer !== null ? { fuel: fuelAttributesOf(c) } : {}),
      ...(c.local_id !== null ? { localId: c.local_id } : {}),
    })),
  };
}

const aliasTaken = (alias: string, field: string) =>
  conflict(`The alias ${alias} is already known for ${field}`);

/** Adds an organization's alias of a logger column for a measurement field. */
export async function createChannelAlias(
  trx: Transaction<Database>,
  organizationId: string,
  userId: string,
  values: { field: string; alias: string },
): Promise<string> {
  const taken = await trx
    .selectFrom('channel_aliases')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(sql<boolean>`upper(field) = upper(${values.field})`)
    .where(sql<boolean>`lower(alias) = lower(${values.alias})`)
    .executeTakeFirst();
  if (taken) throw aliasTaken(values.alias, values.field.toUpperCase());
  const row = await trx
    .insertInto('channel_aliases')
    .values({
      organization_id: organizationId,
      field: values.field.toUpperCase(),
      alias: values.alias,
      created_by: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The first sample time of a ship's data files, or null when it has none. */
async function earliestData(db: Kysely<Database>, facilityId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('data_files')
    .select((eb) => eb.fn.min('time_stamp_min').as('min'))
    .where('facility_id', '=', facilityId)
    .where('has_samples', '=', true)
    .executeTakeFirst();
  return row?.min ? new Date(row.min) : null;
}

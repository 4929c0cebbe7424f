import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChannelAlias, DataSource, DataSourceChannel, RawChannel } from '@portal/contracts/datasources';
import type { FuelChannelAttributes } from '@portal/contracts/fuel-channels';
import type { Database } from '../../db/schema';
import type { DataSourceChannelsTable, FacilityDataSourcesTable } from '../../db/tables/ingestion';
import type { Selectable } from 'kysely';
import { notFound } from '../../errors';
import { acceptedExtensionsByComma, readerDefinition } from '../../readers';
import type { Caller } from '../access/caller';
import { assertFacilityVisible, facilityVisibleTo, isUuid } from '../access/policy';
import { assertNoFuelTypeReaders, fuelAttributesOf } from './fuel';

export const dataSourceNotFound = () => notFound('Data source not found');

/** A data source the caller may see (by the ship it belongs to), or 404: another organization's is not revealed. */
export async function findVisibleDataSource(db: Kysely<Database>, caller: Caller, dataSourceId: string) {
  if (!isUuid(dataSourceId)) throw dataSourceNotFound();
  const row = await db
    .selectFrom('facility_data_sources as ds')
    .selectAll('ds')
    .where('ds.id', '=', dataSourceId)
    .where(facilityVisibleTo(db, caller, sql.ref('ds.facility_id')))
    .executeTakeFirst();
  if (!row) throw dataSourceNotFound();
  return row;
}

/** A data source of a ship the caller may see, addressed as facility/{id}/datasource/{dataSourceId}. */
export async function findFacilityDataSource(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
  dataSourceId: string,
) {
  await assertFacilityVisible(db, caller, facilityId);
  if (!isUuid(dataSourceId)) throw dataSourceNotFound();
  const row = await db
    .selectFrom('facility_data_sources')
    .selectAll()
    .where('id', '=', dataSourceId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw dataSourceNotFound();
  return row;
}

export function toChannel(
  row: Selectable<DataSourceChannelsTable>,
  dataSourceName: string,
): DataSourceChannel {
  return {
    id: row.id,
    dataSourceId: row.data_source_id,
    source: row.source,
    name: row.name,
    fullName: `${dataSourceName}.${row.name}`,
    dataType: row.data_type,
    unit: row.unit,
    description: row.description,
    qualityScore: row.quality_score,
    isCustom: row.is_custom,
    localId: row.local_id,
    ...fuelAttributesOf(row),
  };
}

export function sampleChannelsOf(
  row: Pick<Selectable<FacilityDataSourcesTable>, 'sample_channels'>,
): RawChannel[] {
  const value = row.sample_channels;
  if (!value) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as RawChannel[];
}

/** The data sources of a ship with their channel mappings and the number of listed files; the primary first, then by name. */
export async function listDataSources(
  db: Kysely<Database>,
  facilityId: string,
  onlyId?: string,
): Promise<DataSource[]> {
  let query = db
    .selectFrom('facility_data_sources as ds')
    .select([
      'ds.id',
      'ds.facility_id',
      'ds.name',
      'ds.note',
      'ds.is_primary',
      'ds.reader_id',
      'ds.reader_configuration',
      'ds.measure_frequency_seconds',
      'ds.utc_offset_minutes',
      'ds.sample_file_name',
      sql<number>`(select count(*) from data_files f where f.data_source_id = ds.id and f.removed_on is null)`.as(
        'files_count',
      ),
    ])
    .where('ds.facility_id', '=', facilityId)
    .orderBy('ds.is_primary', 'desc')
    .orderBy(sql`lower(ds.name)`);
  if (onlyId) query = query.where('ds.id', '=', onlyId);
  const sources = await query.execute();
  if (sources.length === 0) return [];
  const channels = await db
    .selectFrom('data_source_channels')
    .selectAll()
    .where(
      'data_source_id',
      'in',
      sources.map((s) => s.id),
    )
    .orderBy('is_custom')
    .orderBy(sql`lower(name)`)
    .execute();
  return sources.map((s) => ({
    id: s.id,
    facilityId: s.facility_id,
    name: s.name,
    note: s.note,
    isPrimary: s.is_primary,
    dataSourceReaderId: s.reader_id,
    dataSourceReaderName: readerDefinition(s.reader_id)?.name ?? s.reader_id,
    dataSourceReaderConfiguration: s.reader_configuration,
    dataSourceReaderAcceptedFileExtensionsByComma: acceptedExtensionsByComma(s.reader_id),
    measureFrequencyInSeconds: s.measure_frequency_seconds,
    utcTimezoneOffsetInMinutes: s.utc_offset_minutes,
    sampleFileName: s.sample_file_name,
    channels: channels.filter((c) => c.data_source_id === s.id).map((c) => toChannel(c, s.name)),
    filesCount: Number(s.files_count),
  }));
}

/** A channel that exists. */
export function channelById(db: Kysely<Database>, channelId: string) {
  return db
    .selectFrom('data_source_channels')
    .selectAll()
    .where('id', '=', channelId)
    .executeTakeFirstOrThrow();
}

/** A channel of a data source. */
export function findDataSourceChannel(db: Kysely<Database>, dataSourceId: string, channelId: string) {
  return db
    .selectFrom('data_source_channels')
    .selectAll()
    .where('id', '=', channelId)
    .where('data_source_id', '=', dataSourceId)
    .executeTakeFirst();
}

/** Deletes a channel, unless another channel of the ship reads its fuel type from it (409, naming both). */
export async function deleteChannel(
  trx: Transaction<Database>,
  channel: Selectable<DataSourceChannelsTable>,
): Promise<void> {
  await assertNoFuelTypeReaders(trx, channel.facility_id, [channel]);
  await trx.deleteFrom('data_source_channels').where('id', '=', channel.id).execute();
}

/** An organization's channel aliases, by field and alias. */
export async function listChannelAliases(
  db: Kysely<Database>,
  organizationId: string,
): Promise<ChannelAlias[]> {
  const rows = await db
    .selectFrom('channel_aliases')
    .select(['id', 'field', 'alias', 'created_on'])
    .where('organization_id', '=', organizationId)
    .orderBy('field')
    .orderBy(sql`lower(alias)`)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    field: r.field,
    alias: r.alias,
    createdOn: r.created_on.toISOString(),
  }));
}

export async function deleteChannelAlias(trx: Transaction<Database>, aliasId: string): Promise<void> {
  await trx.deleteFrom('channel_aliases').where('id', '=', aliasId).execute();
}

/**
 * Of `ids`, those of mappings that a list (PUT facilitydatasourcechannels, audited as channel.replace with the
 * mappings it removed) took out of this data source, and that no mapping has now: a later list may bring them back
 * with their ids. Each with the fuel attributes it had when it was removed (the latest removal's), null when it had
 * none, and its local id then (null when none, or removed before local ids were kept with the removal).
 */
export async function removedMappingIds(
  db: Kysely<Database>,
  dataSourceId: string,
  ids: readonly string[],
): Promise<Map<string, { fuel: FuelChannelAttributes | null; localId: string | null }>> {
  const candidates = [...new Set(ids.filter(isUuid))];
  if (candidates.length === 0) return new Map();
  const { rows } = await sql<{ id: string; fuel: FuelChannelAttributes | null; localId: string | null }>`
    select removed->>'id' as id, removed->'fuel' as fuel, removed->>'localId' as "localId"
    from (
      select id as entry_id, detail->'removedMappings' as mappings from audit_log
      where action = 'channel.replace' and subject = ${dataSourceId}
    ) as entry,
    jsonb_array_elements(case when jsonb_typeof(entry.mappings) = 'array' then entry.mappings else '[]'::jsonb end)
      as removed
    where removed->>'id' in (${sql.join(candidates)})
      and not exists (select 1 from data_source_channels c where c.id::text = removed->>'id')
    order by entry.entry_id desc
  `.execute(db);
  const found = new Map<string, { fuel: FuelChannelAttributes | null; localId: string | null }>();
  for (const row of rows)
    if (!found.has(row.id)) found.set(row.id, { fuel: row.fuel ?? null, localId: row.localId ?? null });
  return found;
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { StreamFindingKind, StreamHealth } from '@portal/contracts/data-health';
import type { LiveReadout } from '@portal/contracts/live';
import type { LatestStreamSample } from '../../storage';
import { isUuid } from '../access/policy';

/** Is this edge node id a ship of this portal? (Anything else on a shared broker is someone else's.) */
export async function knownShip(db: Kysely<Database>, edgeNodeId: string): Promise<boolean> {
  if (!isUuid(edgeNodeId)) return false;
  const row = await db.selectFrom('facilities').select('id').where('id', '=', edgeNodeId).executeTakeFirst();
  return !!row;
}

/** Is this device id a data source of that ship? */
export async function shipDataSource(
  db: Kysely<Database>,
  facilityId: string,
  dataSourceId: string,
): Promise<boolean> {
  if (!isUuid(dataSourceId)) return false;
  const row = await db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('id', '=', dataSourceId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return !!row;
}

/** The raw channel (`source`) of each mapped channel of a data source that carries a local id, by local id. */
export async function rawChannelsByLocalId(
  db: Kysely<Database>,
  dataSourceId: string,
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('data_source_channels')
    .select(['local_id', 'source'])
    .where('data_source_id', '=', dataSourceId)
    .where('local_id', 'is not', null)
    .orderBy('created_on')
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) if (r.local_id && !out.has(r.local_id)) out.set(r.local_id, r.source);
  return out;
}

export interface StreamFindingInput {
  facilityId: string;
  dataSourceId: string | null;
  kind: StreamFindingKind;
  sourceTime: number | null;
  detail: Record<string, unknown>;
}

export async function recordFindings(db: Kysely<Database>, findings: StreamFindingInput[]): Promise<void> {
  if (findings.length === 0) return;
  await db
    .insertInto('stream_findings')
    .values(
      findings.map((f) => ({
        facility_id: f.facilityId,
        data_source_id: f.dataSourceId,
        kind: f.kind,
        source_time: f.sourceTime === null ? null : new Date(f.sourceTime),
        detail: JSON.stringify(f.detail),
      })),
    )
    .execute();
}

/** The ship's edge node went online (a birth) or offline (a death). */
export async function setLink(db: Kysely<Database>, facilityId: string, online: boolean): Promise<void> {
  const now = new Date();
  await db
    .insertInto('stream_links')
    .values({ facility_id: facilityId, online, changed_on: now, last_message_on: now })
    .onConflict((oc) =>
      oc.column('facility_id').doUpdateSet({ online, changed_on: now, last_message_on: now }),
    )
    .execute();
}

/** When the ship's edge node last sent anything (kept per batch, not per message). */
export async function touchLink(db: Kysely<Database>, facilityId: string, at: Date): Promise<void> {
  await db
    .updateTable('stream_links')
    .set({ last_message_on: at })
    .where('facility_id', '=', facilityId)
    .execute();
}

const FINDINGS_SHOWN = 20;

/**
 * The stream's side of a ship's data health: its link, and the findings of the period (by the sample's source time
 * when it has one, else when it was found), newest first.
 */
export async function streamHealth(
  db: Kysely<Database>,
  facilityId: string,
  period: { from: Date; to: Date },
): Promise<StreamHealth> {
  const [link, findings] = await Promise.all([
    db.selectFrom('stream_links').selectAll().where('facility_id', '=', facilityId).executeTakeFirst(),
    db
      .selectFrom('stream_findings')
      .select(['kind', 'data_source_id', 'source_time', 'found_on', 'detail'])
      .where('facility_id', '=', facilityId)
      .where((eb) =>
        eb.or([
          eb.and([eb('source_time', '>=', period.from), eb('source_time', '<=', period.to)]),
          eb.and([
            eb('source_time', 'is', null),
            eb('found_on', '>=', period.from),
            eb('found_on', '<=', period.to),
          ]),
          // A sample from the future lies after any period: it is shown while the period is the current one.
          eb.and([
            eb('kind', '=', 'future'),
            eb('found_on', '>=', period.from),
            eb('found_on', '<=', period.to),
          ]),
        ]),
      )
      .orderBy('found_on', 'desc')
      .execute(),
  ]);
  return {
    link: link
      ? {
          online: link.online,
          since: new Date(link.changed_on).toISOString(),
          lastMessageOn: link.last_message_on ? new Date(link.last_message_on).toISOString() : null,
        }
      : null,
    findings: findings.slice(0, FINDINGS_SHOWN).map((f) => ({
      kind: f.kind,
      dataSourceId: f.data_source_id,
      sourceTime: f.source_time ? new Date(f.source_time).toISOString() : null,
      foundOn: new Date(f.found_on).toISOString(),
      detail: (typeof f.detail === 'string' ? JSON.parse(f.detail) : f.detail) as Record<string, unknown>,
    })),
    findingCount: findings.length,
  };
}

/** The live readout of a ship from its channels' latest streamed samples: named by their mappings, mapped first. */
export async function liveReadout(
  db: Kysely<Database>,
  facilityId: string,
  samples: LatestStreamSample[],
): Promise<LiveReadout> {
  const [link, sources, mappings] = await Promise.all([
    db.selectFrom('stream_links').selectAll().where('facility_id', '=', facilityId).executeTakeFirst(),
    db
      .selectFrom('facility_data_sources')
      .select(['id', 'name'])
      .where('facility_id', '=', facilityId)
      .execute(),
    db
      .selectFrom('data_source_channels')
      .select(['data_source_id', 'source', 'name', 'unit', 'local_id'])
      .where('facility_id', '=', facilityId)
      .where('is_custom', '=', false)
      .execute(),
  ]);
  const sourceName = new Map(sources.map((s) => [s.id, s.name]));
  const mappingOf = new Map(mappings.map((m) => [`${m.data_source_id}\u0000${m.source}`, m]));
  const values = samples.flatMap((s) => {
    const dataSourceName = sourceName.get(s.dataSourceId);
    if (dataSourceName === undefined) return [];
    const mapping = mappingOf.get(`${s.dataSourceId}\u0000${s.channel}`);
    return [
      {
        dataSourceId: s.dataSourceId,
        dataSourceName,
        channel: s.channel,
        name: mapping?.name ?? null,
        unit: mapping?.unit ?? null,
        localId: mapping?.local_id ?? null,
        sourceTime: new Date(s.time).toISOString(),
        value: s.value,
        isHistorical: s.isHistorical,
      },
    ];
  });
  values.sort(
    (a, b) =>
      Number(a.name === null) - Number(b.name === null) ||
      (a.name ?? a.channel).localeCompare(b.name ?? b.channel) ||
      a.dataSourceName.localeCompare(b.dataSourceName),
  );
  return {
    facilityId,
    link: link
      ? {
          online: link.online,
          since: new Date(link.changed_on).toISOString(),
          lastMessageOn: link.last_message_on ? new Date(link.last_message_on).toISOString() : null,
        }
      : null,
    values,
  };
}

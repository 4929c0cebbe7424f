import { sql, type Kysely } from 'kysely';
import { DAY_MS } from '@portal/contracts/rules';
import { MAX_TRACK_PERIOD_DAYS, type ShipPosition, type Track } from '@portal/contracts/map';
import type { Database } from '../../db/schema';
import { badRequest } from '../../errors';
import { readLastDayValues, readMeasurementValues, type FieldSeries } from '../../storage';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';
import { buildTrack, lastPosition, valuesAt, type PositionColumns } from './track';

/** The measurement fields the map reads, by name (the default calculations' names). */
export const MAP_FIELDS = { latitude: 'LATITUDE', longitude: 'LONGITUDE', mode: 'SCRUBBER_MODE' } as const;
type MapField = keyof typeof MAP_FIELDS;

/** The period of a request as epoch ms: it must end after it starts and span at most MAX_TRACK_PERIOD_DAYS. */
export function mapPeriod(query: { from: string; to: string }): { from: number; to: number } {
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  if (from >= to) throw badRequest('The period must end after it starts');
  if (to - from > MAX_TRACK_PERIOD_DAYS * DAY_MS)
    throw badRequest(`The period may span at most ${MAX_TRACK_PERIOD_DAYS} days`);
  return { from, to };
}

/** The ids of the map's measurement fields that exist. */
async function mapFieldIds(db: Kysely<Database>): Promise<Partial<Record<MapField, string>>> {
  const rows = await db
    .selectFrom('measurement_fields')
    .select(['id', 'name'])
    .where((eb) => eb(eb.fn('upper', ['name']), 'in', Object.values(MAP_FIELDS)))
    .execute();
  const idOf = new Map(rows.map((r) => [r.name.toUpperCase(), r.id]));
  return Object.fromEntries(
    Object.entries(MAP_FIELDS).flatMap(([key, name]) => (idOf.has(name) ? [[key, idOf.get(name)!]] : [])),
  );
}

const EMPTY: FieldSeries = { timestamps: new Float64Array(0), values: new Float64Array(0) };

/** Positions on the latitude's time axis, the longitude and mode taken at the same timestamps. */
function positionColumns(
  latitude: FieldSeries,
  longitude: FieldSeries,
  mode: FieldSeries | null,
): PositionColumns {
  const timestamps = Float64Array.from(latitude.timestamps);
  const modes = mode && mode.values.some((v) => !Number.isNaN(v)) ? valuesAt(timestamps, mode) : null;
  return {
    timestamps,
    latitudes: Float64Array.from(latitude.values),
    longitudes: valuesAt(timestamps, longitude),
    modes,
  };
}

/** A ship's track for the period (its visibility checked before), thinned (track.ts). */
export async function shipTrack(
  db: Kysely<Database>,
  facilityId: string,
  period: { from: number; to: number },
): Promise<Track> {
  const ids = await mapFieldIds(db);
  const read = (id: string | undefined) =>
    id ? readMeasurementValues(db, facilityId, id, period.from, period.to) : Promise.resolve(EMPTY);
  const [latitude, longitude, mode] = await Promise.all([
    read(ids.latitude),
    read(ids.longitude),
    ids.mode ? read(ids.mode) : Promise.resolve(null),
  ]);
  const columns = positionColumns(latitude, longitude, mode);
  return {
    facilityId,
    from: new Date(period.from).toISOString(),
    to: new Date(period.to).toISOString(),
    hasScrubberMode: columns.modes !== null,
    ...buildTrack(columns, period),
  };
}

/** The last stored position in the period of every ship the caller sees that has one, by ship name. */
export async function fleetPositions(
  db: Kysely<Database>,
  caller: Caller,
  period: { from: number; to: number },
): Promise<ShipPosition[]> {
  const ids = await mapFieldIds(db);
  if (!ids.latitude || !ids.longitude) return [];
  const ships = await db
    .selectFrom('facilities')
    .select('id')
    .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
  const fieldIds = [ids.latitude, ids.longitude, ...(ids.mode ? [ids.mode] : [])];
  const values = await readLastDayValues(
    db,
    ships.map((s) => s.id),
    ids.latitude,
    fieldIds,
    period.from,
    period.to,
  );
  return ships.flatMap((ship) => {
    const fields = values.get(ship.id);
    const latitude = fields?.get(ids.latitude!);
    if (!fields || !latitude) return [];
    const columns = positionColumns(
      latitude,
      fields.get(ids.longitude!) ?? EMPTY,
      ids.mode ? (fields.get(ids.mode) ?? null) : null,
    );
    const position = lastPosition(ship.id, columns);
    return position ? [position] : [];
  });
}

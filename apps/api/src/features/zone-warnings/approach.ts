import type { Kysely } from 'kysely';
import {
  bannedModes,
  motionOf,
  projectTrack,
  zoneEntries,
  zonesAt,
  type BannedMode,
  type Fix,
  type Motion,
  type ShipState,
  type ZoneEntry,
  type ZoneKind,
} from '@portal/contracts/rules/zone-approach';
import { DEFAULT_ZONE_WARNING_HORIZON_MINUTES } from '@portal/contracts/zone-warnings';
import type { Database } from '../../db/schema';
import { readMeasurementValues, type FieldSeries } from '../../storage';

/**
 * A ship's approach as the stored values tell it now: its course and speed over ground from the last positions, the
 * modes a zone may ban from the last values of its channels, the zones it is inside and those its track ahead enters
 * within its organization's horizon (packages/contracts/src/rules/zone-approach.ts). Read the same way after an
 * execution (evaluate.ts) and for the map (GET /api/facilities/{id}/zone-warnings), whether the samples came in a
 * file or, later, a stream: both go through the stored measurement values.
 */

/** The measurement fields read, by name (the default calculations' names). */
export const APPROACH_FIELDS = {
  latitude: 'LATITUDE',
  longitude: 'LONGITUDE',
  scrubberMode: 'SCRUBBER_MODE',
  scrubberRunning: 'SCRUBBER_RUNNING',
  fuelSulfur: 'FUEL_SULFUR',
  fuelFlow: 'FUEL_FLOW',
} as const;
type ApproachField = keyof typeof APPROACH_FIELDS;

/**
 * Positions older than this are not live: no course, no speed, no warning (a day's file uploaded the next morning
 * warns of nothing; the events say where the ship went). The window read before now is a little longer.
 */
export const LIVE_POSITION_MS = 30 * 60_000;
const READ_BEFORE_MS = 60 * 60_000;
/** Samples stamped a little after the server's clock still count (a ship's clock running ahead). */
const READ_AFTER_MS = 10 * 60_000;

export interface Approach {
  horizonMinutes: number;
  motion: Motion | null;
  modes: BannedMode[];
  insideZones: { kind: ZoneKind; name: string }[];
  entries: ZoneEntry[];
}

async function fieldIds(db: Kysely<Database>): Promise<Partial<Record<ApproachField, string>>> {
  const rows = await db
    .selectFrom('measurement_fields')
    .select(['id', 'name'])
    .where((eb) => eb(eb.fn('upper', ['name']), 'in', Object.values(APPROACH_FIELDS)))
    .execute();
  const idOf = new Map(rows.map((r) => [r.name.toUpperCase(), r.id]));
  return Object.fromEntries(
    Object.entries(APPROACH_FIELDS).flatMap(([key, name]) =>
      idOf.has(name) ? [[key, idOf.get(name)!]] : [],
    ),
  );
}

/** The organization's horizon (minutes): its setting, else 120. */
export async function horizonOf(db: Kysely<Database>, facilityId: string): Promise<number> {
  const row = await db
    .selectFrom('facilities as f')
    .leftJoin('organization_zone_warning_settings as s', 's.organization_id', 'f.primary_organization_id')
    .select('s.horizon_minutes')
    .where('f.id', '=', facilityId)
    .executeTakeFirst();
  return row?.horizon_minutes ?? DEFAULT_ZONE_WARNING_HORIZON_MINUTES;
}

/** The last value at or before `t` (NaN skipped), or null. */
function lastValue(series: FieldSeries | undefined, t: number): number | null {
  if (!series) return null;
  for (let i = series.timestamps.length - 1; i >= 0; i--)
    if (series.timestamps[i]! <= t && !Number.isNaN(series.values[i]!)) return series.values[i]!;
  return null;
}

/** The ship's approach at `now` (ms), from its stored values. */
export async function readApproach(db: Kysely<Database>, facilityId: string, now: number): Promise<Approach> {
  const [ids, horizonMinutes] = await Promise.all([fieldIds(db), horizonOf(db, facilityId)]);
  const none: Approach = { horizonMinutes, motion: null, modes: [], insideZones: [], entries: [] };
  if (!ids.latitude || !ids.longitude) return none;
  const from = now - READ_BEFORE_MS;
  const to = now + READ_AFTER_MS;
  const series = new Map<ApproachField, FieldSeries>();
  for (const [key, id] of Object.entries(ids) as [ApproachField, string][])
    series.set(key, await readMeasurementValues(db, facilityId, id, from, to));
  const latitude = series.get('latitude')!;
  const longitude = series.get('longitude')!;
  const lonAt = new Map<number, number>();
  for (let i = 0; i < longitude.timestamps.length; i++)
    lonAt.set(longitude.timestamps[i]!, longitude.values[i]!);
  const fixes: Fix[] = [];
  for (let i = 0; i < latitude.timestamps.length; i++) {
    const t = latitude.timestamps[i]!;
    fixes.push({ t, lat: latitude.values[i]!, lon: lonAt.get(t) ?? NaN });
  }
  const motion = motionOf(fixes);
  if (!motion || motion.at < now - LIVE_POSITION_MS) return none;
  const state: ShipState = {
    scrubberMode: lastValue(series.get('scrubberMode'), motion.at),
    scrubberRunning: lastValue(series.get('scrubberRunning'), motion.at),
    fuelSulfur: lastValue(series.get('fuelSulfur'), motion.at),
    fuelFlow: lastValue(series.get('fuelFlow'), motion.at),
  };
  const modes = bannedModes(state);
  return {
    horizonMinutes,
    motion,
    modes,
    insideZones: zonesAt([motion.lat, motion.lon], motion.at),
    entries: zoneEntries(motion, modes, horizonMinutes),
  };
}

/** The track ahead as [latitude, longitude] every 5 minutes to the horizon (none without a motion). */
export function projectedTrack(approach: Approach): [number, number][] {
  return approach.motion ? projectTrack(approach.motion, approach.horizonMinutes).map((p) => p.position) : [];
}

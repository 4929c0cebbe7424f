import type { Transaction } from 'kysely';
import { clearanceOf, zoneWarningText, type ZoneEntry } from '@portal/contracts/rules/zone-approach';
import { ZONE_WARNING_ALERT_KIND, type ZoneWarningSnapshot } from '@portal/contracts/zone-warnings';
import type { Database } from '../../db/schema';
import type { ZoneWarningsPort } from '../executions/ports';
import type { AlertOutboxOptions } from '../alerts/outbox';
import { readApproach } from './approach';

/**
 * The engine's zone warnings port (features/executions/ports.ts `ZoneWarningsPort`): after a ship's values are
 * stored, in the same transaction, its approach is read again (approach.ts) and its warnings follow it:
 * - an entry ahead with no active warning of its zone and mode raises one, with its alert in the outbox (kind
 *   'zone-warning', dedupe key the warning's id: one alert per ship, zone and approach);
 * - an active warning still ahead is updated (entry time and place, text), alerting nobody again;
 * - an active warning no longer ahead is cleared with why (rules/zone-approach.ts `clearanceOf`): turned away,
 *   switched mode, arrived, or no live position. A later approach to the same zone is a new warning.
 */

export interface ZoneWarningOptions {
  /** ms; the clock (tests set it). */
  now?: () => number;
  /** Called inside the transaction when alerts were written (the alerts' fan-out job, features/engine-ports.ts). */
  notify?: AlertOutboxOptions['notify'];
}

const key = (w: { zone_kind: string; zone_name: string; mode: string }) =>
  `${w.zone_kind}\u0000${w.zone_name}\u0000${w.mode}`;
const entryKey = (e: ZoneEntry) => `${e.zone.kind}\u0000${e.zone.name}\u0000${e.mode}`;

export async function evaluateZoneWarnings(
  trx: Transaction<Database>,
  facilityId: string,
  options: ZoneWarningOptions = {},
): Promise<number> {
  const now = options.now?.() ?? Date.now();
  const approach = await readApproach(trx, facilityId, now);
  const active = await trx
    .selectFrom('zone_warnings')
    .select(['id', 'zone_kind', 'zone_name', 'mode'])
    .where('facility_id', '=', facilityId)
    .where('cleared_on', 'is', null)
    .forUpdate()
    .execute();
  const nowDate = new Date(now);
  const entries = new Map(approach.entries.map((e) => [entryKey(e), e]));
  for (const warning of active) {
    const clearance = clearanceOf(
      {
        zoneKind: warning.zone_kind as ZoneEntry['zone']['kind'],
        zoneName: warning.zone_name,
        mode: warning.mode as ZoneEntry['mode'],
      },
      approach,
    );
    const entry = entries.get(key(warning));
    if (clearance || !entry) {
      await trx
        .updateTable('zone_warnings')
        .set({ cleared_on: nowDate, clearance: clearance ?? 'turned-away', updated_on: nowDate })
        .where('id', '=', warning.id)
        .execute();
      continue;
    }
    await trx
      .updateTable('zone_warnings')
      .set({ ...entryColumns(entry, approach.motion!), updated_on: nowDate })
      .where('id', '=', warning.id)
      .execute();
    entries.delete(key(warning));
  }
  if (!entries.size) return 0;
  const facility = await trx
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  for (const entry of entries.values()) {
    const row = await trx
      .insertInto('zone_warnings')
      .values({ facility_id: facilityId, ...entryColumns(entry, approach.motion!), raised_on: nowDate })
      .returning(['id', 'text', 'entry_at', 'minutes'])
      .executeTakeFirstOrThrow();
    const snapshot: ZoneWarningSnapshot = {
      facilityId,
      facilityName: facility.name,
      warningId: row.id,
      zoneKind: entry.zone.kind,
      zoneName: entry.zone.name,
      mode: entry.mode,
      text: row.text,
      entryAt: new Date(entry.at).toISOString(),
      entry: entry.position,
      minutes: entry.minutes,
      courseDeg: approach.motion!.courseDeg,
      speedKn: approach.motion!.speedKn,
    };
    await trx
      .insertInto('alerts')
      .values({
        facility_id: facilityId,
        event_id: row.id,
        kind: ZONE_WARNING_ALERT_KIND,
        level: 0,
        dedupe_key: `${row.id}:${ZONE_WARNING_ALERT_KIND}`,
        occurred_on: nowDate,
        snapshot: JSON.stringify(snapshot),
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
  }
  if (options.notify) await options.notify(trx);
  return entries.size;
}

function entryColumns(entry: ZoneEntry, motion: { courseDeg: number; speedKn: number }) {
  return {
    zone_kind: entry.zone.kind,
    zone_name: entry.zone.name,
    mode: entry.mode,
    text: zoneWarningText({
      mode: entry.mode,
      zoneKind: entry.zone.kind,
      zoneName: entry.zone.name,
      minutes: entry.minutes,
    }),
    entry_at: new Date(entry.at),
    entry_latitude: entry.position[0],
    entry_longitude: entry.position[1],
    minutes: entry.minutes,
    course_deg: motion.courseDeg,
    speed_kn: motion.speedKn,
  };
}

/** The port with these options. */
export function zoneWarningsForEngine(options: ZoneWarningOptions = {}): ZoneWarningsPort {
  return { evaluate: (trx, facilityId) => evaluateZoneWarnings(trx, facilityId, options) };
}

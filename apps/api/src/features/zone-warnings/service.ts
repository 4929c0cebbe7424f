import type { Kysely } from 'kysely';
import {
  DEFAULT_ZONE_WARNING_HORIZON_MINUTES,
  type ShipZoneWarnings,
  type ZoneWarning,
  type ZoneWarningSettings,
} from '@portal/contracts/zone-warnings';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { auditedChange } from '../audit/audit';
import { projectedTrack, readApproach } from './approach';

/** A ship's active warnings and its track ahead now (its visibility checked before). */
export async function shipZoneWarnings(
  db: Kysely<Database>,
  facilityId: string,
  now = Date.now(),
): Promise<ShipZoneWarnings> {
  const [approach, rows] = await Promise.all([
    readApproach(db, facilityId, now),
    db
      .selectFrom('zone_warnings')
      .selectAll()
      .where('facility_id', '=', facilityId)
      .where('cleared_on', 'is', null)
      .orderBy('entry_at')
      .execute(),
  ]);
  const { motion } = approach;
  return {
    facilityId,
    horizonMinutes: approach.horizonMinutes,
    motion: motion
      ? {
          at: new Date(motion.at).toISOString(),
          latitude: motion.lat,
          longitude: motion.lon,
          courseDeg: motion.courseDeg,
          speedKn: motion.speedKn,
        }
      : null,
    projected: projectedTrack(approach),
    warnings: rows.map((r): ZoneWarning => ({
      id: r.id,
      facilityId: r.facility_id,
      zoneKind: r.zone_kind as ZoneWarning['zoneKind'],
      zoneName: r.zone_name,
      mode: r.mode as ZoneWarning['mode'],
      text: r.text,
      entryAt: new Date(r.entry_at).toISOString(),
      entry: [r.entry_latitude, r.entry_longitude],
      minutes: r.minutes,
      raisedOn: new Date(r.raised_on).toISOString(),
      updatedOn: new Date(r.updated_on).toISOString(),
    })),
  };
}

/** An organization's horizon (its setting, else the default). */
export async function zoneWarningSettings(
  db: Kysely<Database>,
  organizationId: string,
): Promise<ZoneWarningSettings> {
  const row = await db
    .selectFrom('organization_zone_warning_settings')
    .select('horizon_minutes')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return { horizonMinutes: row?.horizon_minutes ?? DEFAULT_ZONE_WARNING_HORIZON_MINUTES };
}

/** Sets an organization's horizon, audited (`zone-warning-settings.update`) in the same transaction. */
export async function saveZoneWarningSettings(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  settings: ZoneWarningSettings,
): Promise<void> {
  const before = await zoneWarningSettings(db, organizationId);
  await auditedChange(
    db,
    caller,
    async (trx) => {
      await trx
        .insertInto('organization_zone_warning_settings')
        .values({ organization_id: organizationId, horizon_minutes: settings.horizonMinutes })
        .onConflict((oc) =>
          oc
            .column('organization_id')
            .doUpdateSet({ horizon_minutes: settings.horizonMinutes, updated_on: new Date() }),
        )
        .execute();
    },
    {
      action: 'zone-warning-settings.update',
      subject: organizationId,
      detail: { before: before.horizonMinutes, after: settings.horizonMinutes },
    },
  );
}

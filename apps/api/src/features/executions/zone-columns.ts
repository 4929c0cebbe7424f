import { noDischargeZoneColumn } from '@portal/contracts/discharge-zones';
import { ecaZoneColumn } from '@portal/contracts/eca';
import { heldChannel } from './measurement-inputs';
import type { PeriodSamples } from './read-samples';

export type ZoneKind = 'eca' | 'noDischarge';

/** A zone column on some targets (1 inside, 0 outside, 255 where the position is not known). */
export type ZoneColumnOf = (kind: ZoneKind, targets: Float64Array, preloadSeconds: number) => Uint8Array;

/**
 * Sub-step "zones" of the measurement fields: ISECAZONE and ISNODISCHARGEZONE as the calculations read them, from
 * the ship's position held on the targets. Each kind is made once per targets array (the first calculation's
 * preload holds the position for the others on the same targets).
 */
export function zoneColumns(
  samples: Pick<PeriodSamples, 'rawBySource' | 'latitude' | 'longitude'>,
): ZoneColumnOf {
  const made = new Map<ZoneKind, Map<Float64Array, Uint8Array>>();
  return (kind, targets, preloadSeconds) => {
    let byTargets = made.get(kind);
    if (!byTargets) made.set(kind, (byTargets = new Map()));
    const cached = byTargets.get(targets);
    if (cached) return cached;
    const lat = heldChannel(samples, samples.latitude, targets, preloadSeconds);
    const lon = heldChannel(samples, samples.longitude, targets, preloadSeconds);
    const zone = (kind === 'eca' ? ecaZoneColumn : noDischargeZoneColumn)(lat, lon, targets);
    // No position: unknown (null in the language), not "outside".
    for (let i = 0; i < zone.length; i++) if (Number.isNaN(lat[i]!) || Number.isNaN(lon[i]!)) zone[i] = 255;
    byTargets.set(targets, zone);
    return zone;
  };
}

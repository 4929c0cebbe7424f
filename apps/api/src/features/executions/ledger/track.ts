import {
  DEFAULT_PORT_CALL_OPTIONS,
  derivePortCalls,
  prepareTrack,
  type PortCall,
  type PortLookup,
  type Track,
} from '@portal/contracts/rules/carbon';
import { DAY_MS } from '../ledger-segments';
import { channelOnTargets, onTargets, type RawRead } from './on-targets';
import type { FieldRead } from './readers';
import type { LedgerConfig } from './types';
import { widenToCalls, type LedgerWindow } from './window';

/** Positions read beyond the window on each side (the track legs across its edges). */
export const TRACK_MARGIN_MS = 2 * DAY_MS;
/** How often the window may widen to the derived calls before the last track is taken. */
const MOST_WIDENINGS = 20;

export interface TrackAndCalls {
  /** The window, widened until no derived call reaches over its edges. */
  window: LedgerWindow;
  /** The range of positions read for it: the window and TRACK_MARGIN_MS on each side. */
  read: LedgerWindow;
  track: Track;
  /** The positions' timestamps (the fuel flows are taken on them). */
  targets: Float64Array;
  calls: PortCall[];
}

/**
 * Sub-step "track and port calls": the ship's positions (and speed over ground: a field on the positions' targets,
 * or a raw channel held onto them) over the window and TRACK_MARGIN_MS on each side, the track and its port calls
 * (packages/contracts/src/rules/carbon), the window widened to the calls until none reaches over its edges.
 * `reading` is updated to the range read at each attempt (the raw channels' reader reads at least that far).
 * Undefined without any attempt (never: at least one is made).
 */
export async function trackAndCalls(
  config: LedgerConfig & { latitudeFieldId: string; longitudeFieldId: string },
  start: LedgerWindow,
  reading: LedgerWindow,
  io: { read: FieldRead; readRaw: RawRead; lookup: PortLookup },
): Promise<TrackAndCalls | undefined> {
  let window = start;
  let found: TrackAndCalls | undefined;
  for (let attempt = 0; attempt < MOST_WIDENINGS; attempt++) {
    reading.from = window.from - TRACK_MARGIN_MS;
    reading.to = window.to + TRACK_MARGIN_MS;
    const [latitude, longitude] = await Promise.all([
      io.read(config.latitudeFieldId, reading.from, reading.to),
      io.read(config.longitudeFieldId, reading.from, reading.to),
    ]);
    const targets = Float64Array.from(latitude.timestamps);
    const speed = !config.speed
      ? undefined
      : config.speed.kind === 'field'
        ? onTargets(targets, await io.read(config.speed.fieldId, reading.from, reading.to))
        : await channelOnTargets(io.readRaw, config.speed.channel, targets);
    const track = prepareTrack(
      {
        timestamps: targets,
        latitude: latitude.values,
        longitude: onTargets(targets, longitude),
        sog: speed,
      },
      DEFAULT_PORT_CALL_OPTIONS,
    );
    const calls = derivePortCalls(track, io.lookup, DEFAULT_PORT_CALL_OPTIONS);
    const widened = widenToCalls(window, calls);
    const same = widened.from === window.from && widened.to === window.to;
    window = widened;
    found = { window, read: { ...reading }, track, targets, calls };
    if (same) break;
  }
  return found;
}

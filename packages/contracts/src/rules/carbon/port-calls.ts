import { insidePolygon, type LonLat, type PreparedPolygon } from '../../zone-geometry';
import { haversineNm } from './geo';
import {
  DEFAULT_TRACK_OPTIONS,
  prepareTrack,
  type PositionSeries,
  type Track,
  type TrackOptions,
} from './track';

/**
 * Ports and port calls (DOMAIN.md: a port call is a stay within a port's radius, default 5 nm from the UN/LOCODE
 * point and overridable per organization, at a speed over ground below 1 kn for at least 2 h).
 * docs/decisions/0107-carbon-ledger-rules.md says how the rule is read: what joins and what splits a stay.
 */

/** The default radius of a port around its UN/LOCODE point, nautical miles (DOMAIN.md). */
export const DEFAULT_PORT_RADIUS_NM = 5;
/** A stop shorter than this is not a port call (DOMAIN.md). */
export const MIN_PORT_CALL_MS = 2 * 3_600_000;

/**
 * The regimes' geography a port belongs to, each with its dates: the EU/EEA (EU MRV, ETS, FuelEU), the EU's
 * outermost regions (FuelEU's and the ETS's 50 % rule for them), the United Kingdom (UK ETS, from 2026-07-01) and
 * Northern Ireland within it (50 % on voyages to Great Britain). A port left the EU/EEA when its country did (the
 * UK on 2020-12-31): a membership ends on its `to` date (inclusive).
 */
export const PORT_MEMBERSHIPS = ['EU_EEA', 'EU_OUTERMOST_REGION', 'UK', 'UK_NORTHERN_IRELAND'] as const;
export type PortMembership = (typeof PORT_MEMBERSHIPS)[number];

export interface PortMembershipPeriod {
  membership: PortMembership;
  /** ISO date, inclusive. */
  from: string;
  /** ISO date, inclusive; null while it lasts. */
  to: string | null;
}

/** A port as the ledger derives calls from it: a point with a radius, or the organization's own polygon. */
export interface PortArea {
  id: string;
  name: string;
  /** UN/LOCODE (e.g. NLRTM), when the port comes from it. */
  locode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  latitude: number;
  longitude: number;
  /** Nautical miles around the point (DEFAULT_PORT_RADIUS_NM when not given); unused with a polygon. */
  radiusNm?: number;
  /** [longitude, latitude] ring drawn by the organization: when given, the port is this area, not the circle. */
  polygon?: LonLat[];
  memberships?: PortMembershipPeriod[];
}

/** Does the port belong to the membership on that day (UTC)? */
export function portIn(
  port: Pick<PortArea, 'memberships'>,
  membership: PortMembership,
  atMs: number,
): boolean {
  const day = new Date(atMs).toISOString().slice(0, 10);
  return (port.memberships ?? []).some(
    (m) => m.membership === membership && m.from <= day && (m.to === null || day <= m.to),
  );
}

interface PreparedPort {
  index: number;
  lat: number;
  lon: number;
  radiusNm: number;
  polygon: PreparedPolygon | null;
}

/**
 * What port calls are derived against: the ports, and the index in `ports` of the port a position lies in at a time
 * (-1 at sea). {@link PortIndex} is one; the ports feature's index (an organization's additions and corrections with
 * their active days) is another.
 */
export interface PortLookup {
  readonly ports: readonly PortArea[];
  portAt(latitude: number, longitude: number, atMs?: number): number;
}

/**
 * A lookup of the port a position lies in, through a grid of 1-degree cells (a ship-year is half a million
 * positions and the UN/LOCODE sea ports some thousands). An organization's polygon wins over the circles (it is
 * drawn on purpose); among circles, the nearest point wins.
 */
export class PortIndex implements PortLookup {
  private readonly cells = new Map<number, PreparedPort[]>();

  constructor(readonly ports: readonly PortArea[]) {
    ports.forEach((port, index) => {
      let prepared: PreparedPort;
      let minLat: number, maxLat: number, minLon: number, maxLon: number;
      if (port.polygon && port.polygon.length >= 3) {
        const lon = Float64Array.from(port.polygon, (p) => p[0]);
        const lat = Float64Array.from(port.polygon, (p) => p[1]);
        const polygon: PreparedPolygon = {
          minLon: Math.min(...lon),
          maxLon: Math.max(...lon),
          minLat: Math.min(...lat),
          maxLat: Math.max(...lat),
          lon,
          lat,
        };
        prepared = { index, lat: port.latitude, lon: port.longitude, radiusNm: 0, polygon };
        ({ minLat, maxLat, minLon, maxLon } = polygon);
      } else {
        const radiusNm = port.radiusNm ?? DEFAULT_PORT_RADIUS_NM;
        prepared = { index, lat: port.latitude, lon: port.longitude, radiusNm, polygon: null };
        const dLat = radiusNm / 60;
        const cos = Math.max(0.01, Math.cos((Math.min(89, Math.abs(port.latitude) + dLat) * Math.PI) / 180));
        const dLon = Math.min(180, radiusNm / 60 / cos);
        minLat = port.latitude - dLat;
        maxLat = port.latitude + dLat;
        minLon = port.longitude - dLon;
        maxLon = port.longitude + dLon;
      }
      for (let la = Math.floor(minLat); la <= Math.floor(maxLat); la++)
        for (let lo = Math.floor(minLon); lo <= Math.floor(maxLon); lo++) {
          const key = PortIndex.key(la, lo);
          const list = this.cells.get(key);
          if (list) list.push(prepared);
          else this.cells.set(key, [prepared]);
        }
    });
  }

  private static key(cellLat: number, cellLon: number): number {
    const lon = ((((cellLon + 180) % 360) + 360) % 360) - 180;
    return (cellLat + 90) * 360 + (lon + 180);
  }

  /** The index in `ports` of the port the position lies in, or -1. */
  portAt(latitude: number, longitude: number): number {
    const candidates = this.cells.get(PortIndex.key(Math.floor(latitude), Math.floor(longitude)));
    if (!candidates) return -1;
    let best = -1;
    let bestNm = Infinity;
    for (const p of candidates) {
      if (p.polygon) {
        if (insidePolygon(p.polygon, latitude, longitude)) return p.index;
        continue;
      }
      const nm = haversineNm(latitude, longitude, p.lat, p.lon);
      if (nm <= p.radiusNm && nm < bestNm) {
        bestNm = nm;
        best = p.index;
      }
    }
    // A polygon seen after a circle still wins.
    if (best >= 0)
      for (const p of candidates)
        if (p.polygon && insidePolygon(p.polygon, latitude, longitude)) return p.index;
    return best;
  }
}

export interface PortCall {
  /** Index of the port in the list the calls were derived from. */
  portIndex: number;
  portId: string;
  /** Time of the first stopped fix in the port (UTC epoch ms). */
  arrival: number;
  /** Time of the last stopped fix in the port. */
  departure: number;
  /** Time inside the call with no fix (gaps longer than the gap limit), ms. */
  gapMs: number;
  /** The call begins with the series (the ship was already there) or ends with it (it is still there). */
  openStart: boolean;
  openEnd: boolean;
}

export interface PortCallOptions extends TrackOptions {
  minStayMs: number;
}

export const DEFAULT_PORT_CALL_OPTIONS: PortCallOptions = {
  ...DEFAULT_TRACK_OPTIONS,
  minStayMs: MIN_PORT_CALL_MS,
};

/**
 * The port calls of a track. Walking the fixes in time order (NaN positions and missing rows are skipped, so a gap
 * joins what lies on both sides of it): a stay begins at the first fix stopped (speed below the stop speed) inside
 * a port's area; it goes on while the fixes stay inside that same port's area, stopped or moving (shifting berth,
 * anchorage then berth), and ends at the first fix outside it. The call runs from the stay's first stopped fix to
 * its last; it counts when that lasts at least `minStayMs`. Stops outside every port (anchorage, drifting) are no
 * calls. A fix whose speed is unknown counts as moving.
 */
export function derivePortCalls(
  source: PositionSeries | Track,
  index: PortLookup,
  options: PortCallOptions = DEFAULT_PORT_CALL_OPTIONS,
): PortCall[] {
  const track = 'legNm' in source ? source : prepareTrack(source, options);
  const { t, lat, lon, speed } = track;
  const m = t.length;
  const calls: PortCall[] = [];
  let port = -1;
  let first = -1;
  let last = -1;
  const close = () => {
    if (first >= 0 && t[last]! - t[first]! >= options.minStayMs) {
      let gapMs = 0;
      for (let k = first + 1; k <= last; k++) {
        const dt = t[k]! - t[k - 1]!;
        if (dt > options.gapMs) gapMs += dt;
      }
      const p = index.ports[port]!;
      calls.push({
        portIndex: port,
        portId: p.id,
        arrival: t[first]!,
        departure: t[last]!,
        gapMs,
        openStart: first === 0,
        openEnd: last === m - 1,
      });
    }
    port = -1;
    first = -1;
    last = -1;
  };
  for (let k = 0; k < m; k++) {
    const here = index.portAt(lat[k]!, lon[k]!, t[k]!);
    if (port >= 0 && here !== port) close();
    if (here < 0) continue;
    const stopped = speed[k]! < options.stopSpeedKn;
    if (port < 0) {
      if (!stopped) continue;
      port = here;
      first = k;
    }
    if (stopped) last = k;
  }
  close();
  return calls;
}

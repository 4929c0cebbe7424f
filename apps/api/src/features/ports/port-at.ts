import {
  insidePolygon,
  prepareZone,
  type LonLat,
  type PreparedPolygon,
} from '@portal/contracts/zone-geometry';

/**
 * Which port a position is in (docs/decisions/0108-ports.md): a port is a circle of its radius around its point
 * (DOMAIN.md: 5 nm from the UN/LOCODE point unless an organization says otherwise) or an organization's polygon.
 * An organization's ports come first: an addition or a correction that holds the position wins over the reference,
 * and a reference port that the organization corrects is not used while the correction is active (the correction
 * may have moved or shrunk it). Among several ports that hold a position, a polygon wins over a circle and then the
 * nearest point.
 *
 * Built for the engine's pace, a year of minute positions (525,600 lookups): the ports go into a grid of cells of a
 * quarter degree, each port into every cell its circle's (or polygon's) bounding box touches; a lookup reads one
 * cell and tests its few ports. Distances are equirectangular (the error at 50 nm is far below a metre of the
 * radius), so no trigonometry but one cosine per lookup.
 */
export interface PortShape {
  /** The reference port's UN/LOCODE, which an organization's correction names too; null for an own addition. */
  locode: string | null;
  lat: number;
  lon: number;
  radiusNm: number;
  /** An organization's outer ring, [lon, lat] pairs (GeoJSON order); null for a circle. */
  polygon?: LonLat[] | null;
  /** True for an organization's addition or correction. */
  organization?: boolean;
  /** Active from this instant (ms, inclusive) and until that one (ms, exclusive); null for open. */
  activeFromMs?: number | null;
  activeUntilMs?: number | null;
}

const CELL_DEGREES = 0.25;
const COLUMNS = 360 / CELL_DEGREES;
const ROWS = 180 / CELL_DEGREES;
const NM_PER_DEGREE = 60;
const RAD = Math.PI / 180;

interface Entry<T> {
  port: T;
  organization: boolean;
  lat: number;
  lon: number;
  radiusDeg2: number;
  polygon: PreparedPolygon | null;
  activeFromMs: number;
  activeUntilMs: number;
  /** For a reference port: the organization's corrections of it. */
  corrections: Entry<T>[] | null;
}

export interface PortIndex<T extends PortShape> {
  readonly size: number;
  /** Cell key -> its entries, the organization's first. */
  readonly cells: Map<number, Entry<T>[]>;
}

const row = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
const column = (lon: number) => ((Math.floor((lon + 180) / CELL_DEGREES) % COLUMNS) + COLUMNS) % COLUMNS;
const cellKey = (r: number, c: number) => r * COLUMNS + c;

/** The index of a set of ports: the reference and an organization's own, in any order. */
export function buildPortIndex<T extends PortShape>(ports: readonly T[]): PortIndex<T> {
  const cells = new Map<number, Entry<T>[]>();
  const entries = ports.map((port): Entry<T> => {
    const polygon = port.polygon?.length
      ? prepareZone({ inForceFrom: '1970-01-01', polygons: [port.polygon] }).polygons[0]!
      : null;
    const radiusDeg = port.radiusNm / NM_PER_DEGREE;
    return {
      port,
      organization: Boolean(port.organization),
      lat: port.lat,
      lon: port.lon,
      radiusDeg2: radiusDeg * radiusDeg,
      polygon,
      activeFromMs: port.activeFromMs ?? -Infinity,
      activeUntilMs: port.activeUntilMs ?? Infinity,
      corrections: null,
    };
  });
  const reference = new Map<string, Entry<T>>();
  for (const entry of entries)
    if (!entry.organization && entry.port.locode) reference.set(entry.port.locode, entry);
  for (const entry of entries) {
    if (!entry.organization || !entry.port.locode) continue;
    const corrected = reference.get(entry.port.locode);
    if (corrected) (corrected.corrections ??= []).push(entry);
  }
  for (const entry of entries) {
    let minLat: number, maxLat: number, minLon: number, maxLon: number;
    if (entry.polygon) {
      ({ minLat, maxLat, minLon, maxLon } = entry.polygon);
    } else {
      const radiusDeg = entry.port.radiusNm / NM_PER_DEGREE;
      minLat = entry.lat - radiusDeg;
      maxLat = entry.lat + radiusDeg;
      const cos = Math.cos(entry.lat * RAD);
      // Near a pole a circle spans every longitude.
      const lonSpan = cos < 0.01 || maxLat >= 89.9 || minLat <= -89.9 ? 180 : radiusDeg / cos;
      minLon = entry.lon - lonSpan;
      maxLon = entry.lon + lonSpan;
    }
    const columns =
      maxLon - minLon >= 360 ? Array.from({ length: COLUMNS }, (_, i) => i) : columnRange(minLon, maxLon);
    for (let r = row(minLat); r <= row(maxLat); r++)
      for (const c of columns) {
        const key = cellKey(r, c);
        const list = cells.get(key);
        if (list) list.push(entry);
        else cells.set(key, [entry]);
      }
  }
  // The organization's ports first: after one of them holds the position, a lookup reads no reference port.
  for (const list of cells.values()) list.sort((a, b) => Number(b.organization) - Number(a.organization));
  return { size: entries.length, cells };
}

/** The grid columns from minLon to maxLon, across the antimeridian when the box crosses it. */
function columnRange(minLon: number, maxLon: number): number[] {
  const out: number[] = [];
  const first = Math.floor((minLon + 180) / CELL_DEGREES);
  const last = Math.floor((maxLon + 180) / CELL_DEGREES);
  for (let i = first; i <= last; i++) out.push(((i % COLUMNS) + COLUMNS) % COLUMNS);
  return out;
}

const active = (entry: { activeFromMs: number; activeUntilMs: number }, atMs: number | undefined) =>
  atMs === undefined || (atMs >= entry.activeFromMs && atMs < entry.activeUntilMs);

/**
 * The port a position is in at an instant (`atMs`; without it, every port counts as active), or null at sea.
 * Longitude in -180..180.
 */
export function portAt<T extends PortShape>(
  index: PortIndex<T>,
  lat: number,
  lon: number,
  atMs?: number,
): T | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  const list = index.cells.get(cellKey(row(lat), column(lon)));
  if (!list) return null;
  const cos = Math.cos(lat * RAD);
  const cos2 = cos * cos;
  let best: Entry<T> | null = null;
  let bestPolygon = false;
  let bestDistance = Infinity;
  for (const entry of list) {
    // The organization's entries come first: once one of them holds the position, no reference port can win.
    if (!entry.organization && best?.organization) break;
    if (!active(entry, atMs)) continue;
    if (!entry.organization && entry.corrections?.some((c) => active(c, atMs))) continue;
    let dLon = lon - entry.lon;
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    const dLat = lat - entry.lat;
    const distance2 = dLat * dLat + dLon * dLon * cos2;
    if (entry.polygon) {
      if (!insidePolygon(entry.polygon, lat, lon)) continue;
      if (!bestPolygon || distance2 < bestDistance) {
        best = entry;
        bestPolygon = true;
        bestDistance = distance2;
      }
    } else {
      if (distance2 > entry.radiusDeg2 || bestPolygon) continue;
      if (distance2 < bestDistance) {
        best = entry;
        bestDistance = distance2;
      }
    }
  }
  return best?.port ?? null;
}

/** Point-in-polygon geometry shared by the zones that ship as data (ECAs, no-discharge zones). */
/** [longitude, latitude] in degrees. */
export type LonLat = [number, number];

export interface PreparedPolygon {
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
  lon: Float64Array;
  lat: Float64Array;
}

export interface PreparedZone {
  inForceFromMs: number;
  polygons: PreparedPolygon[];
}

export function prepareZone(zone: { inForceFrom: string; polygons: LonLat[][] }): PreparedZone {
  return {
    inForceFromMs: Date.parse(`${zone.inForceFrom}T00:00:00Z`),
    polygons: zone.polygons.map((ring) => {
      const lon = Float64Array.from(ring, (p) => p[0]);
      const lat = Float64Array.from(ring, (p) => p[1]);
      return {
        minLon: Math.min(...lon),
        maxLon: Math.max(...lon),
        minLat: Math.min(...lat),
        maxLat: Math.max(...lat),
        lon,
        lat,
      };
    }),
  };
}

/** Even-odd ray casting towards +longitude. */
export function insidePolygon(p: PreparedPolygon, latitude: number, longitude: number): boolean {
  if (latitude < p.minLat || latitude > p.maxLat || longitude < p.minLon || longitude > p.maxLon)
    return false;
  const { lon, lat } = p;
  let inside = false;
  // lat and lon have the same length; i and j stay in 0..length-1.
  for (let i = 0, j = lon.length - 1; i < lon.length; j = i++) {
    const yi = lat[i]!;
    const yj = lat[j]!;
    if (yi > latitude !== yj > latitude) {
      const x = lon[i]! + ((latitude - yi) / (yj - yi)) * (lon[j]! - lon[i]!);
      if (longitude < x) inside = !inside;
    }
  }
  return inside;
}

/** True when the position lies in one of the zones in force at `atMs` (longitude already in -180..180). */
export function inZonesAt(zones: PreparedZone[], latitude: number, longitude: number, atMs: number): boolean {
  for (const zone of zones) {
    if (!(atMs >= zone.inForceFromMs)) continue;
    for (const polygon of zone.polygons) if (insidePolygon(polygon, latitude, longitude)) return true;
  }
  return false;
}

export function normalizeLongitude(longitude: number): number {
  return longitude > 180 || longitude < -180 ? ((((longitude + 180) % 360) + 360) % 360) - 180 : longitude;
}

/** Columnar membership: 1 inside a zone in force at the row's time, 0 outside (also for NaN), one entry per row. */
export function zoneColumn(
  zones: PreparedZone[],
  latitudes: Float64Array,
  longitudes: Float64Array,
  timestamps: Float64Array,
): Uint8Array {
  const n = Math.min(latitudes.length, longitudes.length, timestamps.length);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    // n is the shortest of the three lengths.
    const lat = latitudes[i]!;
    const lon = longitudes[i]!;
    const t = timestamps[i]!;
    if (Number.isNaN(lat) || Number.isNaN(lon) || Number.isNaN(t)) continue;
    out[i] = inZonesAt(zones, lat, normalizeLongitude(lon), t) ? 1 : 0;
  }
  return out;
}

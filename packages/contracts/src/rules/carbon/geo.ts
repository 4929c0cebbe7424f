/** Great-circle geometry on a spherical Earth, in nautical miles. */

/** IUGG mean Earth radius 6,371.0088 km in nautical miles (1 nm = 1,852 m exactly). */
export const EARTH_RADIUS_NM = 6_371_008.8 / 1_852;

const RAD = Math.PI / 180;

/**
 * Great-circle distance (haversine) between two positions in degrees, in nautical miles. A spherical Earth differs
 * from the ellipsoid by up to about 0.5 %: the distance over ground of a voyage is a sum of short legs between fixes,
 * where that error does not add up to more than it is on each leg.
 */
export function haversineNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(a)));
}

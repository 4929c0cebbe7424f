/**
 * UN/LOCODE's coordinates column (UN/LOCODE Manual, column "Coordinates"): degrees and minutes, latitude then
 * longitude, `DDMM[N|S] DDDMM[E|W]` ("5155N 00429E" is 51°55'N 4°29'E). A few entries carry decimal degrees instead
 * ("26.8128N 89.1903E"); both are read. Anything else, a minute of 60 or more, or a position off the globe is no
 * position (null): the port is then left out of the reference rather than placed wrongly.
 */
const DEGREES_MINUTES = /^(\d{2})(\d{2})([NS])\s+(\d{3})(\d{2})([EW])$/;
const DECIMAL = /^(\d{1,2}(?:\.\d+)?)([NS])\s+(\d{1,3}(?:\.\d+)?)([EW])$/;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Decimal degrees rounded to 5 places (about a metre): a minute of arc is the source's own precision. */
const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

export function parseUnLocodeCoordinates(text: string | null | undefined): LatLon | null {
  const value = text?.trim() ?? '';
  if (!value) return null;
  let lat: number;
  let lon: number;
  const dm = DEGREES_MINUTES.exec(value);
  if (dm) {
    const [, latDeg, latMin, ns, lonDeg, lonMin, ew] = dm as unknown as [
      string,
      string,
      string,
      'N' | 'S',
      string,
      string,
      'E' | 'W',
    ];
    if (Number(latMin) >= 60 || Number(lonMin) >= 60) return null;
    lat = (Number(latDeg) + Number(latMin) / 60) * (ns === 'S' ? -1 : 1);
    lon = (Number(lonDeg) + Number(lonMin) / 60) * (ew === 'W' ? -1 : 1);
  } else {
    const dec = DECIMAL.exec(value);
    if (!dec) return null;
    lat = Number(dec[1]) * (dec[2] === 'S' ? -1 : 1);
    lon = Number(dec[3]) * (dec[4] === 'W' ? -1 : 1);
  }
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  // -0 and 0 are the same place; JSON would keep the sign.
  return { lat: round5(lat) + 0, lon: round5(lon) + 0 };
}

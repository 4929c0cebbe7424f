import { insidePolygon, prepareZone, type LonLat } from '@portal/contracts/zone-geometry';

/**
 * Which regimes a port is in on a date: the European Union, the European Economic Area, the EU's outermost regions,
 * the United Kingdom and, within it, Northern Ireland or Great Britain (docs/decisions/0108-ports.md). The greenhouse
 * gas regimes (EU MRV/ETS, FuelEU, UK ETS) select voyages and stays at berth by these flags on the voyage's dates;
 * when a scheme itself starts (EU ETS maritime 2024, UK ETS maritime 2026) is their rule, not the port's.
 *
 * A port is placed by its country (ISO 3166-1 alpha-2, the first two letters of its UN/LOCODE), its area (a part of
 * a country that the regimes treat apart: Northern Ireland, the Canary Islands, the Azores, Madeira) and the date.
 */

export type PortArea = 'GB-NIR' | 'ES-CN' | 'PT-20' | 'PT-30';

export const PORT_AREA_NAMES: Record<PortArea, string> = {
  'GB-NIR': 'Northern Ireland',
  'ES-CN': 'Canary Islands',
  'PT-20': 'Azores',
  'PT-30': 'Madeira',
};

export interface PortRegimes {
  /** In a Member State of the European Union (its territory where the Treaties apply, TEU Art. 52, TFEU Art. 355). */
  eu: boolean;
  /**
   * In the European Economic Area as the EU's maritime rules read it: an EU Member State, Iceland, Liechtenstein or
   * Norway; and the United Kingdom (with Gibraltar) until the end of the Brexit transition period, 2020-12-31.
   */
  eea: boolean;
  /** In an outermost region of the EU (TFEU Art. 349 and 355(1)). */
  outermostRegion: boolean;
  /** In the United Kingdom (Great Britain and Northern Ireland; not the Crown Dependencies nor Gibraltar). */
  uk: boolean;
  northernIreland: boolean;
  greatBritain: boolean;
}

/** [from, to] inclusive ISO dates; `to` null for still so. */
type Period = readonly [from: string, to: string | null];

/**
 * EU membership by country code, with dates (accession treaties' dates of entry into force; the UK's withdrawal).
 * Territories with their own ISO code are listed where EU law applies to them (TFEU Art. 355): the French outermost
 * regions, Åland, and, until they left, Saint-Barthélemy and Gibraltar. Not listed, so never EU: the Faroe Islands,
 * Greenland (left 1985-02-01), Svalbard (SJ, outside the EEA Agreement too), Monaco, the overseas countries and
 * territories (Aruba, Curaçao, Sint Maarten, Bonaire, New Caledonia, French Polynesia, Saint-Pierre-et-Miquelon,
 * Wallis and Futuna, ...) and the Crown Dependencies (Isle of Man, Jersey, Guernsey).
 */
const EU: Record<string, readonly Period[]> = {
  // Treaty of Rome, in force 1958-01-01.
  BE: [['1958-01-01', null]],
  DE: [['1958-01-01', null]],
  FR: [['1958-01-01', null]],
  IT: [['1958-01-01', null]],
  LU: [['1958-01-01', null]],
  NL: [['1958-01-01', null]],
  // French overseas departments, part of France from the start (outermost regions below).
  GF: [['1958-01-01', null]],
  GP: [['1958-01-01', null]],
  MQ: [['1958-01-01', null]],
  RE: [['1958-01-01', null]],
  // Saint-Martin: part of Guadeloupe until 2007, an outermost region of its own since the Treaty of Lisbon.
  MF: [['1958-01-01', null]],
  // Saint-Barthélemy: likewise, until it became an overseas country and territory on 2012-01-01 (European Council
  // Decision 2010/718/EU).
  BL: [['1958-01-01', '2011-12-31']],
  // Mayotte: an outermost region from 2014-01-01 (European Council Decision 2012/419/EU).
  YT: [['2014-01-01', null]],
  // First enlargement, 1973-01-01. The UK left on 2020-01-31 at midnight CET (Withdrawal Agreement, OJ C 384I,
  // 12.11.2019, Art. 185): its last day as a Member State was 2020-01-31. Gibraltar left with it (TFEU Art. 355(3)).
  DK: [['1973-01-01', null]],
  IE: [['1973-01-01', null]],
  GB: [['1973-01-01', '2020-01-31']],
  GI: [['1973-01-01', '2020-01-31']],
  GR: [['1981-01-01', null]],
  ES: [['1986-01-01', null]],
  PT: [['1986-01-01', null]],
  AT: [['1995-01-01', null]],
  FI: [['1995-01-01', null]],
  AX: [['1995-01-01', null]],
  SE: [['1995-01-01', null]],
  CY: [['2004-05-01', null]],
  CZ: [['2004-05-01', null]],
  EE: [['2004-05-01', null]],
  HU: [['2004-05-01', null]],
  LT: [['2004-05-01', null]],
  LV: [['2004-05-01', null]],
  MT: [['2004-05-01', null]],
  PL: [['2004-05-01', null]],
  SI: [['2004-05-01', null]],
  SK: [['2004-05-01', null]],
  BG: [['2007-01-01', null]],
  RO: [['2007-01-01', null]],
  HR: [['2013-07-01', null]],
};

/**
 * The EEA EFTA States (EEA Agreement, in force 1994-01-01; for Liechtenstein 1995-05-01). Svalbard has its own code
 * (SJ) and is outside the Agreement.
 */
const EEA_EFTA: Record<string, readonly Period[]> = {
  IS: [['1994-01-01', null]],
  NO: [['1994-01-01', null]],
  LI: [['1995-05-01', null]],
};

/**
 * Union law applied to and in the UK (and Gibraltar) during the transition period, to 2020-12-31 (Withdrawal
 * Agreement Art. 126 and 127): for the EU's maritime rules its ports counted as EEA ports until then. Our choice
 * (docs/decisions/0108-ports.md): the flag `eu` follows membership, `eea` the application of EU law. Both ends fell
 * at midnight CET, 23:00 UTC ("IP completion day (31 December 2020 11.00 p.m.)", legislation.gov.uk): read by UTC
 * day, that last hour still counts as in.
 */
const TRANSITION: Record<string, readonly Period[]> = {
  GB: [['2020-02-01', '2020-12-31']],
  GI: [['2020-02-01', '2020-12-31']],
};

/**
 * The outermost regions (TFEU Art. 349 and 355(1)): Guadeloupe, French Guiana, Martinique, Mayotte, Réunion,
 * Saint-Martin (own country codes in UN/LOCODE), the Azores and Madeira (Portugal's autonomous regions, ISO 3166-2
 * PT-20 and PT-30) and the Canary Islands (Spain, ES-CN). Dates as for their EU membership above.
 */
const OUTERMOST_COUNTRIES: Record<string, readonly Period[]> = {
  GF: EU.GF!,
  GP: EU.GP!,
  MQ: EU.MQ!,
  RE: EU.RE!,
  MF: EU.MF!,
  BL: EU.BL!,
  YT: EU.YT!,
};
const OUTERMOST_AREAS: Partial<Record<PortArea, readonly Period[]>> = {
  'ES-CN': EU.ES!,
  'PT-20': EU.PT!,
  'PT-30': EU.PT!,
};

const inPeriods = (periods: readonly Period[] | undefined, day: string) =>
  Boolean(periods?.some(([from, to]) => day >= from && (to === null || day <= to)));

/** The UTC calendar day of a date or instant, as YYYY-MM-DD (a YYYY-MM-DD text is taken as it is). */
export function dayOf(date: Date | string): string {
  if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) throw new RangeError(`Not a date: ${String(date)}`);
  return d.toISOString().slice(0, 10);
}

/** The regimes a port is in on a date (its UTC calendar day). */
export function portRegimes(
  port: { country: string; area?: string | null },
  date: Date | string,
): PortRegimes {
  const day = dayOf(date);
  const country = port.country.toUpperCase();
  const area = (port.area ?? null) as PortArea | null;
  const eu = inPeriods(EU[country], day);
  const eea = eu || inPeriods(EEA_EFTA[country], day) || inPeriods(TRANSITION[country], day);
  const outermostRegion =
    inPeriods(OUTERMOST_COUNTRIES[country], day) ||
    (area !== null && inPeriods(OUTERMOST_AREAS[area], day) && area.startsWith(`${country}-`));
  const uk = country === 'GB';
  const northernIreland = uk && area === 'GB-NIR';
  return { eu, eea, outermostRegion, uk, northernIreland, greatBritain: uk && !northernIreland };
}

/**
 * Subdivision codes of Northern Ireland as UN/LOCODE's GB entries carry them: ISO 3166-2:GB's eleven districts of
 * 2015 and the 26 districts before them (UN/LOCODE still uses many of those), and NIR for the country itself.
 */
// prettier-ignore
export const NORTHERN_IRELAND_SUBDIVISIONS: ReadonlySet<string> = new Set([
  'NIR',
  // Since 2015.
  'ABC', 'AND', 'ANN', 'BFS', 'CCG', 'DRS', 'FMO', 'LBC', 'MEA', 'MUL', 'NMD',
  // Before 2015.
  'ANT', 'ARD', 'ARM', 'BLA', 'BLY', 'BNB', 'CKF', 'CKT', 'CLR', 'CSR', 'DGN', 'DOW', 'DRY', 'FER', 'LMV', 'LRN',
  'LSB', 'MFT', 'MYL', 'NDN', 'NTA', 'NYM', 'OMH', 'STB',
]);

/**
 * Where a GB entry without a subdivision lies: Northern Ireland is the part of the island of Ireland in the United
 * Kingdom, and a GB entry cannot lie in the Republic. This ring keeps the North Channel between it and Scotland:
 * Rathlin Island (6.2°W) in, the Mull of Kintyre (55.29°N 5.80°W) and the Rhins of Galloway (5.16°W) out.
 */
const NORTHERN_IRELAND_RING: LonLat[] = [
  [-8.3, 53.9],
  [-8.3, 55.45],
  [-5.95, 55.45],
  [-5.95, 55.15],
  [-5.35, 54.75],
  [-5.35, 53.9],
  [-8.3, 53.9],
];
/** The island groups, far enough from the mainland that a box is exact: for an entry without its subdivision. */
const AREA_BOXES: {
  country: string;
  area: PortArea;
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}[] = [
  { country: 'ES', area: 'ES-CN', minLat: 27.4, maxLat: 29.6, minLon: -18.4, maxLon: -13.2 },
  { country: 'PT', area: 'PT-20', minLat: 36.7, maxLat: 40.0, minLon: -31.6, maxLon: -24.6 },
  // Madeira, Porto Santo, the Desertas and the Selvagens.
  { country: 'PT', area: 'PT-30', minLat: 29.9, maxLat: 33.3, minLon: -17.5, maxLon: -15.7 },
];
const northernIreland = prepareZone({ inForceFrom: '1900-01-01', polygons: [NORTHERN_IRELAND_RING] })
  .polygons[0]!;

/** Spain's subdivisions of the Canary Islands: the autonomous community and its two provinces. */
const CANARY_SUBDIVISIONS = new Set(['CN', 'GC', 'TF']);

/**
 * The area of a port from its country, its subdivision (UN/LOCODE's SubDiv, ISO 3166-2 without the country) and,
 * where the subdivision is missing, its position. Null for every other port.
 */
export function portArea(port: {
  country: string;
  subdivision?: string | null;
  lat: number;
  lon: number;
}): PortArea | null {
  const country = port.country.toUpperCase();
  const subdivision = port.subdivision?.trim().toUpperCase() || null;
  if (country === 'GB') {
    if (subdivision) return NORTHERN_IRELAND_SUBDIVISIONS.has(subdivision) ? 'GB-NIR' : null;
    return insidePolygon(northernIreland, port.lat, port.lon) ? 'GB-NIR' : null;
  }
  if (country === 'ES' && subdivision && CANARY_SUBDIVISIONS.has(subdivision)) return 'ES-CN';
  if (country === 'PT' && subdivision === '20') return 'PT-20';
  if (country === 'PT' && subdivision === '30') return 'PT-30';
  for (const box of AREA_BOXES)
    if (
      box.country === country &&
      port.lat >= box.minLat &&
      port.lat <= box.maxLat &&
      port.lon >= box.minLon &&
      port.lon <= box.maxLon
    )
      return box.area;
  return null;
}

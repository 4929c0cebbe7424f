/**
 * Zones where the discharge of washwater from open-loop scrubbers is banned (EGCS Guidelines, MEPC.259(68) section
 * 10, kept in MEPC.340(77), leave discharge to the coastal and port States; these are their local rules).
 *
 * SIMPLIFIED POLYGONS, like the ECAs (./eca.ts): each zone is drawn with a few to a few dozen [longitude, latitude]
 * points. The seaward edges follow the legal limit roughly (a port's limits, a canal's banks, a 3 nm or 12 nm belt
 * measured from the coast or its baselines, to within a few nautical miles); the landward edges run over land, so
 * the polygons also cover coastal land (ships are never inland, so that does no harm). Near an edge a position may
 * be classified differently from the legal boundary. Longitudes are in -180..180; no polygon crosses the
 * antimeridian. docs/discharge-zones.md lists every zone with its source and what was simplified.
 *
 * A zone bans open-loop discharge from `inForceFrom` (UTC midnight) on; a closed-loop scrubber, or a hybrid one in
 * closed-loop mode (SCRUBBER_MODE 0), may run inside.
 */
import { inZonesAt, normalizeLongitude, prepareZone, zoneColumn, type PreparedZone } from './zone-geometry';
import type { LonLat } from './eca';

export interface DischargeZone {
  name: string;
  country: string;
  /** What the zone bans, e.g. 'Open-loop scrubber discharge'. */
  bans: string;
  /** ISO date (UTC midnight) from which the ban applies. */
  inForceFrom: string;
  /** Citation: the regulation or circular, and a URL where it (or a summary of it) is published. */
  source: string;
  polygons: LonLat[][];
}

const OPEN_LOOP = 'Open-loop scrubber discharge';

export const DISCHARGE_ZONES: DischargeZone[] = [
  {
    name: 'Singapore port waters',
    country: 'Singapore',
    bans: `${OPEN_LOOP} (washwater of open-loop scrubbers) within the port limits`,
    inForceFrom: '2020-01-01',
    source:
      'MPA Singapore, Port Marine Circular No. 20 of 2018 (announced 2018-11-30): no discharge of washwater from ' +
      'open-loop scrubbers in Singapore port waters from 2020-01-01; ' +
      'https://ukpandi.com/ja/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9%E3%81%A8%E3%83%AA%E3%82%BD%E3%83%BC%E3%82%B9/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9/article/articles/2019/imo-2020-sulphur-cap-scrubbers-a-country-guide',
    polygons: [
      // Singapore Strait and the Johor Strait inside the port limits, from Tuas to Changi.
      [
        [103.6, 1.16],
        [103.6, 1.3],
        [103.64, 1.42],
        [103.75, 1.47],
        [103.9, 1.47],
        [104.05, 1.43],
        [104.1, 1.36],
        [104.1, 1.26],
        [104.0, 1.2],
        [103.85, 1.17],
        [103.74, 1.12],
      ],
    ],
  },
  {
    name: "China's coastal emission control area (territorial sea)",
    country: 'China',
    bans: `${OPEN_LOOP} in the coastal DECA (territorial sea, 12 nm from the baselines, and the Bohai Sea) and its ports`,
    inForceFrom: '2020-01-01',
    source:
      'Ministry of Transport of the PRC, Implementation Scheme of the Domestic Emission Control Areas for Atmospheric ' +
      'Pollution from Vessels (JHF [2018] No. 168, 2018-11-30), and China MSA, Notice on the supervision of the ' +
      'emission control areas (2018-12-29), art. 7: open-loop washwater banned in port waters of the coastal ECA, ' +
      'the Bohai-rim waters and the inland river ECA from 2019-01-01, extended to the coastal ECA from 2020-01-01; ' +
      'https://britanniapandi.com/2020/01/list-of-jurisdictions-restricting-or-banning-scrubber-wash-water-discharges/',
    polygons: [
      // Mainland coast from the Yalu River to the border with Viet Nam, with the whole Bohai Sea; the seaward edge
      // ~12 nm outside the straight baselines; the landward edge inland. Hong Kong's waters are cut out (not part of
      // the scheme); Macao's are not (they are a few kilometres wide).
      [
        [124.2, 39.55],
        [123.0, 39.25],
        [122.2, 38.8],
        [121.5, 38.75],
        [121.1, 38.15],
        [121.9, 37.8],
        [122.95, 37.5],
        [122.85, 36.9],
        [121.5, 36.35],
        [120.6, 35.6],
        [119.9, 34.9],
        [120.9, 34.3],
        [121.9, 33.0],
        [122.6, 32.0],
        [123.05, 31.3],
        [123.0, 30.5],
        [122.95, 29.8],
        [122.55, 28.9],
        [122.2, 28.0],
        [121.5, 27.1],
        [120.8, 26.2],
        [120.2, 25.3],
        [119.4, 24.5],
        [118.3, 23.8],
        [117.5, 23.1],
        [116.5, 22.6],
        [115.3, 22.4],
        // Around Hong Kong's waters: out to their eastern edge, over land north of them, back along the western edge.
        [114.55, 22.1],
        [114.55, 22.62],
        [113.82, 22.62],
        [113.82, 22.1],
        [113.3, 21.7],
        [112.3, 21.4],
        [111.3, 21.1],
        [110.7, 20.6],
        [110.6, 20.25],
        [110.0, 20.3],
        [109.6, 20.9],
        [109.2, 21.3],
        [108.5, 21.4],
        [108.0, 21.45],
        // Inland, back north.
        [108.0, 22.5],
        [111.0, 22.6],
        [113.3, 23.1],
        [115.5, 23.4],
        [117.0, 24.6],
        [118.5, 25.8],
        [119.5, 27.4],
        [120.5, 29.0],
        [120.2, 30.4],
        [120.4, 32.0],
        [119.4, 34.0],
        [118.6, 35.5],
        [117.8, 36.5],
        [116.8, 37.6],
        [117.0, 39.5],
        [119.5, 40.6],
        [121.5, 41.3],
        [122.8, 40.9],
        [124.4, 40.3],
      ],
      // Hainan Island's territorial sea (part of the coastal DECA since 2019).
      [
        [108.2, 19.0],
        [108.3, 19.9],
        [109.5, 20.45],
        [110.6, 20.45],
        [111.3, 19.9],
        [111.3, 19.0],
        [110.2, 17.85],
        [109.2, 17.85],
        [108.4, 18.3],
      ],
    ],
  },
  {
    name: 'Belgian waters within 3 nm of the coast',
    country: 'Belgium',
    bans: `${OPEN_LOOP} within 3 nm of the coast, in ports and inland waters`,
    inForceFrom: '2019-10-18',
    source:
      'Belgian ban on scrubber washwater discharge within 3 nm of the coast, as listed by the UK P&I Club (country ' +
      "guide of 2019-10-18; the date of that listing is used, the instrument's own date was not found); " +
      'https://ukpandi.com/ja/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9%E3%81%A8%E3%83%AA%E3%82%BD%E3%83%BC%E3%82%B9/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9/article/articles/2019/imo-2020-sulphur-cap-scrubbers-a-country-guide',
    polygons: [
      // The coast from the French border (De Panne) to the Dutch border (Knokke), 3 nm seaward, with the ports.
      [
        [2.54, 51.09],
        [2.47, 51.14],
        [2.9, 51.29],
        [3.28, 51.42],
        [3.37, 51.37],
        [3.37, 51.2],
        [2.54, 50.98],
      ],
    ],
  },
  {
    name: 'Danish territorial waters (12 nm)',
    country: 'Denmark',
    bans: 'Scrubber washwater discharge from open-loop scrubbers (closed-loop from 2029-07-01) within 12 nm',
    inForceFrom: '2025-07-01',
    source:
      'Danish Marine Environment Act as amended in 2024 (bill of the Ministry of Environment following the political ' +
      'agreement of 2024-04-11): no discharge of scrubber water in the territorial sea (12 nm) from 2025-07-01 for ' +
      'open-loop scrubbers; https://safety4sea.com/denmark-prohibits-scrubber-discharge-in-its-waters/',
    polygons: [
      // Jutland, the Danish islands, the Skagerrak and Kattegat coasts, the Belts and the Danish half of the Sound,
      // out to 12 nm or the median line with Sweden and Germany.
      [
        [7.9, 54.9],
        [7.95, 55.5],
        [7.8, 56.0],
        [7.9, 56.6],
        [8.2, 57.25],
        [9.8, 57.85],
        [10.6, 57.98],
        [10.95, 57.9],
        [11.3, 57.7],
        [11.45, 57.3],
        [11.8, 56.8],
        [12.2, 56.3],
        [12.62, 56.1],
        [12.66, 56.03],
        [12.8, 55.7],
        [12.85, 55.4],
        [12.95, 55.1],
        [12.9, 54.75],
        [12.4, 54.5],
        [12.0, 54.38],
        [11.5, 54.5],
        [11.25, 54.58],
        [10.9, 54.6],
        [10.3, 54.7],
        [9.95, 54.78],
        [9.62, 54.84],
        [9.4, 54.84],
        [8.6, 54.91],
      ],
      // Bornholm.
      [
        [14.3, 55.0],
        [14.4, 55.3],
        [14.65, 55.5],
        [15.0, 55.5],
        [15.4, 55.3],
        [15.5, 55.05],
        [15.2, 54.8],
        [14.7, 54.8],
      ],
    ],
  },
  {
    name: 'Suez Canal',
    country: 'Egypt',
    bans: `${OPEN_LOOP} during the canal transit`,
    inForceFrom: '2020-01-01',
    source:
      'Suez Canal Authority, Circular No. 8/2019: no discharge of washwater from open-loop scrubbers while ' +
      'transiting the canal; https://worldmaritimenews.com/archives/289423/suez-canal-authority-bans-scrubber-wash-water-discharge/',
    polygons: [
      // From Port Said to Port Tewfik (Suez), with Lake Timsah and the Great and Little Bitter Lakes.
      [
        [32.2, 31.35],
        [32.42, 31.35],
        [32.42, 30.65],
        [32.55, 30.45],
        [32.62, 30.25],
        [32.65, 29.88],
        [32.48, 29.88],
        [32.32, 30.2],
        [32.22, 30.5],
        [32.2, 30.65],
      ],
    ],
  },
  {
    name: 'Panama Canal',
    country: 'Panama',
    bans: 'Discharge of scrubber washwater, bleed-off and residues into Panama Canal waters',
    inForceFrom: '2019-01-01',
    source:
      'Panama Canal Authority, Notice to Shipping No. N-1-2019 "Vessel Requirements", section 28 (5) and ' +
      'section 31 b. (7), in effect from 2019-01-01; https://safety4sea.com/panama-canal-bans-open-loop-scrubbers',
    polygons: [
      // From the Atlantic entrance (Cristóbal/Colón) through Gatún Lake and the Culebra Cut to Balboa.
      [
        [-80.0, 9.42],
        [-79.85, 9.42],
        [-79.75, 9.2],
        [-79.6, 9.1],
        [-79.5, 8.98],
        [-79.45, 8.85],
        [-79.58, 8.83],
        [-79.72, 8.98],
        [-79.95, 9.12],
        [-80.05, 9.25],
      ],
    ],
  },
  {
    name: 'Hamburg and the Lower Elbe',
    country: 'Germany',
    bans: 'Scrubber washwater discharge in the port of Hamburg and on the Elbe up to the sea',
    inForceFrom: '2014-08-13',
    source:
      'BSH, "Discharging of washwater from exhaust gas cleaning systems (Scrubber) into German waters": banned on ' +
      'inland waterways and their ports (CDNI art. 3 (2), annex 2 part C art. 9.01) and on sea waterways unless ' +
      'proven to meet the guidelines (SeeUmwVerhV § 13 (7)), since 2014-08-13; the port of Hamburg does not allow ' +
      'open-loop discharge; http://www.bsh.de/Vorlagen/ressources/Druckversion.jsp?_PRINTPAGE_=yes&_PRINTOID_=158220',
    polygons: [
      // The Elbe from off Cuxhaven to the port of Hamburg.
      [
        [8.5, 53.97],
        [8.75, 53.95],
        [9.0, 53.92],
        [9.3, 53.78],
        [9.6, 53.65],
        [9.85, 53.6],
        [10.1, 53.58],
        [10.1, 53.46],
        [9.85, 53.48],
        [9.55, 53.5],
        [9.25, 53.6],
        [8.95, 53.8],
        [8.7, 53.82],
        [8.5, 53.84],
      ],
    ],
  },
  {
    name: 'Bremerhaven, Bremen and the Lower Weser',
    country: 'Germany',
    bans: 'Scrubber washwater discharge in the ports of Bremen and Bremerhaven and on the Lower Weser',
    inForceFrom: '2014-08-13',
    source:
      "BSH (as for the Elbe: CDNI and SeeUmwVerhV § 13 (7)) and the Free Hanseatic City of Bremen's guidelines on " +
      'ship-generated waste water in its ports; https://waddenseaports.com/best_practices/binding-regulations-for-the-treatment-of-waste-water-from-ships/',
    polygons: [
      [
        [8.45, 53.63],
        [8.63, 53.63],
        [8.62, 53.3],
        [8.9, 53.12],
        [8.85, 53.02],
        [8.5, 53.28],
      ],
    ],
  },
  {
    name: 'Kiel Canal',
    country: 'Germany',
    bans: 'Scrubber washwater discharge in the Kiel Canal (Nord-Ostsee-Kanal)',
    inForceFrom: '2014-08-13',
    source:
      'BSH (CDNI and SeeUmwVerhV § 13 (7)); listed as "Germany: certain ports and Kiel Canal" by the UK P&I Club; ' +
      'https://ukpandi.com/ja/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9%E3%81%A8%E3%83%AA%E3%82%BD%E3%83%BC%E3%82%B9/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9/article/articles/2019/imo-2020-sulphur-cap-scrubbers-a-country-guide',
    polygons: [
      // From the Brunsbüttel locks via Rendsburg to the Kiel-Holtenau locks.
      [
        [9.05, 53.88],
        [9.15, 53.82],
        [9.45, 53.95],
        [9.7, 54.08],
        [10.0, 54.25],
        [10.18, 54.33],
        [10.18, 54.4],
        [10.1, 54.41],
        [9.8, 54.36],
        [9.6, 54.35],
        [9.5, 54.2],
        [9.3, 54.05],
      ],
    ],
  },
  {
    name: 'Dublin Port',
    country: 'Ireland',
    bans: `${OPEN_LOOP} within the port's jurisdiction (Dublin Bay)`,
    inForceFrom: '2019-01-01',
    source:
      'Dublin Port Company: no discharge of exhaust gas scrubber washwater within its jurisdiction (citing the Water ' +
      'Framework Directive 2000/60/EC and Directive 2008/105/EC); https://www.egcsa.com/ireland/',
    polygons: [
      [
        [-6.27, 53.33],
        [-6.27, 53.36],
        [-6.1, 53.38],
        [-6.03, 53.34],
        [-6.1, 53.29],
      ],
    ],
  },
  {
    name: 'Port of Cork',
    country: 'Ireland',
    bans: `${OPEN_LOOP} within the port's jurisdiction (Cork Harbour)`,
    inForceFrom: '2019-01-01',
    source:
      'Port of Cork Company: no discharge of open-loop scrubber washwater within its jurisdiction; listed with ' +
      'Dublin and Waterford in https://britanniapandi.com/2020/01/list-of-jurisdictions-restricting-or-banning-scrubber-wash-water-discharges/',
    polygons: [
      [
        [-8.48, 51.92],
        [-8.2, 51.92],
        [-8.18, 51.77],
        [-8.35, 51.75],
        [-8.45, 51.83],
      ],
    ],
  },
  {
    name: 'California waters (3 nm)',
    country: 'United States',
    bans: 'Scrubber washwater discharge in California state waters (3 nm)',
    inForceFrom: '2013-12-19',
    source:
      "US EPA 2013 Vessel General Permit, Part 6 (California's conditions of certification), and the CARB Ocean-Going " +
      'Vessel Fuel Regulation (13 CCR § 2299.2); listed as "USA: Californian waters" in ' +
      'https://britanniapandi.com/2020/01/list-of-jurisdictions-restricting-or-banning-scrubber-wash-water-discharges/',
    polygons: [
      // The mainland coast from the Mexican border to Oregon, ~3 nm seaward; the Channel Islands are left out.
      [
        [-117.12, 32.53],
        [-117.2, 32.52],
        [-117.33, 32.7],
        [-117.34, 33.0],
        [-117.65, 33.37],
        [-118.05, 33.6],
        [-118.3, 33.65],
        [-118.48, 33.72],
        [-118.6, 33.98],
        [-118.85, 33.98],
        [-119.25, 34.1],
        [-119.7, 34.35],
        [-120.5, 34.4],
        [-120.7, 34.9],
        [-120.95, 35.4],
        [-121.55, 35.95],
        [-121.98, 36.55],
        [-122.1, 36.9],
        [-122.58, 37.5],
        [-122.62, 37.8],
        [-123.1, 38.25],
        [-123.78, 39.0],
        [-123.88, 39.8],
        [-124.48, 40.4],
        [-124.2, 41.0],
        [-124.3, 42.0],
        [-123.5, 42.0],
        [-123.2, 40.5],
        [-122.8, 38.5],
        [-121.8, 37.5],
        [-121.0, 36.0],
        [-120.0, 34.7],
        [-118.5, 34.3],
        [-117.5, 33.8],
        [-116.8, 32.6],
      ],
    ],
  },
  {
    name: 'Connecticut waters',
    country: 'United States',
    bans: 'Exhaust gas scrubber washwater discharge in Connecticut waters',
    inForceFrom: '2013-12-19',
    source:
      "US EPA 2013 Vessel General Permit, Part 6 (Connecticut's conditions of certification: exhaust gas scrubber " +
      'washwater discharges prohibited); listed as "USA: Connecticut port waters" in ' +
      'https://liqtech.com/water-treatment-solutions/marine-filtration/marine-scrubber-water-treatment-system/where-are-open-loop-scrubbers-banned/',
    polygons: [
      // Connecticut's part of Long Island Sound, to the state line in mid-Sound.
      [
        [-73.73, 41.1],
        [-73.5, 41.0],
        [-72.9, 41.05],
        [-72.3, 41.15],
        [-71.85, 41.28],
        [-71.8, 41.45],
        [-72.3, 41.4],
        [-72.9, 41.38],
        [-73.5, 41.3],
        [-73.73, 41.2],
      ],
    ],
  },
  {
    name: 'Hawaii state waters (3 nm)',
    country: 'United States',
    bans: 'Exhaust gas scrubber washwater discharge in Hawaii state waters (3 nm)',
    inForceFrom: '2013-12-19',
    source:
      "US EPA 2013 Vessel General Permit, Part 6 (Hawaii's conditions of certification, Department of Health, " +
      'Clean Water Branch); https://docslib.org/doc/7403883/vessel-general-permit-for-discharges-incidental-to-the-normal-operation-of-vessels-vgp',
    polygons: [
      // Kauai.
      [
        [-159.85, 22.0],
        [-159.6, 22.3],
        [-159.3, 22.3],
        [-159.22, 22.0],
        [-159.4, 21.82],
        [-159.7, 21.85],
      ],
      // Oahu (Honolulu).
      [
        [-158.33, 21.55],
        [-158.25, 21.76],
        [-157.95, 21.78],
        [-157.6, 21.48],
        [-157.6, 21.24],
        [-157.85, 21.2],
        [-158.15, 21.24],
      ],
      // Molokai, Lanai and Maui.
      [
        [-157.35, 21.1],
        [-157.2, 21.26],
        [-156.7, 21.2],
        [-156.55, 21.05],
        [-155.93, 20.8],
        [-155.93, 20.55],
        [-156.5, 20.5],
        [-157.1, 20.65],
        [-157.1, 20.85],
      ],
      // Hawaii Island (Hilo, Kawaihae).
      [
        [-156.1, 19.7],
        [-155.9, 20.3],
        [-155.55, 20.2],
        [-155.0, 19.8],
        [-154.75, 19.5],
        [-155.6, 18.85],
        [-155.95, 19.0],
      ],
    ],
  },
];

const PREPARED: PreparedZone[] = DISCHARGE_ZONES.map(prepareZone);

/**
 * True when the position lies inside a no-discharge zone in force at `at` (longitude first, like the zones'
 * [longitude, latitude] points); NaN (or an invalid time) answers false.
 */
export function isInNoDischargeZone(lon: number, lat: number, at: Date | number): boolean {
  const atMs = typeof at === 'number' ? at : at.getTime();
  if (Number.isNaN(lat) || Number.isNaN(lon) || Number.isNaN(atMs)) return false;
  return inZonesAt(PREPARED, lat, normalizeLongitude(lon), atMs);
}

/** The zones (with their polygons) in force at `at` that contain the position; none outside. */
export function noDischargeZonesAt(lon: number, lat: number, at: Date | number): DischargeZone[] {
  const atMs = typeof at === 'number' ? at : at.getTime();
  if (Number.isNaN(lat) || Number.isNaN(lon) || Number.isNaN(atMs)) return [];
  const longitude = normalizeLongitude(lon);
  return DISCHARGE_ZONES.filter((_zone, i) => inZonesAt([PREPARED[i]!], lat, longitude, atMs));
}

/** Columnar form of {@link isInNoDischargeZone} (latitudes first, like ecaZoneColumn): 1 inside, 0 outside or NaN. */
export function noDischargeZoneColumn(
  latitudes: Float64Array,
  longitudes: Float64Array,
  timestamps: Float64Array,
): Uint8Array {
  return zoneColumn(PREPARED, latitudes, longitudes, timestamps);
}

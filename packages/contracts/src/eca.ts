/**
 * Emission control areas (ECAs) of MARPOL Annex VI (sulfur limit 0.10 % m/m inside).
 *
 * SIMPLIFIED POLYGONS: each area is drawn with a few dozen [longitude, latitude] points. The seaward edges follow
 * the legal limits roughly (to within some nautical miles; the North American limits ~200 nm off the coast); the
 * landward edges run over land, so the polygons also cover coastal land, rivers and ports (ships are never inland,
 * so that does no harm). Near a boundary a position may be classified differently from the exact legal coordinates
 * of MARPOL Annex VI Appendix VII. Longitudes are in -180..180; no polygon crosses the antimeridian.
 */
import {
  inZonesAt,
  normalizeLongitude,
  prepareZone,
  zoneColumn,
  type LonLat,
  type PreparedZone,
} from './zone-geometry';

export type { LonLat };

export interface EcaZone {
  name: string;
  /** ISO date (UTC midnight) from which the 0.10 % limit applies. */
  inForceFrom: string;
  polygons: LonLat[][];
}

export const ECA_ZONES: EcaZone[] = [
  {
    // Baltic Sea proper, Gulfs of Bothnia, Finland and Riga, and the entrance (Kattegat, Belts, Sound) up to the parallel of the Skaw (57°44.8'N).
    name: 'Baltic Sea',
    inForceFrom: '2006-05-19',
    polygons: [
      [
        [10.6, 57.747],
        [12.8, 57.747],
        [14.5, 58.5],
        [16.0, 60.5],
        [16.5, 62.5],
        [19.5, 64.5],
        [21.5, 66.2],
        [25.5, 66.2],
        [26.0, 65.0],
        [24.0, 63.5],
        [23.0, 61.5],
        [25.0, 60.6],
        [28.5, 61.0],
        [31.0, 60.3],
        [29.5, 59.3],
        [25.0, 58.8],
        [24.8, 56.7],
        [21.5, 55.7],
        [20.5, 54.3],
        [18.5, 53.8],
        [14.5, 53.2],
        [11.5, 53.5],
        [10.6, 53.6],
        [10.0, 54.0],
        [9.6, 54.5],
        [9.1, 55.0],
        [10.0, 56.5],
      ],
    ],
  },
  {
    // North Sea south of 62°N and east of 4°W, the Skagerrak, the English Channel and approaches east of 5°W and north of 48°30'N.
    name: 'North Sea',
    inForceFrom: '2007-11-22',
    polygons: [
      [
        [-5.0, 48.5],
        [-5.0, 50.3],
        [-4.0, 50.9],
        [-2.5, 53.0],
        [-3.0, 55.0],
        [-4.0, 56.0],
        [-4.0, 58.7],
        [-4.0, 62.0],
        [5.0, 62.0],
        [8.5, 61.5],
        [11.5, 59.5],
        [12.2, 58.5],
        [12.2, 57.747],
        [10.6, 57.747],
        [10.0, 56.5],
        [9.1, 55.0],
        [9.6, 54.5],
        [10.0, 54.0],
        [10.6, 53.6],
        [8.0, 52.0],
        [6.0, 51.0],
        [3.0, 50.3],
        [1.0, 49.0],
        [-1.5, 48.3],
      ],
    ],
  },
  {
    // Atlantic and Gulf coasts (Labrador at 60°N to the Mexican border, out to ~200 nm), Pacific coast (Mexican border to the Gulf of Alaska) and Hawaii.
    name: 'North American',
    inForceFrom: '2012-08-01',
    polygons: [
      [
        [-64.2, 60.0],
        [-59.5, 59.0],
        [-55.0, 56.5],
        [-50.0, 52.0],
        [-47.5, 48.0],
        [-48.0, 44.5],
        [-52.0, 43.5],
        [-58.0, 42.5],
        [-63.0, 41.5],
        [-66.0, 40.5],
        [-69.5, 38.5],
        [-71.5, 35.0],
        [-75.5, 32.0],
        [-77.0, 29.5],
        [-78.5, 28.0],
        [-79.5, 27.0],
        [-79.7, 25.5],
        [-80.0, 24.2],
        [-81.0, 23.9],
        [-83.0, 24.2],
        [-85.5, 25.2],
        [-88.0, 25.6],
        [-93.0, 25.9],
        [-97.14, 25.96],
        [-98.0, 26.1],
        [-98.0, 28.0],
        [-95.0, 30.5],
        [-90.0, 31.5],
        [-85.0, 31.0],
        [-84.0, 33.0],
        [-80.0, 37.0],
        [-76.0, 41.0],
        [-74.0, 45.2],
        [-72.0, 50.0],
        [-65.0, 57.0],
      ],
      [
        [-117.12, 32.53],
        [-120.5, 30.5],
        [-124.0, 32.5],
        [-127.0, 35.5],
        [-128.5, 40.0],
        [-129.5, 44.0],
        [-130.0, 48.0],
        [-133.0, 50.0],
        [-138.0, 54.0],
        [-141.0, 57.0],
        [-146.0, 57.2],
        [-153.0, 54.5],
        [-158.0, 54.5],
        [-155.0, 59.0],
        [-150.0, 62.0],
        [-141.0, 61.0],
        [-130.0, 57.0],
        [-122.0, 50.0],
        [-120.0, 45.0],
        [-119.0, 38.0],
        [-116.0, 33.5],
        [-116.3, 32.9],
      ],
      [
        [-164.0, 22.0],
        [-162.0, 25.0],
        [-157.0, 25.0],
        [-152.0, 22.0],
        [-152.0, 19.0],
        [-154.5, 15.8],
        [-158.0, 16.5],
        [-162.0, 19.0],
      ],
    ],
  },
  {
    // Waters around Puerto Rico and the US Virgin Islands.
    name: 'United States Caribbean Sea',
    inForceFrom: '2014-01-01',
    polygons: [
      [
        [-68.0, 18.3],
        [-67.4, 21.0],
        [-65.0, 21.3],
        [-64.8, 19.0],
        [-64.2, 17.5],
        [-64.3, 15.0],
        [-65.5, 15.2],
        [-67.5, 15.5],
        [-68.0, 17.5],
      ],
    ],
  },
  {
    // Mediterranean Sea proper east of 5°36'W, bounded at the Dardanelles/Black Sea by 41°N, up to Port Said (the Suez Canal southwards is outside).
    name: 'Mediterranean Sea',
    inForceFrom: '2025-05-01',
    polygons: [
      [
        [-5.6, 35.5],
        [-5.6, 36.3],
        [-4.0, 42.5],
        [1.0, 42.7],
        [1.0, 44.5],
        [7.0, 46.0],
        [14.0, 46.5],
        [20.0, 44.0],
        [23.0, 42.0],
        [26.0, 41.5],
        [28.9, 41.0],
        [30.5, 40.7],
        [31.0, 37.5],
        [36.5, 37.2],
        [36.3, 35.5],
        [35.8, 33.5],
        [35.3, 32.0],
        [34.5, 30.9],
        [32.7, 30.7],
        [30.0, 30.6],
        [25.0, 31.0],
        [20.0, 30.0],
        [18.0, 30.0],
        [15.0, 31.0],
        [11.5, 32.5],
        [10.0, 33.4],
        [9.0, 35.5],
        [3.0, 35.5],
        [0.0, 35.2],
        [-2.0, 34.8],
      ],
    ],
  },
  {
    // Canadian Arctic waters north of 60°N, between 141°W and the median line with Greenland.
    name: 'Canadian Arctic',
    inForceFrom: '2027-03-01',
    polygons: [
      [
        [-141.0, 69.6],
        [-141.0, 74.0],
        [-125.0, 78.0],
        [-100.0, 82.0],
        [-70.0, 83.0],
        [-60.0, 82.2],
        [-70.0, 78.5],
        [-74.0, 76.5],
        [-60.0, 70.0],
        [-57.7, 66.0],
        [-62.0, 60.0],
        [-94.8, 60.0],
        [-120.0, 60.0],
        [-136.0, 67.0],
      ],
    ],
  },
  {
    // Norwegian waters north of 62°N (joining the North Sea area) up to the Russian border.
    name: 'Norwegian Sea',
    inForceFrom: '2027-03-01',
    polygons: [
      [
        [0.0, 62.0],
        [2.0, 66.0],
        [10.0, 70.0],
        [18.0, 72.0],
        [31.5, 71.0],
        [31.0, 69.8],
        [25.0, 68.5],
        [15.0, 66.0],
        [12.0, 63.5],
        [7.5, 62.0],
      ],
    ],
  },
];

const PREPARED: PreparedZone[] = ECA_ZONES.map(prepareZone);

/** True when the position lies inside an ECA in force at `at`; NaN (or an invalid time) answers false. */
export function isInEca(latitude: number, longitude: number, at: Date | number): boolean {
  const atMs = typeof at === 'number' ? at : at.getTime();
  if (Number.isNaN(latitude) || Number.isNaN(longitude) || Number.isNaN(atMs)) return false;
  return inZonesAt(PREPARED, latitude, normalizeLongitude(longitude), atMs);
}

/** Columnar form of {@link isInEca}: 1 inside, 0 outside (also for NaN), one entry per row. */
export function ecaZoneColumn(
  latitudes: Float64Array,
  longitudes: Float64Array,
  timestamps: Float64Array,
): Uint8Array {
  return zoneColumn(PREPARED, latitudes, longitudes, timestamps);
}

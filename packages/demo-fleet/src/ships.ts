import type { ShipType } from '@portal/contracts/ship-particulars';

/** The demo fleet: ships, their routes between real ports, their loggers and their scenarios. */

export type OrganizationKey = 'north' | 'south';
export type ScrubberSystemType = 'Hybrid' | 'Open Loop';

/** [latitude, longitude] in degrees. Longitudes along a route may run past 180 to stay continuous across the antimeridian. */
export type LatLon = [number, number];

export interface Port {
  name: string;
  latitude: number;
  longitude: number;
}

/** One call of a route cycle: a stay in `port`, then the voyage along `via` to the next call (the last call sails back to the first). */
export interface RouteCall {
  port: Port;
  /** Hours alongside (or at anchor), drawn per call between these bounds. */
  stayHours: [number, number];
  /** Sea lane waypoints between this port and the next, both ports excluded. */
  via: LatLon[];
}

/**
 * - `outage`: once a voyage cycle the scrubber fails for about three days at sea outside an ECA; the ship keeps burning HSFO
 *   (inside an ECA it would switch to MGO).
 * - `excursions`: short SO2 excursions (a few minutes) above the applicable SO2/CO2 limit.
 * - `sensorGap`: logger outages (rows missing for some hours) and CEMS dropouts (SO2 left blank for an hour or two).
 * - `portOverrun`: in port the ship burns MGO on its generators, yet the scrubber keeps running for an hour or two after
 *   berthing and starts an hour or two before departure, so hourly availability goes above 100 %.
 */
export type Scenario = 'none' | 'outage' | 'excursions' | 'sensorGap' | 'portOverrun';

/**
 * Washwater (docs/decisions/0100-washwater.md): a hybrid scrubber switches to closed loop in ECAs, in port and in
 * no-discharge zones (packages/contracts/src/discharge-zones.ts), except:
 * - `forgetsClosedLoop`: on the second leg of each route cycle (Straits Pioneer: Suez to Piraeus, through the canal)
 *   the crew forgets to switch, so the scrubber discharges in open loop inside the zone;
 * - `phProbeDrift`: the discharge pH probe drifts low in the last day and a half before each calibration (every 15 days), so the logged pH
 *   falls below 6.5 towards the end of each calibration interval.
 */
export type WashwaterScenario = 'none' | 'forgetsClosedLoop' | 'phProbeDrift';

/** How a ship's logger names its channels, keyed by the portal's channel name. */
export type ChannelNaming = 'plc' | 'tag' | 'verbose' | 'bracket';

export type LoggerFormat =
  | {
      kind: 'csv';
      delimiter: ',' | ';';
      decimalSeparator: '.' | ',';
      /** Written timestamp: one column in `timestampFormat` (reader tokens or ISO), or date and time in two columns. */
      timestampColumns: [string] | [string, string];
      timestampFormat: string;
      unitRow: boolean;
      encoding: 'utf-8' | 'latin1';
      lineEnding: '\r\n' | '\n';
      /** Minutes the logger clock runs ahead of UTC (local = UTC + offset). */
      clockOffsetMinutes: number;
      /** File name with `{YYYY}`, `{MM}`, `{DD}` for the (logger clock) date of the file's first row. */
      fileNamePattern: string;
      naming: ChannelNaming;
    }
  | {
      kind: 'xlsx';
      sheetName: string;
      timestampColumns: [string];
      clockOffsetMinutes: number;
      fileNamePattern: string;
      naming: ChannelNaming;
    };

export interface DemoShip {
  key: string;
  name: string;
  imo: string;
  organizationKey: OrganizationKey;
  /** The CII's particulars (MEPC.353(78) ship type, deadweight in tonnes, gross tonnage), believable for the type. */
  shipType: ShipType;
  deadweightTonnes: number;
  grossTonnage: number;
  scrubberSystemType: ScrubberSystemType;
  numberOfScrubbers: number;
  systemManufacturer: string;
  /** Installed power, kW. */
  totalEffectKW: number;
  /** Main engine speed at 100 % load (MCR), rpm. */
  mcrRpm: number;
  /** Engine load at the service speed, %. */
  serviceLoad: number;
  /** Nominal sea speed, knots. */
  serviceSpeedKnots: number;
  route: RouteCall[];
  logger: LoggerFormat;
  scenario: Scenario;
  washwaterScenario: WashwaterScenario;
  /** Seeds the generator; different ships sail different phases of their cycles. */
  seed: number;
}

/** IMO check digit: the first six digits weighted 7..2, the sum's last digit. */
export function imoCheckDigit(firstSix: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(firstSix[i]) * (7 - i);
  return sum % 10;
}

export function imoNumber(firstSix: number): string {
  const six = String(firstSix).padStart(6, '0');
  return `${six}${imoCheckDigit(six)}`;
}

const P = {
  rotterdam: { name: 'Rotterdam', latitude: 51.95, longitude: 4.05 },
  hamburg: { name: 'Hamburg', latitude: 53.54, longitude: 9.97 },
  gdansk: { name: 'Gdansk', latitude: 54.4, longitude: 18.66 },
  newYork: { name: 'New York', latitude: 40.67, longitude: -74.08 },
  singapore: { name: 'Singapore', latitude: 1.26, longitude: 103.83 },
  suez: { name: 'Suez', latitude: 29.93, longitude: 32.56 },
  piraeus: { name: 'Piraeus', latitude: 37.94, longitude: 23.62 },
  barcelona: { name: 'Barcelona', latitude: 41.35, longitude: 2.16 },
  houston: { name: 'Houston', latitude: 29.73, longitude: -95.27 },
  santos: { name: 'Santos', latitude: -23.98, longitude: -46.3 },
  shanghai: { name: 'Shanghai (Yangshan)', latitude: 30.62, longitude: 122.07 },
  losAngeles: { name: 'Los Angeles', latitude: 33.73, longitude: -118.26 },
  portEverglades: { name: 'Port Everglades', latitude: 26.09, longitude: -80.12 },
  sanJuan: { name: 'San Juan', latitude: 18.46, longitude: -66.1 },
  cartagena: { name: 'Cartagena', latitude: 10.4, longitude: -75.53 },
  kingston: { name: 'Kingston', latitude: 17.95, longitude: -76.82 },
} satisfies Record<string, Port>;

const reverse = (via: LatLon[]): LatLon[] => [...via].reverse();

const LANES = {
  rotterdamHamburg: [
    [52.1, 3.7],
    [53.4, 4.6],
    [53.9, 6.5],
    [54.0, 7.8],
    [53.9, 8.6],
    [53.6, 9.4],
  ] as LatLon[],
  hamburgGdansk: [
    [53.85, 9.2],
    [54.1, 9.6],
    [54.37, 10.15],
    [54.55, 10.6],
    [54.6, 11.3],
    [54.55, 12.4],
    [55.0, 14.0],
    [55.0, 16.0],
    [54.7, 18.4],
  ] as LatLon[],
  channel: [
    [51.9, 3.0],
    [51.1, 1.6],
    [50.4, -0.5],
    [49.95, -3.0],
    [49.6, -6.0],
  ] as LatLon[],
  northAtlantic: [
    [49.0, -15.0],
    [47.0, -30.0],
    [44.0, -45.0],
    [41.5, -60.0],
    [40.4, -70.0],
    [40.45, -73.8],
  ] as LatLon[],
  singaporeSuez: [
    [2.5, 101.3],
    [5.8, 97.5],
    [6.0, 94.0],
    [5.9, 80.5],
    [12.0, 52.0],
    [12.6, 45.0],
    [12.6, 43.3],
    [15.0, 41.9],
    [20.0, 38.6],
    [24.0, 36.1],
    [27.5, 33.9],
    [29.5, 32.6],
  ] as LatLon[],
  suezPiraeus: [
    [30.6, 32.32],
    [31.26, 32.31],
    [31.7, 32.3],
    [34.0, 27.5],
    [35.4, 26.7],
    [36.8, 24.6],
    [37.6, 23.8],
  ] as LatLon[],
  piraeusBarcelona: [
    [37.6, 23.5],
    [36.3, 22.6],
    [36.5, 15.0],
    [37.3, 11.5],
    [38.7, 8.0],
    [40.5, 4.0],
    [41.2, 2.3],
  ] as LatLon[],
  barcelonaSuez: [
    [41.2, 2.3],
    [40.5, 4.0],
    [38.7, 8.0],
    [37.3, 11.5],
    [36.5, 15.0],
    [34.6, 24.5],
    [31.7, 32.3],
    [31.26, 32.31],
    [30.6, 32.32],
  ] as LatLon[],
  houstonSantos: [
    [29.33, -94.7],
    [28.0, -93.0],
    [25.0, -86.5],
    [21.8, -85.8],
    [17.5, -78.0],
    [15.0, -70.0],
    [11.8, -61.5],
    [8.0, -52.0],
    [3.0, -42.0],
    [-2.0, -36.5],
    [-5.5, -34.5],
    [-9.0, -34.5],
    [-13.0, -38.0],
    [-18.0, -38.5],
    [-22.0, -40.5],
    [-23.5, -43.0],
    [-24.1, -46.2],
  ] as LatLon[],
  transpacific: [
    [31.0, 124.0],
    [30.5, 131.5],
    [33.5, 140.0],
    [40.0, 155.0],
    [45.0, 170.0],
    [47.0, 185.0],
    [46.0, 200.0],
    [42.0, 220.0],
    [36.0, 235.0],
  ] as LatLon[],
  evergladesSanJuan: [
    [26.3, -79.6],
    [26.2, -78.3],
    [25.8, -77.2],
    [25.4, -76.0],
    [21.5, -69.0],
    [19.0, -66.5],
  ] as LatLon[],
  sanJuanCartagena: [
    [18.6, -66.6],
    [18.6, -67.3],
    [18.2, -67.9],
    [16.0, -70.0],
    [12.5, -74.0],
    [10.45, -75.65],
  ] as LatLon[],
  cartagenaKingston: [
    [11.5, -76.0],
    [17.5, -76.9],
  ] as LatLon[],
  kingstonEverglades: [
    [17.8, -76.4],
    [20.0, -73.8],
    [21.3, -75.5],
    [22.4, -77.5],
    [23.4, -79.3],
    [24.5, -80.3],
    [25.8, -79.95],
  ] as LatLon[],
};

// Longitudes of the Los Angeles call continue past 180 so that the transpacific lane needs no wrap.
const losAngelesEast: Port = { ...P.losAngeles, longitude: P.losAngeles.longitude + 360 };

export const ROUTES = {
  northSeaBaltic: [
    { port: P.rotterdam, stayHours: [24, 40], via: LANES.rotterdamHamburg },
    { port: P.hamburg, stayHours: [24, 36], via: LANES.hamburgGdansk },
    {
      port: P.gdansk,
      stayHours: [24, 44],
      via: [...reverse(LANES.hamburgGdansk), [53.9, 8.6], [54.0, 7.8], [53.9, 6.5], [53.4, 4.6], [52.1, 3.7]],
    },
  ],
  transatlantic: [
    { port: P.rotterdam, stayHours: [26, 44], via: [...LANES.channel, ...LANES.northAtlantic] },
    { port: P.newYork, stayHours: [24, 40], via: reverse([...LANES.channel, ...LANES.northAtlantic]) },
  ],
  asiaMediterranean: [
    { port: P.singapore, stayHours: [28, 44], via: LANES.singaporeSuez },
    { port: P.suez, stayHours: [10, 18], via: LANES.suezPiraeus },
    { port: P.piraeus, stayHours: [24, 40], via: LANES.piraeusBarcelona },
    { port: P.barcelona, stayHours: [24, 40], via: LANES.barcelonaSuez },
    { port: P.suez, stayHours: [10, 18], via: reverse(LANES.singaporeSuez) },
  ],
  gulfBrazil: [
    { port: P.houston, stayHours: [30, 46], via: LANES.houstonSantos },
    { port: P.santos, stayHours: [30, 46], via: reverse(LANES.houstonSantos) },
  ],
  transpacific: [
    { port: P.shanghai, stayHours: [26, 40], via: LANES.transpacific },
    { port: losAngelesEast, stayHours: [30, 46], via: reverse(LANES.transpacific) },
  ],
  caribbean: [
    { port: P.portEverglades, stayHours: [24, 36], via: LANES.evergladesSanJuan },
    { port: P.sanJuan, stayHours: [24, 32], via: LANES.sanJuanCartagena },
    { port: P.cartagena, stayHours: [24, 36], via: LANES.cartagenaKingston },
    { port: P.kingston, stayHours: [24, 30], via: LANES.kingstonEverglades },
  ],
} satisfies Record<string, RouteCall[]>;

interface ShipTemplate extends Omit<DemoShip, 'key' | 'name' | 'imo' | 'seed'> {
  names: string[];
  imoBase: number;
}

const TEMPLATES: ShipTemplate[] = [
  {
    names: ['Baltic Tern', 'Baltic Osprey', 'Baltic Merlin', 'Baltic Eider'],
    imoBase: 931455,
    organizationKey: 'north',
    // A supramax bulk carrier (about 11 MW at 127 rpm) in the North Sea and Baltic trades.
    shipType: 'BULK_CARRIER',
    deadweightTonnes: 58_100,
    grossTonnage: 32_987,
    scrubberSystemType: 'Hybrid',
    numberOfScrubbers: 1,
    systemManufacturer: 'Yara Marine',
    totalEffectKW: 11_200,
    mcrRpm: 127,
    serviceLoad: 66,
    serviceSpeedKnots: 14,
    route: ROUTES.northSeaBaltic,
    washwaterScenario: 'none',
    logger: {
      kind: 'csv',
      delimiter: ';',
      decimalSeparator: ',',
      timestampColumns: ['Datum', 'Zeit'],
      timestampFormat: 'DD.MM.YYYY HH:mm:ss',
      unitRow: true,
      encoding: 'latin1',
      lineEnding: '\r\n',
      clockOffsetMinutes: 0,
      fileNamePattern: 'Scrubber_{YYYY}{MM}{DD}.csv',
      naming: 'verbose',
    },
    scenario: 'excursions',
  },
  {
    names: ['Atlantic Meridian', 'Atlantic Compass', 'Atlantic Sextant', 'Atlantic Beacon'],
    imoBase: 948220,
    organizationKey: 'north',
    // A 6,500 TEU container ship on the North Atlantic (36 MW, two scrubbers).
    shipType: 'CONTAINER_SHIP',
    deadweightTonnes: 81_250,
    grossTonnage: 75_752,
    scrubberSystemType: 'Open Loop',
    numberOfScrubbers: 2,
    systemManufacturer: 'Alfa Laval',
    totalEffectKW: 36_000,
    mcrRpm: 84,
    serviceLoad: 62,
    serviceSpeedKnots: 14.5,
    route: ROUTES.transatlantic,
    washwaterScenario: 'phProbeDrift',
    logger: {
      kind: 'csv',
      delimiter: ',',
      decimalSeparator: '.',
      timestampColumns: ['Timestamp'],
      timestampFormat: 'YYYY-MM-DD HH:mm:ss',
      unitRow: false,
      encoding: 'utf-8',
      lineEnding: '\n',
      clockOffsetMinutes: 0,
      fileNamePattern: 'EGCS_Log_{YYYY}-{MM}-{DD}.csv',
      naming: 'plc',
    },
    scenario: 'none',
  },
  {
    names: ['Straits Pioneer', 'Straits Voyager', 'Straits Guardian', 'Straits Endeavour'],
    imoBase: 962317,
    organizationKey: 'north',
    // A 14,000 TEU container ship between Asia and the Mediterranean (58 MW, three scrubbers).
    shipType: 'CONTAINER_SHIP',
    deadweightTonnes: 156_300,
    grossTonnage: 141_754,
    scrubberSystemType: 'Hybrid',
    numberOfScrubbers: 3,
    systemManufacturer: 'Wärtsilä',
    totalEffectKW: 58_000,
    mcrRpm: 80,
    serviceLoad: 58,
    serviceSpeedKnots: 14,
    route: ROUTES.asiaMediterranean,
    washwaterScenario: 'forgetsClosedLoop',
    logger: {
      kind: 'csv',
      delimiter: ',',
      decimalSeparator: '.',
      timestampColumns: ['LocalTime'],
      timestampFormat: 'YYYY/MM/DD HH:mm:ss',
      unitRow: false,
      encoding: 'utf-8',
      lineEnding: '\r\n',
      // The logger clock was left on Singapore time (UTC+8).
      clockOffsetMinutes: 480,
      fileNamePattern: 'EGC_{YYYY}{MM}{DD}.csv',
      naming: 'tag',
    },
    scenario: 'none',
  },
  {
    names: ['Gulf Horizon', 'Gulf Explorer', 'Gulf Sentinel', 'Gulf Navigator'],
    imoBase: 937704,
    organizationKey: 'south',
    // An LR1 product tanker between the US Gulf and Brazil (13.5 MW).
    shipType: 'TANKER',
    deadweightTonnes: 74_998,
    grossTonnage: 42_338,
    scrubberSystemType: 'Open Loop',
    numberOfScrubbers: 1,
    systemManufacturer: 'Valmet',
    totalEffectKW: 13_500,
    mcrRpm: 105,
    serviceLoad: 68,
    serviceSpeedKnots: 13.5,
    route: ROUTES.gulfBrazil,
    washwaterScenario: 'none',
    logger: {
      kind: 'csv',
      delimiter: ';',
      decimalSeparator: ',',
      timestampColumns: ['Date', 'Time'],
      timestampFormat: 'DD.MM.YYYY HH:mm:ss',
      unitRow: true,
      encoding: 'utf-8',
      lineEnding: '\r\n',
      clockOffsetMinutes: 0,
      fileNamePattern: 'EGCS_Log_{YYYY}-{MM}-{DD}.csv',
      naming: 'verbose',
    },
    scenario: 'outage',
  },
  {
    names: ['Pacific Kestrel', 'Pacific Heron', 'Pacific Petrel', 'Pacific Albatross'],
    imoBase: 975118,
    organizationKey: 'south',
    // An 8,500 TEU container ship across the Pacific (42 MW, two scrubbers).
    shipType: 'CONTAINER_SHIP',
    deadweightTonnes: 99_500,
    grossTonnage: 91_649,
    scrubberSystemType: 'Hybrid',
    numberOfScrubbers: 2,
    systemManufacturer: 'Alfa Laval',
    totalEffectKW: 42_000,
    mcrRpm: 78,
    serviceLoad: 60,
    serviceSpeedKnots: 14.5,
    route: ROUTES.transpacific,
    washwaterScenario: 'none',
    logger: {
      kind: 'csv',
      delimiter: ',',
      decimalSeparator: '.',
      timestampColumns: ['Time (UTC)'],
      timestampFormat: 'ISO',
      unitRow: false,
      encoding: 'utf-8',
      lineEnding: '\n',
      clockOffsetMinutes: 0,
      fileNamePattern: 'datalog_{YYYY}{MM}{DD}.csv',
      naming: 'plc',
    },
    scenario: 'sensorGap',
  },
  {
    names: ['Coral Navigator', 'Coral Trader', 'Coral Spirit', 'Coral Mariner'],
    imoBase: 955362,
    organizationKey: 'south',
    // A multipurpose general cargo ship in the Caribbean liner trade (9.5 MW).
    shipType: 'GENERAL_CARGO_SHIP',
    deadweightTonnes: 12_450,
    grossTonnage: 9_611,
    scrubberSystemType: 'Open Loop',
    numberOfScrubbers: 1,
    systemManufacturer: 'Wärtsilä',
    totalEffectKW: 9_500,
    mcrRpm: 135,
    serviceLoad: 64,
    serviceSpeedKnots: 14,
    route: ROUTES.caribbean,
    washwaterScenario: 'none',
    logger: {
      kind: 'xlsx',
      sheetName: 'Log',
      timestampColumns: ['Date/Time'],
      clockOffsetMinutes: 0,
      fileNamePattern: 'ScrubberLog_{YYYY}-{MM}-{DD}.xlsx',
      naming: 'bracket',
    },
    scenario: 'portOverrun',
  },
];

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * `count` ships: the six templates first (one scenario each, three ships per organization), then variations of the
 * templates (another name, IMO and voyage phase, no scenario) when more are asked for.
 */
export function demoShips(count = 6): DemoShip[] {
  const ships: DemoShip[] = [];
  for (let i = 0; i < count; i++) {
    const t = TEMPLATES[i % TEMPLATES.length]!;
    const round = Math.floor(i / TEMPLATES.length);
    const baseName = t.names[round % t.names.length]!;
    const name = round < t.names.length ? baseName : `${baseName} ${Math.floor(round / t.names.length) + 1}`;
    const { names: _names, imoBase, ...rest } = t;
    ships.push({
      ...rest,
      key: slug(name),
      name,
      imo: imoNumber(900_000 + ((imoBase - 900_000 + round * 1_117) % 100_000)),
      scenario: round === 0 ? t.scenario : 'none',
      washwaterScenario: round === 0 ? t.washwaterScenario : 'none',
      seed: 0x5eed_0000 + i * 7_919,
    });
  }
  return ships;
}

export const DEMO_SHIPS: DemoShip[] = demoShips();

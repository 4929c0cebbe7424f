import { ecaZoneColumn } from '@portal/contracts/eca';
import { noDischargeZoneColumn } from '@portal/contracts/discharge-zones';
import { fuelTypeCode } from '@portal/contracts/fuel-channels';
import { CHANNELS, type ChannelField } from './channels';
import { signed, smooth, uniform } from './random';
import type { DemoShip } from './ships';
import { voyageAt, type VoyageState } from './voyage';

export interface DaySamples {
  /** True UTC instants (ms), one a minute; minutes the logger missed are absent. */
  timestamps: Float64Array;
  /** One column per channel, keyed by the portal channel name (see CHANNELS); NaN where the logger wrote nothing. */
  channels: Record<string, Float64Array>;
}

/** The column of a channel; throws when the samples have none (not for per-row use). */
export function channelColumn(samples: DaySamples, field: string): Float64Array {
  const column = samples.channels[field];
  if (!column) throw new Error(`The samples have no channel ${field}`);
  return column;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
/** Minutes ahead of (and after) an ECA boundary at which the scrubber control switches to the ECA target. */
const CONTROL_LOOKAHEAD = 45;

const ECA_LIMIT = 4.3;
const GLOBAL_LIMIT = 21.7;
/** SO2/CO2 ratio per % m/m of fuel sulfur without scrubbing (DOMAIN: equivalent sulfur % = ratio / 43.3). */
const RATIO_PER_SULFUR = 43.3;
const MGO_SULFUR = 0.08;

// Noise streams: one per quantity, so adding one never shifts the others.
const S = {
  weather: 1,
  speed: 2,
  speedWhite: 3,
  load: 4,
  loadWhite: 5,
  flowWhite: 6,
  bunker: 7,
  outageStart: 8,
  outageLength: 9,
  trip: 10,
  tripStart: 11,
  tripLength: 12,
  co2: 13,
  co2White: 14,
  marginBase: 15,
  margin: 16,
  marginWhite: 17,
  excursion: 18,
  excursionStart: 19,
  excursionLength: 20,
  excursionHeight: 21,
  rawRatio: 22,
  power: 23,
  powerWhite: 24,
  ph: 25,
  phWhite: 26,
  pah: 27,
  pahWhite: 28,
  turbidity: 29,
  turbidityWhite: 30,
  seawater: 31,
  air: 32,
  exhaust: 33,
  exhaustWhite: 34,
  heading: 35,
  headingWhite: 36,
  gps: 37,
  rpmWhite: 38,
  pump: 39,
  dp: 40,
  outletTemp: 41,
  overrunAfter: 42,
  overrunBefore: 43,
  gap: 44,
  gapStart: 45,
  gapLength: 46,
  blank: 47,
  blankStart: 48,
  blankLength: 49,
  genset: 50,
  idleFlow: 51,
  so2White: 52,
  overrunLength: 53,
  phInlet: 54,
  pahInlet: 55,
  turbidityInlet: 56,
  auxLoad: 57,
  auxWhite: 58,
  boilerFiring: 59,
  boilerLoad: 60,
  boilerWhite: 61,
} as const;

/**
 * Auxiliary engines (the generators not connected to the scrubber): the electrical load as a share of the main
 * engine's installed power, at sea and in port (cargo work, reefers), burnt at a generator's specific consumption.
 */
const AUX_SHARE_AT_SEA = 0.045;
const AUX_SHARE_IN_PORT = 0.06;
/** g/kWh, a medium-speed generator at part load. */
const AUX_SFOC = 215;
/**
 * The oil-fired boiler: in port it keeps the fuel and the accommodation warm, firing on and off; at sea the exhaust
 * gas economiser makes the steam unless the main engine runs slowly. A tanker's boiler also drives its cargo pumps in
 * port, several times the fuel.
 */
const BOILER_BASE_KGH = 60;
const BOILER_PER_KW = 0.004;
const TANKER_BOILER_FACTOR = 4;
const BOILER_AT_SEA_BELOW_LOAD = 40;

/**
 * The drifting pH probe: calibrated every 15 days, it reads true until the middle of day 14 of its cycle and then
 * drifts low by 0.5 pH a day until the next calibration. The drift crosses 6.5 within some hours (a few transients) and then
 * stays below it (one malfunction) each cycle, so the living demo shows the case without burying the events list.
 */
const PH_CALIBRATION_DAYS = 15;
const PH_DRIFT_FROM_DAY = 13.5;
const PH_DRIFT_PER_DAY = 0.5;

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** Is the minute `m` (minutes since 1970) inside a short event drawn once per block of `blockMinutes`? */
function inBlockEvent(
  seed: number,
  m: number,
  blockMinutes: number,
  probability: number,
  streams: [number, number, number],
  minLength: number,
  maxLength: number,
): number | null {
  for (const block of [Math.floor(m / blockMinutes), Math.floor(m / blockMinutes) - 1]) {
    if (uniform(seed, streams[0], block) >= probability) continue;
    const start = block * blockMinutes + Math.floor(uniform(seed, streams[1], block) * blockMinutes);
    const length = minLength + Math.floor(uniform(seed, streams[2], block) * (maxLength - minLength + 1));
    if (m >= start && m < start + length) return block;
  }
  return null;
}

/** Scrubber outage on the first leg of every cycle, at sea far from the departure port; hours since departure. */
function outageWindow(ship: DemoShip, v: VoyageState): [number, number] | null {
  if (ship.scenario !== 'outage' || v.phase !== 'sea' || v.callIndex !== 0) return null;
  const legHours = v.hoursSinceStart + v.hoursToEnd;
  const start = legHours * (0.25 + 0.1 * uniform(ship.seed, S.outageStart, v.cycle));
  const length = 60 + 20 * uniform(ship.seed, S.outageLength, v.cycle);
  return [start, Math.min(start + length, legHours - 12)];
}

function seawaterTemperature(lat: number, dayOfYear: number): number {
  const seasonal =
    4 * Math.min(1, Math.abs(lat) / 40) * Math.cos((2 * Math.PI * (dayOfYear - 225)) / 365) * Math.sign(lat);
  return Math.max(-1.5, 28 - 0.36 * Math.abs(lat) + seasonal);
}

function roundTo(x: number, decimals: number): number {
  if (Number.isNaN(x)) return x;
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r; // no "-0" in the files
}

/** Samples of one UTC day (00:00 to 23:59, one a minute) for a ship, rounded to the decimals its logger writes. */
export function generateShipDay(ship: DemoShip, day: Date): { samples: DaySamples } {
  const dayStart = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const firstMinute = dayStart / MINUTE_MS;
  const seed = ship.seed;
  const P = ship.totalEffectKW;
  const pad = CONTROL_LOOKAHEAD;
  const span = DAY_MINUTES + 2 * pad;

  const states: VoyageState[] = new Array(span);
  const lat = new Float64Array(span);
  const lon = new Float64Array(span);
  const ts = new Float64Array(span);
  for (let i = 0; i < span; i++) {
    const t = (firstMinute - pad + i) * MINUTE_MS;
    ts[i] = t;
    const v = voyageAt(ship, t);
    states[i] = v;
    lat[i] = v.latitude;
    lon[i] = v.longitude;
  }
  // The crew switches before entering a zone and keeps the setting a while after leaving: count zone minutes in a window.
  const ahead = (zone: Uint8Array) => {
    const out = new Uint8Array(DAY_MINUTES);
    let windowCount = 0;
    // zone has span = DAY_MINUTES + 2 * pad entries.
    for (let i = 0; i < 2 * pad; i++) windowCount += zone[i]!;
    for (let i = 0; i < DAY_MINUTES; i++) {
      windowCount += zone[i + 2 * pad]!;
      if (i > 0) windowCount -= zone[i - 1]!;
      out[i] = windowCount > 0 ? 1 : 0;
    }
    return out;
  };
  const ecaAhead = ahead(ecaZoneColumn(lat, lon, ts));
  const noDischargeAhead = ahead(noDischargeZoneColumn(lat, lon, ts));

  const columns = CHANNELS.map(() => new Float64Array(DAY_MINUTES));
  const col = Object.fromEntries(CHANNELS.map((c, i) => [c.field, columns[i]!])) as Record<
    ChannelField,
    Float64Array
  >;
  const dayOfYear = Math.floor((dayStart - Date.UTC(day.getUTCFullYear(), 0, 1)) / 86_400_000);
  const hybrid = ship.scrubberSystemType === 'Hybrid';
  const marginBase = 22 + 10 * uniform(seed, S.marginBase, 0);

  for (let i = 0; i < DAY_MINUTES; i++) {
    const m = firstMinute + i;
    const v = states[i + pad]!; // states has span = DAY_MINUTES + 2 * pad entries, all set above
    const atSea = v.phase === 'sea';
    const controlEca = ecaAhead[i] === 1;

    // Engine
    let speed: number;
    let load = 0;
    if (atSea) {
      speed = Math.max(
        0.3,
        v.speedKnots * (1 + 0.03 * smooth(seed, S.speed, m, 45)) + 0.1 * signed(seed, S.speedWhite, m),
      );
      const weather = smooth(seed, S.weather, m, 240);
      load =
        ship.serviceLoad *
        (v.speedKnots / ship.serviceSpeedKnots) ** 3 *
        (1 + 0.07 * weather + 0.02 * smooth(seed, S.load, m, 20));
      load = clamp(load + 0.6 * signed(seed, S.loadWhite, m), 9, 92);
    } else {
      speed = Math.max(0, 0.04 + 0.04 * signed(seed, S.speedWhite, m));
    }
    const sfoc = 167 + 22 * (1 - load / 80) ** 2; // g/kWh, higher at part load
    const overrunShip = ship.scenario === 'portOverrun';
    const gensetsConnected = overrunShip && !atSea;

    // Fuel
    const hsfo = Math.round((2.5 + 0.5 * uniform(seed, S.bunker, v.cycle)) * 100) / 100;
    const outage = outageWindow(ship, v);
    const inOutage = outage !== null && v.hoursSinceStart >= outage[0] && v.hoursSinceStart < outage[1];
    let sulfur = hsfo;
    if (inOutage && controlEca) sulfur = MGO_SULFUR;
    // The port-overrun ship's generators burn HSFO for the first and last hour or so of a call, MGO in between; its scrubber
    // runs on for a while after the changeover to MGO and starts a while before the changeover back.
    const call = v.cycle * 64 + v.callIndex;
    const changeoverIn = 0.7 + 0.3 * uniform(seed, S.overrunAfter, call);
    const changeoverOut = 0.7 + 0.3 * uniform(seed, S.overrunBefore, call);
    const onMgoInPort = gensetsConnected && v.hoursSinceStart > changeoverIn && v.hoursToEnd > changeoverOut;
    if (onMgoInPort) sulfur = MGO_SULFUR;
    let fuelFlow: number;
    if (atSea) fuelFlow = ((P * load) / 100) * (sfoc / 1000) * (1 + 0.01 * signed(seed, S.flowWhite, m));
    else if (gensetsConnected)
      fuelFlow = 0.02 * P * (1 + 0.12 * smooth(seed, S.genset, m, 30) + 0.02 * signed(seed, S.flowWhite, m));
    else fuelFlow = Math.max(0, 3 + 3 * signed(seed, S.idleFlow, m)); // flow meter drift with the engine stopped

    // Scrubber state
    let running = false;
    if (atSea) {
      const trip = inBlockEvent(seed, m, 360, 0.04, [S.trip, S.tripStart, S.tripLength], 3, 8);
      running = !inOutage && trip === null;
    } else if (overrunShip) {
      const overrun = 0.25 + 0.35 * uniform(seed, S.overrunLength, call);
      running = v.hoursSinceStart < changeoverIn + overrun || v.hoursToEnd < changeoverOut + overrun;
    }
    const engineOn = atSea || gensetsConnected;

    // Gas analysis at the scrubber outlet
    let co2: number;
    if (atSea)
      co2 = 2.3 + 3.4 * (load / 100) + 0.08 * smooth(seed, S.co2, m, 30) + 0.03 * signed(seed, S.co2White, m);
    else if (gensetsConnected)
      co2 = 3.1 + 0.1 * smooth(seed, S.co2, m, 30) + 0.03 * signed(seed, S.co2White, m);
    else co2 = 0.04 + 0.01 * signed(seed, S.co2White, m);
    let ratio: number;
    const limit = controlEca ? ECA_LIMIT : GLOBAL_LIMIT;
    if (!engineOn) ratio = Number.NaN;
    else if (!running) ratio = sulfur * RATIO_PER_SULFUR * (0.98 + 0.015 * smooth(seed, S.rawRatio, m, 60));
    else if (sulfur < 0.1) ratio = sulfur * RATIO_PER_SULFUR * (0.2 + 0.05 * smooth(seed, S.rawRatio, m, 60));
    else {
      const margin = marginBase + 12 * smooth(seed, S.margin, m, 90) + 3 * signed(seed, S.marginWhite, m);
      ratio = limit * (1 - margin / 100);
      if (ship.scenario === 'excursions' && atSea) {
        const excursion = inBlockEvent(
          seed,
          m,
          360,
          0.15,
          [S.excursion, S.excursionStart, S.excursionLength],
          3,
          10,
        );
        if (excursion !== null) ratio = limit * (1.05 + 0.35 * uniform(seed, S.excursionHeight, excursion));
      }
    }
    const so2 = Number.isNaN(ratio) ? Math.max(0, 0.3 + 0.3 * signed(seed, S.so2White, m)) : ratio * co2;

    // Scrubber power and washwater
    const relLoad = atSea ? Math.min(1.15, load / ship.serviceLoad) : 0;
    const power = running
      ? P * (0.0065 + 0.0045 * relLoad) * (1 + 0.015 * smooth(seed, S.power, m, 30)) +
        0.5 * signed(seed, S.powerWhite, m)
      : 2.5 + signed(seed, S.powerWhite, m);
    // A hybrid scrubber runs closed loop in ECAs, in port and in no-discharge zones (unless the crew forgets); an
    // open-loop scrubber has no other mode. SCRUBBER_MODE as DOMAIN.md: 0 closed loop, 1 open loop.
    const forgets = ship.washwaterScenario === 'forgetsClosedLoop' && v.callIndex === 1;
    const closedLoop = hybrid && (controlEca || !atSea || (noDischargeAhead[i] === 1 && !forgets));
    const mode = closedLoop ? 0 : 1;
    const effectiveMw = (P * Math.max(load, 12)) / 100 / 1000;
    const washwaterFlow = running
      ? effectiveMw * (closedLoop ? 20 : 45) * (1 + 0.02 * smooth(seed, S.pump, m, 20))
      : 0;
    const pumpPressure = running ? 3.6 + 0.6 * (load / 100) + 0.05 * smooth(seed, S.pump, m, 20) : 0.02;
    // Inlet (sea water) and discharge; with the scrubber stopped the discharge probes read the sea water too.
    const phInlet = 8.1 + 0.03 * smooth(seed, S.ph, m, 120) + 0.01 * signed(seed, S.phInlet, m);
    const pahInlet = 0.6 + 0.2 * smooth(seed, S.pah, m, 120) + 0.05 * signed(seed, S.pahInlet, m);
    const turbidityInlet =
      1 + 0.3 * smooth(seed, S.turbidity, m, 120) + 0.05 * signed(seed, S.turbidityInlet, m);
    const drift =
      ship.washwaterScenario === 'phProbeDrift'
        ? PH_DRIFT_PER_DAY * Math.max(0, ((m / DAY_MINUTES) % PH_CALIBRATION_DAYS) - PH_DRIFT_FROM_DAY)
        : 0;
    const ph =
      (running
        ? (closedLoop ? 7.3 : 6.85) + 0.12 * smooth(seed, S.ph, m, 45) + 0.03 * signed(seed, S.phWhite, m)
        : phInlet) - drift;
    const pah = running
      ? 4 + 10 * (load / 100) + 2 * smooth(seed, S.pah, m, 60) + 0.3 * signed(seed, S.pahWhite, m)
      : pahInlet;
    const turbidity = running
      ? Math.max(0.5, 3 + 2 * smooth(seed, S.turbidity, m, 60) + 0.4 * signed(seed, S.turbidityWhite, m))
      : turbidityInlet;
    const naoh = running && closedLoop ? fuelFlow * sulfur * 0.033 : 0;

    // Fuel not through the scrubbed units' meter (the carbon ledger's consumers). On the port-overrun ship the
    // generators are on the scrubber in port: their fuel is in FUEL_FLOW then, none here.
    const auxKw = gensetsConnected
      ? 0
      : P * (atSea ? AUX_SHARE_AT_SEA : AUX_SHARE_IN_PORT) * (1 + 0.15 * smooth(seed, S.auxLoad, m, 90));
    const auxFlow = auxKw > 0 ? (auxKw * AUX_SFOC) / 1000 + 0.5 * signed(seed, S.auxWhite, m) : 0;
    const boilerRate =
      (BOILER_BASE_KGH + BOILER_PER_KW * P) *
      (ship.shipType === 'TANKER' && !atSea ? TANKER_BOILER_FACTOR : 1);
    const boilerFires = atSea
      ? load < BOILER_AT_SEA_BELOW_LOAD && smooth(seed, S.boilerFiring, m, 20) > 0.2
      : smooth(seed, S.boilerFiring, m, 20) > -0.25;
    const boilerFlow = boilerFires
      ? boilerRate * (1 + 0.1 * smooth(seed, S.boilerLoad, m, 15)) + 0.3 * signed(seed, S.boilerWhite, m)
      : 0;
    const dp = running
      ? 3 + 12 * (load / 100) + 0.3 * smooth(seed, S.dp, m, 15)
      : engineOn
        ? 2 + 8 * (load / 100)
        : 0.2 + 0.1 * signed(seed, S.dp, m);

    // Temperatures
    const seawater = seawaterTemperature(v.latitude, dayOfYear) + 0.4 * smooth(seed, S.seawater, m, 720);
    const solarHour = ((m % DAY_MINUTES) / 60 + v.longitude / 15 + 24) % 24;
    const air = seawater + 1.5 * Math.sin(((solarHour - 9) / 24) * 2 * Math.PI) + smooth(seed, S.air, m, 180);
    const exhaust = atSea
      ? 205 + 95 * (load / 100) + 3 * smooth(seed, S.exhaust, m, 30) + 0.5 * signed(seed, S.exhaustWhite, m)
      : air + 8;
    const inlet = atSea
      ? exhaust - 18
      : gensetsConnected
        ? 240 + 4 * smooth(seed, S.exhaust, m, 30)
        : air + 6;
    const outlet = running
      ? seawater + 7 + smooth(seed, S.outletTemp, m, 30)
      : engineOn
        ? inlet - 25
        : air + 3;

    const heading =
      v.headingDegrees +
      (atSea
        ? 2 * smooth(seed, S.heading, m, 30) + 0.5 * signed(seed, S.headingWhite, m)
        : 0.2 * signed(seed, S.headingWhite, m));

    col.FUEL_FLOW[i] = fuelFlow;
    col.FUEL_SULFUR[i] = sulfur;
    col.ENGINE_LOAD[i] = load;
    col.SO2_PPM[i] = so2;
    col.CO2_PCT[i] = co2;
    col.SCRUBBER_RUNNING[i] = running ? 1 : 0;
    col.SCRUBBER_POWER[i] = Math.max(0, power);
    col.LATITUDE[i] = v.latitude + 0.00002 * signed(seed, S.gps, 2 * m);
    col.LONGITUDE[i] = v.longitude + 0.00002 * signed(seed, S.gps, 2 * m + 1);
    col.WASHWATER_PH[i] = ph;
    col.WASHWATER_PAH[i] = pah;
    col.WASHWATER_TURBIDITY[i] = turbidity;
    col.SHIP_SPEED[i] = speed;
    col.HEADING[i] = ((heading % 360) + 360) % 360;
    col.ENGINE_RPM[i] = atSea ? ship.mcrRpm * (load / 100) ** (1 / 3) + 0.2 * signed(seed, S.rpmWhite, m) : 0;
    col.EXHAUST_TEMP[i] = exhaust;
    col.SCRUBBER_INLET_TEMP[i] = inlet;
    col.SCRUBBER_OUTLET_TEMP[i] = outlet;
    col.SEAWATER_TEMP[i] = seawater;
    col.WASHWATER_PUMP_PRESSURE[i] = pumpPressure;
    col.WASHWATER_FLOW[i] = washwaterFlow;
    col.SCRUBBER_DIFF_PRESSURE[i] = dp;
    col.AMBIENT_AIR_TEMP[i] = air;
    col.SCRUBBER_MODE[i] = mode;
    col.NAOH_DOSING[i] = naoh;
    col.WASHWATER_PH_INLET[i] = phInlet;
    col.WASHWATER_PAH_INLET[i] = Math.max(0, pahInlet);
    col.WASHWATER_TURBIDITY_INLET[i] = Math.max(0, turbidityInlet);
    col.AE_FUEL_FLOW[i] = Math.max(0, auxFlow);
    col.BOILER_FUEL_FLOW[i] = Math.max(0, boilerFlow);
    // The fuel on the scrubbed units' line, as the ledger codes it (fuel-channels.ts): 0 HFO, 2 MDO/MGO.
    col.FUEL_TYPE[i] = sulfur === MGO_SULFUR ? fuelTypeCode('MDO_MGO') : fuelTypeCode('HFO');
  }

  CHANNELS.forEach((c, k) => {
    const column = columns[k]!; // one column per channel, each DAY_MINUTES long
    for (let i = 0; i < DAY_MINUTES; i++) column[i] = roundTo(column[i]!, c.decimals);
  });
  for (let i = 0; i < DAY_MINUTES; i++) if (col.HEADING[i]! >= 360) col.HEADING[i]! -= 360;

  let keep: Uint8Array | null = null;
  if (ship.scenario === 'sensorGap') {
    const dayIndex = dayStart / 86_400_000;
    // CEMS dropout: the analyser writes nothing for SO2 for an hour or two.
    if (uniform(seed, S.blank, dayIndex) < 0.15) {
      const start = Math.floor(uniform(seed, S.blankStart, dayIndex) * 1200);
      const length = 45 + Math.floor(uniform(seed, S.blankLength, dayIndex) * 135);
      col.SO2_PPM.fill(Number.NaN, start, Math.min(DAY_MINUTES, start + length));
    }
    // Logger outage: no rows at all for a few hours.
    if (uniform(seed, S.gap, dayIndex) < 0.18) {
      const start = Math.floor(uniform(seed, S.gapStart, dayIndex) * 1100);
      const length = 120 + Math.floor(uniform(seed, S.gapLength, dayIndex) * 300);
      keep = new Uint8Array(DAY_MINUTES).fill(1);
      keep.fill(0, start, Math.min(DAY_MINUTES, start + length));
    }
  }

  const timestamps = new Float64Array(DAY_MINUTES);
  for (let i = 0; i < DAY_MINUTES; i++) timestamps[i] = dayStart + i * MINUTE_MS;
  if (!keep) return { samples: { timestamps, channels: col } };
  const mask = keep;
  const pick = (a: Float64Array) => a.filter((_, i) => mask[i] === 1);
  return {
    samples: {
      timestamps: pick(timestamps),
      channels: Object.fromEntries(Object.entries(col).map(([field, values]) => [field, pick(values)])),
    },
  };
}

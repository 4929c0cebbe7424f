import {
  EVENT_CLASSIFICATION_NAMES,
  EVENT_TYPE_NAMES,
  SENSOR_FAULT_NAMES,
  type EventClassification,
} from '../events';
import { SHIP_RATIO_CHART_CAP } from './gauges';

/**
 * What an event is about, in one place for every text that describes one (the events list and page, the record
 * book's timeline, the alert e-mail and the bell, the webhook's unit, the report to the flag State and the port
 * State): per event type and, for washwater exceedances and sensor faults, per criterion or channel, what was
 * measured, in which unit, whether the limit is a maximum or a minimum, and by which instrument. Units as
 * ../shared/DOMAIN.md and docs/decisions/0100-washwater.md (MEPC.259(68) / MEPC.340(77) section 10).
 */

/** The facts of an event a description reads. */
export interface DescribedEvent {
  type: string;
  /** Washwater exceedance: its criterion (WASHWATER_PH, WASHWATER_PAH, WASHWATER_TURBIDITY); sensor fault: its channel. */
  channel: string | null;
  /** Sensor fault: stale, flatLined or outOfRange. */
  fault: string | null;
}

/** What an event's worst value and limit measure. */
export interface EventMeasure {
  /** Written before the number: "SO2/CO2 ratio", "pH", "PAH above inlet". */
  name: string;
  /**
   * The unit of the worst value and the limit (the webhook's `unit`); null for a value without one (a signal 0/1).
   * The SO2/CO2 ratio's is "SO2 (ppm)/CO2 (% v/v)", by convention not written after the number.
   */
  unit: string | null;
  /** Written after the number ("µg/L", "°"); null where the name says it (the ratio, pH) or there is none. */
  suffix: string | null;
  /** maximum: a value above the limit exceeds; minimum: below it. null for a value without a limit. */
  limitIs: 'maximum' | 'minimum' | null;
  decimals: number;
  /** How the value is taken when not as sampled ("15-min average"). */
  averaging: string | null;
}

export interface EventDescription {
  /** "Washwater exceedance (pH below its minimum)", "Sensor fault (SO2 flat-lined)", else the type's name. */
  title: string;
  /** null for the events without a value (scrubber off, data gap, open loop in a zone, ECA entry and exit). */
  measure: EventMeasure | null;
  /** The instrument (or signal) the event comes from, for the report's "Instrument and readings". */
  instrument: string;
}

const RATIO: EventMeasure = {
  name: 'SO2/CO2 ratio',
  unit: 'SO2 (ppm)/CO2 (% v/v)',
  suffix: null,
  limitIs: 'maximum',
  decimals: 2,
  averaging: null,
};

/** The washwater criteria (docs/decisions/0100-washwater.md), by the channel an exceedance names. */
const WASHWATER: Record<string, { criterion: string; measure: EventMeasure; instrument: string }> = {
  // MEPC.259(68) 10.1.2.1: pH at least 6.5 at the overboard discharge (inlet - 2 when manoeuvring).
  WASHWATER_PH: {
    criterion: 'pH below its minimum',
    measure: { name: 'pH', unit: 'pH', suffix: null, limitIs: 'minimum', decimals: 2, averaging: null },
    instrument: 'Washwater pH monitoring at the overboard discharge',
  },
  // 10.1.3: PAH (phenanthrene equivalent) at most 50 µg/L above the inlet at 45 t/MWh, 50 x 45 / F otherwise.
  WASHWATER_PAH: {
    criterion: 'PAH above its limit',
    measure: {
      name: 'PAH above inlet',
      unit: 'µg/L',
      suffix: 'µg/L',
      limitIs: 'maximum',
      decimals: 1,
      averaging: null,
    },
    instrument:
      'Washwater PAH (phenanthrene equivalent) monitoring at the overboard discharge, less the washwater inlet',
  },
  // 10.1.4.1: turbidity at most 25 FNU (NTU) above the inlet, as a 15-minute rolling average.
  WASHWATER_TURBIDITY: {
    criterion: 'turbidity above its limit',
    measure: {
      name: 'Turbidity above inlet',
      unit: 'NTU',
      suffix: 'NTU',
      limitIs: 'maximum',
      decimals: 1,
      averaging: '15-min average',
    },
    instrument:
      'Washwater turbidity (FNU/NTU) monitoring at the overboard discharge, less the washwater inlet, as a ' +
      '15-minute rolling average',
  },
};

/** The channels a sensor fault names (SENSOR_FAULT_CHANNELS and the washwater probes), units as DOMAIN.md. */
const CHANNELS: Record<string, { name: string; unit: string | null; decimals: number; instrument: string }> =
  {
    SO2_PPM: { name: 'SO2', unit: 'ppm', decimals: 1, instrument: 'SO2 analyser at the scrubber outlet' },
    CO2_PCT: { name: 'CO2', unit: '% v/v', decimals: 2, instrument: 'CO2 analyser at the scrubber outlet' },
    SCRUBBER_RUNNING: {
      name: 'Scrubber running signal',
      unit: null,
      decimals: 0,
      instrument: 'Scrubber running signal',
    },
    FUEL_SULFUR: {
      name: 'Fuel sulfur',
      unit: '% m/m',
      decimals: 2,
      instrument: 'Sulfur content of the fuel in use',
    },
    LATITUDE: { name: 'Latitude', unit: '°', decimals: 4, instrument: 'GNSS receiver' },
    LONGITUDE: { name: 'Longitude', unit: '°', decimals: 4, instrument: 'GNSS receiver' },
    WASHWATER_PH: { name: 'Washwater pH', unit: 'pH', decimals: 2, instrument: 'Washwater pH probe' },
    WASHWATER_PAH: { name: 'Washwater PAH', unit: 'µg/L', decimals: 1, instrument: 'Washwater PAH probe' },
    WASHWATER_TURBIDITY: {
      name: 'Washwater turbidity',
      unit: 'NTU',
      decimals: 1,
      instrument: 'Washwater turbidity probe',
    },
  };

const typeName = (type: string) => (EVENT_TYPE_NAMES as Record<string, string>)[type] ?? type;

/** The one description of an event, by its type and criterion (channel) or channel and fault. */
export function describeEvent(event: DescribedEvent): EventDescription {
  const name = typeName(event.type);
  switch (event.type) {
    case 'emission-exceedance':
      return {
        title: name,
        measure: RATIO,
        instrument: 'SO2/CO2 emission monitoring at the scrubber outlet (SO2 in ppm, CO2 in % v/v)',
      };
    case 'scrubber-off':
      return {
        title: name,
        measure: null,
        instrument:
          'Scrubber operating state (the scrubber running signal), while the fuel in use required the scrubber',
      };
    case 'washwater-exceedance': {
      const criterion = event.channel ? WASHWATER[event.channel] : undefined;
      return criterion
        ? {
            title: `${name} (${criterion.criterion})`,
            measure: criterion.measure,
            instrument: criterion.instrument,
          }
        : { title: name, measure: null, instrument: 'Washwater monitoring at the overboard discharge' };
    }
    case 'open-loop-in-no-discharge-zone':
      return {
        title: name,
        measure: null,
        instrument:
          'Scrubber mode (open loop) and washwater flow, against the no-discharge zones at the GNSS position',
      };
    case 'data-gap':
      return {
        title: name,
        measure: null,
        instrument: 'Data logger of the monitoring system (no data recorded)',
      };
    case 'sensor-fault': {
      const channel = event.channel ? CHANNELS[event.channel] : undefined;
      const channelName = channel?.name ?? event.channel ?? '';
      const fault = event.fault ? (SENSOR_FAULT_NAMES[event.fault] ?? event.fault) : null;
      const what = [channel ? channelName.replace(/^[A-Z][a-z]/, (s) => s.toLowerCase()) : channelName, fault]
        .filter(Boolean)
        .join(' ');
      return {
        title: what ? `${name} (${what})` : name,
        measure: event.channel
          ? {
              name: channelName,
              unit: channel?.unit ?? null,
              suffix: channel?.unit ?? null,
              limitIs: null,
              decimals: channel?.decimals ?? 2,
              averaging: null,
            }
          : null,
        instrument: channel
          ? `${channel.instrument} (${event.channel})`
          : `Channel ${event.channel ?? 'unknown'}`,
      };
    }
    case 'eca-entry':
    case 'eca-exit':
      return { title: name, measure: null, instrument: 'GNSS position against the emission control areas' };
    default:
      return { title: name, measure: null, instrument: 'The monitoring system' };
  }
}

/** "Washwater exceedance (pH below its minimum)", "Sensor fault (SO2 flat-lined)", "Emission exceedance". */
export const eventTitle = (event: DescribedEvent) => describeEvent(event).title;

/** The unit of the event's worst value and limit (the webhook's `unit`); null when it has none. */
export const eventValueUnit = (event: DescribedEvent) => describeEvent(event).measure?.unit ?? null;

/** The number to its decimals, without binary noise (1.005 -> "1.01"), no "-0". */
function fixed(value: number, decimals: number): string {
  const f = 10 ** decimals;
  const rounded = Math.round(value * f + Math.sign(value) * 1e-9) / f || 0;
  return rounded.toFixed(decimals);
}

/** A number with its unit as written after it ("123.5 µg/L", "53.9366°"). */
function withUnit(value: number, measure: Pick<EventMeasure, 'suffix' | 'decimals'>): string {
  const number = fixed(value, measure.decimals);
  if (!measure.suffix) return number;
  return measure.suffix === '°' ? `${number}°` : `${number} ${measure.suffix}`;
}

/**
 * The worst value against its limit, with what it measures and its unit: "pH 6.00 (minimum 6.50)", "SO2/CO2 ratio
 * 5.20 (limit 4.30)", "PAH above inlet 123.5 µg/L (limit 50.0 µg/L)", "SO2 21.0 ppm (flat-lined)"; '–' without a
 * value. A value no criterion explains is written as a plain number.
 */
export function eventValueText(
  event: DescribedEvent & { worstValue: number | null; limit: number | null },
): string {
  if (event.worstValue === null) return '–';
  const { measure } = describeEvent(event);
  const m = measure ?? { name: '', suffix: null, decimals: 2, limitIs: 'maximum' as const, averaging: null };
  const value = [m.name, withUnit(event.worstValue, m)].filter(Boolean).join(' ');
  const averaged = m.averaging ? `${value}, ${m.averaging}` : value;
  if (event.type === 'sensor-fault') {
    const fault = event.fault ? (SENSOR_FAULT_NAMES[event.fault] ?? event.fault) : null;
    return fault ? `${averaged} (${fault})` : averaged;
  }
  if (event.limit === null) return averaged;
  return `${averaged} (${m.limitIs === 'minimum' ? 'minimum' : 'limit'} ${withUnit(event.limit, m)})`;
}

/** The label of the worst value: the lowest reading against a minimum, the highest against a maximum. */
export function worstReadingLabel(event: DescribedEvent): string {
  const limitIs = describeEvent(event).measure?.limitIs;
  return limitIs === 'minimum' ? 'Lowest reading' : limitIs === 'maximum' ? 'Highest reading' : 'Reading';
}

/**
 * The report's "Instrument and readings" as first drafted: the instrument, the event with its classification, and
 * its worst reading against the limit with the unit, e.g. "Washwater pH monitoring at the overboard discharge.
 * Washwater exceedance (pH below its minimum), malfunction. Lowest reading: pH 6.00 (minimum 6.50)."
 */
export function eventInstrumentText(
  event: DescribedEvent & {
    worstValue: number | null;
    limit: number | null;
    classification: EventClassification | string | null;
  },
): string {
  const { title, instrument } = describeEvent(event);
  const classification = event.classification
    ? ((EVENT_CLASSIFICATION_NAMES as Record<string, string>)[event.classification] ?? event.classification)
    : null;
  const reading = event.worstValue === null ? '' : ` ${worstReadingLabel(event)}: ${eventValueText(event)}.`;
  return `${instrument}. ${title}${classification ? `, ${classification.toLowerCase()}` : ''}.${reading}`;
}

/** A measurement field an event's chart draws. */
export interface EventChartLine {
  /** The measurement field's name (the default calculation's). */
  field: string;
  /** The legend's and the tooltip's name: "SO2/CO2 ratio", "Discharge pH", "Minimum". */
  label: string;
}

/**
 * What the chart of an event ("Inputs around the event") draws: the value the event is derived from and its limit
 * on the left axis, the scrubber's state on the right. An emission exceedance (and an event without a measure of its
 * own: scrubber off, data gap, ECA crossings, a fault of an emission channel) draws the SO2/CO2 ratio and its limit;
 * a washwater exceedance, or a fault of a washwater probe, the criterion's own derived field and limit
 * (WASHWATER_PH_DISCHARGING against WASHWATER_PH_LIMIT, the PAH and turbidity above the inlet against theirs), in
 * its unit, with the limit named as a minimum or a maximum.
 */
export interface EventChart {
  value: EventChartLine & {
    /** The axis name: "SO2/CO2", "pH", "µg/L", "NTU". */
    axis: string;
    decimals: number;
    /** The bucket value a reduced series keeps: the one that shows trouble. */
    worst: 'max' | 'min';
    /** The ratio is drawn capped at 25 as on the ship dashboard; null: drawn as it is. */
    cap: number | null;
  };
  limit: EventChartLine;
  /** The scrubber's state fields, drawn as steps on the right axis. */
  state: EventChartLine[];
}

const SCRUBBER_STATE: EventChartLine[] = [
  { field: 'SCRUBBER_RUNNING', label: 'Scrubber running' },
  { field: 'SCRUBBER_REQUIRED', label: 'Scrubber required' },
];

/** The derived fields of each washwater criterion (the default calculations, docs/decisions/0100-washwater.md). */
const WASHWATER_CHART: Record<string, Omit<EventChart, 'state'>> = {
  WASHWATER_PH: {
    value: {
      field: 'WASHWATER_PH_DISCHARGING',
      label: 'Discharge pH',
      axis: 'pH',
      decimals: 2,
      worst: 'min',
      cap: null,
    },
    limit: { field: 'WASHWATER_PH_LIMIT', label: 'Minimum' },
  },
  WASHWATER_PAH: {
    value: {
      field: 'WASHWATER_PAH_ABOVE_INLET',
      label: 'PAH above inlet',
      axis: 'µg/L',
      decimals: 1,
      worst: 'max',
      cap: null,
    },
    limit: { field: 'WASHWATER_PAH_LIMIT', label: 'Limit' },
  },
  WASHWATER_TURBIDITY: {
    value: {
      field: 'WASHWATER_TURBIDITY_ABOVE_INLET',
      label: 'Turbidity above inlet, 15-min average',
      axis: 'NTU',
      decimals: 1,
      worst: 'max',
      cap: null,
    },
    limit: { field: 'WASHWATER_TURBIDITY_LIMIT', label: 'Limit' },
  },
};

const RATIO_CHART: Omit<EventChart, 'state'> = {
  value: {
    field: 'SO2_CO2_RATIO',
    label: 'SO2/CO2 ratio',
    axis: 'SO2/CO2',
    decimals: 2,
    worst: 'max',
    cap: SHIP_RATIO_CHART_CAP,
  },
  limit: { field: 'SO2_CO2_LIMIT', label: 'Limit' },
};

/** The chart of an event, by its type and criterion (channel). */
export function eventChart(event: DescribedEvent): EventChart {
  const washwater =
    (event.type === 'washwater-exceedance' || event.type === 'sensor-fault') && event.channel
      ? WASHWATER_CHART[event.channel]
      : undefined;
  return { ...(washwater ?? RATIO_CHART), state: SCRUBBER_STATE };
}

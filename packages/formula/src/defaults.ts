import type { OutputType } from './check';

// The calculations that ship with the product (DOMAIN.md), approved, and editable in the
// calculation editor. Derived fields are listed after the fields they read.

export interface DefaultMeasurementField {
  name: string;
  dataType: OutputType;
  unit: string;
  documentation: string;
  requiredSampleIntervalInSeconds: 60;
  preloadIntervalInSeconds: 300;
  inputNames: string[];
  transformAlgorithm: string;
}

export interface DefaultReportKpi {
  key: string;
  name: string;
  unit: string;
  inputNames: string[];
  transformAlgorithm: string;
  algorithmSecondsSpan: 3600;
}

const raw = (
  name: string,
  dataType: OutputType,
  unit: string,
  documentation: string,
): DefaultMeasurementField => ({
  name,
  dataType,
  unit,
  documentation,
  requiredSampleIntervalInSeconds: 60,
  preloadIntervalInSeconds: 300,
  inputNames: [name],
  transformAlgorithm: `return ${name};\n`,
});

const derived = (
  name: string,
  dataType: OutputType,
  unit: string,
  documentation: string,
  inputNames: string[],
  transformAlgorithm: string,
): DefaultMeasurementField => ({
  name,
  dataType,
  unit,
  documentation,
  requiredSampleIntervalInSeconds: 60,
  preloadIntervalInSeconds: 300,
  inputNames,
  transformAlgorithm: transformAlgorithm.replace(/^\n/, ''),
});

export const DEFAULT_MEASUREMENT_FIELDS: readonly DefaultMeasurementField[] = [
  raw('FUEL_FLOW', 'Double', 'kg/h', 'Fuel to the combustion units connected to the scrubber.'),
  raw('FUEL_SULFUR', 'Double', '% m/m', 'Sulfur content of the fuel in use.'),
  raw('ENGINE_LOAD', 'Double', '%', 'Main engine load.'),
  raw('SO2_PPM', 'Double', 'ppm', 'SO2 at the scrubber outlet.'),
  raw('CO2_PCT', 'Double', '% v/v', 'CO2 at the scrubber outlet.'),
  raw('SCRUBBER_RUNNING', 'Boolean', '', 'Scrubber in operation.'),
  raw('SCRUBBER_POWER', 'Double', 'kW', 'Electrical power drawn by the scrubber (pumps, fans).'),
  raw('LATITUDE', 'Double', 'degrees', 'GNSS latitude.'),
  raw('LONGITUDE', 'Double', 'degrees', 'GNSS longitude.'),
  raw('WASHWATER_PH', 'Double', 'pH', 'Washwater pH.'),
  raw('WASHWATER_PAH', 'Double', 'ug/L', 'Washwater PAH.'),
  raw('WASHWATER_TURBIDITY', 'Double', 'NTU', 'Washwater turbidity.'),
  raw('WASHWATER_PH_INLET', 'Double', 'pH', 'pH of the washwater inlet (sea water).'),
  raw('WASHWATER_PAH_INLET', 'Double', 'ug/L', 'PAH (phenanthrene equivalent) at the washwater inlet.'),
  raw('WASHWATER_TURBIDITY_INLET', 'Double', 'NTU', 'Turbidity at the washwater inlet.'),
  raw('WASHWATER_FLOW', 'Double', 't/h', 'Washwater flow through the scrubber.'),
  raw('SCRUBBER_MODE', 'Integer', '', 'Scrubber mode of a hybrid scrubber: 0 closed loop, 1 open loop.'),
  derived(
    'SO2_CO2_RATIO',
    'Double',
    'ppm/%',
    'SO2 (ppm) / CO2 (% v/v) at the scrubber outlet, while the scrubber runs and CO2 is at least 0.5 %; null otherwise.',
    ['SCRUBBER_RUNNING', 'SO2_PPM', 'CO2_PCT'],
    `
// Below 0.5 % CO2 the ratio is meaningless (engine stopped, sensor purging).
if (SCRUBBER_RUNNING && CO2_PCT >= 0.5)
    return SO2_PPM / CO2_PCT;
return null;
`,
  ),
  derived(
    'SO2_CO2_LIMIT',
    'Double',
    'ppm/%',
    'The SO2/CO2 ratio limit: 4.3 (0.10 % S) inside an emission control area, 21.7 (0.50 % S) outside.',
    [],
    `
return ISECAZONE ? 4.3 : 21.7;
`,
  ),
  derived(
    'SCRUBBER_REQUIRED',
    'Boolean',
    '',
    'The scrubber is needed: fuel flows (over 50 kg/h) and its sulfur is over the limit of the area (0.10 % in an ECA, 0.50 % outside).',
    ['FUEL_FLOW', 'FUEL_SULFUR'],
    `
return FUEL_FLOW > 50 && FUEL_SULFUR > (ISECAZONE ? 0.10 : 0.50);
`,
  ),
  derived(
    'COMPLIANT',
    'Double',
    '',
    'When the scrubber is required: 1 if it runs and the SO2/CO2 ratio is within the limit, else 0. Null when not required.',
    ['SCRUBBER_REQUIRED', 'SCRUBBER_RUNNING', 'SO2_CO2_RATIO', 'SO2_CO2_LIMIT'],
    `
if (SCRUBBER_REQUIRED) {
    if (SCRUBBER_RUNNING && SO2_CO2_RATIO <= SO2_CO2_LIMIT)
        return 1;
    return 0;
}
return null;
`,
  ),
  derived(
    'RATIO_MARGIN',
    'Double',
    '%',
    'How far the SO2/CO2 ratio is below its limit, in % of the limit (100: no SO2 left; below 0: over the limit). Null when the ratio is null.',
    ['SO2_CO2_LIMIT', 'SO2_CO2_RATIO'],
    `
if (SO2_CO2_RATIO == null)
    return null;
return (SO2_CO2_LIMIT - SO2_CO2_RATIO) / SO2_CO2_LIMIT * 100;
`,
  ),
  derived(
    'SCRUBBER_FUEL',
    'Double',
    'kg/h',
    'Fuel burnt to make the power the scrubber draws, at 200 g/kWh.',
    ['SCRUBBER_POWER'],
    `
return SCRUBBER_POWER * 200 / 1000;
`,
  ),
  derived(
    'EXCESS_SULFUR_REMOVED',
    'Double',
    'kg/h',
    'Sulfur removed beyond what the area requires, from the fuel flow and the equivalent sulfur of the SO2/CO2 ratio (ratio / 43.3). 0 when the ratio is unknown.',
    ['FUEL_FLOW', 'SO2_CO2_RATIO'],
    `
if (SO2_CO2_RATIO == null)
    return 0;
double requiredSulfur = ISECAZONE ? 0.10 : 0.50;
return FUEL_FLOW * Math.Max(0, requiredSulfur - SO2_CO2_RATIO / 43.3) / 100;
`,
  ),
  derived(
    'CO2_SAVED',
    'Double',
    't/h',
    'CO2 saved while the scrubber runs, against running its pumps at a rated 1.5 % of installed power (200 g/kWh, HFO 3.114 t CO2/t). 0 when it does not run.',
    ['SCRUBBER_RUNNING', 'SCRUBBER_POWER'],
    `
if (SCRUBBER_RUNNING)
    return (0.015 * Facility_TotalEffectKW - SCRUBBER_POWER) * 200 / 1e6 * 3.114;
return 0;
`,
  ),
  // Washwater discharge (EGCS Guidelines, MEPC.259(68) section 10, kept in MEPC.340(77);
  // docs/decisions/0100-washwater.md).
  derived(
    'WASHWATER_DISCHARGING',
    'Boolean',
    '',
    'Washwater goes overboard: the scrubber is in open loop (SCRUBBER_MODE 1) with washwater flowing.',
    ['SCRUBBER_MODE', 'WASHWATER_FLOW'],
    `
return SCRUBBER_MODE == 1 && WASHWATER_FLOW > 0;
`,
  ),
  derived(
    'WASHWATER_PH_LIMIT',
    'Double',
    'pH',
    'The pH limit at the overboard discharge while discharging: 6.5; during manoeuvring and transit (main engine load above 0 and below 25 %) the inlet pH minus 2. Null while not discharging.',
    ['WASHWATER_DISCHARGING', 'ENGINE_LOAD', 'WASHWATER_PH_INLET'],
    `
if (WASHWATER_DISCHARGING != 1)
    return null;
// Manoeuvring and transit: at most 2 pH units below the inlet (MEPC.259(68) 10.1.2.1).
if (ENGINE_LOAD > 0 && ENGINE_LOAD < 25 && WASHWATER_PH_INLET != null)
    return WASHWATER_PH_INLET - 2;
return 6.5;
`,
  ),
  derived(
    'WASHWATER_PH_DISCHARGING',
    'Double',
    'pH',
    'The washwater pH at the overboard discharge while discharging; null otherwise.',
    ['WASHWATER_DISCHARGING', 'WASHWATER_PH'],
    `
return WASHWATER_DISCHARGING == 1 ? WASHWATER_PH : null;
`,
  ),
  derived(
    'WASHWATER_PH_COMPLIANT',
    'Double',
    '',
    'While discharging: 1 if the discharge pH is at or above its limit, else 0. Null while not discharging or without a pH value.',
    ['WASHWATER_PH_LIMIT', 'WASHWATER_PH'],
    `
if (WASHWATER_PH_LIMIT == null || WASHWATER_PH == null)
    return null;
return WASHWATER_PH >= WASHWATER_PH_LIMIT ? 1 : 0;
`,
  ),
  derived(
    'WASHWATER_PAH_ABOVE_INLET',
    'Double',
    'ug/L',
    'While discharging: PAH at the discharge minus PAH at the inlet (the inlet taken as 0 when the ship has no inlet value). Null otherwise.',
    ['WASHWATER_DISCHARGING', 'WASHWATER_PAH', 'WASHWATER_PAH_INLET'],
    `
if (WASHWATER_DISCHARGING != 1)
    return null;
return WASHWATER_PAH - (WASHWATER_PAH_INLET ?? 0);
`,
  ),
  derived(
    'WASHWATER_PAH_LIMIT',
    'Double',
    'ug/L',
    'While discharging: the PAH limit above the inlet, 50 ug/L at 45 t/MWh, 50 x 45 / F at a flow of F t/MWh (power: ENGINE_LOAD / 100 x installed power). Null otherwise, or when the engine gives no power.',
    ['WASHWATER_DISCHARGING', 'WASHWATER_FLOW', 'ENGINE_LOAD'],
    `
if (WASHWATER_DISCHARGING != 1)
    return null;
double powerMW = ENGINE_LOAD / 100 * Facility_TotalEffectKW / 1000;
// No flow rate per MWh without engine power: the limit is undefined.
if (!(powerMW > 0))
    return null;
double flowPerMWh = WASHWATER_FLOW / powerMW;
return 50 * 45 / flowPerMWh;
`,
  ),
  derived(
    'WASHWATER_TURBIDITY_ABOVE_INLET',
    'Double',
    'NTU',
    'While discharging: turbidity at the discharge minus turbidity at the inlet (0 without an inlet value), as a 15-minute rolling average. Null otherwise.',
    ['WASHWATER_DISCHARGING', 'WASHWATER_TURBIDITY', 'WASHWATER_TURBIDITY_INLET'],
    `
if (WASHWATER_DISCHARGING != 1)
    return null;
// The average of the last 15 minutes (MEPC.259(68) 10.1.4.1).
return AVERAGE_OVER(WASHWATER_TURBIDITY - (WASHWATER_TURBIDITY_INLET ?? 0), 900);
`,
  ),
  derived(
    'WASHWATER_TURBIDITY_LIMIT',
    'Double',
    'NTU',
    'While discharging: the turbidity limit above the inlet, 25 FNU (NTU). Null otherwise.',
    ['WASHWATER_DISCHARGING'],
    `
return WASHWATER_DISCHARGING == 1 ? 25 : null;
`,
  ),
  derived(
    'WASHWATER_COMPLIANT',
    'Double',
    '',
    'While discharging: 1 if pH, PAH and turbidity all meet their limits, else 0 (a missing value counts as not met; PAH without a limit, the engine giving no power, counts as met). Null while not discharging.',
    [
      'WASHWATER_DISCHARGING',
      'WASHWATER_PH_COMPLIANT',
      'WASHWATER_PAH_ABOVE_INLET',
      'WASHWATER_PAH_LIMIT',
      'WASHWATER_TURBIDITY_ABOVE_INLET',
      'WASHWATER_TURBIDITY_LIMIT',
    ],
    `
if (WASHWATER_DISCHARGING != 1)
    return null;
bool pahMet = WASHWATER_PAH_ABOVE_INLET != null
    && (WASHWATER_PAH_LIMIT == null || WASHWATER_PAH_ABOVE_INLET <= WASHWATER_PAH_LIMIT);
if (WASHWATER_PH_COMPLIANT == 1 && pahMet && WASHWATER_TURBIDITY_ABOVE_INLET <= WASHWATER_TURBIDITY_LIMIT)
    return 1;
return 0;
`,
  ),
  derived(
    'OPEN_LOOP_IN_NO_DISCHARGE_ZONE',
    'Boolean',
    '',
    'Open-loop discharge (SCRUBBER_MODE 1 with washwater flowing) inside a zone that bans it (ISNODISCHARGEZONE).',
    ['WASHWATER_DISCHARGING'],
    `
return WASHWATER_DISCHARGING == 1 && ISNODISCHARGEZONE;
`,
  ),
];

const kpi = (
  key: string,
  name: string,
  unit: string,
  inputNames: string[],
  transformAlgorithm: string,
): DefaultReportKpi => ({
  key,
  name,
  unit,
  inputNames,
  transformAlgorithm: transformAlgorithm.replace(/^\n/, ''),
  algorithmSecondsSpan: 3600,
});

// Every KPI gives no value for an hour with fewer than half its samples (30 at one a minute).
// Count() counts all target timestamps of the hour, null values included.
/** A raw field: its default calculation returns the ship's channel of the same name, unchanged. */
export const isRawField = (field: DefaultMeasurementField): boolean =>
  field.inputNames.length === 1 && field.inputNames[0] === field.name;

/** The channels a ship logs that the default calculations read (DOMAIN.md "Channels a ship logs"), in their order. */
export const CHANNELS_READ_BY_DEFAULTS: readonly string[] = DEFAULT_MEASUREMENT_FIELDS.filter(isRawField).map(
  (f) => f.name,
);

export const DEFAULT_REPORT_KPIS: readonly DefaultReportKpi[] = [
  kpi(
    'MarpolCompliance',
    'Marpol compliance',
    '%',
    ['COMPLIANT'],
    `
if (COMPLIANT.Count() < 30)
    return null;
// COMPLIANT is null while the scrubber is not required, and Average skips nulls.
return COMPLIANT.Average(v => v * 100);
`,
  ),
  kpi(
    'OperationalAvailability',
    'Operational availability',
    '%',
    ['SCRUBBER_RUNNING', 'SCRUBBER_REQUIRED'],
    `
if (SCRUBBER_REQUIRED.Count() < 30)
    return null;
double required = SCRUBBER_REQUIRED.Count(v => v == 1);
if (required == 0)
    return null;
// Above 100 when the scrubber also ran while not required.
return SCRUBBER_RUNNING.Count(v => v == 1) / required * 100;
`,
  ),
  kpi(
    'SO2CO2Ratio',
    'SO2/CO2 ratio',
    'ppm/%',
    ['SO2_CO2_RATIO'],
    `
if (SO2_CO2_RATIO.Count() < 30)
    return null;
return SO2_CO2_RATIO.Average();
`,
  ),
  kpi(
    'SO2CO2Limit',
    'SO2/CO2 ratio limit',
    'ppm/%',
    ['SO2_CO2_LIMIT'],
    `
if (SO2_CO2_LIMIT.Count() < 30)
    return null;
return SO2_CO2_LIMIT.Average();
`,
  ),
  kpi(
    'RatioMargin',
    'Ratio margin',
    '%',
    ['RATIO_MARGIN'],
    `
if (RATIO_MARGIN.Count() < 30)
    return null;
return RATIO_MARGIN.Average();
`,
  ),
  kpi(
    'SfocImpact',
    'SFOC impact',
    '%',
    ['SCRUBBER_FUEL', 'FUEL_FLOW'],
    `
if (FUEL_FLOW.Count() < 30)
    return null;
double fuel = FUEL_FLOW.Average();
// Engine stopped or idling.
if (fuel == null || fuel < 50)
    return null;
return SCRUBBER_FUEL.Average() / fuel * 100;
`,
  ),
  kpi(
    'TotalCO2Emission',
    'Total CO2 emission',
    't',
    ['FUEL_FLOW', 'SCRUBBER_FUEL'],
    `
if (FUEL_FLOW.Count() < 30)
    return null;
// A ship without scrubber power data still emits CO2 from its engines.
return (FUEL_FLOW.Average() + (SCRUBBER_FUEL.Average() ?? 0)) / 1000 * 3.114;
`,
  ),
  kpi(
    'ExtraRemovalOfSulfur',
    'Extra removal of sulfur',
    't',
    ['EXCESS_SULFUR_REMOVED'],
    `
if (EXCESS_SULFUR_REMOVED.Count() < 30)
    return null;
return EXCESS_SULFUR_REMOVED.Average() / 1000;
`,
  ),
  kpi(
    'CO2Reduction',
    'CO2 reduction',
    't',
    ['CO2_SAVED'],
    `
if (CO2_SAVED.Count() < 30)
    return null;
return CO2_SAVED.Average();
`,
  ),
  kpi(
    'WashwaterCompliance',
    'Washwater compliance',
    '%',
    ['WASHWATER_COMPLIANT'],
    `
if (WASHWATER_COMPLIANT.Count() < 30)
    return null;
// WASHWATER_COMPLIANT is null while not discharging: an hour without discharge gives no value.
if (!WASHWATER_COMPLIANT.Any(v => v != null))
    return null;
// 100 when every discharging minute met all three criteria: the period average is the share of such hours.
return WASHWATER_COMPLIANT.Any(v => v == 0) ? 0 : 100;
`,
  ),
  kpi(
    'WashwaterPh',
    'Washwater pH (lowest)',
    'pH',
    ['WASHWATER_PH_DISCHARGING'],
    `
if (WASHWATER_PH_DISCHARGING.Count() < 30)
    return null;
return WASHWATER_PH_DISCHARGING.Min();
`,
  ),
  kpi(
    'WashwaterPhLimit',
    'Washwater pH limit',
    'pH',
    ['WASHWATER_PH_LIMIT'],
    `
if (WASHWATER_PH_LIMIT.Count() < 30)
    return null;
// The most lenient limit of the hour (manoeuvring lowers it), so the chart never shows a breach that was not one.
return WASHWATER_PH_LIMIT.Min();
`,
  ),
  kpi(
    'WashwaterPahAboveInlet',
    'Washwater PAH above inlet (highest)',
    'ug/L',
    ['WASHWATER_PAH_ABOVE_INLET'],
    `
if (WASHWATER_PAH_ABOVE_INLET.Count() < 30)
    return null;
return WASHWATER_PAH_ABOVE_INLET.Max();
`,
  ),
  kpi(
    'WashwaterPahLimit',
    'Washwater PAH limit',
    'ug/L',
    ['WASHWATER_PAH_LIMIT'],
    `
if (WASHWATER_PAH_LIMIT.Count() < 30)
    return null;
// The most lenient limit of the hour (it rises as the flow per MWh falls).
return WASHWATER_PAH_LIMIT.Max();
`,
  ),
  kpi(
    'WashwaterTurbidityAboveInlet',
    'Washwater turbidity above inlet (highest 15-minute average)',
    'NTU',
    ['WASHWATER_TURBIDITY_ABOVE_INLET'],
    `
if (WASHWATER_TURBIDITY_ABOVE_INLET.Count() < 30)
    return null;
return WASHWATER_TURBIDITY_ABOVE_INLET.Max();
`,
  ),
  kpi(
    'WashwaterTurbidityLimit',
    'Washwater turbidity limit',
    'NTU',
    ['WASHWATER_TURBIDITY_LIMIT'],
    `
if (WASHWATER_TURBIDITY_LIMIT.Count() < 30)
    return null;
return WASHWATER_TURBIDITY_LIMIT.Max();
`,
  ),
  kpi(
    'OpenLoopInNoDischargeZoneHours',
    'Open loop in no-discharge zones',
    'h',
    ['OPEN_LOOP_IN_NO_DISCHARGE_ZONE'],
    `
if (OPEN_LOOP_IN_NO_DISCHARGE_ZONE.Count() < 30)
    return null;
// The share of the hour's samples: hours of open-loop discharge inside a zone that bans it.
return OPEN_LOOP_IN_NO_DISCHARGE_ZONE.Count(v => v == 1) / OPEN_LOOP_IN_NO_DISCHARGE_ZONE.Count();
`,
  ),
];

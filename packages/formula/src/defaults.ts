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
];

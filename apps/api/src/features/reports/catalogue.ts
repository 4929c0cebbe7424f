import type { AggregateType, FieldFormat, InterfaceType, ReportTarget } from '@portal/contracts/reports';
import { REPORT_CODES } from '@portal/contracts/reports';

/**
 * The default reports: one per dashboard widget (spec part 1 section 3), each field one value the widget
 * shows. Every field reads one hourly KPI of DOMAIN.md (`kpi`, a key of DEFAULT_REPORT_KPIS); fields of the
 * same KPI share one stored hourly series (docs/decisions/0030-report-fields.md), so the differences between
 * them are only in how the hours are aggregated.
 */
export type KpiKey =
  | 'MarpolCompliance'
  | 'OperationalAvailability'
  | 'SO2CO2Ratio'
  | 'SO2CO2Limit'
  | 'RatioMargin'
  | 'SfocImpact'
  | 'TotalCO2Emission'
  | 'ExtraRemovalOfSulfur'
  | 'CO2Reduction'
  | 'WashwaterCompliance'
  | 'WashwaterPh'
  | 'WashwaterPhLimit'
  | 'WashwaterPahAboveInlet'
  | 'WashwaterPahLimit'
  | 'WashwaterTurbidityAboveInlet'
  | 'WashwaterTurbidityLimit'
  | 'OpenLoopInNoDischargeZoneHours';

export interface DefaultReportField {
  name: string;
  kpi: KpiKey;
  asLifetime?: boolean;
  asSeries?: boolean;
  byFacility?: boolean;
  facilityAggregateType: AggregateType;
  timeAggregateType: AggregateType;
  format: FieldFormat;
  formatNote?: string;
  interfaceType: InterfaceType;
  unit: string;
  note?: string;
  documentation: string;
}

export interface DefaultReport {
  id: string;
  name: string;
  target: ReportTarget;
  documentation: string;
  information: string;
  fields: DefaultReportField[];
}

const percent = (kpi: KpiKey) =>
  ({
    kpi,
    facilityAggregateType: 'Average',
    timeAggregateType: 'Average',
    format: 'Percent',
    unit: '%',
  }) as const;
const tonnes = (kpi: KpiKey) =>
  ({
    kpi,
    facilityAggregateType: 'Sum',
    timeAggregateType: 'Sum',
    format: 'Tonnes',
    unit: 't',
    formatNote: 'Under 1 t in kg, from 100000 t in MT',
  }) as const;
const ratio = (kpi: KpiKey) =>
  ({
    kpi,
    facilityAggregateType: 'Average',
    timeAggregateType: 'Average',
    format: 'Ratio',
    unit: 'ppm/%',
  }) as const;

/** A washwater criterion (pH, µg/L, NTU): its worst hourly value, `worst` over the period. */
const criterion = (kpi: KpiKey, unit: string, worst: 'Min' | 'Max') =>
  ({
    kpi,
    facilityAggregateType: worst,
    timeAggregateType: worst,
    format: 'Number',
    unit,
  }) as const;
const hours = (kpi: KpiKey) =>
  ({
    kpi,
    facilityAggregateType: 'Sum',
    timeAggregateType: 'Sum',
    format: 'Hours',
    unit: 'h',
  }) as const;

type FieldBase =
  | ReturnType<typeof percent>
  | ReturnType<typeof tonnes>
  | ReturnType<typeof ratio>
  | ReturnType<typeof hours>;

const periodValue = (base: FieldBase, documentation: string): DefaultReportField => ({
  name: 'ActualAverage',
  ...base,
  interfaceType: 'Number',
  documentation,
});
const lifetime = (base: FieldBase, documentation: string): DefaultReportField => ({
  name: 'Lifetime',
  ...base,
  asLifetime: true,
  interfaceType: 'Number',
  documentation,
});
const perShip = (base: FieldBase, documentation: string, name = 'Facilities'): DefaultReportField => ({
  name,
  ...base,
  byFacility: true,
  interfaceType: 'FacilityList',
  documentation,
});
const fleetActual = (base: FieldBase, documentation: string): DefaultReportField => ({
  name: 'FleetActual',
  ...base,
  interfaceType: 'FleetNumber',
  documentation,
});

const info = (title: string, ...paragraphs: string[]) =>
  `<h2>${title}</h2>${paragraphs.map((p) => `<p>${p}</p>`).join('')}`;

const MARPOL_INFO = info(
  'Marpol compliance',
  'The share of the time the scrubber was required in which the ship complied with MARPOL Annex VI: the scrubber ran and the SO2/CO2 ratio at its outlet was within the limit of the area (4.3 inside an emission control area, 21.7 outside).',
  'Each hour gives the average of its compliant minutes; an hour without a required minute, or with fewer than 30 samples, gives no value. The period value is the average of the hours with a value; the fleet value is the average of the ships.',
);
const AVAILABILITY_INFO = info(
  'Operational availability',
  'How much of the time the scrubber was needed it was running: the minutes the scrubber ran divided by the minutes it was required (fuel flow over 50 kg/h with fuel above the sulfur cap of the area), in %.',
  'Each hour gives its own value; an hour without a required minute, or with fewer than 30 samples, gives no value. The period value is the average of the hours; the fleet value is the average of the ships. The uptime matrix shows the hourly values, or daily averages when the period is longer than 3 months.',
  'Why it can be above 100 %: every minute the scrubber runs counts, also when it was not required (in port, on compliant fuel, or with the engines nearly idle), while only the required minutes are divided by. A value above 100 % is no error: the scrubber ran more than it had to.',
);
const RATIO_INFO = info(
  'SO2/CO2 ratio',
  'The SO2 (ppm) / CO2 (% v/v) ratio at the scrubber outlet shows how much sulfur is left in the exhaust. Its limit is 4.3 for 0.10 % sulfur (inside an emission control area) and 21.7 for 0.50 % sulfur (outside).',
  'The margin is the distance below the limit in % of the limit: 100 means no SO2 left (over-scrubbing), 50 to 10 is optimal, 10 to 0 is at risk and below 0 is over the limit (under-scrubbing).',
);
const SFOC_INFO = info(
  'SFOC impact',
  'The fuel burnt to power the scrubber (pumps and fans, at 200 g/kWh) in % of the fuel to the engines it serves. The industry standard is 2.0 to 2.5 %.',
  'Hours in which the engines burn under 50 kg/h (stopped or idling) give no value. The period value is the average of the hours; the fleet value the average of the ships.',
);
const CO2_REDUCTION_INFO = info(
  'CO2 reduction',
  'CO2 saved while the scrubber runs, against running its pumps at a rated 1.5 % of the installed power (200 g/kWh, 3.114 t CO2 per t of fuel), in tonnes.',
  'The hourly values are summed over the period and over the fleet.',
);
const SULFUR_INFO = info(
  'Extra removal of sulfur',
  'Sulfur removed beyond what the area requires (0.10 % inside an emission control area, 0.50 % outside), from the fuel flow and the equivalent sulfur content of the SO2/CO2 ratio (ratio / 43.3), in tonnes.',
  'The hourly values are summed over the period and over the fleet.',
);
const EMISSION_INFO = info(
  'Total CO2 emission',
  'CO2 emitted from the fuel to the engines and the fuel burnt to power the scrubber, at 3.114 t CO2 per t of heavy fuel oil, in tonnes.',
  'The hourly values are summed over the period and over the fleet.',
);

const WASHWATER_INFO = info(
  'Washwater compliance',
  'While an open-loop scrubber discharges washwater (open-loop mode with washwater flowing), the EGCS Guidelines (MEPC.259(68) section 10, kept in MEPC.340(77)) limit what goes overboard: a pH of at least 6.5 (during manoeuvring and transit at most 2 units below the inlet), PAH at most 50 µg/L above the inlet at 45 t/MWh (50 x 45 / F at a flow of F t/MWh), and turbidity at most 25 NTU above the inlet as a 15-minute rolling average.',
  'An hour with discharge counts as compliant when every discharging minute met all three limits. The value is the share of compliant hours among the hours with discharge; an hour without discharge, or with fewer than 30 samples, gives no value. The fleet value is the average of the ships.',
);
const CRITERIA_INFO = info(
  'Washwater criteria',
  'The worst value of each washwater criterion per hour against its limit: the lowest discharge pH (limit 6.5, or the inlet pH minus 2 during manoeuvring and transit), the highest PAH above the inlet (limit 50 x 45 / F µg/L at a washwater flow of F t/MWh) and the highest 15-minute average of turbidity above the inlet (limit 25 NTU).',
  'The limit shown is the most lenient of the hour; each minute is judged against its own limit, and the exceedances appear as events.',
);
const NO_DISCHARGE_INFO = info(
  'Open loop in no-discharge zones',
  'Hours in which the scrubber discharged washwater in open-loop mode inside a port or coastal zone that bans open-loop discharge (Singapore, China, Belgium, Denmark, the Suez and Panama canals, several German, Irish and US ports and waters).',
  'The zones and their sources are listed in the documentation (docs/discharge-zones.md). The hourly values are summed over the period.',
);

const C = REPORT_CODES;

export const DEFAULT_REPORTS: readonly DefaultReport[] = [
  {
    id: C.fleetExtraRemovalOfSulfur,
    name: 'Extra removal of sulfur (fleet)',
    target: 'FacilityGroup',
    documentation:
      'Header widget of the fleet dashboard: sulfur removed beyond the requirement by the ships of the fleet filter.',
    information: SULFUR_INFO,
    fields: [
      periodValue(tonnes('ExtraRemovalOfSulfur'), 'Sum over the period and the ships.'),
      lifetime(tonnes('ExtraRemovalOfSulfur'), 'Sum over all data of the ships.'),
    ],
  },
  {
    id: C.fleetCo2Reduction,
    name: 'CO2 reduction (fleet)',
    target: 'FacilityGroup',
    documentation: 'Header widget of the fleet dashboard: CO2 saved by the ships of the fleet filter.',
    information: CO2_REDUCTION_INFO,
    fields: [
      periodValue(tonnes('CO2Reduction'), 'Sum over the period and the ships.'),
      lifetime(tonnes('CO2Reduction'), 'Sum over all data of the ships.'),
    ],
  },
  {
    id: C.fleetTotalCo2Emission,
    name: 'Total CO2 emission (fleet)',
    target: 'FacilityGroup',
    documentation: 'Header widget of the fleet dashboard: CO2 emitted by the ships of the fleet filter.',
    information: EMISSION_INFO,
    fields: [
      periodValue(tonnes('TotalCO2Emission'), 'Sum over the period and the ships.'),
      lifetime(tonnes('TotalCO2Emission'), 'Sum over all data of the ships.'),
    ],
  },
  {
    id: C.fleetMarpolCompliance,
    name: 'Marpol compliance (fleet)',
    target: 'FacilityGroup',
    documentation: 'Large card of the fleet dashboard: gauge of the fleet average and a bar per ship.',
    information: MARPOL_INFO,
    fields: [
      periodValue(
        percent('MarpolCompliance'),
        'Average of the ships, each the average of its hours with a value.',
      ),
      lifetime(percent('MarpolCompliance'), 'Average of the ships over all their data.'),
      perShip(percent('MarpolCompliance'), 'Each ship over the period.'),
    ],
  },
  {
    id: C.fleetSo2Co2Ratio,
    name: 'SO2/CO2 ratio (fleet)',
    target: 'FacilityGroup',
    documentation:
      'Large card of the fleet dashboard: gauge of the fleet ratio margin and a bar per ship (its ratio, coloured by its margin).',
    information: RATIO_INFO,
    fields: [
      { ...periodValue(ratio('RatioMargin'), 'Average margin of the ships.'), format: 'Percent', unit: '%' },
      {
        ...perShip(ratio('RatioMargin'), 'Margin of each ship over the period: the colour of its bar.'),
        format: 'Percent',
        unit: '%',
      },
      {
        ...perShip(
          ratio('SO2CO2Ratio'),
          'Average SO2/CO2 ratio of each ship over the period: the height of its bar (capped at 20).',
          'Values',
        ),
        formatNote: 'The chart caps values at 20',
      },
      perShip(
        ratio('SO2CO2Limit'),
        'Average limit of each ship over the period (4.3 in an ECA, 21.7 outside).',
        'Limit',
      ),
    ],
  },
  {
    id: C.fleetOperationalAvailability,
    name: 'Operational availability (fleet)',
    target: 'FacilityGroup',
    documentation: 'Large card of the fleet dashboard: gauge of the fleet average and a bar per ship.',
    information: AVAILABILITY_INFO,
    fields: [
      periodValue(percent('OperationalAvailability'), 'Average of the ships.'),
      lifetime(percent('OperationalAvailability'), 'Average of the ships over all their data.'),
      perShip(percent('OperationalAvailability'), 'Each ship over the period.'),
    ],
  },
  {
    id: C.fleetSfocImpact,
    name: 'SFOC impact (fleet)',
    target: 'FacilityGroup',
    documentation: 'Large card of the fleet dashboard: gauge 0 to 4 % and a bar per ship.',
    information: SFOC_INFO,
    fields: [
      periodValue(percent('SfocImpact'), 'Average of the ships.'),
      lifetime(percent('SfocImpact'), 'Average of the ships over all their data.'),
      perShip(percent('SfocImpact'), 'Each ship over the period.'),
    ],
  },
  {
    id: C.shipMarpolCompliance,
    name: 'Marpol compliance',
    target: 'Facility',
    documentation:
      'Header widget of the ship dashboard, with the hourly values for its chart and the fleet value for comparison.',
    information: MARPOL_INFO,
    fields: [
      periodValue(percent('MarpolCompliance'), 'Average of the hours with a value.'),
      lifetime(percent('MarpolCompliance'), 'Average over all data of the ship.'),
      fleetActual(percent('MarpolCompliance'), 'Average of the ships of the fleet filter.'),
      {
        name: 'Values',
        ...percent('MarpolCompliance'),
        asSeries: true,
        interfaceType: 'ComplianceValues',
        documentation:
          'The hourly values (daily averages for periods over 3 months), grouped into slots by the chart.',
      },
    ],
  },
  {
    id: C.shipOperationalAvailability,
    name: 'Operational availability',
    target: 'Facility',
    documentation: 'Header widget of the ship dashboard.',
    information: AVAILABILITY_INFO,
    fields: [
      periodValue(percent('OperationalAvailability'), 'Average of the hours with a value.'),
      lifetime(percent('OperationalAvailability'), 'Average over all data of the ship.'),
      fleetActual(percent('OperationalAvailability'), 'Average of the ships of the fleet filter.'),
    ],
  },
  {
    id: C.shipCo2Reduction,
    name: 'CO2 reduction',
    target: 'Facility',
    documentation: 'Header widget of the ship dashboard.',
    information: CO2_REDUCTION_INFO,
    fields: [
      periodValue(tonnes('CO2Reduction'), 'Sum over the period.'),
      lifetime(tonnes('CO2Reduction'), 'Sum over all data of the ship.'),
    ],
  },
  {
    id: C.shipExtraRemovalOfSulfur,
    name: 'Extra removal of sulfur',
    target: 'Facility',
    documentation: 'Sub KPI of the ship dashboard.',
    information: SULFUR_INFO,
    fields: [
      periodValue(tonnes('ExtraRemovalOfSulfur'), 'Sum over the period.'),
      lifetime(tonnes('ExtraRemovalOfSulfur'), 'Sum over all data of the ship.'),
    ],
  },
  {
    id: C.shipSfocImpact,
    name: 'SFOC impact %',
    target: 'Facility',
    documentation: 'Sub KPI of the ship dashboard.',
    information: SFOC_INFO,
    fields: [
      periodValue(percent('SfocImpact'), 'Average of the hours with a value.'),
      lifetime(percent('SfocImpact'), 'Average over all data of the ship.'),
      fleetActual(percent('SfocImpact'), 'Average of the ships of the fleet filter.'),
    ],
  },
  {
    id: C.shipTotalCo2Emission,
    name: 'Total CO2 emission',
    target: 'Facility',
    documentation: 'Sub KPI of the ship dashboard.',
    information: EMISSION_INFO,
    fields: [
      periodValue(tonnes('TotalCO2Emission'), 'Sum over the period.'),
      lifetime(tonnes('TotalCO2Emission'), 'Sum over all data of the ship.'),
    ],
  },
  {
    id: C.shipSo2Co2Ratio,
    name: 'SO2/CO2 ratio',
    target: 'Facility',
    documentation: 'SO2/CO2 ratio card of the ship dashboard: the ratio over time against its limit.',
    information: RATIO_INFO,
    fields: [
      periodValue(ratio('SO2CO2Ratio'), 'Average ratio over the period.'),
      {
        name: 'Facility',
        ...ratio('RatioMargin'),
        format: 'Percent',
        unit: '%',
        interfaceType: 'Number',
        documentation: 'Average margin of the ship: the band it is in.',
      },
      {
        name: 'Values',
        ...ratio('SO2CO2Ratio'),
        asSeries: true,
        interfaceType: 'Series',
        formatNote: 'The chart caps values at 25; the note shows the actual value',
        documentation: 'The hourly ratio (daily averages for periods over 3 months).',
      },
      {
        name: 'Limit',
        ...ratio('SO2CO2Limit'),
        asSeries: true,
        interfaceType: 'Series',
        documentation: 'The hourly limit: 4.3 in an ECA, 21.7 outside.',
      },
    ],
  },
  {
    id: C.shipUptime,
    name: 'Operational availability (uptime matrix)',
    target: 'Facility',
    documentation:
      'Uptime matrix of the ship dashboard: hourly values, or daily averages when the period is longer than 3 months.',
    information: AVAILABILITY_INFO,
    fields: [
      periodValue(percent('OperationalAvailability'), 'Average of the hours with a value.'),
      {
        name: 'Values',
        ...percent('OperationalAvailability'),
        asSeries: true,
        interfaceType: 'UptimePoints',
        documentation: 'Hourly values, or daily averages (mode daily).',
      },
    ],
  },
  {
    id: C.fleetWashwaterCompliance,
    name: 'Washwater compliance (fleet)',
    target: 'FacilityGroup',
    documentation: 'Washwater card of the fleet dashboard: gauge of the fleet average and a bar per ship.',
    information: WASHWATER_INFO,
    fields: [
      periodValue(
        percent('WashwaterCompliance'),
        'Average of the ships, each the share of its hours with discharge that met every criterion.',
      ),
      lifetime(percent('WashwaterCompliance'), 'Average of the ships over all their data.'),
      perShip(percent('WashwaterCompliance'), 'Each ship over the period.'),
    ],
  },
  {
    id: C.shipWashwaterCompliance,
    name: 'Washwater compliance',
    target: 'Facility',
    documentation:
      'Washwater card of the ship dashboard: the share of the hours with discharge that met every criterion, with the hourly values and the fleet value for comparison.',
    information: WASHWATER_INFO,
    fields: [
      periodValue(
        percent('WashwaterCompliance'),
        'Share of the hours with discharge that met every criterion.',
      ),
      lifetime(percent('WashwaterCompliance'), 'Over all data of the ship.'),
      fleetActual(percent('WashwaterCompliance'), 'Average of the ships of the fleet filter.'),
      {
        name: 'Values',
        ...percent('WashwaterCompliance'),
        asSeries: true,
        interfaceType: 'ComplianceValues',
        documentation:
          'The hourly values (100: every criterion met, 0: not; daily averages for periods over 3 months).',
      },
    ],
  },
  {
    id: C.shipWashwaterCriteria,
    name: 'Washwater criteria',
    target: 'Facility',
    documentation:
      'Washwater chart of the ship dashboard: the worst pH, PAH above inlet and turbidity above inlet per hour against their limits, and the worst of the period.',
    information: CRITERIA_INFO,
    fields: [
      {
        name: 'PhValues',
        ...criterion('WashwaterPh', 'pH', 'Min'),
        asSeries: true,
        interfaceType: 'Series',
        documentation:
          'The lowest discharge pH of each hour with discharge (of each day for periods over 3 months).',
      },
      {
        name: 'PhLimit',
        ...criterion('WashwaterPhLimit', 'pH', 'Min'),
        asSeries: true,
        interfaceType: 'Series',
        documentation:
          'The pH limit of each hour: 6.5, or the inlet pH minus 2 during manoeuvring and transit.',
      },
      {
        name: 'PahValues',
        ...criterion('WashwaterPahAboveInlet', 'µg/L', 'Max'),
        asSeries: true,
        interfaceType: 'Series',
        documentation:
          'The highest PAH above the inlet of each hour with discharge (of each day for periods over 3 months).',
      },
      {
        name: 'PahLimit',
        ...criterion('WashwaterPahLimit', 'µg/L', 'Max'),
        asSeries: true,
        interfaceType: 'Series',
        documentation: 'The PAH limit of each hour: 50 x 45 / F µg/L at a washwater flow of F t/MWh.',
      },
      {
        name: 'TurbidityValues',
        ...criterion('WashwaterTurbidityAboveInlet', 'NTU', 'Max'),
        asSeries: true,
        interfaceType: 'Series',
        documentation:
          'The highest 15-minute average of turbidity above the inlet of each hour with discharge (of each day for periods over 3 months).',
      },
      {
        name: 'TurbidityLimit',
        ...criterion('WashwaterTurbidityLimit', 'NTU', 'Max'),
        asSeries: true,
        interfaceType: 'Series',
        documentation: 'The turbidity limit: 25 NTU above the inlet.',
      },
      {
        name: 'PhWorst',
        ...criterion('WashwaterPh', 'pH', 'Min'),
        interfaceType: 'Number',
        documentation: 'The lowest discharge pH of the period.',
      },
      {
        name: 'PahWorst',
        ...criterion('WashwaterPahAboveInlet', 'µg/L', 'Max'),
        interfaceType: 'Number',
        documentation: 'The highest PAH above the inlet of the period.',
      },
      {
        name: 'TurbidityWorst',
        ...criterion('WashwaterTurbidityAboveInlet', 'NTU', 'Max'),
        interfaceType: 'Number',
        documentation: 'The highest 15-minute average of turbidity above the inlet of the period.',
      },
    ],
  },
  {
    id: C.shipOpenLoopInNoDischargeZone,
    name: 'Open loop in no-discharge zones',
    target: 'Facility',
    documentation:
      'Washwater card of the ship dashboard: hours of open-loop discharge inside zones that ban it, with the hourly values.',
    information: NO_DISCHARGE_INFO,
    fields: [
      periodValue(hours('OpenLoopInNoDischargeZoneHours'), 'Sum over the period.'),
      lifetime(hours('OpenLoopInNoDischargeZoneHours'), 'Sum over all data of the ship.'),
      fleetActual(hours('OpenLoopInNoDischargeZoneHours'), 'Sum over the ships of the fleet filter.'),
      {
        name: 'Values',
        ...hours('OpenLoopInNoDischargeZoneHours'),
        asSeries: true,
        interfaceType: 'Series',
        documentation: 'The hours of each hour (0 to 1; daily averages for periods over 3 months).',
      },
    ],
  },
];

import type { ChannelNaming } from './ships';

export type ChannelDataType = 'Double' | 'Integer' | 'Boolean' | 'String' | 'UTCDateTime';

/** A channel the demo loggers record, under the portal's name (the DOMAIN measurement field name for the DOMAIN channels). */
export interface ChannelDefinition {
  field: string;
  unit: string;
  dataType: ChannelDataType;
  /** Decimals the loggers write; the generated samples are rounded to them. */
  decimals: number;
  description: string;
}

export const CHANNELS = [
  {
    field: 'FUEL_FLOW',
    unit: 'kg/h',
    dataType: 'Double',
    decimals: 1,
    description: 'Fuel to the combustion units connected to the scrubber',
  },
  {
    field: 'FUEL_SULFUR',
    unit: '% m/m',
    dataType: 'Double',
    decimals: 2,
    description: 'Sulfur content of the fuel in use',
  },
  { field: 'ENGINE_LOAD', unit: '%', dataType: 'Double', decimals: 1, description: 'Main engine load' },
  {
    field: 'SO2_PPM',
    unit: 'ppm',
    dataType: 'Double',
    decimals: 1,
    description: 'SO2 at the scrubber outlet',
  },
  {
    field: 'CO2_PCT',
    unit: '% v/v',
    dataType: 'Double',
    decimals: 2,
    description: 'CO2 at the scrubber outlet',
  },
  {
    field: 'SCRUBBER_RUNNING',
    unit: '',
    dataType: 'Boolean',
    decimals: 0,
    description: 'Scrubber in operation',
  },
  {
    field: 'SCRUBBER_POWER',
    unit: 'kW',
    dataType: 'Double',
    decimals: 1,
    description: 'Electrical power drawn by the scrubber (pumps, fans)',
  },
  { field: 'LATITUDE', unit: 'deg', dataType: 'Double', decimals: 5, description: 'GNSS latitude' },
  { field: 'LONGITUDE', unit: 'deg', dataType: 'Double', decimals: 5, description: 'GNSS longitude' },
  {
    field: 'WASHWATER_PH',
    unit: 'pH',
    dataType: 'Double',
    decimals: 2,
    description: 'Washwater pH at the overboard discharge',
  },
  {
    field: 'WASHWATER_PAH',
    unit: 'ug/L',
    dataType: 'Double',
    decimals: 1,
    description: 'Washwater PAH (phenanthrene equivalent)',
  },
  {
    field: 'WASHWATER_TURBIDITY',
    unit: 'NTU',
    dataType: 'Double',
    decimals: 1,
    description: 'Washwater turbidity',
  },
  { field: 'SHIP_SPEED', unit: 'kn', dataType: 'Double', decimals: 1, description: 'Speed over ground' },
  { field: 'HEADING', unit: 'deg', dataType: 'Double', decimals: 1, description: 'Gyro heading' },
  { field: 'ENGINE_RPM', unit: 'rpm', dataType: 'Double', decimals: 1, description: 'Main engine speed' },
  {
    field: 'EXHAUST_TEMP',
    unit: 'degC',
    dataType: 'Double',
    decimals: 1,
    description: 'Main engine exhaust gas temperature after the turbocharger',
  },
  {
    field: 'SCRUBBER_INLET_TEMP',
    unit: 'degC',
    dataType: 'Double',
    decimals: 1,
    description: 'Exhaust gas temperature at the scrubber inlet',
  },
  {
    field: 'SCRUBBER_OUTLET_TEMP',
    unit: 'degC',
    dataType: 'Double',
    decimals: 1,
    description: 'Exhaust gas temperature at the scrubber outlet',
  },
  {
    field: 'SEAWATER_TEMP',
    unit: 'degC',
    dataType: 'Double',
    decimals: 1,
    description: 'Seawater temperature at the sea chest',
  },
  {
    field: 'WASHWATER_PUMP_PRESSURE',
    unit: 'bar',
    dataType: 'Double',
    decimals: 2,
    description: 'Washwater pump discharge pressure',
  },
  {
    field: 'WASHWATER_FLOW',
    unit: 't/h',
    dataType: 'Double',
    decimals: 0,
    description: 'Washwater flow to the scrubber',
  },
  {
    field: 'SCRUBBER_DIFF_PRESSURE',
    unit: 'mbar',
    dataType: 'Double',
    decimals: 1,
    description: 'Gas-side pressure drop over the scrubber',
  },
  {
    field: 'AMBIENT_AIR_TEMP',
    unit: 'degC',
    dataType: 'Double',
    decimals: 1,
    description: 'Ambient air temperature',
  },
  {
    field: 'SCRUBBER_MODE',
    unit: '',
    dataType: 'Integer',
    decimals: 0,
    description: 'Scrubber mode (DOMAIN.md): 0 closed loop, 1 open loop',
  },
  {
    field: 'NAOH_DOSING',
    unit: 'L/h',
    dataType: 'Double',
    decimals: 1,
    description: 'Caustic soda (NaOH 50 %) dosing, closed loop',
  },
  {
    field: 'WASHWATER_PH_INLET',
    unit: 'pH',
    dataType: 'Double',
    decimals: 2,
    description: 'pH at the washwater inlet (sea water)',
  },
  {
    field: 'WASHWATER_PAH_INLET',
    unit: 'ug/L',
    dataType: 'Double',
    decimals: 1,
    description: 'PAH (phenanthrene equivalent) at the washwater inlet',
  },
  {
    field: 'WASHWATER_TURBIDITY_INLET',
    unit: 'NTU',
    dataType: 'Double',
    decimals: 1,
    description: 'Turbidity at the washwater inlet',
  },
] as const satisfies readonly ChannelDefinition[];

/** The portal name of a channel in {@link CHANNELS}. */
export type ChannelField = (typeof CHANNELS)[number]['field'];

export const CHANNEL_FIELDS = CHANNELS.map((c) => c.field);

/** Units as the loggers print them in their unit rows (with the symbols a Windows logger writes). */
const PRINTED_UNITS: Record<string, string> = { degC: '°C', 'ug/L': 'µg/l', deg: '°', 'm3/h': 'm³/h' };
export function printedUnit(unit: string): string {
  return PRINTED_UNITS[unit] ?? unit;
}

/** Raw channel names per logger naming style, in the order of {@link CHANNELS}. */
const NAMES: Record<ChannelNaming, string[]> = {
  plc: [
    'ME_FO_Flow_kgh',
    'FO_Sulphur_pct',
    'ME_Load_pct',
    'EGCS1_SO2_ppm',
    'EGCS1_CO2_pct',
    'EGCS1_Running',
    'EGCS1_Power_kW',
    'GPS_Lat',
    'GPS_Lon',
    'WW_Out_pH',
    'WW_Out_PAH_ugl',
    'WW_Out_Turb_NTU',
    'GPS_SOG_kn',
    'Gyro_Hdg_deg',
    'ME_RPM',
    'ME_ExhGas_TC_Out_C',
    'EGCS1_GasIn_T_C',
    'EGCS1_GasOut_T_C',
    'SW_Inlet_T_C',
    'EGCS1_WWPump_P_bar',
    'EGCS1_WW_Flow_th',
    'EGCS1_dP_mbar',
    'Amb_Air_T_C',
    'EGCS1_Mode',
    'EGCS1_NaOH_Lh',
    'WW_In_pH',
    'WW_In_PAH_ugl',
    'WW_In_Turb_NTU',
  ],
  tag: [
    'ME.FOFlow',
    'FO.Sulphur',
    'ME.Load',
    'EGC1.SO2',
    'EGC1.CO2',
    'EGC1.Run',
    'EGC1.Power',
    'NAV.Lat',
    'NAV.Lon',
    'WW1.pH',
    'WW1.PAH',
    'WW1.Turbidity',
    'NAV.SOG',
    'NAV.HDG',
    'ME.Speed',
    'ME.ExhTemp',
    'EGC1.TempIn',
    'EGC1.TempOut',
    'SW.Temp',
    'EGC1.PumpPress',
    'EGC1.WWFlow',
    'EGC1.DiffPress',
    'AMB.Temp',
    'EGC1.Mode',
    'EGC1.NaOH',
    'WW1.pH.In',
    'WW1.PAH.In',
    'WW1.Turbidity.In',
  ],
  verbose: [
    'Fuel flow ME',
    'Fuel sulphur content',
    'ME load',
    'SO2 outlet',
    'CO2 outlet',
    'Scrubber in operation',
    'Scrubber power consumption',
    'Latitude',
    'Longitude',
    'Washwater pH',
    'Washwater PAH',
    'Washwater turbidity',
    'Speed over ground',
    'Heading',
    'ME speed',
    'Exhaust gas temp. ME',
    'Gas temp. scrubber inlet',
    'Gas temp. scrubber outlet',
    'Seawater temp.',
    'Washwater pump pressure',
    'Washwater flow',
    'Scrubber diff. pressure',
    'Ambient air temp.',
    'Scrubber mode',
    'NaOH dosing',
    'Washwater inlet pH',
    'Washwater inlet PAH',
    'Washwater inlet turbidity',
  ],
  bracket: [
    'FO Flow [kg/h]',
    'Sulphur [%]',
    'ME Load [%]',
    'SO2 [ppm]',
    'CO2 [%]',
    'Scrubber ON',
    'Scrubber Power [kW]',
    'Lat [deg]',
    'Lon [deg]',
    'pH [-]',
    'PAH [ug/l]',
    'Turbidity [NTU]',
    'SOG [kn]',
    'HDG [deg]',
    'ME Speed [rpm]',
    'Exh Temp [C]',
    'Scr In Temp [C]',
    'Scr Out Temp [C]',
    'SW Temp [C]',
    'Pump Press [bar]',
    'WW Flow [t/h]',
    'dP [mbar]',
    'Air Temp [C]',
    'Scrubber Mode',
    'NaOH [l/h]',
    'Inlet pH [-]',
    'Inlet PAH [ug/l]',
    'Inlet Turbidity [NTU]',
  ],
};

/** Raw (logger) channel name for a portal channel, per naming style. */
export function rawChannelNames(naming: ChannelNaming): Record<ChannelField, string> {
  const names = NAMES[naming];
  if (names.length !== CHANNELS.length)
    throw new Error(`${naming} naming has ${names.length} names for ${CHANNELS.length} channels`);
  return Object.fromEntries(CHANNELS.map((c, i) => [c.field, names[i]!])) as Record<ChannelField, string>;
}

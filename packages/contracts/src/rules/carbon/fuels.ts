/**
 * Fuel types, consumers and the fuel tables of each greenhouse-gas regime (../shared/DOMAIN.md "Voyages, fuel and
 * greenhouse gases"). One table per regime: the IMO (DCS, CII), the EU (MRV and ETS), FuelEU Maritime and the UK
 * ETS use different constants for the same fuel.
 *
 * Each constant names its instrument, the table or paragraph and the date it applies from, and how it was checked
 * for this product (docs/decisions/0107-carbon-ledger-rules.md, "Constants and how they were checked"):
 * - "checked: ..." names the published text the value was compared with;
 * - "NOT VERIFIED" marks a value that could not be compared with the instrument's own text here; it stays as
 *   DOMAIN.md gives it until someone compares it with the Official Journal or the IMO resolution.
 */

/** The fuel types the ledger keeps apart (the rows the IMO DCS and the EU regimes report). */
export const FUEL_TYPES = ['HFO', 'LFO', 'MDO_MGO', 'LNG', 'METHANOL'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

export const FUEL_TYPE_NAMES: Record<FuelType, string> = {
  HFO: 'Heavy fuel oil (HFO)',
  LFO: 'Light fuel oil (LFO)',
  MDO_MGO: 'Diesel/gas oil (MDO/MGO)',
  LNG: 'Liquefied natural gas (LNG)',
  METHANOL: 'Methanol (fossil)',
};

/**
 * The consumer types of MARPOL Annex VI Appendix IX as amended by MEPC.385(81) (fuel oil consumption per consumer
 * type: main engines, auxiliary engines/generators, oil-fired boilers, others), collected from 2026-01-01
 * (MEPC.1/Circ.913). Checked: IRClass technical circular on MEPC.385(81) and MEPC.1/Circ.913; Lloyd's Register
 * note on the amendments (entry into force 2025-08-01, full data from 2026-01-01).
 */
export const CONSUMERS = ['MAIN_ENGINE', 'AUX_ENGINE', 'BOILER', 'OTHER'] as const;
export type Consumer = (typeof CONSUMERS)[number];

export const CONSUMER_NAMES: Record<Consumer, string> = {
  MAIN_ENGINE: 'Main engines',
  AUX_ENGINE: 'Auxiliary engines',
  BOILER: 'Boilers',
  OTHER: 'Others',
};

/**
 * The engine kinds an LNG consumer can be, for the methane slip (Cslip, % of the fuel mass that leaves unburnt).
 * Values: FuelEU Maritime, Regulation (EU) 2023/1805 Annex II (in force 2025-01-01), the same in the EU MRV
 * emission factors and in the UK ETS. Checked: the UK regulator's METS system offers exactly 3.1, 1.7, 0.2 and 2.6
 * as the default slips (UKGovernmentBEIS/ukets-maritime, emissions.constants.ts and the LNG source classes); two
 * independent transcriptions of Annex II agree. The Official Journal's table itself was not read here.
 */
export const LNG_ENGINES = ['OTTO_MEDIUM_SPEED', 'OTTO_SLOW_SPEED', 'DIESEL_SLOW_SPEED', 'LBSI'] as const;
export type LngEngine = (typeof LNG_ENGINES)[number];

export const LNG_ENGINE_NAMES: Record<LngEngine, string> = {
  OTTO_MEDIUM_SPEED: 'LNG Otto, dual fuel medium speed',
  OTTO_SLOW_SPEED: 'LNG Otto, dual fuel slow speed',
  DIESEL_SLOW_SPEED: 'LNG Diesel, dual fuel slow speed',
  LBSI: 'LNG lean-burn spark-ignited (LBSI)',
};

export const LNG_SLIP_PERCENT: Record<LngEngine, number> = {
  OTTO_MEDIUM_SPEED: 3.1,
  OTTO_SLOW_SPEED: 1.7,
  DIESEL_SLOW_SPEED: 0.2,
  LBSI: 2.6,
};

// ---------------------------------------------------------------------------------------------------------------
// IMO (DCS, regulation 27; CII, regulation 28)
// ---------------------------------------------------------------------------------------------------------------

export interface ImoFuel {
  /** t CO2 per t of fuel. */
  cf: number;
  /** Lower calorific value, kJ/kg. */
  lcvKjPerKg: number;
}

/**
 * The IMO's Cf and LCV: resolution MEPC.364(79), 2022 Guidelines on the method of calculation of the attained EEDI
 * for new ships (adopted 2022-12-16), paragraph 2.2.1, the table of fuel types; the CII guidelines (G1, MEPC.352(78),
 * adopted 2022-06-10, applying to the attained CII from calendar year 2023) take Cf from it.
 * Checked: Cf against the UK regulator's METS validation (ukets-maritime AerFossilFuels.java: HFO 3.114, LFO 3.151,
 * MDO/MGO 3.206, LNG 2.75, methanol 1.375, the same factors as the IMO table) and against a note quoting EU MRV
 * Annex I (HFO = ISO 8217 grades RME-RMK 3.114, LFO = RMA-RMD 3.151); MDO/MGO = grades DMX-DMB.
 * LCV (kJ/kg): NOT VERIFIED against the text of MEPC.364(79) here (DOMAIN.md's values; several independent
 * implementations carry the same numbers). The ledger uses LCV only to show energy, never in a filed figure.
 */
export const IMO_FUELS: Record<FuelType, ImoFuel> = {
  HFO: { cf: 3.114, lcvKjPerKg: 40_200 },
  LFO: { cf: 3.151, lcvKjPerKg: 41_200 },
  MDO_MGO: { cf: 3.206, lcvKjPerKg: 42_700 },
  LNG: { cf: 2.75, lcvKjPerKg: 48_000 },
  METHANOL: { cf: 1.375, lcvKjPerKg: 19_900 },
};

// ---------------------------------------------------------------------------------------------------------------
// Tank-to-wake factors shared by the EU MRV/ETS, FuelEU Maritime and the UK ETS
// ---------------------------------------------------------------------------------------------------------------

export interface TankToWakeFactors {
  /** g CO2 per g of fuel burnt. */
  cfCo2: number;
  /** g CH4 per g of fuel burnt (LNG: 0, its methane is in the slip). */
  cfCh4: number;
  /** g N2O per g of fuel burnt. */
  cfN2o: number;
}

/**
 * Default tank-to-wake emission factors: FuelEU Maritime, Regulation (EU) 2023/1805 Annex II (fossil fuels), which
 * the EU MRV (Regulation (EU) 2015/757 Annex I as amended by Delegated Regulation (EU) 2023/2776, CH4 and N2O
 * monitored from 2024-01-01) and the UK ETS maritime monitoring use as defaults.
 * Checked: the UK regulator's METS defaults (ukets-maritime fuels-and-emissions-factors-form.helper.ts: HFO, LFO,
 * MDO, MGO and methanol CH4 0.00005 and N2O 0.00018; LNG CH4 0 and N2O 0.00011) and two independent transcriptions
 * of Annex II. Methanol's CH4 and N2O, which DOMAIN.md left as "check Annex II": 0.00005 and 0.00018 (Annex II row
 * "Methanol, natural gas"; METS and one transcription agree; a third implementation seen gives CH4 0.003 and N2O 0,
 * which neither the regulator's defaults nor the other transcription support). The Official Journal's table itself
 * was not read here.
 */
export const TANK_TO_WAKE: Record<FuelType, TankToWakeFactors> = {
  HFO: { cfCo2: 3.114, cfCh4: 0.00005, cfN2o: 0.00018 },
  LFO: { cfCo2: 3.151, cfCh4: 0.00005, cfN2o: 0.00018 },
  MDO_MGO: { cfCo2: 3.206, cfCh4: 0.00005, cfN2o: 0.00018 },
  LNG: { cfCo2: 2.75, cfCh4: 0, cfN2o: 0.00011 },
  METHANOL: { cfCo2: 1.375, cfCh4: 0.00005, cfN2o: 0.00018 },
};

/** 100-year global warming potentials a regime weighs CH4 and N2O with (CO2 is 1). */
export interface GlobalWarmingPotentials {
  ch4: number;
  n2o: number;
}

// ---------------------------------------------------------------------------------------------------------------
// EU MRV and EU ETS
// ---------------------------------------------------------------------------------------------------------------

export interface RegimeFuelTable {
  regime: string;
  /** ISO date from which the table applies. */
  effectiveFrom: string;
  fuels: Record<FuelType, TankToWakeFactors>;
  gwp: GlobalWarmingPotentials;
}

/**
 * EU MRV / EU ETS: the MRV default factors; CO2 equivalents with the IPCC AR5 100-year GWPs (CH4 28, N2O 265) of
 * Delegated Regulation (EU) 2020/1044 that the maritime MRV (as amended by (EU) 2023/957 and 2023/2776) refers to.
 * CH4 and N2O are monitored from 2024 and count for surrender from the 2026 emissions (Directive 2003/87/EC
 * Article 3ga as amended by (EU) 2023/959).
 * GWP: NOT VERIFIED against the EU text here (DOMAIN.md's values; the UK ETS, which copied the EU maritime rules,
 * uses the same 28 and 265 in its regulator's code).
 */
export const EU_MRV_FUEL_TABLE: RegimeFuelTable = {
  regime: 'EU MRV / EU ETS',
  effectiveFrom: '2024-01-01',
  fuels: TANK_TO_WAKE,
  gwp: { ch4: 28, n2o: 265 },
};

// ---------------------------------------------------------------------------------------------------------------
// FuelEU Maritime
// ---------------------------------------------------------------------------------------------------------------

export interface FuelEuFuel extends TankToWakeFactors {
  /** Lower calorific value, MJ/g. */
  lcvMjPerG: number;
  /** Well-to-tank emission factor, g CO2e/MJ. */
  wttGco2ePerMj: number;
}

/**
 * FuelEU Maritime, Regulation (EU) 2023/1805 (applies from 2025-01-01), Annex II default values for fossil fuels:
 * LCV (MJ/g), WtT (gCO2e/MJ) and the tank-to-wake factors above; GWP100 of Annex I (CH4 25, N2O 298, IPCC AR4).
 * Checked: LCV and WtT against two independent transcriptions of Annex II (HFO 0.0405/13.5, LFO 0.0410/13.2,
 * MDO/MGO 0.0427/14.4, LNG 0.0491/18.5, methanol 0.0199/31.3) that agree with DOMAIN.md; GWP 25/298 against two
 * transcriptions of Annex I. The Official Journal's tables themselves were not read here (NOT VERIFIED at source).
 */
export const FUELEU_FUEL_TABLE: RegimeFuelTable & { fuels: Record<FuelType, FuelEuFuel> } = {
  regime: 'FuelEU Maritime',
  effectiveFrom: '2025-01-01',
  fuels: {
    HFO: { ...TANK_TO_WAKE.HFO, lcvMjPerG: 0.0405, wttGco2ePerMj: 13.5 },
    LFO: { ...TANK_TO_WAKE.LFO, lcvMjPerG: 0.041, wttGco2ePerMj: 13.2 },
    MDO_MGO: { ...TANK_TO_WAKE.MDO_MGO, lcvMjPerG: 0.0427, wttGco2ePerMj: 14.4 },
    LNG: { ...TANK_TO_WAKE.LNG, lcvMjPerG: 0.0491, wttGco2ePerMj: 18.5 },
    METHANOL: { ...TANK_TO_WAKE.METHANOL, lcvMjPerG: 0.0199, wttGco2ePerMj: 31.3 },
  },
  gwp: { ch4: 25, n2o: 298 },
};

// ---------------------------------------------------------------------------------------------------------------
// UK ETS maritime
// ---------------------------------------------------------------------------------------------------------------

/**
 * UK ETS maritime (The Greenhouse Gas Emissions Trading Scheme Order 2020 as extended to maritime; emissions from
 * 2026-07-01): the same default factors as the EU MRV, GWP100 CH4 28 and N2O 265.
 * Checked: the regulator's own emissions calculation (UKGovernmentBEIS/ukets-maritime,
 * AerEmissionsCalculatorUtils.java: GWP_CH4 28, GWP_N2O 265; CO2 = m (1 - slip) Cf, CH4 = (m (1 - slip) Cf_CH4 +
 * m slip) x 28, N2O = m (1 - slip) Cf_N2O x 265) and its default factors (see TANK_TO_WAKE).
 */
export const UK_ETS_FUEL_TABLE: RegimeFuelTable = {
  regime: 'UK ETS',
  effectiveFrom: '2026-07-01',
  fuels: TANK_TO_WAKE,
  gwp: { ch4: 28, n2o: 265 },
};

export interface GreenhouseGases {
  /** Tonnes of each gas and the CO2 equivalent under the table's GWPs. */
  co2: number;
  ch4: number;
  n2o: number;
  co2e: number;
}

/**
 * The gases from burning `massTonnes` of a fuel under a regime's table: the fuel that slips unburnt (LNG, by engine)
 * is methane; the rest burns with the table's factors (the UK regulator's formula, the same as the EU MRV's).
 */
export function greenhouseGases(
  table: RegimeFuelTable,
  fuelType: FuelType,
  massTonnes: number,
  lngEngine?: LngEngine,
): GreenhouseGases {
  const f = table.fuels[fuelType];
  const slip = fuelType === 'LNG' && lngEngine ? LNG_SLIP_PERCENT[lngEngine] / 100 : 0;
  const burnt = massTonnes * (1 - slip);
  const co2 = burnt * f.cfCo2;
  const ch4 = burnt * f.cfCh4 + massTonnes * slip;
  const n2o = burnt * f.cfN2o;
  return { co2, ch4, n2o, co2e: co2 + ch4 * table.gwp.ch4 + n2o * table.gwp.n2o };
}

/** Tonnes of CO2 from `massTonnes` of a fuel under the IMO's Cf (DCS and CII). */
export function imoCo2Tonnes(fuelType: FuelType, massTonnes: number): number {
  return massTonnes * IMO_FUELS[fuelType].cf;
}

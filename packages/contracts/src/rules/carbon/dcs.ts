import { CONSUMERS, FUEL_TYPES, type Consumer, type FuelType } from './fuels';
import { type Leg, sumLegs } from './ledger';

/**
 * The IMO DCS report of a ship and calendar year: MARPOL Annex VI regulation 27 and Appendix IX as amended by
 * MEPC.385(81) (adopted 2024-03-22, in force 2025-08-01; the new items collected from 2026-01-01 per
 * MEPC.1/Circ.913): every item the portal's data allows, and the items it cannot fill, named. Due to the flag State
 * within three months of the year's end. Checked: the list of new items (fuel per consumer type and fuel type, fuel
 * not under way per consumer type and fuel type, onshore power in kWh, laden distance, transport work, innovative
 * technologies) against IRClass's circular on MEPC.385(81) and Lloyd's Register's note on it; the items before the
 * amendment (IMO number, period, ship type, GT, NT, DWT, engine power, EEDI/EEXI, ice class, fuel per type,
 * method, distance, hours under way) from regulation 27 / Appendix IX as DOMAIN.md gives them (NOT VERIFIED against
 * the Appendix's own table here).
 */

export const DCS_METHODS = ['FLOW_METERS', 'BDN', 'TANK_MONITORING'] as const;
export type DcsMethod = (typeof DCS_METHODS)[number];

export const DCS_METHOD_NAMES: Record<DcsMethod, string> = {
  FLOW_METERS: 'Flow meters',
  BDN: 'Bunker delivery notes',
  TANK_MONITORING: 'Bunker fuel tank monitoring on board',
};

/** The ship's particulars the report carries (entered in the ship's details; null when not entered). */
export interface DcsShipParticulars {
  imoNumber: string | null;
  /** Ship type as regulation 2 names it (e.g. "Bulk carrier"). */
  shipType: string | null;
  grossTonnage: number | null;
  netTonnage: number | null;
  deadweight: number | null;
  /** kW: main and auxiliary reciprocating internal combustion engines over 130 kW. */
  mainEnginePowerKw: number | null;
  auxiliaryEnginePowerKw: number | null;
  /** EEDI or EEXI, g CO2/t-nm, when it applies. */
  eedi: number | null;
  iceClass: string | null;
  /** Is regulation 28 (CII) applicable: then laden distance and transport work are due. */
  ciiApplicable: boolean;
  /** Container ships report TEU-miles besides tonne-miles. */
  containerShip: boolean;
}

/** Cargo of a voyage, entered by a person or imported from noon reports. */
export interface VoyageCargo {
  /** The voyage's departure time (its key: the ledger's voyage start). */
  departure: number;
  laden: boolean;
  cargoTonnes: number | null;
  teu: number | null;
}

export interface DcsFuelLine {
  fuelType: FuelType;
  tonnes: number;
}

export interface DcsConsumerLine {
  consumer: Consumer;
  fuelType: FuelType;
  tonnes: number;
}

export interface DcsMissingItem {
  item: string;
  /** Why, in the words shown to the user. */
  reason: string;
}

export interface DcsReport {
  year: number;
  /** The period the data covers (ISO dates): the calendar year, or the part of it the ship's data holds. */
  periodStart: string;
  periodEnd: string;
  imoNumber: string | null;
  shipType: string | null;
  grossTonnage: number | null;
  netTonnage: number | null;
  deadweight: number | null;
  mainEnginePowerKw: number | null;
  auxiliaryEnginePowerKw: number | null;
  eedi: number | null;
  iceClass: string | null;
  method: DcsMethod;
  distanceNm: number;
  hoursUnderWay: number;
  fuel: DcsFuelLine[];
  fuelByConsumer: DcsConsumerLine[];
  fuelNotUnderWay: DcsConsumerLine[];
  shorePowerKwh: number | null;
  ladenDistanceNm: number | null;
  transportWorkTonneMiles: number | null;
  transportWorkTeuMiles: number | null;
  missing: DcsMissingItem[];
}

export interface DcsInput {
  year: number;
  particulars: DcsShipParticulars;
  /** The ledger of the year (buildLedger over [1 January, 1 January next)). */
  legs: readonly Leg[];
  cargo: readonly VoyageCargo[];
  /** Onshore power supplied to the ship in the year, kWh, when entered. */
  shorePowerKwh: number | null;
  method?: DcsMethod;
  /** Flow channel ids mapped for the ship, to name those with hours without data. */
  channelNames?: Readonly<Record<string, string>>;
  /** The first and last time the ship has data in the year (UTC epoch ms); the period is cut to them. */
  dataFrom?: number;
  dataTo?: number;
}

const TONNE = 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function dcsReport(input: DcsInput): DcsReport {
  const { year, particulars: p, legs } = input;
  const totals = sumLegs(legs);
  const missing: DcsMissingItem[] = [];
  const need = <T>(value: T | null, item: string, reason: string): T | null => {
    if (value === null) missing.push({ item, reason });
    return value;
  };
  need(p.imoNumber, 'IMO number', "The ship's IMO number is not entered.");
  need(p.shipType, 'Ship type', "The ship's type is not entered.");
  need(p.grossTonnage, 'Gross tonnage', "The ship's gross tonnage is not entered.");
  need(p.netTonnage, 'Net tonnage', "The ship's net tonnage is not entered.");
  need(p.deadweight, 'Deadweight tonnage', "The ship's deadweight is not entered.");
  need(p.mainEnginePowerKw, 'Power output of main engines', "The main engines' rated power is not entered.");
  need(
    p.auxiliaryEnginePowerKw,
    'Power output of auxiliary engines',
    "The auxiliary engines' rated power is not entered.",
  );

  const fuel: DcsFuelLine[] = [];
  const byConsumer: DcsConsumerLine[] = [];
  const notUnderWay: DcsConsumerLine[] = [];
  for (const fuelType of FUEL_TYPES) {
    const lines = totals.fuel.filter((f) => f.fuelType === fuelType);
    if (lines.length === 0) continue;
    fuel.push({ fuelType, tonnes: lines.reduce((s, f) => s + f.kg, 0) / TONNE });
    for (const consumer of CONSUMERS) {
      const line = lines.find((f) => f.consumer === consumer);
      if (!line) continue;
      byConsumer.push({ consumer, fuelType, tonnes: line.kg / TONNE });
      notUnderWay.push({ consumer, fuelType, tonnes: line.kgNotUnderWay / TONNE });
    }
  }
  const unknownKg = totals.fuel.filter((f) => f.fuelType === 'UNKNOWN').reduce((s, f) => s + f.kg, 0);
  if (unknownKg > 0)
    missing.push({
      item: 'Fuel oil consumption per fuel type',
      reason: `${(unknownKg / TONNE).toFixed(1)} t of fuel have no known fuel type (no change-over or fuel-type value before them).`,
    });
  if (fuel.length === 0)
    missing.push({
      item: 'Fuel oil consumption',
      reason: 'No flow channel with fuel data is mapped for the year.',
    });
  for (const [id, hours] of Object.entries(totals.hoursWithoutFuelData))
    if (hours >= 1)
      missing.push({
        item: 'Fuel oil consumption',
        reason: `${input.channelNames?.[id] ?? id}: ${Math.round(hours)} h of the year without fuel data (hours with fewer than 30 samples); that fuel is not in the figures.`,
      });
  if (totals.hoursWithoutPosition >= 1)
    missing.push({
      item: 'Distance travelled',
      reason: `${Math.round(totals.hoursWithoutPosition)} h of the year without a position fix.`,
    });
  if (!totals.fuel.some((f) => f.consumer === 'AUX_ENGINE') && fuel.length > 0)
    missing.push({
      item: 'Fuel oil consumption per consumer type',
      reason: 'No flow channel is mapped to the auxiliary engines.',
    });

  // Laden distance and transport work: per voyage, from its cargo.
  let ladenDistanceNm: number | null = null;
  let tonneMiles: number | null = null;
  let teuMiles: number | null = null;
  if (p.ciiApplicable) {
    const voyages = legs.filter((l) => l.kind === 'voyage' && l.distanceNm > 0);
    let withoutCargo = 0;
    let withoutTonnes = 0;
    let withoutTeu = 0;
    ladenDistanceNm = 0;
    tonneMiles = 0;
    teuMiles = 0;
    for (const v of voyages) {
      const cargo = input.cargo.find((c) => c.departure === v.start);
      if (!cargo) {
        withoutCargo++;
        continue;
      }
      if (!cargo.laden) continue;
      ladenDistanceNm += v.distanceNm;
      if (cargo.cargoTonnes === null) withoutTonnes++;
      else tonneMiles += cargo.cargoTonnes * v.distanceNm;
      if (p.containerShip) {
        if (cargo.teu === null) withoutTeu++;
        else teuMiles += cargo.teu * v.distanceNm;
      }
    }
    if (withoutCargo > 0)
      missing.push({
        item: 'Laden distance travelled and transport work',
        reason: `${withoutCargo} voyage(s) have no cargo entered (laden or ballast).`,
      });
    if (withoutTonnes > 0)
      missing.push({
        item: 'Transport work (tonne-miles)',
        reason: `${withoutTonnes} laden voyage(s) have no cargo mass entered.`,
      });
    if (withoutTeu > 0)
      missing.push({
        item: 'Transport work (TEU-miles)',
        reason: `${withoutTeu} laden voyage(s) have no TEU entered.`,
      });
    if (!p.containerShip) teuMiles = null;
  }
  if (input.shorePowerKwh === null)
    missing.push({
      item: 'Onshore power supplied',
      reason: 'The onshore power supplied in the year is not entered.',
    });

  const yearStart = Date.UTC(year, 0, 1);
  const yearEnd = Date.UTC(year + 1, 0, 1);
  return {
    year,
    periodStart: isoDay(Math.max(yearStart, input.dataFrom ?? yearStart)),
    periodEnd: isoDay(Math.min(yearEnd, input.dataTo ?? yearEnd) - 1),
    imoNumber: p.imoNumber,
    shipType: p.shipType,
    grossTonnage: p.grossTonnage,
    netTonnage: p.netTonnage,
    deadweight: p.deadweight,
    mainEnginePowerKw: p.mainEnginePowerKw,
    auxiliaryEnginePowerKw: p.auxiliaryEnginePowerKw,
    eedi: p.eedi,
    iceClass: p.iceClass,
    method: input.method ?? 'FLOW_METERS',
    distanceNm: totals.distanceNm,
    hoursUnderWay: totals.hoursUnderWay,
    fuel,
    fuelByConsumer: byConsumer,
    fuelNotUnderWay: notUnderWay,
    shorePowerKwh: input.shorePowerKwh,
    ladenDistanceNm,
    transportWorkTonneMiles: tonneMiles,
    transportWorkTeuMiles: teuMiles,
    missing,
  };
}

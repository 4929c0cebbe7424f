import {
  CONSUMER_NAMES,
  UK_ETS_FUEL_TABLE,
  type Consumer,
  type FuelType,
} from '@portal/contracts/rules/carbon';
import type { MetsReportQuery, UkEtsGasesRecord, UkEtsYearRecord } from '@portal/contracts/uk-ets';
import type { ShipType } from '@portal/contracts/ship-particulars';
import { conflict } from '../../errors';
import type { UkEtsShip } from './service';

/**
 * The annual emissions report (AER) as the regulator's METS API takes it: the body of
 * `PUT /external/v1.0/accounts/{company-imo-number}/aer/{year}` (operation submitAerData), schema `ExternalAer` of the
 * Maritime External API 4.0.0 (mets-schema/uk-maritime-ext-openapi-4.0.0.json; SOURCE.md beside it says where it comes
 * from). The test validates what this builds against that schema.
 *
 * What follows the regulator's own reading (ukets-maritime, AerAggregatedDataEmissionsCalculator.java and
 * ExternalAerMapper.java): the three parts carry the WHOLE emissions of their voyages and stays (METS takes 50 % of
 * the GB-NI part itself when it computes the surrender); tch4eqTotal and tn2oeqTotal are t CO2e (CH4 x 28, N2O x 265);
 * the fuel consumption per fuel is the sum over covered stays and voyages (GB and NI journeys), in t. Numbers are
 * rounded as the schema's descriptions allow (7 decimals for emissions, 5 for fuel).
 *
 * The report holds one ship: METS takes one report per maritime operator (company), so an operator with several
 * ships in scope has to put them together (not done here; docs/decisions/0114-uk-ets-and-ovd.md).
 */

/** The portal's ship types (MEPC.353(78)) as METS codes them (ExternalAerShipDetails.shipType). */
const METS_SHIP_TYPE: Record<ShipType, string> = {
  BULK_CARRIER: 'BULK',
  GAS_CARRIER: 'GAS',
  TANKER: 'OIL',
  CONTAINER_SHIP: 'CONT',
  GENERAL_CARGO_SHIP: 'GENERAL',
  REFRIGERATED_CARGO_CARRIER: 'RCV',
  COMBINATION_CARRIER: 'COMB',
  LNG_CARRIER: 'LNG',
  RO_RO_CARGO_SHIP_VEHICLE_CARRIER: 'VEH',
  RO_RO_CARGO_SHIP: 'RORO',
  RO_RO_PASSENGER_SHIP: 'ROPAX',
  RO_RO_PASSENGER_SHIP_HIGH_SPEED_CRAFT: 'ROPAX',
  CRUISE_PASSENGER_SHIP: 'CRUISE',
};

/**
 * The ledger's fuel types as METS codes them. The ledger keeps MDO and MGO as one type (the same factors, 3.206); it
 * is reported as MGO (ISO 8217 DMA, the distillate a scrubber ship burns in port).
 */
export const METS_FUEL_CODE: Record<FuelType, string> = {
  HFO: 'HFO',
  LFO: 'LFO',
  MDO_MGO: 'MGO',
  LNG: 'LNG',
  METHANOL: 'METHANOL',
};

/** The ledger's consumers as METS's emission source types and classes. */
const METS_SOURCE: Record<Consumer, { type: string; class: string }> = {
  MAIN_ENGINE: { type: 'MAIN_ENGINE', class: 'ICE' },
  AUX_ENGINE: { type: 'AUX_ENGINE', class: 'ICE' },
  BOILER: { type: 'BOILER', class: 'BOILERS' },
  OTHER: { type: 'OTHER', class: 'ICE' },
};

/**
 * The uncertainty METS accepts as the default for flow meters: 7.5 % (ukets-maritime ExternalEmpUncertaintyLevel.java
 * accepts DEFAULT only with 7.5).
 */
const DEFAULT_FLOW_METER_UNCERTAINTY = 7.5;

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));
const measurements = (g: UkEtsGasesRecord) => ({
  tco2Total: round(g.co2, 7),
  tch4eqTotal: round(g.ch4Co2e, 7),
  tn2oeqTotal: round(g.n2oCo2e, 7),
});

export type MetsAer = Record<string, unknown>;

export function metsReport(
  record: UkEtsYearRecord,
  ship: UkEtsShip,
  consumers: readonly { consumer: Consumer; fuelTypes: readonly FuelType[] }[],
  query: MetsReportQuery,
): MetsAer {
  const missing: string[] = [];
  if (!ship.imo || !/^\d{7}$/.test(ship.imo)) missing.push('its IMO number (7 digits)');
  if (!ship.shipType) missing.push('its ship type');
  if (ship.grossTonnage === null) missing.push('its gross tonnage');
  if (missing.length)
    throw conflict(`The report needs the ship's details: enter ${missing.join(', ')} on the ship's page.`);
  if (!record.shipInScope || !record.periodStart || !record.periodEnd)
    throw conflict(
      record.periodStart
        ? 'The UK ETS covers ships of 5,000 GT and above: this ship has no annual emissions report.'
        : 'The UK ETS covers maritime emissions from 1 July 2026: this year has no annual emissions report.',
    );
  const fuelTypes = (Object.keys(record.fuelTonnes) as FuelType[]).filter(
    (t) => t !== ('UNKNOWN' as FuelType),
  );
  const used = consumers.filter((c) => c.fuelTypes.length > 0);
  const allYear = record.periodStart.endsWith('-01-01') && record.periodEnd.endsWith('-12-31');
  return {
    shipParticulars: [
      {
        shipDetails: {
          shipImoNumber: ship.imo,
          name: ship.name.slice(0, 255),
          shipType: METS_SHIP_TYPE[ship.shipType as ShipType] ?? 'OTHER',
          grossTonnage: Math.round(ship.grossTonnage!),
          flag: query.flag,
          iceClassPolarCode: query.iceClass,
          companyNature: query.companyNature,
          allYear,
          ...(allYear ? {} : { from: record.periodStart, to: record.periodEnd }),
        },
        fuelTypes: fuelTypes.map((t) => ({
          fuelOriginCode: 'FOSSIL',
          fuelTypeCode: METS_FUEL_CODE[t],
          ttwEFCarbonDioxide: UK_ETS_FUEL_TABLE.fuels[t].cfCo2,
          ttwEFMethane: UK_ETS_FUEL_TABLE.fuels[t].cfCh4,
          ttwEFNitrousOxide: UK_ETS_FUEL_TABLE.fuels[t].cfN2o,
        })),
        emissionsSources: used.map((c) => ({
          name: CONSUMER_NAMES[c.consumer],
          emissionSourceTypeCode: METS_SOURCE[c.consumer].type,
          emissionSourceClassCode: METS_SOURCE[c.consumer].class,
          fuelTypeCodes: c.fuelTypes.map((t) => ({
            fuelOriginCode: 'FOSSIL',
            fuelTypeCode: METS_FUEL_CODE[t],
            // METS asks a slip for LNG: the ledger does not know the engine, so none is claimed.
            ...(t === 'LNG' ? { slipPercentage: 0 } : {}),
          })),
          monitoringMethods: ['FLOW_METERS'],
        })),
        uncertaintyLevel: [
          {
            monitoringMethodCode: 'FLOW_METERS',
            levelOfUncertaintyTypeCode: 'DEFAULT',
            shipSpecificUncertainty: DEFAULT_FLOW_METER_UNCERTAINTY,
          },
        ],
        derogations: { exceptionFromPerVoyageMonitoring: false },
      },
    ],
    reductionClaim: { reductionClaimApplied: false },
    emissions: {
      shipEmissions: [
        {
          shipImoNumber: ship.imo,
          annualEmission: {
            emissions: fuelTypes.map((t) => ({
              fuelOriginCode: 'FOSSIL',
              fuelTypeCode: METS_FUEL_CODE[t],
              amount: round(record.fuelTonnes[t] ?? 0, 5),
            })),
            etsEmissionsWithinUkPort: measurements(record.withinUkPorts),
            etsEmissionsBetweenUkPort: measurements(record.betweenUkPorts),
            etsEmissionsBetweenUkAndNiPort: measurements(record.betweenGbAndNi),
          },
        },
      ],
    },
  };
}

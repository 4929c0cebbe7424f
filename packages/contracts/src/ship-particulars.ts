import { z } from 'zod';

/**
 * The particulars of a ship the carbon intensity indicator needs (MARPOL Annex VI regulation 28; issue 31): its
 * ship type, deadweight and gross tonnage. Which of the two tonnages is the CII's capacity depends on the type; the
 * ledger's rules decide (rules/carbon/cii.ts).
 */

/**
 * The ship types of the CII reference lines: the 2022 Guidelines on the reference lines for use with operational
 * carbon intensity indicators (CII reference lines guidelines, G2), resolution MEPC.353(78), adopted 2022-06-10 and
 * applied from calendar year 2023, Table 1, in its order. MEPC.353(78) added the ro-ro passenger ship that is a
 * high-speed craft designed to SOLAS chapter X (a row of its own, by gross tonnage) to the types of MEPC.337(76).
 * Checked against two independent implementations that cite MEPC.353(78) Table 1 row by row (the 13 rows, with
 * their capacity: deadweight for bulk, gas, tanker, container, general cargo, refrigerated cargo, combination and
 * LNG; gross tonnage for the vehicle carrier, the ro-ro passenger ships and the cruise passenger ship); the IMO's own
 * PDF was not read here.
 */
export const SHIP_TYPES = [
  'BULK_CARRIER',
  'GAS_CARRIER',
  'TANKER',
  'CONTAINER_SHIP',
  'GENERAL_CARGO_SHIP',
  'REFRIGERATED_CARGO_CARRIER',
  'COMBINATION_CARRIER',
  'LNG_CARRIER',
  'RO_RO_CARGO_SHIP_VEHICLE_CARRIER',
  'RO_RO_CARGO_SHIP',
  'RO_RO_PASSENGER_SHIP',
  'RO_RO_PASSENGER_SHIP_HIGH_SPEED_CRAFT',
  'CRUISE_PASSENGER_SHIP',
] as const;
export type ShipType = (typeof SHIP_TYPES)[number];

/** The names MEPC.353(78) Table 1 gives them. */
export const SHIP_TYPE_NAMES: Record<ShipType, string> = {
  BULK_CARRIER: 'Bulk carrier',
  GAS_CARRIER: 'Gas carrier',
  TANKER: 'Tanker',
  CONTAINER_SHIP: 'Container ship',
  GENERAL_CARGO_SHIP: 'General cargo ship',
  REFRIGERATED_CARGO_CARRIER: 'Refrigerated cargo carrier',
  COMBINATION_CARRIER: 'Combination carrier',
  LNG_CARRIER: 'LNG carrier',
  RO_RO_CARGO_SHIP_VEHICLE_CARRIER: 'Ro-ro cargo ship (vehicle carrier)',
  RO_RO_CARGO_SHIP: 'Ro-ro cargo ship',
  RO_RO_PASSENGER_SHIP: 'Ro-ro passenger ship',
  RO_RO_PASSENGER_SHIP_HIGH_SPEED_CRAFT: 'Ro-ro passenger ship (high-speed craft, SOLAS chapter X)',
  CRUISE_PASSENGER_SHIP: 'Cruise passenger ship',
};

/**
 * Ours: bounds that catch a figure typed in the wrong unit (kg for t, a misplaced digit), well beyond the largest
 * ships afloat (the largest tanker built had about 565,000 t deadweight; the largest cruise ships are about 250,000
 * GT).
 */
export const DEADWEIGHT_MAX_TONNES = 600_000;
export const GROSS_TONNAGE_MAX = 300_000;

export const SHIP_PARTICULARS_MESSAGES = {
  shipType: 'Choose a ship type from the list',
  deadweightNumber: 'Deadweight must be a number of tonnes',
  deadweightPositive: 'Deadweight must be more than 0 t',
  deadweightMax: `Deadweight must be at most ${DEADWEIGHT_MAX_TONNES.toLocaleString('en-US')} t`,
  grossTonnageNumber: 'Gross tonnage must be a number',
  grossTonnageWhole: 'Gross tonnage is a whole number',
  grossTonnagePositive: 'Gross tonnage must be more than 0',
  grossTonnageMax: `Gross tonnage must be at most ${GROSS_TONNAGE_MAX.toLocaleString('en-US')}`,
} as const;
const M = SHIP_PARTICULARS_MESSAGES;

/** Empty input (null, blank text) as null; numeric text as a number. Left out stays left out (undefined). */
const numberOrNull = (value: unknown): unknown => {
  if (value === null) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : Number(value.trim());
  return value;
};

export const shipTypeSchema = z.enum(SHIP_TYPES, { error: M.shipType });

/**
 * The particulars as the ship info edit takes them. Each may be left out: then it stays as it is (a client that does
 * not know them yet changes nothing); null or an empty text clears it.
 */
export const shipParticularsBodySchema = z.object({
  shipType: z
    .preprocess((v) => (v === '' ? null : v), shipTypeSchema.nullable())
    .optional()
    .describe('MEPC.353(78) ship type; null clears it, left out keeps it.'),
  deadweightTonnes: z
    .preprocess(
      numberOrNull,
      z
        .number({ error: M.deadweightNumber })
        .gt(0, M.deadweightPositive)
        .max(DEADWEIGHT_MAX_TONNES, M.deadweightMax)
        .nullable(),
    )
    .optional()
    .describe('Deadweight, tonnes; null clears it, left out keeps it.'),
  grossTonnage: z
    .preprocess(
      numberOrNull,
      z
        .number({ error: M.grossTonnageNumber })
        .int(M.grossTonnageWhole)
        .gt(0, M.grossTonnagePositive)
        .max(GROSS_TONNAGE_MAX, M.grossTonnageMax)
        .nullable(),
    )
    .optional()
    .describe('Gross tonnage; null clears it, left out keeps it.'),
});
export type ShipParticularsBody = z.input<typeof shipParticularsBodySchema>;
export type ShipParticularsValues = z.output<typeof shipParticularsBodySchema>;

/** A ship's particulars as the API answers them (part of the ship). */
export const shipParticularsSchema = z.object({
  shipType: shipTypeSchema.nullable(),
  deadweightTonnes: z.number().nullable(),
  grossTonnage: z.number().nullable(),
});
export type ShipParticulars = z.infer<typeof shipParticularsSchema>;

import { z } from 'zod';
import { nameCheck } from './forms/text';
import { SHIP_TYPES } from './ship-particulars';
import { CII_RATINGS, CONSUMERS, DCS_METHODS, FUEL_TYPES, LNG_ENGINES } from './rules/carbon';

/**
 * The carbon ledger's API shapes (issue 31; ../shared/DOMAIN.md "Voyages, fuel and greenhouse gases"): ports, port
 * calls, voyages, fuel by type and consumer, bunker delivery notes, tank soundings, the reconciliation, the IMO DCS
 * report and the CII. Shapes only: the routes come with the storage and the jobs. The rules that fill them are in
 * './rules/carbon' (docs/decisions/0107-carbon-ledger-rules.md). Masses in tonnes, distances in nautical miles,
 * times as ISO 8601 instants (UTC).
 */

const instant = z.iso.datetime({ offset: true, message: 'Must be a UTC date and time (ISO 8601)' });
const day = z.iso.date({ message: 'Must be a date (YYYY-MM-DD)' });
export const fuelTypeSchema = z.enum(FUEL_TYPES);
/** Fuel whose type is not known is kept apart, never counted as a type. */
export const ledgerFuelTypeSchema = z.enum([...FUEL_TYPES, 'UNKNOWN']);
export const consumerSchema = z.enum(CONSUMERS);

// ---- Ports ----
// A port, an organization's own ports and corrections, and the regimes by date: packages/contracts/src/ports.ts
// (the ports feature, docs/decisions/0108-ports.md). The engine hands the rules their areas (rules/carbon PortArea).

// ---- Fuel ----

export const fuelAmountSchema = z.object({
  consumer: consumerSchema,
  fuelType: ledgerFuelTypeSchema,
  tonnes: z.number(),
  /** Of it, burnt while not under way (stopped, at anchor, drifting). */
  tonnesNotUnderWay: z.number(),
});
export type FuelAmount = z.infer<typeof fuelAmountSchema>;

/** What a flow channel's mapping adds for the ledger: what it feeds and where its fuel type comes from. */
export const flowChannelMappingSchema = z.object({
  channelId: z.string(),
  consumer: consumerSchema,
  fuelTypeSource: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('fixed'), fuelType: fuelTypeSchema }),
    z.object({ kind: z.literal('channel'), fuelTypeChannelId: z.string() }),
    z.object({ kind: z.literal('change-overs') }),
  ]),
  /** For an LNG consumer: its engine kind (the methane slip). */
  lngEngine: z.enum(LNG_ENGINES).nullable(),
});
export type FlowChannelMapping = z.infer<typeof flowChannelMappingSchema>;

// ---- Port calls, stays and voyages ----

export const portCallSchema = z.object({
  id: z.string(),
  shipId: z.string(),
  portId: z.string(),
  portName: z.string(),
  locode: z.string().nullable(),
  country: z.string(),
  arrival: instant,
  departure: instant,
  hours: z.number(),
  /** Hours inside the call without a position (a gap does not split a stay at one port). */
  gapHours: z.number(),
  /** The data begins or ends inside the call. */
  openStart: z.boolean(),
  openEnd: z.boolean(),
  /** Fuel at berth, per consumer and fuel type. */
  fuel: z.array(fuelAmountSchema),
  /** Hours of the stay without fuel data, per flow channel id. */
  hoursWithoutFuelData: z.record(z.string(), z.number()),
});
export type PortCallRecord = z.infer<typeof portCallSchema>;

export const voyageCargoSchema = z.object({
  laden: z.boolean(),
  cargoTonnes: z.number().nonnegative('Cargo cannot be negative').nullable(),
  teu: z.number().int().nonnegative('TEU cannot be negative').nullable(),
  /** Who entered it: a person, or a noon-report import. */
  source: z.enum(['ENTERED', 'NOON_REPORT']),
});
export type VoyageCargoRecord = z.infer<typeof voyageCargoSchema>;

const callEnd = z.object({
  portCallId: z.string(),
  portId: z.string(),
  portName: z.string(),
  country: z.string(),
});

export const voyageSchema = z.object({
  id: z.string(),
  shipId: z.string(),
  /** Null when the voyage starts before the ship's data (no known departure port). */
  from: callEnd.nullable(),
  /** Null while the ship has not arrived yet (or its data ends at sea). */
  to: callEnd.nullable(),
  departure: instant,
  arrival: instant,
  durationHours: z.number(),
  distanceNm: z.number(),
  hoursUnderWay: z.number(),
  /** Stopped at sea (drifting, at anchor outside a port). */
  hoursNotUnderWay: z.number(),
  hoursWithoutPosition: z.number(),
  fuel: z.array(fuelAmountSchema),
  hoursWithoutFuelData: z.record(z.string(), z.number()),
  /** t CO2 under the IMO's Cf. */
  co2Tonnes: z.number(),
  cargo: voyageCargoSchema.nullable(),
});
export type Voyage = z.infer<typeof voyageSchema>;

// ---- Bunker delivery notes and soundings ----

/** A bunker delivery note, kept as a record book entry (MARPOL Annex VI regulation 18 and Appendix V). */
export const bdnInputSchema = z.object({
  deliveredAt: instant,
  portId: z.string().nullable(),
  /** The port as written on the note, when it is not in the port list. */
  portName: z
    .string()
    .trim()
    .max(100, 'The port is at most 100 characters')
    .superRefine(nameCheck)
    .nullable(),
  fuelType: fuelTypeSchema,
  massTonnes: z.number().positive('Mass must be above 0 t').max(100_000, 'Mass is at most 100,000 t'),
  sulfurPercent: z.number().min(0, 'Sulfur cannot be negative').max(5, 'Sulfur is at most 5 % m/m'),
  /** MJ/kg, when the note gives it. */
  lcvMjPerKg: z
    .number()
    .positive('LCV must be above 0 MJ/kg')
    .max(130, 'LCV is at most 130 MJ/kg')
    .nullable(),
  /** kg/m3 at 15 °C. */
  densityKgM3: z
    .number()
    .positive('Density must be above 0 kg/m³')
    .max(1_100, 'Density is at most 1,100 kg/m³')
    .nullable(),
  bdnNumber: z
    .string()
    .trim()
    .max(50, 'The note number is at most 50 characters')
    .superRefine(nameCheck)
    .nullable(),
});
export type BdnInput = z.infer<typeof bdnInputSchema>;

export const bdnSchema = bdnInputSchema.extend({
  id: z.string(),
  shipId: z.string(),
  /** The record book entry that holds it. */
  recordBookEntryId: z.string(),
  enteredBy: z.string(),
  enteredAt: instant,
});
export type Bdn = z.infer<typeof bdnSchema>;

export const tankSoundingInputSchema = z.object({
  at: instant,
  fuelType: fuelTypeSchema,
  robTonnes: z.number().nonnegative('Remaining on board cannot be negative'),
});
export type TankSoundingInput = z.infer<typeof tankSoundingInputSchema>;

export const reconciliationRowSchema = z.object({
  fuelType: fuelTypeSchema,
  flowMeterTonnes: z.number(),
  bunkeredTonnes: z.number(),
  robStartTonnes: z.number().nullable(),
  robEndTonnes: z.number().nullable(),
  bdnTonnes: z.number().nullable(),
  differencePercent: z.number().nullable(),
  flagged: z.boolean(),
  missing: z.array(z.enum(['robStart', 'robEnd'])),
});

export const reconciliationSchema = z.object({
  shipId: z.string(),
  from: instant,
  to: instant,
  thresholdPercent: z.number(),
  rows: z.array(reconciliationRowSchema),
  total: z.object({
    flowMeterTonnes: z.number(),
    bdnTonnes: z.number().nullable(),
    differencePercent: z.number().nullable(),
    flagged: z.boolean(),
  }),
});
export type ReconciliationResult = z.infer<typeof reconciliationSchema>;

// ---- IMO DCS ----

const consumerLine = z.object({ consumer: consumerSchema, fuelType: fuelTypeSchema, tonnes: z.number() });

export const dcsReportSchema = z.object({
  shipId: z.string(),
  year: z.number().int(),
  periodStart: day,
  periodEnd: day,
  imoNumber: z.string().nullable(),
  shipType: z.string().nullable(),
  grossTonnage: z.number().nullable(),
  netTonnage: z.number().nullable(),
  deadweight: z.number().nullable(),
  mainEnginePowerKw: z.number().nullable(),
  auxiliaryEnginePowerKw: z.number().nullable(),
  eedi: z.number().nullable(),
  iceClass: z.string().nullable(),
  method: z.enum(DCS_METHODS),
  distanceNm: z.number(),
  hoursUnderWay: z.number(),
  fuel: z.array(z.object({ fuelType: fuelTypeSchema, tonnes: z.number() })),
  fuelByConsumer: z.array(consumerLine),
  fuelNotUnderWay: z.array(consumerLine),
  shorePowerKwh: z.number().nullable(),
  ladenDistanceNm: z.number().nullable(),
  transportWorkTonneMiles: z.number().nullable(),
  transportWorkTeuMiles: z.number().nullable(),
  missing: z.array(z.object({ item: z.string(), reason: z.string() })),
});
export type DcsReportRecord = z.infer<typeof dcsReportSchema>;

// ---- CII ----

const ciiRating = z.enum(CII_RATINGS);
const boundaries = z.tuple([z.number(), z.number(), z.number(), z.number()]);

export const ciiResultSchema = z.object({
  shipId: z.string(),
  /** The ship's type as entered (MEPC.353(78) Table 1); null when not entered. */
  shipType: z.enum(SHIP_TYPES).nullable(),
  capacity: z.number().nullable(),
  year: z.number().int(),
  asOf: instant,
  z: z.number().nullable(),
  reference: z.number().nullable(),
  required: z.number().nullable(),
  /** exp(d1)..exp(d4) x required: the bands of the gauge. */
  boundaries: boundaries.nullable(),
  co2Tonnes: z.number(),
  /** Fuel of the year whose type is not known: no Cf, so not in co2Tonnes nor in the attained value. */
  fuelOfUnknownTypeTonnes: z.number(),
  distanceNm: z.number(),
  attained: z.number().nullable(),
  rating: ciiRating.nullable(),
  projectedAttained: z.number().nullable(),
  projectedRating: ciiRating.nullable(),
  /** g CO2 per capacity-nm due to the scrubber's power, and its share of the attained value. */
  scrubberPart: z.number().nullable(),
  scrubberShare: z.number().nullable(),
  trajectory: z.array(
    z.object({
      year: z.number().int(),
      z: z.number(),
      required: z.number(),
      boundaries,
      attained: z.number().nullable(),
      rating: ciiRating.nullable(),
    }),
  ),
  correctiveActionRequired: z.boolean(),
  /** What keeps the ship from a rating (a particular not entered, no distance yet), in words; null when nothing. */
  missing: z.string().nullable(),
});
export type CiiResult = z.infer<typeof ciiResultSchema>;

/** The fleet CII card: each ship's rating this year and projected, ships heading for D or E first. */
export const fleetCiiSchema = z.object({
  year: z.number().int(),
  ships: z.array(
    z.object({
      shipId: z.string(),
      shipName: z.string(),
      attained: z.number().nullable(),
      rating: ciiRating.nullable(),
      projectedAttained: z.number().nullable(),
      projectedRating: ciiRating.nullable(),
      /** Why the ship has no rating (a particular not entered, no distance yet); null when it has one. */
      missing: z.string().nullable(),
    }),
  ),
});
export type FleetCii = z.infer<typeof fleetCiiSchema>;

// ---- Queries and inputs of the API (features/carbon) ----

/** A period of whole UTC days, both included: [from 00:00, to + 1 day 00:00). */
export const dayPeriodQuerySchema = z
  .object({
    from: day.describe('First day of the period (YYYY-MM-DD, UTC), included.'),
    to: day.describe('Last day of the period (YYYY-MM-DD, UTC), included.'),
  })
  .refine((q) => q.from <= q.to, { message: 'The period ends before it begins', path: ['to'] });
export type DayPeriodQuery = z.infer<typeof dayPeriodQuerySchema>;

/** An optional period of whole UTC days (a list's filter). */
export const optionalDayPeriodQuerySchema = z.object({
  from: day.optional().describe('First day (YYYY-MM-DD, UTC), included.'),
  to: day.optional().describe('Last day (YYYY-MM-DD, UTC), included.'),
});

export const MIN_LEDGER_YEAR = 2019;
export const MAX_LEDGER_YEAR = 2100;
export const yearQuerySchema = z.object({
  year: z.coerce
    .number({ error: 'Year must be a number' })
    .int('Year must be a whole number')
    .min(MIN_LEDGER_YEAR, `Year is from ${MIN_LEDGER_YEAR}`)
    .max(MAX_LEDGER_YEAR, `Year is at most ${MAX_LEDGER_YEAR}`)
    .describe('Calendar year (UTC).'),
});

export const DCS_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const dcsExportQuerySchema = yearQuerySchema.extend({
  format: z.enum(DCS_EXPORT_FORMATS, { error: 'Format is xlsx or csv' }).default('xlsx'),
});

/** Fuel of a ship over a period: per consumer and fuel type, with what it was burnt over. */
export const fuelByPeriodSchema = z.object({
  shipId: z.string(),
  from: instant,
  to: instant,
  fuel: z.array(fuelAmountSchema),
  /** t CO2 of the fuel of known type under the IMO's Cf. */
  co2Tonnes: z.number(),
  /** Fuel whose type is not known (no change-over or fuel type value for it): not in co2Tonnes. */
  fuelOfUnknownTypeTonnes: z.number(),
  distanceNm: z.number(),
  hoursUnderWay: z.number(),
  hoursNotUnderWay: z.number(),
  hoursAtBerth: z.number(),
  hoursWithoutFuelData: z.record(z.string(), z.number()),
});
export type FuelByPeriod = z.infer<typeof fuelByPeriodSchema>;

export const tankSoundingSchema = tankSoundingInputSchema.extend({
  id: z.string(),
  shipId: z.string(),
  enteredBy: z.string(),
  enteredAt: instant,
});
export type TankSounding = z.infer<typeof tankSoundingSchema>;

/** Cargo of a voyage as a person enters it. */
export const voyageCargoInputSchema = z.object({
  laden: z.boolean({ error: 'Say whether the ship sailed laden or in ballast' }),
  cargoTonnes: z
    .number()
    .nonnegative('Cargo cannot be negative')
    .max(1_000_000, 'Cargo is at most 1,000,000 t')
    .nullable(),
  teu: z
    .number()
    .int('TEU is a whole number')
    .nonnegative('TEU cannot be negative')
    .max(100_000, 'TEU is at most 100,000')
    .nullable(),
});
export type VoyageCargoInput = z.infer<typeof voyageCargoInputSchema>;

/** A CSV of noon reports (one row a report), imported into the voyages' cargo. */
export const noonReportImportSchema = z.object({
  csv: z.string().min(1, 'The file is empty').max(5_000_000, 'The file is larger than 5 MB'),
});
export const noonReportImportResultSchema = z.object({
  rows: z.number().int(),
  voyagesUpdated: z.number().int(),
  /** Rows not used, with why (line numbers count the header as line 1). */
  problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type NoonReportImportResult = z.infer<typeof noonReportImportResultSchema>;

import { z } from 'zod';
import { EU_LINE_SCOPES, FUEL_TYPES } from './rules/carbon';
import { MAX_LEDGER_YEAR, MIN_LEDGER_YEAR } from './carbon';
import { userText } from './forms/text';

/**
 * The EU MRV and EU ETS answers (issue "Step 5 of 7", EU part; docs/decisions/0112-eu-ets.md): per ship and year its
 * voyages and stays at berth with CO2, CH4, N2O and CO2e under the MRV's factors, the share in the ETS's scope, the
 * totals, the allowances due with the phase-in and their price in euros; per organization (the company) the same per
 * ship and in total. Rules in './rules/carbon/eu-ets.ts'. Gases in tonnes, times as ISO 8601 instants (UTC).
 */

const instant = z.iso.datetime({ offset: true });
const day = z.iso.date({ message: 'Must be a date (YYYY-MM-DD)' });

export const euGasesSchema = z.object({
  co2: z.number(),
  ch4: z.number(),
  n2o: z.number(),
  co2e: z.number(),
});
export type EuGasesView = z.infer<typeof euGasesSchema>;

export const euLineScopeSchema = z.enum(EU_LINE_SCOPES);

const portEnd = z.object({
  portId: z.string(),
  portName: z.string(),
  country: z.string(),
  /** On the day the voyage left or arrived: under a Member State's jurisdiction (EU/EEA), in an outermost region. */
  eea: z.boolean(),
  outermostRegion: z.boolean(),
});

/** A voyage, or a stay at berth, as far as it lies in the year. */
export const euLineSchema = z.object({
  kind: z.enum(['voyage', 'stay']),
  /** The voyage's or the port call's id; null for a piece the ledger holds in neither (rare: a call not stored). */
  id: z.string().nullable(),
  /** A voyage's ports (null when not known); a stay's port is `from`. */
  from: portEnd.nullable(),
  to: portEnd.nullable(),
  /** The whole voyage's or stay's times; the line's figures are those of its part in the year. */
  start: instant,
  end: instant,
  distanceNm: z.number(),
  hours: z.number(),
  fuel: z.array(z.object({ fuelType: z.enum(FUEL_TYPES), tonnes: z.number() })),
  /** Fuel of unknown type: no factor, not in the gases. */
  fuelOfUnknownTypeTonnes: z.number(),
  gases: euGasesSchema,
  scope: euLineScopeSchema,
  /** Share in the ETS (1, 0.5, 0); null while an end of the voyage is not known. */
  share: z.number().nullable(),
  inScope: euGasesSchema,
  /** A voyage between an outermost region and its own Member State: reported, no allowances until 2030. */
  outermostDerogation: z.boolean(),
});
export type EuLine = z.infer<typeof euLineSchema>;

export const euaPriceSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  /** The day the price holds from. */
  on: day,
  eurPerAllowance: z.number(),
  note: z.string().nullable(),
  enteredBy: z.string(),
  enteredAt: instant,
});
export type EuaPrice = z.infer<typeof euaPriceSchema>;

/** The figures of a ship or a company for a year, with what the cockpit shows. */
export const euYearFiguresSchema = z.object({
  /** Emissions of the lines in the MRV's scope (at least one end, or the berth, under a Member State's jurisdiction). */
  mrvTotal: euGasesSchema,
  byScope: z.record(euLineScopeSchema, euGasesSchema),
  /** Each line's gases times its share (Directive 2003/87/EC Art. 3ga). */
  inScope: euGasesSchema,
  /** Of them, the outermost regions' derogation (no allowances until 2030). */
  derogated: euGasesSchema,
  /** t the allowances are for: CO2e from 2026, CO2 before; and the phase-in of the year (0.4, 0.7, 1). */
  surrenderBasisTonnes: z.number(),
  phaseIn: z.number(),
  allowancesDue: z.number(),
  /** The same projected to the year's end at the rate of the trailing 90 days of data. */
  projectedAllowancesDue: z.number(),
  /** Euros at the price on the day asked; null without a price entered on or before it. */
  eur: z.number().nullable(),
  projectedEur: z.number().nullable(),
  fuelOfUnknownTypeTonnes: z.number(),
  /** Emissions of voyages whose other end is not known yet (not in scope until it is). */
  undetermined: euGasesSchema,
});
export type EuYearFigures = z.infer<typeof euYearFiguresSchema>;

const yearHeader = {
  year: z.number().int(),
  /** The days with data (null when none). */
  periodStart: day.nullable(),
  periodEnd: day.nullable(),
  surrenderDeadline: day,
  emissionsReportDeadline: day,
  /** The price used: the latest entered on or before `priceDay`. */
  priceDay: day,
  price: euaPriceSchema.nullable(),
  /** € per tonne CO2e for which no allowance is surrendered in time (Directive 2003/87/EC Art. 16(3)). */
  excessEmissionsPenaltyEur: z.number(),
};

export const euShipYearSchema = z.object({
  shipId: z.string(),
  shipName: z.string(),
  imoNumber: z.string().nullable(),
  ...yearHeader,
  lines: z.array(euLineSchema),
  figures: euYearFiguresSchema,
  /** Distance and hours at sea of the voyages in the MRV's scope (Regulation 2015/757 Art. 11(2)). */
  distanceNm: z.number(),
  hoursAtSea: z.number(),
  fuel: z.array(z.object({ fuelType: z.enum(FUEL_TYPES), tonnes: z.number() })),
});
export type EuShipYear = z.infer<typeof euShipYearSchema>;

export const euCompanyYearSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  ...yearHeader,
  ships: z.array(
    z.object({
      shipId: z.string(),
      shipName: z.string(),
      imoNumber: z.string().nullable(),
      periodStart: day.nullable(),
      periodEnd: day.nullable(),
      figures: euYearFiguresSchema,
    }),
  ),
  figures: euYearFiguresSchema,
});
export type EuCompanyYear = z.infer<typeof euCompanyYearSchema>;

export const euYearQuerySchema = z.object({
  year: z.coerce
    .number({ error: 'Year must be a number' })
    .int('Year must be a whole number')
    .min(MIN_LEDGER_YEAR, `Year is from ${MIN_LEDGER_YEAR}`)
    .max(MAX_LEDGER_YEAR, `Year is at most ${MAX_LEDGER_YEAR}`)
    .describe('Calendar year (UTC).'),
  priceDay: day
    .optional()
    .describe(
      'The day whose allowance price turns allowances into euros (YYYY-MM-DD): the latest entered on or before it. Today when not given.',
    ),
});

export const EU_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const euExportQuerySchema = euYearQuerySchema.extend({
  format: z.enum(EU_EXPORT_FORMATS, { error: 'Format is xlsx or csv' }).default('xlsx'),
});

export const EUA_PRICE_MAX = 10_000;
export const euaPriceInputSchema = z.object({
  on: day.describe('The day the price holds from.'),
  eurPerAllowance: z
    .number({ error: 'Price must be a number' })
    .positive('Price must be above 0 €')
    .max(EUA_PRICE_MAX, `Price is at most ${EUA_PRICE_MAX.toLocaleString('en')} €`),
  note: userText().trim().max(200, 'Cannot be longer than 200 characters').nullable().default(null),
});
export type EuaPriceInput = z.infer<typeof euaPriceInputSchema>;

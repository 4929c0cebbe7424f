import { z } from 'zod';

/**
 * The cost cockpit's API (apps/api/src/features/cost-cockpit; decision 0119): per ship and for the fleet, euros per
 * regime this year to date and projected to its end, beside the scrubber's own economics (rules/carbon/
 * scrubber-economics.ts) at the fuel prices the caller's organization entered.
 */

const instant = z.iso.datetime({ offset: true });
const day = z.iso.date({ message: 'Must be a date (YYYY-MM-DD)' });

export const COCKPIT_REGIMES = ['EU_ETS', 'FUELEU', 'UK_ETS'] as const;
export type CockpitRegime = (typeof COCKPIT_REGIMES)[number];
export const COCKPIT_REGIME_NAMES: Record<CockpitRegime, string> = {
  EU_ETS: 'EU ETS allowances',
  FUELEU: 'FuelEU penalty',
  UK_ETS: 'UK ETS allowances',
};

/**
 * A regime's euros for a ship: a cost is positive; a FuelEU surplus is a negative cost (its value). Unavailable
 * with the reason shown (the regime's figures are not in the portal yet, no price entered): never a made-up figure.
 */
export const regimeEurosSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    eurToDate: z.number(),
    eurProjected: z.number().nullable(),
    /** What the euros are of, e.g. "412.5 allowances at € 71.20 (1 Nov 2026)". */
    basis: z.string(),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type RegimeEuros = z.infer<typeof regimeEurosSchema>;

export const scrubberEconomicsSchema = z.object({
  hsfoTonnes: z.number(),
  penaltyTonnes: z.number(),
  fuelSavedEur: z.number(),
  penaltyEur: z.number(),
  netEur: z.number(),
  projectedNetEur: z.number().nullable(),
  paying: z.boolean(),
  projectedPaying: z.boolean().nullable(),
});
export type ScrubberEconomicsRecord = z.infer<typeof scrubberEconomicsSchema>;

export const cockpitShipSchema = z.object({
  shipId: z.string(),
  shipName: z.string(),
  /** Days of the year with ledger data. */
  daysWithData: z.number().int(),
  regimes: z.object({ EU_ETS: regimeEurosSchema, FUELEU: regimeEurosSchema, UK_ETS: regimeEurosSchema }),
  /** Null without fuel prices entered; `scrubberMissing` says why when there is no figure. */
  scrubber: scrubberEconomicsSchema.nullable(),
  scrubberMissing: z.string().nullable(),
});
export type CockpitShip = z.infer<typeof cockpitShipSchema>;

export const fuelPriceSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  on: day,
  hsfoEurPerTonne: z.number(),
  vlsfoEurPerTonne: z.number(),
  enteredBy: z.string(),
  enteredAt: instant,
});
export type FuelPrice = z.infer<typeof fuelPriceSchema>;

export const costCockpitSchema = z.object({
  year: z.number().int(),
  today: day,
  /** The fuel prices used: the latest the caller's organization entered on or before today; null without one. */
  fuelPrice: fuelPriceSchema.nullable(),
  ships: z.array(cockpitShipSchema),
  fleet: z.object({
    regimes: z.object({ EU_ETS: regimeEurosSchema, FUELEU: regimeEurosSchema, UK_ETS: regimeEurosSchema }),
    scrubberNetEur: z.number().nullable(),
    scrubberProjectedNetEur: z.number().nullable(),
  }),
});
export type CostCockpit = z.infer<typeof costCockpitSchema>;

export const FUEL_PRICE_MAX = 10_000;
const eurPerTonne = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .positive(`${what} must be above 0`)
    .max(FUEL_PRICE_MAX, `${what} is at most € ${FUEL_PRICE_MAX.toLocaleString('en-GB')} per t`);

export const fuelPriceInputSchema = z.object({
  on: day.describe('The day the prices are of (YYYY-MM-DD).'),
  hsfoEurPerTonne: eurPerTonne('HSFO price').describe('High-sulphur fuel oil, € per tonne.'),
  vlsfoEurPerTonne: eurPerTonne('VLSFO price').describe('Very-low-sulphur fuel oil, € per tonne.'),
});
export type FuelPriceInput = z.infer<typeof fuelPriceInputSchema>;

import { z } from 'zod';
import { nameText } from './forms/text';
import { CONSUMERS, FUEL_TYPES } from './rules/carbon';
import { yearQuerySchema } from './carbon';

/**
 * FuelEU Maritime's API shapes (Regulation (EU) 2023/1805; ../shared/DOMAIN.md "Voyages, fuel and greenhouse
 * gases"; docs/decisions/0113-fueleu.md): a ship's year (energy in scope, GHG intensity, limit, compliance balance,
 * penalty, banking and borrowing, its pool) and an organization's year (its ships, its pools, the totals). Balances
 * in tonnes CO2e (the Regulation's grams / 10^6), energy in MJ, intensities in g CO2e/MJ, penalties in euros. Shaped
 * for a cost view: per ship and per organization, the year so far and projected to its end.
 */

export { yearQuerySchema as fuelEuYearQuerySchema };

const instant = z.iso.datetime({ offset: true });

export const fuelEuLegSchema = z.object({
  kind: z.enum(['stay', 'voyage']),
  /** The port call or voyage id (null for a stretch the ledger holds no call or voyage for). */
  id: z.string().nullable(),
  /** "Rotterdam" for a stay, "Rotterdam - Baltimore" for a voyage; an unknown end is "?". */
  name: z.string(),
  start: instant,
  end: instant,
  share: z.number(),
  provisional: z.boolean(),
  reason: z.string(),
  /** Fuel in the year (tonnes, all of it) and the energy of it in scope (MJ). */
  fuelTonnes: z.number(),
  energyInScopeMj: z.number(),
});
export type FuelEuLeg = z.infer<typeof fuelEuLegSchema>;

export const fuelEuFlexibilitySchema = z.object({
  /** Surplus banked to the next year, t CO2e. */
  bankedTonnes: z.number(),
  /** Advance surplus borrowed from the next year, t CO2e (1.1 times it comes off the next year). */
  borrowedTonnes: z.number(),
  updatedBy: z.string().nullable(),
  updatedOn: instant.nullable(),
});
export type FuelEuFlexibility = z.infer<typeof fuelEuFlexibilitySchema>;

export const fuelEuFlexibilityInputSchema = z.object({
  year: yearQuerySchema.shape.year,
  bankedTonnes: z
    .number({ error: 'Banked surplus must be a number' })
    .min(0, 'Banked surplus cannot be negative')
    .max(1e9, 'Banked surplus is at most 1,000,000,000 t CO2e'),
  borrowedTonnes: z
    .number({ error: 'Borrowed surplus must be a number' })
    .min(0, 'Borrowed surplus cannot be negative')
    .max(1e9, 'Borrowed surplus is at most 1,000,000,000 t CO2e'),
});
export type FuelEuFlexibilityInput = z.infer<typeof fuelEuFlexibilityInputSchema>;

const figuresSchema = z.object({
  /** Energy in scope, MJ. */
  energyInScopeMj: z.number(),
  /** Well-to-wake GHG intensity, g CO2e/MJ; null without energy in scope. */
  intensity: z.number().nullable(),
  /** Compliance balance as calculated, t CO2e (positive: surplus). */
  balanceTonnes: z.number(),
  /** The FuelEU penalty of that balance alone (this year's count of consecutive deficit years), EUR. */
  penaltyEur: z.number(),
});

export const fuelEuShipYearSchema = z.object({
  shipId: z.string(),
  shipName: z.string(),
  year: z.number().int(),
  /** Does FuelEU apply to the year (from 2025)? */
  applies: z.boolean(),
  /** The limit of the year, g CO2e/MJ (91.16 less the year's reduction); null before 2025. */
  target: z.number().nullable(),
  reductionPercent: z.number().nullable(),
  /** The part of the year the ledger covers (UTC). */
  dataFrom: instant.nullable(),
  dataTo: instant.nullable(),
  /** The year so far. */
  actual: figuresSchema,
  /** The year projected to its end at the rate of the days with data (the same as `actual` for a year that ended). */
  projected: figuresSchema,
  fuel: z.array(
    z.object({
      fuelType: z.enum(FUEL_TYPES),
      /** In scope: the share of it that counts. */
      tonnesInScope: z.number(),
      energyInScopeMj: z.number(),
      /** Well-to-wake emissions in scope, t CO2e. */
      wtwTonnesCo2e: z.number(),
    }),
  ),
  legs: z.array(fuelEuLegSchema),
  flexibility: fuelEuFlexibilitySchema,
  /** The most the ship may borrow this year (2 % of the limit x energy, and at most the deficit), t CO2e. */
  borrowLimitTonnes: z.number(),
  /** The pool of the year the ship is in, with what it allocates to the ship. */
  pool: z.object({ id: z.string(), name: z.string(), allocatedTonnes: z.number() }).nullable(),
  /** Balance after pooling, the surplus banked from last year and last year's borrowing repaid (x 1.1), t CO2e. */
  balanceBeforeFlexibilityTonnes: z.number(),
  /** What is left after banking and borrowing: the balance the penalty is on, t CO2e. */
  finalBalanceTonnes: z.number(),
  /** Consecutive years with a final deficit, this one included (0 without one). */
  consecutiveDeficitYears: z.number().int(),
  /** The penalty due on the final balance, EUR (raised by 10 % per further consecutive deficit year). */
  penaltyEur: z.number(),
  /** What the data does not allow, named with why. */
  missing: z.array(z.object({ item: z.string(), reason: z.string() })),
  consumers: z.array(z.enum(CONSUMERS)),
});
export type FuelEuShipYear = z.infer<typeof fuelEuShipYearSchema>;

export const fuelEuPoolMemberInputSchema = z.object({
  facilityId: z.string(),
  /** What the pool allocates to the ship, t CO2e. */
  allocatedTonnes: z
    .number({ error: 'Allocation must be a number' })
    .min(-1e9, 'Allocation is at least -1,000,000,000 t CO2e')
    .max(1e9, 'Allocation is at most 1,000,000,000 t CO2e'),
});

export const fuelEuPoolInputSchema = z.object({
  year: yearQuerySchema.shape.year,
  name: nameText('Name is required', 100),
  members: z.array(fuelEuPoolMemberInputSchema).min(2, 'A pool needs at least two ships').max(500),
});
export type FuelEuPoolInput = z.infer<typeof fuelEuPoolInputSchema>;

export const fuelEuPoolSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  year: z.number().int(),
  name: z.string(),
  members: z.array(
    z.object({
      shipId: z.string(),
      shipName: z.string(),
      /** The ship's balance of the year as calculated today, t CO2e. */
      balanceTonnes: z.number(),
      allocatedTonnes: z.number(),
    }),
  ),
  /** The pool's total balance as calculated today, t CO2e. */
  totalTonnes: z.number(),
  /** Is the pool valid with today's balances (Art. 21(4))? And why not. */
  valid: z.boolean(),
  problems: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdOn: instant,
});
export type FuelEuPool = z.infer<typeof fuelEuPoolSchema>;

export const fuelEuOrganizationYearSchema = z.object({
  organizationId: z.string(),
  year: z.number().int(),
  target: z.number().nullable(),
  ships: z.array(fuelEuShipYearSchema),
  pools: z.array(fuelEuPoolSchema),
  totals: z.object({
    energyInScopeMj: z.number(),
    /** Energy-weighted intensity of the ships, g CO2e/MJ. */
    intensity: z.number().nullable(),
    balanceTonnes: z.number(),
    finalBalanceTonnes: z.number(),
    penaltyEur: z.number(),
    projectedBalanceTonnes: z.number(),
    projectedPenaltyEur: z.number(),
  }),
});
export type FuelEuOrganizationYear = z.infer<typeof fuelEuOrganizationYearSchema>;

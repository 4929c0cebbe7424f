import { z } from 'zod';

/**
 * Data retention per organization (docs/decisions/0125-partitions-and-retention.md).
 *
 * The minimum: the 2021 EGCS Guidelines (resolution MEPC.340(77)), 7.4: "Data should be retained for a period of not
 * less than 18 months from the date of recording." Read as reproduced by imorules.com
 * (https://imorules.com/GUID-8633E558-6013-487D-B7C1-5E808E0FA7FE.html): a secondary source; the IMO's own text was
 * not reached. The portal's default keeps three years online, and data past an organization's retention is archived
 * (kept, offline) unless its administrator chooses deletion.
 */
export const RETENTION_MINIMUM_MONTHS = 18;
/** The default of a new organization: three years online. */
export const RETENTION_DEFAULT_MONTHS = 36;
/** At most a century: a bound that keeps the arithmetic of months plain. */
export const RETENTION_MAXIMUM_MONTHS = 1200;

export const RETENTION_EXPIRED = ['archive', 'delete'] as const;
export type RetentionExpired = (typeof RETENTION_EXPIRED)[number];

/** GET/PUT /api/organizations/{id}/retention. */
export const retentionSchema = z.object({
  /** Months the organization's data stay online, counted back from the current month. */
  months: z.number().int(),
  /** What happens to older data: archived (kept offline, restorable) or deleted. */
  expired: z.enum(RETENTION_EXPIRED),
  /** The first month still kept online for this organization (YYYY-MM). */
  keptFrom: z.string(),
});
export type Retention = z.infer<typeof retentionSchema>;
export const retentionBodySchema = z.object({
  months: z.number().int(),
  expired: z.enum(RETENTION_EXPIRED),
});
export type RetentionBody = z.infer<typeof retentionBodySchema>;

/** A month as YYYY-MM. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** GET /api/storage/months: what a SystemAdmin sees of the month partitions. */
export const storageMonthsSchema = z.object({
  /** Months with data online, oldest first. */
  online: z.array(z.string()),
  archived: z.array(
    z.object({
      month: z.string(),
      archivedOn: z.string(),
      reason: z.enum(['retention', 'administrator']),
    }),
  ),
  /** Months before this one (YYYY-MM) are past every organization's retention: the job archives them. */
  archiveBefore: z.string(),
});
export type StorageMonths = z.infer<typeof storageMonthsSchema>;

/** The problem with a retention setting, or null. */
export function retentionProblem(months: number): string | null {
  if (!Number.isInteger(months)) return 'The retention is a whole number of months';
  if (months < RETENTION_MINIMUM_MONTHS)
    return `Data must be kept at least ${RETENTION_MINIMUM_MONTHS} months (2021 EGCS Guidelines, 7.4)`;
  if (months > RETENTION_MAXIMUM_MONTHS) return `At most ${RETENTION_MAXIMUM_MONTHS} months`;
  return null;
}

/** The month `n` months after `month` (YYYY-MM; n may be negative). */
export function shiftMonth(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The first month an organization keeps online: with a retention of N months, the current month and the N-1 before
 * it, so no day younger than N months (less a partial month) leaves. 18 months in 2026-11 keep 2025-06 onward.
 */
export function keptFrom(currentMonth: string, retentionMonths: number): string {
  return shiftMonth(currentMonth, -(retentionMonths - 1));
}

/**
 * Month partitions are shared by every organization: a month leaves (is archived) only when every organization's
 * retention lets it go, that is before the earliest month any of them keeps. With no organization, nothing leaves.
 */
export function archiveBefore(currentMonth: string, retentions: readonly number[]): string {
  if (retentions.length === 0) return '0000-01';
  return keptFrom(currentMonth, Math.max(...retentions));
}

import { z } from 'zod';
import { bdnSchema, fuelTypeSchema, reconciliationSchema, tankSoundingSchema } from './carbon';
import { userText } from './forms/text';
import { RECONCILIATION_THRESHOLD_PERCENT } from './rules/carbon/reconciliation';

/**
 * A verifier's seat (docs/decisions/0115-verifier.md): an organization's administrator invites a verifier for one or
 * more reporting years; the verifier reads the organization's carbon ledger of those years, records findings
 * (non-conformities and misstatements) and an opinion, which is chained like the record book and fixes the year's
 * figures by their fingerprint: a later change shows as a new version.
 */

const instant = z.iso.datetime({ offset: true });

/** The years a verifier may be invited for. */
export const VERIFICATION_FIRST_YEAR = 2018;
export const VERIFICATION_LAST_YEAR = 2100;
export const verificationYearSchema = z.coerce
  .number({ error: 'Must be a year' })
  .int('Must be a year')
  .min(VERIFICATION_FIRST_YEAR, `A year from ${VERIFICATION_FIRST_YEAR} on`)
  .max(VERIFICATION_LAST_YEAR, `A year up to ${VERIFICATION_LAST_YEAR}`);

export const VERIFICATION_MESSAGES = {
  emailInvalid: 'E-mail must be valid',
  yearsRequired: 'Choose at least one year',
  descriptionRequired: 'Describe the finding',
  commentRequired: 'Give the comments of the opinion',
  verifierOnly: 'Only the invited verifier may record the verification',
  yearNotInvited: 'You are not invited to verify this year',
} as const;

// ---- Invitation ----

export const verifierInviteBodySchema = z.object({
  email: z
    .string()
    .trim()
    .pipe(z.email(VERIFICATION_MESSAGES.emailInvalid).max(254, VERIFICATION_MESSAGES.emailInvalid)),
  years: z
    .array(verificationYearSchema)
    .min(1, VERIFICATION_MESSAGES.yearsRequired)
    .max(10, 'At most 10 years at once'),
});
export type VerifierInviteBody = z.infer<typeof verifierInviteBodySchema>;

export const verifierSchema = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string(),
  years: z.array(z.number().int()),
  invitedOn: instant,
  /** When the verifier chose a password from the invitation; null while it is open. */
  acceptedOn: instant.nullable(),
});
export type Verifier = z.infer<typeof verifierSchema>;

// ---- Findings ----

export const FINDING_KINDS = ['non-conformity', 'misstatement'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
export const FINDING_KIND_NAMES: Record<FindingKind, string> = {
  'non-conformity': 'Non-conformity',
  misstatement: 'Misstatement',
};

/**
 * A misstatement above this (in magnitude, %) is flagged as material: the issue's 5 %, the reconciliation's own
 * threshold (decision 0107). Source checked: the 5 % materiality level of the EU ETS verification rules,
 * Regulation (EU) No 600/2012 Article 23(1) (installations of category A and B; legislation.gov.uk text). The maritime
 * verification acts (Delegated Regulations (EU) 2016/2072 and 2023/2917 under Regulation (EU) 2015/757) were not
 * found stating their own figure in the texts at hand: not verified against them.
 */
export const MATERIALITY_PERCENT = RECONCILIATION_THRESHOLD_PERCENT;

export const findingInputSchema = z.object({
  facilityId: z.string().nullable(),
  kind: z.enum(FINDING_KINDS, { error: 'Choose the kind of finding' }),
  description: userText()
    .trim()
    .min(1, VERIFICATION_MESSAGES.descriptionRequired)
    .max(2000, 'Cannot be longer than 2000 characters'),
  /** The figure concerned, as the ledger states it ("HFO burnt 2026, flow meters"). */
  figure: userText().trim().max(200, 'Cannot be longer than 200 characters').nullable(),
  /** The evidence referred to (a BDN's number, a sounding, a record book entry, an original file). */
  evidence: userText().trim().max(500, 'Cannot be longer than 500 characters').nullable(),
  /** For a misstatement: the figure as reported and as the evidence gives it (tonnes). */
  reportedValue: z.number().finite().nullable(),
  evidenceValue: z.number().finite().nullable(),
});
export type FindingInput = z.infer<typeof findingInputSchema>;

export const findingSchema = findingInputSchema.extend({
  id: z.string(),
  year: z.number().int(),
  /** (reported - evidence) / evidence x 100; null without both values. */
  differencePercent: z.number().nullable(),
  /** Above {@link MATERIALITY_PERCENT} in magnitude. */
  aboveThreshold: z.boolean(),
  recordedBy: z.string(),
  recordedOn: instant,
  /** The figures' version the finding was recorded on. */
  version: z.number().int(),
});
export type Finding = z.infer<typeof findingSchema>;

/** The difference of a misstatement in %, and whether it is material; both null-safe. */
export function misstatementOf(
  reported: number | null,
  evidence: number | null,
): { differencePercent: number | null; aboveThreshold: boolean } {
  if (reported === null || evidence === null || evidence === 0)
    return { differencePercent: null, aboveThreshold: false };
  const differencePercent = ((reported - evidence) / evidence) * 100;
  return { differencePercent, aboveThreshold: Math.abs(differencePercent) > MATERIALITY_PERCENT };
}

// ---- Opinion ----

export const OPINIONS = ['satisfactory', 'satisfactory-with-comments', 'not-verified'] as const;
export type Opinion = (typeof OPINIONS)[number];
export const OPINION_NAMES: Record<Opinion, string> = {
  satisfactory: 'Verified as satisfactory',
  'satisfactory-with-comments': 'Verified as satisfactory with comments',
  'not-verified': 'Not verified',
};

export const opinionInputSchema = z
  .object({
    opinion: z.enum(OPINIONS, { error: 'Choose the opinion' }),
    comment: userText().trim().max(4000, 'Cannot be longer than 4000 characters').default(''),
  })
  .superRefine((v, ctx) => {
    if (v.opinion !== 'satisfactory' && v.comment === '')
      ctx.addIssue({ code: 'custom', message: VERIFICATION_MESSAGES.commentRequired, path: ['comment'] });
  });
export type OpinionInput = z.input<typeof opinionInputSchema>;

export const opinionSchema = z.object({
  id: z.string(),
  year: z.number().int(),
  opinion: z.enum(OPINIONS),
  comment: z.string(),
  /** The version of the year's figures the opinion was given on, and their SHA-256 fingerprint. */
  version: z.number().int(),
  figuresFingerprint: z.string(),
  findingIds: z.array(z.string()),
  sequence: z.number().int(),
  previousHash: z.string(),
  hash: z.string(),
  recordedBy: z.string(),
  recordedOn: instant,
});
export type OpinionRecord = z.infer<typeof opinionSchema>;

// ---- The year ----

export const shipFiguresSchema = z.object({
  facilityId: z.string(),
  name: z.string(),
  imo: z.string().nullable(),
  distanceNm: z.number(),
  hoursUnderWay: z.number(),
  fuel: z.array(z.object({ fuelType: fuelTypeSchema, tonnes: z.number() })),
  co2Tonnes: z.number(),
  reconciliation: reconciliationSchema,
  bunkerNotes: z.array(bdnSchema),
  tankSoundings: z.array(tankSoundingSchema),
});
export type ShipFigures = z.infer<typeof shipFiguresSchema>;

/** A misstatement the reconciliation suggests: a flagged fuel type of a ship, to pre-fill the findings form. */
export const suggestedMisstatementSchema = z.object({
  facilityId: z.string(),
  shipName: z.string(),
  fuelType: fuelTypeSchema,
  figure: z.string(),
  evidence: z.string(),
  reportedValue: z.number(),
  evidenceValue: z.number(),
  differencePercent: z.number(),
  aboveThreshold: z.boolean(),
});
export type SuggestedMisstatement = z.infer<typeof suggestedMisstatementSchema>;

export const verificationStates = ['open', 'locked', 'changed'] as const;

export const verificationYearResultSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  year: z.number().int(),
  /** The years the caller may open (a verifier's invited years; every year for an administrator). */
  years: z.array(z.number().int()),
  from: instant,
  to: instant,
  thresholdPercent: z.number(),
  ships: z.array(shipFiguresSchema),
  suggestedMisstatements: z.array(suggestedMisstatementSchema),
  findings: z.array(findingSchema),
  opinions: z.array(opinionSchema),
  /** The figures now: their version (a new one each time they differ from the last opinion's) and fingerprint. */
  version: z.number().int(),
  figuresFingerprint: z.string(),
  /**
   * open: no opinion yet; locked: the last opinion's figures are today's; changed: the figures changed since the
   * last opinion (a new version the verifier has to look at).
   */
  state: z.enum(verificationStates),
  /** Whether the caller may record findings and opinions (the invited verifier). */
  mayRecord: z.boolean(),
  /** The opinion chain holds (every hash recomputed). */
  chainIntact: z.boolean(),
});
export type VerificationYear = z.infer<typeof verificationYearResultSchema>;

export const verificationParamsSchema = z.object({ year: verificationYearSchema });

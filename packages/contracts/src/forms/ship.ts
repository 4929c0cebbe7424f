import { z } from 'zod';
import { MESSAGES, SCRUBBER_SYSTEM_TYPES, SHIP_IMAGE_MAX_BYTES } from '../rules/constants';
import { parseDateOnly, toDate } from '../rules/dates';
import { fieldErrors, numberFromInput, type FieldErrors } from './errors';
import { nameText, userText } from './text';
import { shipParticularsBodySchema } from '../ship-particulars';

export const SHIP_MESSAGES = {
  organizationRequired: 'Please select an organization',
  shipNameRequired: 'Ship name is required',
  nameRequired: 'Name is required',
  imageTooLarge: 'Ship image must be less than 500 kB!',
  // Ours: the spec gives no texts for these.
  notAnImage: 'Ship image must be an image file',
  wholeNumber: 'Must be a whole number',
  number: 'Must be a number',
  notNegative: 'Cannot be negative',
  invalidDate: 'Must be a valid date',
  endBeforeStart: 'End date cannot be before start date',
  scrubberSystemType: 'Choose Hybrid, Open Loop or nothing',
  transferTargetRequired: 'Select the organization to receive the ship',
} as const;
const M = SHIP_MESSAGES;

const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);

// --- New ship --------------------------------------------------------------------------------

/** Ours: the spec gives no limit. */
export const SHIP_NAME_MAX_LENGTH = 200;
const shipName = (requiredMessage: string) => nameText(requiredMessage, SHIP_NAME_MAX_LENGTH);

export const newShipSchema = z.object({
  organizationId: requiredText(M.organizationRequired),
  name: shipName(M.shipNameRequired),
});
export type NewShipValues = z.infer<typeof newShipSchema>;
export const validateNewShip = (values: unknown): FieldErrors<keyof NewShipValues> =>
  fieldErrors(newShipSchema, values);

// --- Ship info edit ----------------------------------------------------------------------------

const optionalNumber = (integer: boolean) =>
  z.preprocess(
    numberFromInput,
    (integer ? z.number({ error: M.number }).int(M.wholeNumber) : z.number({ error: M.number }))
      .min(0, M.notNegative)
      .nullable(),
  );

/** A day ('YYYY-MM-DD' or any instant) as the ISO instant of its start, UTC; empty as null. */
export const startOfDayIsoSchema = z.preprocess(
  (v) => (v === undefined || v === '' ? null : v),
  z
    .union([z.string(), z.date()], { error: M.invalidDate })
    .nullable()
    .transform((v, ctx) => {
      if (v === null) return null;
      const day =
        typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? parseDateOnly(v) : toDate(v);
      if (!day) {
        ctx.addIssue({ code: 'custom', message: M.invalidDate });
        return z.NEVER;
      }
      return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())).toISOString();
    }),
);

export const shipInfoSchema = z
  .object({
    name: shipName(M.nameRequired),
    imo: z.preprocess((v) => (v === null || v === undefined ? '' : String(v)), userText().trim().max(50)),
    scrubberSystemType: z.preprocess(
      (v) => v ?? '',
      z.enum(SCRUBBER_SYSTEM_TYPES, { error: M.scrubberSystemType }),
    ),
    numberOfScrubbers: optionalNumber(true),
    totalEffectKW: optionalNumber(false),
    /** An empty manufacturer is stored as null. */
    systemManufacturer: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : (v ?? null)),
      userText().max(200).nullable(),
    ),
    startDate: startOfDayIsoSchema,
    endDate: startOfDayIsoSchema,
    imageBase64: z
      .string()
      .nullish()
      .transform((v) => v || null),
    /** The CII's particulars (ship-particulars.ts): left out, each stays as it is. */
    ...shipParticularsBodySchema.shape,
  })
  .superRefine((v, ctx) => {
    if (v.startDate && v.endDate && v.endDate < v.startDate)
      ctx.addIssue({ code: 'custom', message: M.endBeforeStart, path: ['endDate'] });
  });
export type ShipInfoValues = z.infer<typeof shipInfoSchema>;
export const validateShipInfo = (values: unknown): FieldErrors<keyof ShipInfoValues> =>
  fieldErrors(shipInfoSchema, values);

// --- Ship image --------------------------------------------------------------------------------

/**
 * An image file under 500 kB (500000 bytes). The spec's screen ignores larger files silently; the
 * message is there for whoever wants to show it.
 */
export function shipImageCheck(file: {
  type: string;
  size: number;
}): { ok: true } | { ok: false; message: string } {
  if (!file.type.startsWith('image/')) return { ok: false, message: M.notAnImage };
  if (file.size >= SHIP_IMAGE_MAX_BYTES) return { ok: false, message: M.imageTooLarge };
  return { ok: true };
}

// --- Transfer and provision ---------------------------------------------------------------------

export const transferShipSchema = z.object({ targetOrganizationId: requiredText(M.transferTargetRequired) });
export type TransferShipValues = z.infer<typeof transferShipSchema>;
export const validateTransferShip = (values: unknown): FieldErrors<keyof TransferShipValues> =>
  fieldErrors(transferShipSchema, values);

/** The organizations a ship can go to: all but its current owner, by name. */
export function transferTargets<T extends { id: string; name: string }>(
  organizations: readonly T[],
  ownerId: string,
): T[] {
  return organizations
    .filter((o) => o.id !== ownerId)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

export const transferSuccessText = (organizationName: string) => MESSAGES.shipTransferred(organizationName);

/** The Provision button (automated file upload package) needs the ship's name. */
export const provisionSchema = z.object({ name: shipName(M.shipNameRequired) });
export const canProvision = (name: string | null | undefined) => provisionSchema.safeParse({ name }).success;

/** The PSDU package is saved as a zip named after the ship in lower case. */
export const provisionFileName = (shipName: string) => `${shipName.trim().toLowerCase()}.zip`;

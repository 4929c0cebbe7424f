import { z } from 'zod';
import { LINK_KEY_LENGTH } from '../rules/constants';
import { fieldErrors, type FieldErrors } from './errors';
import { randomString } from './password';
import { nameText, userText } from './text';

export const ORGANIZATION_MESSAGES = {
  nameRequired: 'Name is required',
  emailInvalid: 'E-mail must be valid',
  linkKeyRequired: 'You have to specify a link key',
  linkKeyCharacters: 'Only letters and numbers are allowed',
  linkKeyLength: 'Key must be 7 characters',
} as const;
const M = ORGANIZATION_MESSAGES;

/** Organization dialog. Email and phone may be empty (stored as ''). */
export const organizationSchema = z.object({
  name: nameText(M.nameRequired),
  email: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : (v ?? '')),
    z.union([z.literal(''), z.email(M.emailInvalid)]),
  ),
  phone: z.preprocess((v) => (typeof v === 'string' ? v.trim() : (v ?? '')), userText().max(100)),
  priority: z.boolean().default(false),
});
export type OrganizationValues = z.infer<typeof organizationSchema>;
export const validateOrganization = (values: unknown): FieldErrors<keyof OrganizationValues> =>
  fieldErrors(organizationSchema, values);

/** Another organization's link key, entered to link to it. */
export const linkKeySchema = z
  .string({ error: M.linkKeyRequired })
  .trim()
  .min(1, M.linkKeyRequired)
  .regex(/^[A-Za-z0-9]*$/, M.linkKeyCharacters)
  .length(LINK_KEY_LENGTH, M.linkKeyLength);

export const linkOrganizationSchema = z.object({ linkKey: linkKeySchema });
export const validateLinkKey = (values: unknown): FieldErrors<'linkKey'> =>
  fieldErrors(linkOrganizationSchema, values);

const LINK_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new organization's 7-character key of letters and digits. */
export const generateLinkKey = () => randomString(LINK_KEY_LENGTH, LINK_KEY_ALPHABET);

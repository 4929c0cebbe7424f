import { z } from 'zod';
import { roleSchema } from './auth';
import { linkKeySchema, organizationSchema } from './forms/organization';

/** A row of the organizations list (SystemAdmin sees every organization, others only their own). */
export const organizationListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  priority: z.boolean(),
  /** Ships the organization sees: its own and those shared with it. */
  facilityCount: z.number(),
  userCount: z.number(),
});
export type OrganizationListItem = z.infer<typeof organizationListItemSchema>;

export const assignableRoleSchema = z.object({
  name: roleSchema,
  displayName: z.string(),
  summary: z.string(),
});
export type AssignableRole = z.infer<typeof assignableRoleSchema>;

export const linkedOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The organization's own ships it shares with this linked organization. */
  facilityIds: z.array(z.string()),
});
export type LinkedOrganization = z.infer<typeof linkedOrganizationSchema>;

/** GET organizations/{id}/organization. */
export const organizationDetailSchema = organizationListItemSchema.extend({
  linkKey: z.string(),
  linkedOrganizations: z.array(linkedOrganizationSchema),
  /** Roles the caller may give this organization's users (SystemAdmin only in the provider organization, and only by a SystemAdmin). */
  roles: z.array(assignableRoleSchema),
});
export type OrganizationDetail = z.infer<typeof organizationDetailSchema>;

/** POST organizations: the dialog's values and, optionally, the 7-character link key the client generated. */
export const createOrganizationBodySchema = organizationSchema.extend({ linkKey: linkKeySchema.optional() });
export type CreateOrganizationBody = z.input<typeof createOrganizationBodySchema>;
export const updateOrganizationBodySchema = organizationSchema;
export type UpdateOrganizationBody = z.input<typeof updateOrganizationBodySchema>;

export const organizationIdParamsSchema = z.object({ id: z.string() });
export const organizationLinkParamsSchema = z.object({ id: z.string(), linkKey: linkKeySchema });
export const organizationUnlinkParamsSchema = z.object({ id: z.string(), otherId: z.string() });
export const userFacilityLinkParamsSchema = z.object({ userId: z.string(), facilityId: z.string() });
export const organizationFacilityParamsSchema = z.object({ orgId: z.string(), facilityId: z.string() });
export const facilityIdParamsSchema = z.object({ facilityId: z.string() });

/** The answer of linking and of transferring: the other organization. */
export const organizationRefSchema = z.object({ id: z.string(), name: z.string() });
export type OrganizationRef = z.infer<typeof organizationRefSchema>;

/** GET organizations/facilities/{facilityId}/has-secondary-organizations. */
export const hasSecondaryOrganizationsSchema = z.boolean();

/** A user of an organization, as the access matrix shows it. */
export const organizationUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** One role per user, as a list. */
  roles: z.array(roleSchema),
  facilityIds: z.array(z.string()),
});
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

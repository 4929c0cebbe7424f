import { z } from 'zod';

export const AUDIT_LOG_PAGE_SIZES = [25, 50, 100] as const;

const instant = z.iso.datetime({ offset: true });

/**
 * GET /api/audit-log (SystemAdmin): newest first, one page. `from` and `to` are instants (UTC), both inclusive;
 * `action` is an exact action name (e.g. 'maintenance.set').
 */
export const auditLogQuerySchema = z.object({
  organizationId: z.uuid().optional(),
  action: z.string().trim().min(1).max(100).optional(),
  from: instant.optional(),
  to: instant.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (AUDIT_LOG_PAGE_SIZES as readonly number[]).includes(n), 'Must be 25, 50 or 100')
    .default(25),
});
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

export const auditLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  /** null when the user was deleted since (or for the system). */
  username: z.string().nullable(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  action: z.string(),
  /** What was done to: often an id (a user, a ship, an organization, an event…), sometimes a name. */
  subject: z.string().nullable(),
  /** The name of the user, ship or organization the subject's id refers to; null for anything else. */
  subjectName: z.string().nullable(),
  /**
   * The names of the users, ships and organizations the entry's ids refer to (the subject and the detail's
   * `facilityId`, `organizationId` and `userId`), by id. The ids stay where they are.
   */
  names: z.record(z.string(), z.string()),
  detail: z.unknown(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogPageSchema = z.object({
  items: z.array(auditLogEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

/** GET /api/audit-log/actions: the action names recorded so far, for the filter. */
export const auditLogActionsSchema = z.array(z.string());

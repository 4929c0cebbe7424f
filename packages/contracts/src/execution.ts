import { z } from 'zod';

/** Execute and recalculation queue calls (spec part 1 section 7, part 2 sections 3 and 7). Times are UTC ISO strings. */

const isoDateTime = z.iso.datetime({ offset: true, message: 'Must be a UTC date and time (ISO 8601)' });

/** POST /api/algorithm/calculations/measurement-field/execute */
export const executeBodySchema = z
  .object({
    facilityId: z.string().min(1, 'facilityId is required'),
    from: isoDateTime,
    to: isoDateTime,
    facilityDataSourceFileIds: z.array(z.string()).min(1, 'Select at least one file').max(10_000),
  })
  .refine((b) => Date.parse(b.from) <= Date.parse(b.to), {
    path: ['from'],
    message: 'From cannot be after to',
  });
export type ExecuteBody = z.infer<typeof executeBodySchema>;

/** The execution was queued; it runs in the background. */
export const executeResponseSchema = z.object({ id: z.string(), state: z.literal('queued') });
export type ExecuteResponse = z.infer<typeof executeResponseSchema>;

/** A pending recalculation of the queue screen. reportName is null for a measurement field. */
export const recalculationRequestSchema = z.object({
  id: z.string(),
  fieldName: z.string(),
  reportName: z.string().nullable(),
  version: z.number(),
  revision: z.number(),
  recalculationRequestedOn: z.string().nullable(),
  recalculationQueuedOn: z.string().nullable(),
});
export type RecalculationRequest = z.infer<typeof recalculationRequestSchema>;

export const RECALCULATION_KINDS = ['measurement-fields', 'report-fields'] as const;
export type RecalculationKind = (typeof RECALCULATION_KINDS)[number];

export const measurementRecalculationQuerySchema = z.object({
  recalculationRequested: z.stringbool().default(true),
  facilityId: z.string().min(1, 'facilityId is required'),
});
export const reportRecalculationQuerySchema = z.object({
  recalculationRequested: z.stringbool().default(true),
});

/** The calculations (ids) a queue action applies to. */
export const recalculationIdsSchema = z.object({
  ids: z.array(z.string()).min(1, 'Select at least one recalculation').max(1000),
});
export type RecalculationIds = z.infer<typeof recalculationIdsSchema>;
export const recalculationActionResponseSchema = z.object({ count: z.number() });
export type RecalculationActionResponse = z.infer<typeof recalculationActionResponseSchema>;

/** DELETE /api/algorithm/measurement-fields/values?facilityId&from&to */
export const deleteValuesQuerySchema = z
  .object({ facilityId: z.string().min(1, 'facilityId is required'), from: isoDateTime, to: isoDateTime })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    path: ['from'],
    message: 'From cannot be after to',
  });
export const deleteValuesResponseSchema = z.object({ measurementChunks: z.number() });

import { z } from 'zod';
import { newShipSchema } from './forms/ship';
import { shipParticularsSchema } from './ship-particulars';

const isoDateTime = z.string();

/** A ship as the portal shows it (both spec parts' fields). Times are UTC ISO strings. */
export const facilitySchema = z.object({
  id: z.string(),
  name: z.string(),
  imo: z.string().nullable(),
  primaryOrganizationId: z.string(),
  primaryOrganizationName: z.string(),
  scrubberSystemType: z.string().nullable(),
  numberOfScrubbers: z.number().nullable(),
  systemManufacturer: z.string().nullable(),
  totalEffectKW: z.number().nullable(),
  startDate: isoDateTime.nullable(),
  endDate: isoDateTime.nullable(),
  dataTimeStampMin: isoDateTime.nullable(),
  dataTimeStampMax: isoDateTime.nullable(),
  dataCoverage: z.number().nullable(),
  imageBase64: z.string().nullable(),
  dataSourceCount: z.number(),
  /** Organizations that see the ship: the owner first, then those it is shared with. */
  organizationIds: z.array(z.string()),
  /** The CII's particulars (ours, issue 31): MEPC.353(78) ship type, deadweight (t), gross tonnage; null until given. */
  ...shipParticularsSchema.shape,
});
export type Facility = z.infer<typeof facilitySchema>;

export const facilityListQuerySchema = z.object({
  asAdmin: z.stringbool().optional(),
  organizationId: z.string().optional(),
  userId: z.string().optional(),
});

/** POST facilities: the new ship dialog's rules. */
export const createFacilityBodySchema = newShipSchema;
export const createFacilityResponseSchema = z.object({ id: z.string() });

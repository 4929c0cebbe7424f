import { z } from 'zod';
import { nameText } from './forms/text';

/**
 * Ports (docs/decisions/0108-ports.md): the sea-port reference that ships with the product (UN/LOCODE's ports with a
 * position) and an organization's own additions and corrections. Schemas of GET /api/ports, GET /api/ports/{locode}
 * and /api/organizations/{id}/ports.
 */

/** DOMAIN.md: a port call is a stay within 5 nm of the port's point unless the organization says otherwise. */
export const DEFAULT_PORT_RADIUS_NM = 5;
/** Ours: a radius a port can sensibly have, and a polygon's size (in vertices). */
export const PORT_RADIUS_MIN_NM = 0.1;
export const PORT_RADIUS_MAX_NM = 50;
export const PORT_POLYGON_MAX_POSITIONS = 500;
export const PORT_NAME_MAX_LENGTH = 100;
export const PORT_SEARCH_MAX_LENGTH = 100;
export const PORT_LIST_MAX_LIMIT = 500;

export const PORT_MESSAGES = {
  locodeInvalid:
    'Must be a UN/LOCODE: the 2 letters of the country and 3 letters or digits 2-9, such as NLRTM',
  locodeTaken: 'The organization has a port with this UN/LOCODE already',
  nameRequired: 'Name is required',
  countryRequired: 'Provide the country',
  countryInvalid: 'Must be a country code of 2 letters, such as NL',
  countryNotLocode: 'Must be the country of the UN/LOCODE (its first 2 letters)',
  subdivisionInvalid: 'Must be a subdivision code of 1 to 3 letters or digits, such as ZH',
  positionRequired: 'Provide the position: a latitude and a longitude, or a polygon',
  latitudeInvalid: 'Must be a latitude from -90 to 90',
  longitudeInvalid: 'Must be a longitude from -180 to 180',
  radiusInvalid: `Must be a radius from ${PORT_RADIUS_MIN_NM} to ${PORT_RADIUS_MAX_NM} nautical miles`,
  polygonInvalid:
    'Must be a GeoJSON Polygon: one closed ring of at least 4 [longitude, latitude] positions, the last the same as the first',
  polygonTooLarge: `Cannot have more than ${PORT_POLYGON_MAX_POSITIONS} positions`,
  polygonTooWide: 'Must be smaller than 5 degrees across, and not cross the 180th meridian',
  dateInvalid: 'Must be a valid date',
  activeToBeforeFrom: 'Cannot be before "Active from"',
  searchTooLong: `Cannot be longer than ${PORT_SEARCH_MAX_LENGTH} characters`,
  bboxInvalid:
    'Must be a box as west,south,east,north in degrees, such as 3.9,51.8,4.6,52.1 (west may be greater than east across the 180th meridian)',
} as const;
const M = PORT_MESSAGES;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day (YYYY-MM-DD) that exists. */
export const isDay = (value: string) =>
  DATE_ONLY.test(value) && new Date(`${value}T00:00:00.000Z`).toISOString().slice(0, 10) === value;
const daySchema = z
  .string({ error: M.dateInvalid })
  .refine(isDay, M.dateInvalid)
  .meta({ format: 'date', description: 'A day, YYYY-MM-DD.' });

export const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

/** [longitude, latitude], GeoJSON's order (an array of two numbers: OpenAPI 3.0 has no tuples). */
const positionSchema = z
  .array(z.number(), { error: M.polygonInvalid })
  .length(2, M.polygonInvalid)
  .refine((p) => Math.abs(p[0]!) <= 180 && Math.abs(p[1]!) <= 90, M.polygonInvalid);

/**
 * A GeoJSON Polygon (RFC 7946 3.1.6) of one ring (no holes), closed, small (a port, not an ocean) and not across
 * the 180th meridian.
 */
export const portPolygonSchema = z
  .object({
    type: z.literal('Polygon', { error: M.polygonInvalid }),
    coordinates: z.array(z.array(positionSchema, { error: M.polygonInvalid }), { error: M.polygonInvalid }),
  })
  .superRefine((polygon, ctx) => {
    const ring = polygon.coordinates[0];
    if (polygon.coordinates.length !== 1 || !ring || ring.length < 4) {
      ctx.addIssue({ code: 'custom', message: M.polygonInvalid });
      return;
    }
    if (ring.length > PORT_POLYGON_MAX_POSITIONS)
      ctx.addIssue({ code: 'custom', message: M.polygonTooLarge });
    const [first, last] = [ring[0]!, ring[ring.length - 1]!];
    if (first[0] !== last[0] || first[1] !== last[1])
      ctx.addIssue({ code: 'custom', message: M.polygonInvalid });
    const lons = ring.map((p) => p[0]!);
    const lats = ring.map((p) => p[1]!);
    if (Math.max(...lons) - Math.min(...lons) > 5 || Math.max(...lats) - Math.min(...lats) > 5)
      ctx.addIssue({ code: 'custom', message: M.polygonTooWide });
  });
export type PortPolygon = z.infer<typeof portPolygonSchema>;

/** Which regimes a port is in on the day asked (features/ports/regimes.ts). */
export const portRegimesSchema = z.object({
  eu: z.boolean(),
  eea: z
    .boolean()
    .describe('EU or EEA EFTA State; the UK and Gibraltar until the end of the transition, 2020-12-31'),
  outermostRegion: z.boolean(),
  uk: z.boolean(),
  northernIreland: z.boolean(),
  greatBritain: z.boolean(),
});
export type PortRegimesView = z.infer<typeof portRegimesSchema>;

export const PORT_SOURCES = ['reference', 'organization'] as const;
export const PORT_POSITION_SOURCES = ['unlocode', 'world-port-index', 'organization'] as const;

/** A port as an organization sees it: a reference port, the organization's correction of one, or its own. */
export const portSchema = z.object({
  /** The UN/LOCODE; null for an organization's own port without one. */
  locode: z.string().nullable(),
  source: z.enum(PORT_SOURCES),
  /** The organization's port (an addition or a correction): its id under /api/organizations/{id}/ports. */
  organizationPortId: z.string().nullable(),
  name: z.string(),
  /** The name without diacritics, when it differs. */
  nameAscii: z.string().nullable(),
  country: z.string(),
  subdivision: z.string().nullable(),
  /** A part of the country the regimes treat apart: GB-NIR, ES-CN, PT-20 (Azores), PT-30 (Madeira). */
  area: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  radiusNm: z.number(),
  polygon: portPolygonSchema.nullable(),
  /** UN/LOCODE's function column ("1-3-----"); null for an organization's own port. */
  functions: z.string().nullable(),
  status: z.string().nullable(),
  positionSource: z.enum(PORT_POSITION_SOURCES),
  activeFrom: z.string().nullable(),
  activeTo: z.string().nullable(),
  /** On the day asked (`date`, today by default). */
  regimes: portRegimesSchema,
});
export type Port = z.infer<typeof portSchema>;

export const portReferenceSchema = z.object({
  release: z.string(),
  digest: z.string(),
  sources: z.array(z.string()),
  count: z.number(),
  loadedOn: z.string(),
});
export type PortReference = z.infer<typeof portReferenceSchema>;

/** West, south, east, north; west > east for a box across the 180th meridian. */
export function parseBbox(value: string): [number, number, number, number] | null {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length !== 4 || parts.some((p) => p === '')) return null;
  const [west, south, east, north] = parts.map(Number) as [number, number, number, number];
  if ([west, south, east, north].some((n) => !Number.isFinite(n))) return null;
  if (Math.abs(west) > 180 || Math.abs(east) > 180 || Math.abs(south) > 90 || Math.abs(north) > 90)
    return null;
  if (south > north) return null;
  return [west, south, east, north];
}

export const portListQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(PORT_SEARCH_MAX_LENGTH, M.searchTooLong)
    .optional()
    .describe('Part of the name (with or without diacritics), or the start of the UN/LOCODE.'),
  bbox: z
    .string()
    .refine((v) => parseBbox(v) !== null, M.bboxInvalid)
    .optional()
    .describe('west,south,east,north in degrees.'),
  date: daySchema
    .optional()
    .describe('The day of the regimes and of the organization ports active (today, UTC).'),
  limit: z.coerce.number().int().min(1).max(PORT_LIST_MAX_LIMIT).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PortListQuery = z.input<typeof portListQuerySchema>;

export const portListSchema = z.object({
  reference: portReferenceSchema.nullable(),
  total: z.number(),
  items: z.array(portSchema),
});
export type PortList = z.infer<typeof portListSchema>;

export const portDayQuerySchema = z.object({ date: daySchema.optional() });

/** An organization's port as it stored it. */
export const organizationPortSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  locode: z.string().nullable(),
  /** True when the locode is a reference port's: this port replaces it for the organization. */
  corrects: z.boolean(),
  name: z.string(),
  country: z.string(),
  subdivision: z.string().nullable(),
  area: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  radiusNm: z.number(),
  polygon: portPolygonSchema.nullable(),
  activeFrom: z.string().nullable(),
  activeTo: z.string().nullable(),
  createdOn: z.string(),
  createdBy: z.string().nullable(),
  updatedOn: z.string(),
  updatedBy: z.string().nullable(),
});
export type OrganizationPort = z.infer<typeof organizationPortSchema>;

/**
 * POST /api/organizations/{id}/ports and PUT .../{portId}. With a reference port's `locode` it is a correction: the
 * fields left out are the reference port's (so a new radius or polygon alone is enough). Without one, or with a code
 * the reference does not have, it is the organization's own port: name, country and a position (a point, or a
 * polygon whose centre becomes the point) are then required.
 */
export const organizationPortBodySchema = z
  .object({
    locode: z
      .string({ error: M.locodeInvalid })
      .trim()
      .toUpperCase()
      .regex(LOCODE, M.locodeInvalid)
      .nullable()
      .optional(),
    name: nameText(M.nameRequired, PORT_NAME_MAX_LENGTH).optional(),
    country: z
      .string({ error: M.countryInvalid })
      .trim()
      .toUpperCase()
      .length(2, M.countryInvalid)
      .regex(/^[A-Z]{2}$/, M.countryInvalid)
      .optional(),
    subdivision: z
      .string({ error: M.subdivisionInvalid })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{1,3}$/, M.subdivisionInvalid)
      .nullable()
      .optional(),
    lat: z
      .number({ error: M.latitudeInvalid })
      .min(-90, M.latitudeInvalid)
      .max(90, M.latitudeInvalid)
      .optional(),
    lon: z
      .number({ error: M.longitudeInvalid })
      .min(-180, M.longitudeInvalid)
      .max(180, M.longitudeInvalid)
      .optional(),
    radiusNm: z
      .number({ error: M.radiusInvalid })
      .min(PORT_RADIUS_MIN_NM, M.radiusInvalid)
      .max(PORT_RADIUS_MAX_NM, M.radiusInvalid)
      .default(DEFAULT_PORT_RADIUS_NM),
    polygon: portPolygonSchema.nullable().optional(),
    activeFrom: daySchema.nullable().optional(),
    activeTo: daySchema.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.activeFrom && body.activeTo && body.activeTo < body.activeFrom)
      ctx.addIssue({ code: 'custom', path: ['activeTo'], message: M.activeToBeforeFrom });
    if ((body.lat === undefined) !== (body.lon === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.lat === undefined ? 'lat' : 'lon'],
        message: M.positionRequired,
      });
    if (body.locode && body.country && body.locode.slice(0, 2) !== body.country)
      ctx.addIssue({ code: 'custom', path: ['country'], message: M.countryNotLocode });
  });
export type OrganizationPortBody = z.input<typeof organizationPortBodySchema>;

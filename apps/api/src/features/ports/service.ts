import { sql, type Kysely, type Transaction } from 'kysely';
import {
  DEFAULT_PORT_RADIUS_NM,
  LOCODE,
  PORT_MESSAGES,
  parseBbox,
  type OrganizationPort,
  type OrganizationPortBody,
  type Port,
  type PortPolygon,
  type PortReference,
} from '@portal/contracts/ports';
import type { LonLat } from '@portal/contracts/zone-geometry';
import type { Database } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { isSystemAdmin, isUuid } from '../access/policy';
import type { PortShape } from './port-at';
import { portArea, portRegimes } from './regimes';

const M = PORT_MESSAGES;
const DAY_MS = 86_400_000;

/**
 * Who sees an organization's ports: its own users (every role) and a SystemAdmin; for anyone else the organization
 * does not exist (404, docs/decisions/0004-permissions.md). Changing them is requireManageOrganization's (UserAdmin
 * of the organization, SystemAdmin).
 */
export function requireSeeOrganizationPorts(caller: Caller, organizationId: string): void {
  if (isSystemAdmin(caller) || caller.organizationId === organizationId) return;
  throw notFound('Organization not found');
}

const today = () => new Date().toISOString().slice(0, 10);

/** Which reference the database holds, or null before the first load. */
export async function portReference(db: Kysely<Database>): Promise<PortReference | null> {
  const row = await db.selectFrom('port_reference').selectAll().executeTakeFirst();
  if (!row) return null;
  return {
    release: row.release,
    digest: row.digest,
    sources: row.sources as string[],
    count: row.count,
    loadedOn: new Date(row.loaded_on).toISOString(),
  };
}

interface ReferenceRow {
  locode: string;
  name: string;
  name_ascii: string | null;
  country: string;
  subdivision: string | null;
  lat: number;
  lon: number;
  functions: string;
  status: string;
  area: string | null;
  position_source: string;
}

interface OrganizationRow {
  id: string;
  organization_id: string;
  locode: string | null;
  name: string;
  country: string;
  subdivision: string | null;
  area: string | null;
  lat: number;
  lon: number;
  radius_nm: number;
  polygon: unknown;
  active_from: string | null;
  active_to: string | null;
  created_on: Date;
  created_by: string | null;
  updated_on: Date;
  updated_by: string | null;
}

const polygonOf = (value: unknown): PortPolygon | null =>
  value ? ((typeof value === 'string' ? JSON.parse(value) : value) as PortPolygon) : null;

function presentReference(row: ReferenceRow, day: string): Port {
  return {
    locode: row.locode,
    source: 'reference',
    organizationPortId: null,
    name: row.name,
    nameAscii: row.name_ascii,
    country: row.country,
    subdivision: row.subdivision,
    area: row.area,
    lat: row.lat,
    lon: row.lon,
    radiusNm: DEFAULT_PORT_RADIUS_NM,
    polygon: null,
    functions: row.functions,
    status: row.status,
    positionSource: row.position_source === 'W' ? 'world-port-index' : 'unlocode',
    activeFrom: null,
    activeTo: null,
    regimes: portRegimes(row, day),
  };
}

function presentOrganizationAsPort(
  row: OrganizationRow,
  reference: ReferenceRow | undefined,
  day: string,
): Port {
  return {
    locode: row.locode,
    source: 'organization',
    organizationPortId: row.id,
    name: row.name,
    nameAscii: reference && reference.name === row.name ? reference.name_ascii : null,
    country: row.country,
    subdivision: row.subdivision,
    area: row.area,
    lat: row.lat,
    lon: row.lon,
    radiusNm: row.radius_nm,
    polygon: polygonOf(row.polygon),
    functions: reference?.functions ?? null,
    status: reference?.status ?? null,
    positionSource: 'organization',
    activeFrom: row.active_from,
    activeTo: row.active_to,
    regimes: portRegimes(row, day),
  };
}

export function presentOrganizationPort(
  row: OrganizationRow & { created_by_name?: string | null; updated_by_name?: string | null },
  corrects: boolean,
): OrganizationPort {
  return {
    id: row.id,
    organizationId: row.organization_id,
    locode: row.locode,
    corrects,
    name: row.name,
    country: row.country,
    subdivision: row.subdivision,
    area: row.area,
    lat: row.lat,
    lon: row.lon,
    radiusNm: row.radius_nm,
    polygon: polygonOf(row.polygon),
    activeFrom: row.active_from,
    activeTo: row.active_to,
    createdOn: new Date(row.created_on).toISOString(),
    createdBy: row.created_by_name ?? null,
    updatedOn: new Date(row.updated_on).toISOString(),
    updatedBy: row.updated_by_name ?? null,
  };
}

/** An organization's ports, the `date` columns as text (a Date would move with the server's time zone). */
function organizationPorts(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('organization_ports as p')
    .leftJoin('users as c', 'c.id', 'p.created_by')
    .leftJoin('users as u', 'u.id', 'p.updated_by')
    .select([
      'p.id',
      'p.organization_id',
      'p.locode',
      'p.name',
      'p.country',
      'p.subdivision',
      'p.area',
      'p.lat',
      'p.lon',
      'p.radius_nm',
      'p.polygon',
      sql<string | null>`p.active_from::text`.as('active_from'),
      sql<string | null>`p.active_to::text`.as('active_to'),
      'p.created_on',
      'p.updated_on',
      'p.created_by',
      'p.updated_by',
      'c.username as created_by_name',
      'u.username as updated_by_name',
    ])
    .where('p.organization_id', '=', organizationId);
}

const activeOn = (row: { active_from: string | null; active_to: string | null }, day: string) =>
  (row.active_from === null || row.active_from <= day) && (row.active_to === null || day <= row.active_to);

/** `%` and `_` and `\` taken literally in a LIKE pattern. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface PortListOptions {
  search?: string;
  bbox?: string;
  date?: string;
  limit: number;
  offset: number;
}

/**
 * The ports an organization sees on a day: the reference, with the organization's corrections active that day in
 * place of the ports they correct, and its own ports active that day. Searched by name (with or without diacritics)
 * and by the start of the UN/LOCODE; within a box; by name.
 */
export async function listPorts(
  db: Kysely<Database>,
  organizationId: string,
  options: PortListOptions,
): Promise<{ total: number; items: Port[] }> {
  const day = options.date ?? today();
  const own = (await organizationPorts(db, organizationId).execute()).filter((r) => activeOn(r, day));
  const corrected = own.flatMap((r) => (r.locode ? [r.locode] : []));
  const search = options.search?.trim() ?? '';
  const box = options.bbox ? parseBbox(options.bbox) : null;
  const pattern = `%${likeEscape(search)}%`;
  const prefix = `${likeEscape(search.toUpperCase())}%`;
  let query = db.selectFrom('ports').selectAll();
  if (corrected.length) query = query.where('locode', 'not in', corrected);
  if (search)
    query = query.where((eb) =>
      eb.or([eb('locode', 'like', prefix), eb('name', 'ilike', pattern), eb('name_ascii', 'ilike', pattern)]),
    );
  if (box) {
    const [west, south, east, north] = box;
    query = query.where('lat', '>=', south).where('lat', '<=', north);
    query =
      west <= east
        ? query.where('lon', '>=', west).where('lon', '<=', east)
        : query.where((eb) => eb.or([eb('lon', '>=', west), eb('lon', '<=', east)]));
  }
  const exact = search.toUpperCase();
  // The code asked for first, then by name in code point order (collate "C": the same order as in the merge
  // below), the code breaking ties: a stable order from call to call.
  const [reference, counted] = await Promise.all([
    query
      .orderBy(sql`(locode = ${exact})`, 'desc')
      .orderBy(sql`name collate "C"`)
      .orderBy('locode')
      .limit(options.offset + options.limit)
      .execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const referenceByLocode = new Map<string, ReferenceRow>();
  if (corrected.length)
    for (const row of await db.selectFrom('ports').selectAll().where('locode', 'in', corrected).execute())
      referenceByLocode.set(row.locode, row);
  const ownMatching = own.filter((r) => {
    if (search) {
      const s = search.toLowerCase();
      const ascii = r.locode ? referenceByLocode.get(r.locode)?.name_ascii : null;
      if (
        !r.name.toLowerCase().includes(s) &&
        !(ascii ?? '').toLowerCase().includes(s) &&
        !(r.locode ?? '').startsWith(search.toUpperCase())
      )
        return false;
    }
    if (box) {
      const [west, south, east, north] = box;
      if (r.lat < south || r.lat > north) return false;
      if (west <= east ? r.lon < west || r.lon > east : r.lon < west && r.lon > east) return false;
    }
    return true;
  });
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const merged = [
    ...reference.map((r) => ({ name: r.name, locode: r.locode, port: () => presentReference(r, day) })),
    ...ownMatching.map((r) => ({
      name: r.name,
      locode: r.locode,
      port: () => presentOrganizationAsPort(r, r.locode ? referenceByLocode.get(r.locode) : undefined, day),
    })),
  ].sort(
    (a, b) =>
      Number(b.locode === exact) - Number(a.locode === exact) ||
      byCodePoint(a.name, b.name) ||
      byCodePoint(a.locode ?? '', b.locode ?? ''),
  );
  return {
    total: Number(counted.n) + ownMatching.length,
    items: merged.slice(options.offset, options.offset + options.limit).map((p) => p.port()),
  };
}

/**
 * The names of ports as a ship's organization knows them: by UN/LOCODE, its own name for a port it corrected, else
 * the reference's; null for a code nobody knows (or a ship that is gone).
 */
export function shipPortNames(
  db: Kysely<Database>,
  facilityId: string,
): (locode: string) => Promise<string | null> {
  return async (locode) => {
    const ship = await db
      .selectFrom('facilities')
      .select('primary_organization_id')
      .where('id', '=', facilityId)
      .executeTakeFirst();
    if (!ship) return null;
    try {
      return (await findPort(db, ship.primary_organization_id, locode, undefined)).name;
    } catch {
      return null;
    }
  };
}

/** One port by its UN/LOCODE as the organization sees it on a day: its correction or own port, else the reference's. */
export async function findPort(
  db: Kysely<Database>,
  organizationId: string,
  locode: string,
  date: string | undefined,
): Promise<Port> {
  const code = locode.trim().toUpperCase();
  if (!LOCODE.test(code)) throw notFound('Port not found');
  const day = date ?? today();
  const reference = await db.selectFrom('ports').selectAll().where('locode', '=', code).executeTakeFirst();
  const own = (await organizationPorts(db, organizationId).where('p.locode', '=', code).execute()).find((r) =>
    activeOn(r, day),
  );
  if (own) return presentOrganizationAsPort(own, reference, day);
  if (!reference) throw notFound('Port not found');
  return presentReference(reference, day);
}

export async function listOrganizationPorts(
  db: Kysely<Database>,
  organizationId: string,
): Promise<OrganizationPort[]> {
  const rows = await organizationPorts(db, organizationId).orderBy('p.name').orderBy('p.id').execute();
  const corrects = await referenceLocodes(
    db,
    rows.flatMap((r) => (r.locode ? [r.locode] : [])),
  );
  return rows.map((r) => presentOrganizationPort(r, r.locode !== null && corrects.has(r.locode)));
}

async function referenceLocodes(db: Kysely<Database> | Transaction<Database>, locodes: string[]) {
  if (!locodes.length) return new Set<string>();
  const rows = await db.selectFrom('ports').select('locode').where('locode', 'in', locodes).execute();
  return new Set(rows.map((r) => r.locode));
}

export async function findOrganizationPort(
  db: Kysely<Database> | Transaction<Database>,
  organizationId: string,
  portId: string,
): Promise<OrganizationPort> {
  const row = isUuid(portId)
    ? await organizationPorts(db, organizationId).where('p.id', '=', portId).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Port not found');
  const corrects = row.locode ? (await referenceLocodes(db, [row.locode])).has(row.locode) : false;
  return presentOrganizationPort(row, corrects);
}

/** The centre of a polygon's ring (the mean of its positions but the closing one): the point of a polygon port. */
function ringCentre(polygon: PortPolygon): { lat: number; lon: number } {
  const ring = polygon.coordinates[0]!.slice(0, -1);
  const round = (n: number) => Math.round(n * 1e5) / 1e5;
  return {
    lon: round(ring.reduce((s, p) => s + p[0]!, 0) / ring.length),
    lat: round(ring.reduce((s, p) => s + p[1]!, 0) / ring.length),
  };
}

type ParsedBody = Omit<OrganizationPortBody, 'radiusNm'> & { radiusNm: number };

/**
 * The row an organization's port body makes: a correction takes what it leaves out from the reference port; an own
 * port must say its name, country and position. Refusals name the field (400, VALIDATION_FAILED).
 */
export async function organizationPortValues(db: Kysely<Database> | Transaction<Database>, body: ParsedBody) {
  const locode = body.locode ?? null;
  const reference = locode
    ? await db.selectFrom('ports').selectAll().where('locode', '=', locode).executeTakeFirst()
    : undefined;
  const fields: Record<string, string> = {};
  const name = body.name ?? reference?.name;
  const country = body.country ?? reference?.country ?? locode?.slice(0, 2);
  const polygon = body.polygon ?? null;
  const point =
    body.lat !== undefined && body.lon !== undefined
      ? { lat: body.lat, lon: body.lon }
      : polygon
        ? ringCentre(polygon)
        : reference
          ? { lat: reference.lat, lon: reference.lon }
          : null;
  if (!name) fields.name = M.nameRequired;
  if (!country) fields.country = M.countryRequired;
  if (!point) fields.lat = M.positionRequired;
  const first = Object.entries(fields)[0];
  if (first) throw badRequest(`${first[0]}: ${first[1]}`, fields);
  const subdivision = body.subdivision !== undefined ? body.subdivision : (reference?.subdivision ?? null);
  return {
    locode,
    name: name!,
    country: country!,
    subdivision,
    area: portArea({ country: country!, subdivision, lat: point!.lat, lon: point!.lon }),
    lat: point!.lat,
    lon: point!.lon,
    radius_nm: body.radiusNm,
    polygon: polygon ? JSON.stringify(polygon) : null,
    active_from: body.activeFrom ?? null,
    active_to: body.activeTo ?? null,
  };
}

/** 409 when the organization has another port with this locode (one correction per reference port). */
export async function assertLocodeFree(
  db: Kysely<Database> | Transaction<Database>,
  organizationId: string,
  locode: string | null,
  exceptId?: string,
): Promise<void> {
  if (!locode) return;
  let query = db
    .selectFrom('organization_ports')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('locode', '=', locode);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict(`locode: ${M.locodeTaken}`, { locode: M.locodeTaken });
}

/**
 * The ports of an organization as the engine uses them (port-at.ts's `buildPortIndex`): the reference with a radius
 * of DEFAULT_PORT_RADIUS_NM and the organization's ports with their own radius or polygon and active days. The
 * reference part is read once per process and loaded reference.
 */
export async function portShapesForOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<(PortShape & { name: string; country: string; area: string | null; id?: string })[]> {
  const reference = await referenceShapes(db);
  const own = await organizationPorts(db, organizationId).execute();
  return [
    ...reference,
    ...own.map((r) => ({
      // The organization's port's id (the carbon ledger keys a call at an own port by it).
      id: r.id,
      locode: r.locode,
      name: r.name,
      country: r.country,
      area: r.area,
      lat: r.lat,
      lon: r.lon,
      radiusNm: r.radius_nm,
      polygon: (polygonOf(r.polygon)?.coordinates[0] ?? null) as LonLat[] | null,
      organization: true,
      activeFromMs: r.active_from ? Date.parse(`${r.active_from}T00:00:00Z`) : null,
      activeUntilMs: r.active_to ? Date.parse(`${r.active_to}T00:00:00Z`) + DAY_MS : null,
    })),
  ];
}

let referenceCache:
  | { digest: string; shapes: (PortShape & { name: string; country: string; area: string | null })[] }
  | undefined;

async function referenceShapes(db: Kysely<Database>) {
  const loaded = await db.selectFrom('port_reference').select('digest').executeTakeFirst();
  const digest = loaded?.digest ?? '';
  if (referenceCache?.digest !== digest) {
    const rows = await db
      .selectFrom('ports')
      .select(['locode', 'name', 'country', 'area', 'lat', 'lon'])
      .orderBy('locode')
      .execute();
    referenceCache = {
      digest,
      shapes: rows.map((r) => ({ ...r, radiusNm: DEFAULT_PORT_RADIUS_NM, organization: false })),
    };
  }
  return referenceCache.shapes;
}

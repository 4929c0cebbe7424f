import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import type { Caller } from './caller';

/**
 * Who may do what, decided once (docs/decisions/0004-permissions.md):
 * - SystemAdmin: everything, every organization; the only role that configures ships, calculations, reports and exports.
 * - UserAdmin: users, ship access and links of the own organization; sees the own organization's ships and the ships shared with it.
 * - User: the ships assigned to the user, as long as the user's organization still sees them.
 * - Verifier: reads its organization's own ships' ledger of the years invited; writes only its verification
 *   (features/access/verifier.ts decides which routes it reaches, in the authentication hook).
 * Upload and execute are for anyone who sees the ship.
 * An API key (features/api-keys) sees what its organization sees and passes no role check: it reaches only the routes
 * that accept its scopes (app.ts).
 */
export const isSystemAdmin = (caller: Caller) => caller.role === 'SystemAdmin' && !caller.apiKey;

export function requireSystemAdmin(caller: Caller): void {
  if (!isSystemAdmin(caller)) throw forbidden('Only a system administrator may do this');
}

/** Ships an organization sees: its own and those shared with it. */
export function organizationFacilityIds(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('facilities')
    .select('facilities.id')
    .where((eb) =>
      eb.or([
        eb('facilities.primary_organization_id', '=', organizationId),
        eb(
          'facilities.id',
          'in',
          eb
            .selectFrom('organization_facility_access')
            .select('facility_id')
            .where('organization_id', '=', organizationId),
        ),
      ]),
    );
}

/** A SQL condition "this facility id column is one the caller may see", to use inside any query (never filter after the fact). */
export function facilityVisibleTo(
  db: Kysely<Database>,
  caller: Caller,
  facilityIdColumn: Expression<string>,
): Expression<SqlBool> {
  if (caller.role === 'SystemAdmin' && !caller.apiKey) return sql<SqlBool>`true`;
  // A Verifier (docs/decisions/0115-verifier.md) sees the ledger of the organization it verifies: its own ships,
  // not those other organizations share with it.
  if (caller.role === 'Verifier' && !caller.apiKey)
    return sql<SqlBool>`${facilityIdColumn} in (${db
      .selectFrom('facilities')
      .select('facilities.id')
      .where('facilities.primary_organization_id', '=', caller.organizationId)})`;
  const orgFacilities = organizationFacilityIds(db, caller.organizationId);
  // An API key sees what its organization sees, never more (not all ships for a SystemAdmin's organization).
  if (caller.role === 'UserAdmin' || caller.apiKey)
    return sql<SqlBool>`${facilityIdColumn} in (${orgFacilities})`;
  const assigned = db
    .selectFrom('user_facility_access')
    .select('facility_id')
    .where('user_id', '=', caller.userId);
  return sql<SqlBool>`(${facilityIdColumn} in (${assigned}) and ${facilityIdColumn} in (${orgFacilities}))`;
}

/**
 * What {@link facilityVisibleTo} reads of the caller, as a key: callers with the same key see the same ships at the
 * same access version (migration 0010: every table the condition reads moves it). An answer about "the ships the
 * caller sees" may be kept under it with the access version and shared by those callers. Keep the two together: a
 * new branch there is a new key here.
 */
export function visibilityKey(caller: Caller): string {
  if (caller.role === 'SystemAdmin' && !caller.apiKey) return 'every ship';
  if (caller.role === 'Verifier' && !caller.apiKey) return `owned by ${caller.organizationId}`;
  if (caller.role === 'UserAdmin' || caller.apiKey) return `seen by ${caller.organizationId}`;
  return `assigned to ${caller.userId} in ${caller.organizationId}`;
}

/** Organizations that see a ship: its owner and those it is shared with (a query of their ids). */
export function organizationsSeeingFacility(db: Kysely<Database>, facilityId: string) {
  return db
    .selectFrom('facilities')
    .select('facilities.primary_organization_id as id')
    .where('facilities.id', '=', facilityId)
    .union(
      db
        .selectFrom('organization_facility_access')
        .select('organization_facility_access.organization_id as id')
        .where('organization_facility_access.facility_id', '=', facilityId),
    );
}

/**
 * The users who may see a ship (a query of their ids): the rules of {@link facilityVisibleTo} read from the ship's
 * side, for those who are told about it without asking (alert recipients). SystemAdmin: every ship; UserAdmin: the
 * ships its organization sees; User: the ships assigned to it that its organization still sees.
 */
export function usersSeeingFacility(db: Kysely<Database>, facilityId: string) {
  const organizations = organizationsSeeingFacility(db, facilityId);
  const assigned = db
    .selectFrom('user_facility_access')
    .select('user_facility_access.user_id')
    .where('user_facility_access.facility_id', '=', facilityId);
  return db
    .selectFrom('users')
    .select('users.id')
    .where((eb) =>
      eb.or([
        eb('users.role', '=', 'SystemAdmin'),
        eb.and([
          eb('users.organization_id', 'in', organizations),
          eb.or([eb('users.role', '=', 'UserAdmin'), eb('users.id', 'in', assigned)]),
        ]),
      ]),
    );
}

/** Throws "Ship not found" (404) unless the caller may see the ship: another organization's ship is not revealed. */
export async function assertFacilityVisible(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
): Promise<void> {
  if (!isUuid(facilityId)) throw notFound('Ship not found');
  const row = await db
    .selectFrom('facilities')
    .select('id')
    .where('id', '=', facilityId)
    .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
    .executeTakeFirst();
  if (!row) throw notFound('Ship not found');
}

/** May the caller manage users, ship access and links of this organization? */
export function canManageOrganization(caller: Caller, organizationId: string): boolean {
  if (caller.apiKey) return false;
  return (
    caller.role === 'SystemAdmin' || (caller.role === 'UserAdmin' && caller.organizationId === organizationId)
  );
}

/** 404 for another organization (its existence is not revealed), 403 for a role that may not manage its own. */
export function requireManageOrganization(caller: Caller, organizationId: string): void {
  if (canManageOrganization(caller, organizationId)) return;
  if (caller.organizationId === organizationId) throw forbidden('Only an administrator may do this');
  throw notFound('Organization not found');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

import { sql, type Kysely, type Transaction } from 'kysely';
import { ROLES, type Role } from '@portal/contracts/rules';
import type {
  AssignableRole,
  OrganizationDetail,
  OrganizationListItem,
  OrganizationUser,
} from '@portal/contracts/organizations';
import type { Database, OrganizationsTable } from '../../db/schema';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { assertFacilityVisible, isSystemAdmin, isUuid, organizationFacilityIds } from '../access/policy';

/** The organizations list with counts; `onlyId` narrows it to one organization. */
export async function listOrganizations(
  db: Kysely<Database>,
  onlyId?: string,
): Promise<OrganizationListItem[]> {
  let query = db
    .selectFrom('organizations as o')
    .select([
      'o.id',
      'o.name',
      'o.email',
      'o.phone',
      'o.priority',
      sql<number>`(select count(*) from facilities f where f.primary_organization_id = o.id or f.id in (select ofa.facility_id from organization_facility_access ofa where ofa.organization_id = o.id))`.as(
        'facility_count',
      ),
      sql<number>`(select count(*) from users u where u.organization_id = o.id)`.as('user_count'),
    ])
    .orderBy(sql`lower(o.name)`);
  if (onlyId) query = query.where('o.id', '=', onlyId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    priority: r.priority,
    facilityCount: Number(r.facility_count),
    userCount: Number(r.user_count),
  }));
}

/** Throws "Organization not found" (404) for a malformed or unknown id. */
export async function findOrganization(db: Kysely<Database>, id: string) {
  const row = isUuid(id)
    ? await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Organization not found');
  return row;
}

/** Roles the caller may give users of this organization. */
export function assignableRoles(caller: Caller, organization: { is_provider: boolean }): AssignableRole[] {
  const names: Role[] =
    isSystemAdmin(caller) && organization.is_provider
      ? ['SystemAdmin', 'UserAdmin', 'User']
      : ['UserAdmin', 'User'];
  return names.map((name) => ROLES[name]);
}

export async function organizationDetail(
  db: Kysely<Database>,
  caller: Caller,
  id: string,
): Promise<OrganizationDetail> {
  const organization = await findOrganization(db, id);
  const [counts] = await listOrganizations(db, id);
  const linked = await db
    .selectFrom('organization_links as l')
    .innerJoin('organizations as o', 'o.id', 'l.linked_organization_id')
    .select([
      'o.id',
      'o.name',
      sql<
        string[]
      >`array(select ofa.facility_id::text from organization_facility_access ofa join facilities f on f.id = ofa.facility_id where ofa.organization_id = o.id and f.primary_organization_id = ${id} order by ofa.facility_id)`.as(
        'facility_ids',
      ),
    ])
    .where('l.organization_id', '=', id)
    .orderBy(sql`lower(o.name)`)
    .execute();
  return {
    ...counts!,
    linkKey: organization.link_key.trim(),
    linkedOrganizations: linked.map((l) => ({ id: l.id, name: l.name, facilityIds: l.facility_ids ?? [] })),
    roles: assignableRoles(caller, organization),
  };
}

export async function organizationUsers(
  db: Kysely<Database>,
  organizationId: string,
): Promise<OrganizationUser[]> {
  const visible = organizationFacilityIds(db, organizationId);
  const rows = await db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.username',
      'u.role',
      // Only ships the organization still sees: an access row left from an old share does not count.
      sql<
        string[]
      >`array(select ufa.facility_id::text from user_facility_access ufa where ufa.user_id = u.id and ufa.facility_id in (${visible}) order by ufa.facility_id)`.as(
        'facility_ids',
      ),
    ])
    .where('u.organization_id', '=', organizationId)
    .orderBy(sql`lower(u.username)`)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    roles: [r.role],
    facilityIds: r.facility_ids ?? [],
  }));
}

/** What a user enters about an organization. */
type OrganizationFields = Pick<OrganizationsTable, 'name' | 'email' | 'phone'> & { priority: boolean };

/** An organization other than `exceptId` whose name is `name`, ignoring case. */
export function organizationWithName(db: Kysely<Database>, name: string, exceptId?: string) {
  let query = db
    .selectFrom('organizations')
    .select('id')
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

export async function linkKeyTaken(db: Kysely<Database>, key: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('organizations').select('id').where('link_key', '=', key).executeTakeFirst(),
  );
}

export function insertOrganization(
  trx: Transaction<Database>,
  organization: OrganizationFields & { linkKey: string },
) {
  const { name, email, phone, priority, linkKey } = organization;
  return trx
    .insertInto('organizations')
    .values({ name, email, phone, priority, link_key: linkKey })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function updateOrganization(
  trx: Transaction<Database>,
  id: string,
  organization: OrganizationFields,
): Promise<void> {
  const { name, email, phone, priority } = organization;
  await trx.updateTable('organizations').set({ name, email, phone, priority }).where('id', '=', id).execute();
}

/** The organization that has this link key. */
export function organizationByLinkKey(db: Kysely<Database>, linkKey: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('link_key', '=', linkKey)
    .executeTakeFirst();
}

/** Whether `organizationId` is linked to `linkedOrganizationId`. */
export async function organizationsLinked(
  db: Kysely<Database>,
  organizationId: string,
  linkedOrganizationId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('organization_links')
    .select('linked_organization_id')
    .where('organization_id', '=', organizationId)
    .where('linked_organization_id', '=', linkedOrganizationId)
    .executeTakeFirst();
  return Boolean(row);
}

/** Links two organizations, both ways. */
export async function linkOrganizations(
  trx: Transaction<Database>,
  id: string,
  otherId: string,
): Promise<void> {
  await trx
    .insertInto('organization_links')
    .values([
      { organization_id: id, linked_organization_id: otherId },
      { organization_id: otherId, linked_organization_id: id },
    ])
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Takes a ship away from an organization: the share and its users' access to the ship. */
export async function removeOrganizationAccess(
  trx: Transaction<Database>,
  organizationId: string,
  facilityIds: string[],
): Promise<void> {
  if (!facilityIds.length) return;
  await trx
    .deleteFrom('organization_facility_access')
    .where('organization_id', '=', organizationId)
    .where('facility_id', 'in', facilityIds)
    .execute();
  await trx
    .deleteFrom('user_facility_access')
    .where('facility_id', 'in', facilityIds)
    .where(
      'user_id',
      'in',
      trx.selectFrom('users').select('id').where('organization_id', '=', organizationId),
    )
    .execute();
}

/** Unlinks two organizations, both ways: without the link neither keeps the other's ships. */
export async function unlinkOrganizations(
  trx: Transaction<Database>,
  id: string,
  otherId: string,
): Promise<void> {
  await trx
    .deleteFrom('organization_links')
    .where((eb) =>
      eb.or([
        eb.and([eb('organization_id', '=', id), eb('linked_organization_id', '=', otherId)]),
        eb.and([eb('organization_id', '=', otherId), eb('linked_organization_id', '=', id)]),
      ]),
    )
    .execute();
  const owned = async (owner: string) =>
    (
      await trx.selectFrom('facilities').select('id').where('primary_organization_id', '=', owner).execute()
    ).map((f) => f.id);
  await removeOrganizationAccess(trx, otherId, await owned(id));
  await removeOrganizationAccess(trx, id, await owned(otherId));
}

/** A ship by id, or "Ship not found" (404) when it does not exist or the caller may not see it. */
export async function findVisibleFacility(db: Kysely<Database>, caller: Caller, facilityId: string) {
  await assertFacilityVisible(db, caller, facilityId);
  return db
    .selectFrom('facilities')
    .select(['id', 'name', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
}

/** Whether the organization sees the ship (its own, or shared with it). */
export async function organizationSees(
  db: Kysely<Database>,
  organizationId: string,
  facilityId: string,
): Promise<boolean> {
  const row = await organizationFacilityIds(db, organizationId)
    .where('facilities.id', '=', facilityId)
    .executeTakeFirst();
  return Boolean(row);
}

/** A user and its organization. */
export function findUserOrganization(db: Kysely<Database>, userId: string) {
  return db.selectFrom('users').select(['id', 'organization_id']).where('id', '=', userId).executeTakeFirst();
}

export async function grantUserFacility(
  trx: Transaction<Database>,
  userId: string,
  facilityId: string,
): Promise<void> {
  await trx
    .insertInto('user_facility_access')
    .values({ user_id: userId, facility_id: facilityId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function revokeUserFacility(
  trx: Transaction<Database>,
  userId: string,
  facilityId: string,
): Promise<void> {
  await trx
    .deleteFrom('user_facility_access')
    .where('user_id', '=', userId)
    .where('facility_id', '=', facilityId)
    .execute();
}

/** Whether the ship is shared with the organization. */
export async function facilitySharedWith(
  db: Kysely<Database>,
  organizationId: string,
  facilityId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('organization_facility_access')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function shareFacility(
  trx: Transaction<Database>,
  organizationId: string,
  facilityId: string,
): Promise<void> {
  await trx
    .insertInto('organization_facility_access')
    .values({ organization_id: organizationId, facility_id: facilityId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Whether the ship is shared with any organization. */
export async function hasSecondaryOrganizations(db: Kysely<Database>, facilityId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_facility_access')
    .select('organization_id')
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Gives a ship to another organization. Irreversible: the old owner and every secondary organization lose the
 * ship, with their users.
 */
export async function transferFacility(
  trx: Transaction<Database>,
  facilityId: string,
  organizationId: string,
): Promise<void> {
  await trx
    .updateTable('facilities')
    .set({ primary_organization_id: organizationId })
    .where('id', '=', facilityId)
    .execute();
  await trx.deleteFrom('organization_facility_access').where('facility_id', '=', facilityId).execute();
  await trx
    .deleteFrom('user_facility_access')
    .where('facility_id', '=', facilityId)
    .where(
      'user_id',
      'not in',
      trx.selectFrom('users').select('id').where('organization_id', '=', organizationId),
    )
    .execute();
}

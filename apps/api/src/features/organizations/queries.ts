import { sql, type Kysely } from 'kysely';
import { ROLES, type Role } from '@portal/contracts/rules';
import type {
  AssignableRole,
  OrganizationDetail,
  OrganizationListItem,
  OrganizationUser,
} from '@portal/contracts/organizations';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { isSystemAdmin, isUuid, organizationFacilityIds } from '../access/policy';

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

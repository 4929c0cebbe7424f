import type { Kysely, Transaction } from 'kysely';
import { checkFlexibility, checkPool, FUELEU_MESSAGES, fuelEuTarget } from '@portal/contracts/rules/carbon';
import type {
  FuelEuFlexibilityInput,
  FuelEuOrganizationYear,
  FuelEuPool,
  FuelEuPoolInput,
  FuelEuShipYear,
} from '@portal/contracts/fueleu';
import type { Database } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { auditedChange } from '../audit/audit';
import type { Caller } from '../access/caller';
import { canManageOrganization, isSystemAdmin, isUuid, requireManageOrganization } from '../access/policy';
import { fuelEuShipYear, shipOf, shipYearFigures } from './ship-year';

/**
 * FuelEU's records and the organization's year (docs/decisions/0113-fueleu.md): banking and borrowing per ship and
 * year, pools per organization and year, each change checked against the Regulation's limits with a plain message
 * and audited in its own transaction. Who may: the organization's administrators (UserAdmin) and SystemAdmins decide
 * for the ships of the organization (their primary organization, the company responsible under FuelEU); everyone
 * who sees a ship reads its year.
 */

const G_PER_T = 1e6;
const actor = (caller: Caller) => ({ userId: caller.userId, organizationId: caller.organizationId });
const iso = (d: Date | number) => new Date(d).toISOString();

/** 404 unless the caller belongs to the organization or is a SystemAdmin (another organization is not revealed). */
export function requireSeeOrganization(caller: Caller, organizationId: string): void {
  if (isSystemAdmin(caller) || caller.organizationId === organizationId) return;
  throw notFound('Organization not found');
}

// ---- Banking and borrowing ----

export async function setFlexibility(
  db: Kysely<Database>,
  caller: Caller,
  facilityId: string,
  year: number,
  input: Omit<FuelEuFlexibilityInput, 'year'>,
): Promise<FuelEuShipYear> {
  const ship = await shipOf(db, facilityId);
  if (!canManageOrganization(caller, ship.organizationId))
    throw forbidden(
      caller.organizationId === ship.organizationId
        ? 'Only an administrator may do this'
        : "Only the ship's own organization decides its FuelEU banking and borrowing",
    );
  // The year's balance before this year's banking and borrowing, with what was decided before.
  const current = await fuelEuShipYear(db, facilityId, year);
  if (!current.applies) throw badRequest(`FuelEU applies from 2025: ${year} has no limit.`);
  const previous = await db
    .selectFrom('fueleu_flexibility')
    .select('borrowed_tonnes')
    .where('facility_id', '=', facilityId)
    .where('year', '=', year - 1)
    .executeTakeFirst();
  const errors = checkFlexibility({
    balanceGco2e: current.balanceBeforeFlexibilityTonnes * G_PER_T,
    target: current.target!,
    energyMj: current.actual.energyInScopeMj,
    bankGco2e: input.bankedTonnes * G_PER_T,
    borrowGco2e: input.borrowedTonnes * G_PER_T,
    borrowedPreviousYear: previous?.borrowed_tonnes ?? null,
    year,
  });
  if (errors.length) throw badRequest(errors.join(' '));
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      if (input.bankedTonnes === 0 && input.borrowedTonnes === 0)
        await trx
          .deleteFrom('fueleu_flexibility')
          .where('facility_id', '=', facilityId)
          .where('year', '=', year)
          .execute();
      else
        await trx
          .insertInto('fueleu_flexibility')
          .values({
            facility_id: facilityId,
            year,
            banked_tonnes: input.bankedTonnes,
            borrowed_tonnes: input.borrowedTonnes,
            updated_by: caller.apiKey ? null : caller.userId,
            updated_by_name: caller.username,
          })
          .onConflict((oc) =>
            oc.columns(['facility_id', 'year']).doUpdateSet({
              banked_tonnes: input.bankedTonnes,
              borrowed_tonnes: input.borrowedTonnes,
              updated_by: caller.apiKey ? null : caller.userId,
              updated_by_name: caller.username,
              updated_on: new Date(),
            }),
          )
          .execute();
    },
    {
      action: 'fueleu.flexibility.set',
      subject: facilityId,
      detail: { year, bankedTonnes: input.bankedTonnes, borrowedTonnes: input.borrowedTonnes },
    },
  );
  return fuelEuShipYear(db, facilityId, year);
}

// ---- Pools ----

interface PoolRow {
  id: string;
  organization_id: string;
  year: number;
  name: string;
  created_by_name: string;
  created_on: Date;
}

/** A pool with its members' balances as calculated today and its validity with them. */
async function presentPool(db: Kysely<Database>, pool: PoolRow): Promise<FuelEuPool> {
  const rows = await db
    .selectFrom('fueleu_pool_members as m')
    .innerJoin('facilities as f', 'f.id', 'm.facility_id')
    .select(['m.facility_id', 'f.name', 'f.primary_organization_id', 'm.allocated_tonnes'])
    .where('m.pool_id', '=', pool.id)
    .orderBy('f.name')
    .execute();
  const members = [];
  for (const r of rows) {
    const figures = await shipYearFigures(
      db,
      { id: r.facility_id, name: r.name, organizationId: r.primary_organization_id },
      pool.year,
    );
    members.push({
      shipId: r.facility_id,
      shipName: r.name,
      balanceTonnes: figures.balanceGco2e / G_PER_T,
      allocatedTonnes: r.allocated_tonnes,
    });
  }
  const problems = checkPool(
    members.map((m) => ({
      shipId: m.shipId,
      shipName: m.shipName,
      balanceGco2e: m.balanceTonnes * G_PER_T,
      allocatedGco2e: m.allocatedTonnes * G_PER_T,
    })),
  );
  return {
    id: pool.id,
    organizationId: pool.organization_id,
    year: pool.year,
    name: pool.name,
    members,
    totalTonnes: members.reduce((s, m) => s + m.balanceTonnes, 0),
    valid: problems.length === 0,
    problems,
    createdBy: pool.created_by_name,
    createdOn: iso(pool.created_on),
  };
}

export async function findPool(db: Kysely<Database>, caller: Caller, orgId: string, poolId: string) {
  requireSeeOrganization(caller, orgId);
  const row = isUuid(poolId)
    ? await db
        .selectFrom('fueleu_pools')
        .selectAll()
        .where('id', '=', poolId)
        .where('organization_id', '=', orgId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Pool not found');
  return row;
}

export async function getPool(db: Kysely<Database>, caller: Caller, orgId: string, poolId: string) {
  return presentPool(db, await findPool(db, caller, orgId, poolId));
}

/** Checks a pool's members (the organization's own ships, in no other pool of the year) and its allocation. */
async function checkedMembers(
  db: Kysely<Database> | Transaction<Database>,
  orgId: string,
  input: FuelEuPoolInput,
  exceptPoolId: string | null,
) {
  const members = [];
  for (const m of input.members) {
    const ship = isUuid(m.facilityId)
      ? await db
          .selectFrom('facilities')
          .select(['id', 'name', 'primary_organization_id'])
          .where('id', '=', m.facilityId)
          .executeTakeFirst()
      : undefined;
    // Another organization's ship is not revealed: it is not found, as an unknown one.
    if (!ship || ship.primary_organization_id !== orgId) throw notFound('Ship not found');
    members.push({ ship, allocatedTonnes: m.allocatedTonnes });
  }
  const errors: string[] = [];
  if (fuelEuTarget(input.year) === null) errors.push(`FuelEU applies from 2025: ${input.year} has no limit.`);
  for (const m of members) {
    let other = db
      .selectFrom('fueleu_pool_members as pm')
      .innerJoin('fueleu_pools as p', 'p.id', 'pm.pool_id')
      .select('p.name')
      .where('pm.facility_id', '=', m.ship.id)
      .where('pm.year', '=', input.year);
    if (exceptPoolId) other = other.where('p.id', '!=', exceptPoolId);
    const found = await other.executeTakeFirst();
    if (found) errors.push(FUELEU_MESSAGES.poolShipInOtherPool(m.ship.name, found.name));
  }
  const balances = [];
  for (const m of members) {
    const figures = await shipYearFigures(
      db as Kysely<Database>,
      { id: m.ship.id, name: m.ship.name, organizationId: orgId },
      input.year,
    );
    balances.push({
      shipId: m.ship.id,
      shipName: m.ship.name,
      balanceGco2e: figures.balanceGco2e,
      allocatedGco2e: m.allocatedTonnes * G_PER_T,
    });
  }
  errors.push(...checkPool(balances));
  if (errors.length) throw badRequest(errors.join(' '));
  return members;
}

export async function createPool(
  db: Kysely<Database>,
  caller: Caller,
  orgId: string,
  input: FuelEuPoolInput,
): Promise<FuelEuPool> {
  requireManageOrganization(caller, orgId);
  const members = await checkedMembers(db, orgId, input, null);
  const id = await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      const pool = await trx
        .insertInto('fueleu_pools')
        .values({
          organization_id: orgId,
          year: input.year,
          name: input.name,
          created_by: caller.apiKey ? null : caller.userId,
          created_by_name: caller.username,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertMembers(trx, pool.id, input.year, members);
      return pool.id;
    },
    (poolId) => ({
      action: 'fueleu.pool.create',
      subject: orgId,
      detail: { poolId, year: input.year, name: input.name, ships: members.map((m) => m.ship.id) },
    }),
  );
  return getPool(db, caller, orgId, id);
}

async function insertMembers(
  trx: Transaction<Database>,
  poolId: string,
  year: number,
  members: { ship: { id: string }; allocatedTonnes: number }[],
) {
  try {
    await trx
      .insertInto('fueleu_pool_members')
      .values(
        members.map((m) => ({
          pool_id: poolId,
          facility_id: m.ship.id,
          year,
          allocated_tonnes: m.allocatedTonnes,
        })),
      )
      .execute();
  } catch (error) {
    // Two pools written at once with the same ship: the unique key decides.
    if (String((error as { code?: string }).code) === '23505')
      throw conflict('A ship of this pool joined another pool of the year meanwhile.');
    throw error;
  }
}

export async function updatePool(
  db: Kysely<Database>,
  caller: Caller,
  orgId: string,
  poolId: string,
  input: FuelEuPoolInput,
): Promise<FuelEuPool> {
  const pool = await findPool(db, caller, orgId, poolId);
  requireManageOrganization(caller, orgId);
  const members = await checkedMembers(db, orgId, input, pool.id);
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx
        .updateTable('fueleu_pools')
        .set({ name: input.name, year: input.year })
        .where('id', '=', pool.id)
        .execute();
      await trx.deleteFrom('fueleu_pool_members').where('pool_id', '=', pool.id).execute();
      await insertMembers(trx, pool.id, input.year, members);
    },
    {
      action: 'fueleu.pool.update',
      subject: orgId,
      detail: { poolId: pool.id, year: input.year, name: input.name, ships: members.map((m) => m.ship.id) },
    },
  );
  return getPool(db, caller, orgId, pool.id);
}

export async function deletePool(
  db: Kysely<Database>,
  caller: Caller,
  orgId: string,
  poolId: string,
): Promise<void> {
  const pool = await findPool(db, caller, orgId, poolId);
  requireManageOrganization(caller, orgId);
  await auditedChange(
    db,
    actor(caller),
    async (trx) => {
      await trx.deleteFrom('fueleu_pools').where('id', '=', pool.id).execute();
    },
    {
      action: 'fueleu.pool.delete',
      subject: orgId,
      detail: { poolId: pool.id, year: pool.year, name: pool.name },
    },
  );
}

// ---- The organization's year ----

export async function organizationYear(
  db: Kysely<Database>,
  caller: Caller,
  orgId: string,
  year: number,
): Promise<FuelEuOrganizationYear> {
  requireSeeOrganization(caller, orgId);
  const organization = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!organization) throw notFound('Organization not found');
  const ships = await db
    .selectFrom('facilities')
    .select('id')
    .where('primary_organization_id', '=', orgId)
    .orderBy('name')
    .execute();
  const shipYears = [];
  for (const s of ships) shipYears.push(await fuelEuShipYear(db, s.id, year));
  const poolRows = await db
    .selectFrom('fueleu_pools')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('year', '=', year)
    .orderBy('name')
    .execute();
  const pools = [];
  for (const p of poolRows) pools.push(await presentPool(db, p));
  const energy = shipYears.reduce((s, y) => s + y.actual.energyInScopeMj, 0);
  const weighted = shipYears.reduce((s, y) => s + (y.actual.intensity ?? 0) * y.actual.energyInScopeMj, 0);
  return {
    organizationId: orgId,
    year,
    target: fuelEuTarget(year),
    ships: shipYears,
    pools,
    totals: {
      energyInScopeMj: energy,
      intensity: energy > 0 ? weighted / energy : null,
      balanceTonnes: shipYears.reduce((s, y) => s + y.actual.balanceTonnes, 0),
      finalBalanceTonnes: shipYears.reduce((s, y) => s + y.finalBalanceTonnes, 0),
      penaltyEur: shipYears.reduce((s, y) => s + y.penaltyEur, 0),
      projectedBalanceTonnes: shipYears.reduce((s, y) => s + y.projected.balanceTonnes, 0),
      projectedPenaltyEur: shipYears.reduce((s, y) => s + y.projected.penaltyEur, 0),
    },
  };
}

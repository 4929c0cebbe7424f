import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateLinkKey } from '@portal/contracts/forms/organization';
import { demoShips } from '@portal/demo-fleet/ships';
import type { Database } from '../db/schema';
import { hashPassword } from '../features/auth/passwords';
import { seedMessages } from '../features/messages/seed';
import { seedReports } from '../features/reports/seed';

/** The demo organizations. `key` matches the demo fleet's `organizationKey`. */
export const DEMO_ORGANIZATIONS = [
  {
    key: 'provider',
    name: 'Scrubber Service Provider',
    email: 'service@scrubber-portal.example',
    phone: '+47 22 00 00 00',
    priority: true,
    isProvider: true,
  },
  {
    key: 'north',
    name: 'Nordic Bulk Carriers',
    email: 'fleet@nordicbulk.example',
    phone: '+47 55 00 00 00',
    priority: false,
    isProvider: false,
  },
  {
    key: 'south',
    name: 'Southern Cross Tankers',
    email: 'ops@southerncross.example',
    phone: '+61 2 0000 0000',
    priority: false,
    isProvider: false,
  },
] as const;

/** Demo users; the README and the start-up banner list them. */
export const DEMO_USERS = [
  { username: 'admin', password: 'Admin1234', role: 'SystemAdmin', organization: 'provider' },
  { username: 'north.admin', password: 'North1234', role: 'UserAdmin', organization: 'north' },
  { username: 'north.anna', password: 'Anna12345', role: 'User', organization: 'north' },
  { username: 'north.olav', password: 'Olav12345', role: 'User', organization: 'north' },
  { username: 'south.admin', password: 'South1234', role: 'UserAdmin', organization: 'south' },
  { username: 'south.maria', password: 'Maria1234', role: 'User', organization: 'south' },
  { username: 'south.lee', password: 'Lee123456', role: 'User', organization: 'south' },
  // North's verifier (docs/decisions/0115-verifier.md): reads North's carbon ledger of the demo's years, records findings.
  { username: 'north.vera', password: 'Vera12345', role: 'Verifier', organization: 'north' },
] as const;

/** The verifier's e-mail address (the invitation's) and years: the demo's data, this year and the last. */
export const DEMO_VERIFIER_EMAIL = 'vera@verifier.example';
export const demoVerifierYears = (now = new Date()) => [now.getUTCFullYear() - 1, now.getUTCFullYear()];

export interface SeedResult {
  created: boolean;
  organizationIds: Record<string, string>;
  facilityIds: Record<string, string>;
  userIds: Record<string, string>;
}

/**
 * Organizations, users, ships and access of the demo. Idempotent: what exists (by name) is kept, what is
 * missing is added. North is linked to South and shares its first ship with it.
 */
export async function seedPlatform(
  db: Kysely<Database>,
  options: { ships?: number } = {},
): Promise<SeedResult> {
  let created = false;
  const organizationIds: Record<string, string> = {};
  for (const org of DEMO_ORGANIZATIONS) {
    const existing = await db
      .selectFrom('organizations')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', org.name.toLowerCase()))
      .executeTakeFirst();
    if (existing) {
      organizationIds[org.key] = existing.id;
      continue;
    }
    const row = await db
      .insertInto('organizations')
      .values({
        name: org.name,
        email: org.email,
        phone: org.phone,
        priority: org.priority,
        is_provider: org.isProvider,
        link_key: generateLinkKey(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    organizationIds[org.key] = row.id;
    created = true;
  }

  const userIds: Record<string, string> = {};
  for (const user of DEMO_USERS) {
    const existing = await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', user.username))
      .executeTakeFirst();
    if (existing) {
      userIds[user.username] = existing.id;
      continue;
    }
    const row = await db
      .insertInto('users')
      .values({
        username: user.username,
        password_hash: await hashPassword(user.password),
        role: user.role,
        organization_id: organizationIds[user.organization]!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds[user.username] = row.id;
    created = true;
  }
  for (const user of DEMO_USERS.filter((u) => u.role === 'Verifier')) {
    const userId = userIds[user.username]!;
    // An accepted invitation (its link used: a hash of nothing anyone holds), so the verifier is listed and signs in.
    await db
      .insertInto('verifier_invitations')
      .values({
        user_id: userId,
        organization_id: organizationIds[user.organization]!,
        email: DEMO_VERIFIER_EMAIL,
        token_sha256: createHash('sha256').update(`demo-verifier:${userId}`).digest('hex'),
        accepted_on: new Date(),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    await db
      .insertInto('verifier_years')
      .values(demoVerifierYears().map((year) => ({ user_id: userId, year })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const facilityIds: Record<string, string> = {};
  for (const ship of demoShips(options.ships ?? 6)) {
    const existing = await db
      .selectFrom('facilities')
      .select(['id', 'ship_type', 'deadweight_tonnes', 'gross_tonnage'])
      .where('imo', '=', ship.imo)
      .executeTakeFirst();
    const particulars = {
      ship_type: ship.shipType,
      deadweight_tonnes: ship.deadweightTonnes,
      gross_tonnage: ship.grossTonnage,
    };
    if (existing) {
      facilityIds[ship.key] = existing.id;
      // A demo ship seeded before the particulars existed gets them; one someone gave particulars keeps them.
      if (
        existing.ship_type === null &&
        existing.deadweight_tonnes === null &&
        existing.gross_tonnage === null
      )
        await db.updateTable('facilities').set(particulars).where('id', '=', existing.id).execute();
      continue;
    }
    const row = await db
      .insertInto('facilities')
      .values({
        name: ship.name,
        imo: ship.imo,
        primary_organization_id: organizationIds[ship.organizationKey]!,
        scrubber_system_type: ship.scrubberSystemType,
        number_of_scrubbers: ship.numberOfScrubbers,
        system_manufacturer: ship.systemManufacturer,
        total_effect_kw: ship.totalEffectKW,
        ...particulars,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    facilityIds[ship.key] = row.id;
    created = true;
  }

  if (created) {
    const [north, south] = [organizationIds.north!, organizationIds.south!];
    await db
      .insertInto('organization_links')
      .values([
        { organization_id: north, linked_organization_id: south },
        { organization_id: south, linked_organization_id: north },
      ])
      .onConflict((oc) => oc.doNothing())
      .execute();
    const ships = demoShips(options.ships ?? 6);
    const northShips = ships.filter((s) => s.organizationKey === 'north').map((s) => facilityIds[s.key]!);
    const southShips = ships.filter((s) => s.organizationKey === 'south').map((s) => facilityIds[s.key]!);
    const sharedWithSouth = northShips[0];
    if (sharedWithSouth) {
      await db
        .insertInto('organization_facility_access')
        .values({ organization_id: south, facility_id: sharedWithSouth })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const assignments: { user_id: string; facility_id: string }[] = [
      ...northShips.map((f) => ({ user_id: userIds['north.anna']!, facility_id: f })),
      ...northShips.slice(0, 2).map((f) => ({ user_id: userIds['north.olav']!, facility_id: f })),
      ...[...southShips, ...(sharedWithSouth ? [sharedWithSouth] : [])].map((f) => ({
        user_id: userIds['south.maria']!,
        facility_id: f,
      })),
      ...southShips.slice(0, 1).map((f) => ({ user_id: userIds['south.lee']!, facility_id: f })),
    ];
    if (assignments.length)
      await db
        .insertInto('user_facility_access')
        .values(assignments)
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
  await seedMessages(db);
  await seedReports(db);
  return { created, organizationIds, facilityIds, userIds };
}

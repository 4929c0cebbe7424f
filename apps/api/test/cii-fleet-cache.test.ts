import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetCii } from '@portal/contracts/carbon';
import { requiredCii } from '@portal/contracts/rules/carbon';
import { startTestServer, type TestServer } from './harness';

/**
 * The fleet CII card's answer is kept per process under the reports and access versions (features/carbon/fleet-cii.ts,
 * docs/decisions/0138-fleet-cii-answers.md). Whatever it is made of may change between two calls: each change
 * below is made straight in the database, as any process or a hand-written statement would, and the very next call
 * answers it.
 */
let server: TestServer;
const db = () => server.services.database.db;
const YEAR = 2026;
const DWT = 50_000;
const NM = 10_000;

/** Year sums that rate the ship `ratio` times the required CII of a bulk carrier of `dwt`, so far and projected. */
function sumsAt(ratio: number, dwt = DWT) {
  const required = requiredCii({ shipType: 'BULK_CARRIER', dwt, gt: null }, YEAR)!;
  const co2 = ratio * required * dwt * NM;
  return {
    first_day: `${YEAR}-01-01`,
    last_day: `${YEAR}-06-30`,
    co2_g: co2,
    distance_nm: NM,
    scrubber_co2_g: 0,
    unknown_fuel_kg: 0,
    recent_co2_g: co2 / 2,
    recent_distance_nm: NM / 2,
  };
}

/** A ship's year sums rewritten as the engine writes them, at `ratio` times the required CII. */
const setSums = (shipId: string, ratio: number) =>
  db()
    .updateTable('ledger_years')
    .set(sumsAt(ratio))
    .where('facility_id', '=', shipId)
    .where('year', '=', YEAR)
    .execute();

const card = async (username: string) => {
  const response = await (await server.as(username)).get(`/api/cii/fleet?year=${YEAR}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as FleetCii;
};
const rowOf = async (username: string, shipId: string) =>
  (await card(username)).ships.find((s) => s.shipId === shipId);

let ship: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer();
  const ships = await db().selectFrom('facilities').select('id').orderBy('name').execute();
  await db()
    .updateTable('facilities')
    .set({ ship_type: 'BULK_CARRIER', deadweight_tonnes: DWT, gross_tonnage: 30_000 })
    .execute();
  await db()
    .insertInto('ledger_years')
    .values(ships.map((s) => ({ facility_id: s.id, year: YEAR, ...sumsAt(1) })))
    .execute();
  // A ship north.anna sees (every North ship is assigned to her) and one she does not.
  const north = await db()
    .selectFrom('user_facility_access')
    .select('facility_id')
    .where('user_id', '=', server.seed.userIds['north.anna']!)
    .orderBy('facility_id')
    .execute();
  ship = north[0]!.facility_id;
  const seen = new Set(north.map((r) => r.facility_id));
  other = ships.find((s) => !seen.has(s.id))!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('the fleet CII card kept between calls', () => {
  it('answers a new year sum of a ship at once', async () => {
    expect(await rowOf('north.anna', ship)).toMatchObject({ rating: 'C', projectedRating: 'C' });
    await setSums(ship, 1.3);
    expect(await rowOf('north.anna', ship)).toMatchObject({ rating: 'E', projectedRating: 'E' });
    // Sums removed (the ship's year re-executed without pieces): no distance sailed.
    await db().deleteFrom('ledger_years').where('facility_id', '=', ship).where('year', '=', YEAR).execute();
    expect(await rowOf('north.anna', ship)).toMatchObject({
      rating: null,
      missing: 'The ship has sailed no distance in the year yet.',
    });
    await db()
      .insertInto('ledger_years')
      .values({ facility_id: ship, year: YEAR, ...sumsAt(0.8) })
      .execute();
    expect(await rowOf('north.anna', ship)).toMatchObject({ rating: 'A', missing: null });
  });

  it('answers a changed deadweight, ship type and name at once', async () => {
    const before = (await rowOf('north.anna', ship))!;
    // Twice the deadweight: the attained CII per tonne-mile halves, the required line drops less.
    await db()
      .updateTable('facilities')
      .set({ deadweight_tonnes: 2 * DWT })
      .where('id', '=', ship)
      .execute();
    const heavier = (await rowOf('north.anna', ship))!;
    expect(heavier.attained).toBeCloseTo(before.attained! / 2, 9);
    await db().updateTable('facilities').set({ ship_type: null }).where('id', '=', ship).execute();
    expect(await rowOf('north.anna', ship)).toMatchObject({
      rating: null,
      missing: "The ship's type is not entered.",
    });
    await db()
      .updateTable('facilities')
      .set({ ship_type: 'BULK_CARRIER', deadweight_tonnes: DWT, name: 'Renamed for the CII card' })
      .where('id', '=', ship)
      .execute();
    expect(await rowOf('north.anna', ship)).toMatchObject({
      shipName: 'Renamed for the CII card',
      attained: before.attained,
      rating: before.rating,
    });
  });

  it('follows a change of access at once, and never answers one caller with the ships of another', async () => {
    const anna = server.seed.userIds['north.anna']!;
    const annaShips = async () => (await card('north.anna')).ships.map((s) => s.shipId).sort();
    const seen = await annaShips();
    expect(seen).toContain(ship);
    expect(seen).not.toContain(other);
    // Another caller of another organization, asked in between, sees its own ships and nothing of North's but
    // what is shared with it.
    const maria = (await card('south.maria')).ships.map((s) => s.shipId);
    expect(maria).toContain(other);
    expect(await annaShips()).toEqual(seen);
    await db()
      .deleteFrom('user_facility_access')
      .where('user_id', '=', anna)
      .where('facility_id', '=', ship)
      .execute();
    expect(await annaShips()).toEqual(seen.filter((id) => id !== ship));
    await db().insertInto('user_facility_access').values({ user_id: anna, facility_id: ship }).execute();
    expect(await annaShips()).toEqual(seen);
  });

  it('answers 304 to the browser that holds the answer, gzip to a client that accepts it, and a new answer after a change', async () => {
    const token = await server.tokenFor('admin');
    const ask = (headers: Record<string, string> = {}) =>
      server.app.inject({
        method: 'GET',
        url: `/api/cii/fleet?year=${YEAR}`,
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
    const first = await ask();
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect((await ask({ 'if-none-match': etag })).statusCode).toBe(304);
    const zipped = await ask({ 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(first.json());
    await setSums(ship, 1.1);
    const changed = await ask({ 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as FleetCii).ships.find((s) => s.shipId === ship)).toMatchObject({ rating: 'D' });
  });
});

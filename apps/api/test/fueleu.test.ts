import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuelEuOrganizationYear, FuelEuPool, FuelEuShipYear } from '@portal/contracts/fueleu';
import { startTestServer, type TestServer } from './harness';
import { mapLedgerChannels, portsNearRoute } from './carbon-ship';
import { createCsvDataSource, sendFile } from './upload-helpers';
import { waitForExecutions } from './execution-fixtures';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { T0, dayFiles, expectedLedger, generateMonth, type FlowSpec } from './carbon-month';

/**
 * FuelEU Maritime from the carbon ledger (issue "Step 5 of 7"): the month of the carbon ledger's test (carbon-month.ts:
 * Hamburg -> Rotterdam intra-EEA, Rotterdam -> Baltimore to the US, berths in the EU and the US) uploaded through the
 * real route and executed, and the ship's FuelEU year compared with the figures computed here from
 * ../shared/DOMAIN.md's definitions alone (its fuel table, its scope rule, its formulas), within 0.01 %: energy in
 * scope, GHG intensity, compliance balance and penalty. Then banking, borrowing and pooling through the API with the
 * Regulation's limits refused in plain words, each change audited.
 */
let server: TestServer;
let facilityId: string;
let otherShipId: string;
let northId: string;
const { rows } = generateMonth();
const TOLERANCE = 1e-4;

const db = () => server.services.database.db;
const within = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * TOLERANCE + 1e-9,
  );

const FLOWS: FlowSpec[] = [
  { consumer: 'MAIN_ENGINE', value: (r) => r.me, fuel: () => 'HFO' },
  { consumer: 'AUX_ENGINE', value: (r) => r.ae, fuel: (r) => (r.aeFuel === 2 ? 'MDO_MGO' : 'HFO') },
  { consumer: 'BOILER', value: (r) => r.boiler, fuel: () => 'MDO_MGO' },
];

/** DOMAIN.md's FuelEU columns of the fuel table: LCV MJ/g, WtT g CO2e/MJ; Cf CO2, CH4, N2O g/g fuel. */
const DOMAIN_FUELS = {
  HFO: { lcv: 0.0405, wtt: 13.5, co2: 3.114, ch4: 0.00005, n2o: 0.00018 },
  MDO_MGO: { lcv: 0.0427, wtt: 14.4, co2: 3.206, ch4: 0.00005, n2o: 0.00018 },
} as const;
const EU_COUNTRIES = new Set(['DE', 'NL']);

/** The year's FuelEU figures straight from DOMAIN.md's definitions, over the expected ledger of the month. */
function expectedFuelEu(ledger: ReturnType<typeof expectedLedger>) {
  const eu = (locode: string | undefined) => (locode ? EU_COUNTRIES.has(locode.slice(0, 2)) : false);
  let energy = 0;
  let emissions = 0;
  ledger.legs.forEach((leg, i) => {
    // The calls in order are the stays; a voyage runs from the stay before it to the stay after it.
    const stayBefore = ledger.legs.slice(0, i).filter((l) => l.kind === 'stay').length - 1;
    const callAt = (k: number) => ledger.calls[k]?.locode;
    let share: number;
    if (leg.kind === 'stay') share = eu(callAt(stayBefore + 1)) ? 1 : 0;
    else {
      const from = stayBefore >= 0 ? callAt(stayBefore) : undefined;
      const to = callAt(stayBefore + 1);
      if (from && to) share = eu(from) && eu(to) ? 1 : eu(from) || eu(to) ? 0.5 : 0;
      else share = eu(from ?? to) ? 0.5 : 0;
    }
    for (const [key, { kg }] of leg.fuel) {
      const fuel = DOMAIN_FUELS[key.split('|')[1] as keyof typeof DOMAIN_FUELS];
      const grams = kg * 1000 * share;
      energy += grams * fuel.lcv;
      emissions += grams * fuel.lcv * fuel.wtt + grams * (fuel.co2 + 25 * fuel.ch4 + 298 * fuel.n2o);
    }
  });
  const intensity = emissions / energy;
  const target = 91.16 * (1 - 0.02);
  const balance = (target - intensity) * energy;
  const penalty = balance < 0 ? (Math.abs(balance) / (intensity * 41_000)) * 2_400 : 0;
  return { energy, intensity, target, balance, penalty };
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'work' });
  facilityId = server.seed.facilityIds.baltic_tern!;
  northId = server.seed.organizationIds.north!;
  const other = await db()
    .selectFrom('facilities')
    .select('id')
    .where('primary_organization_id', '=', northId)
    .where('id', '!=', facilityId)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  otherShipId = other.id;
  const dataSourceId = await createCsvDataSource(server, facilityId);
  const channelIds: Record<string, string> = {};
  Object.assign(channelIds, await mapLedgerChannels(server, dataSourceId));
  await seedDefaultMeasurementCalculations(db(), facilityId, new Date(T0));
  const executions = new Set<string>();
  for (const file of dayFiles(rows)) {
    const response = await sendFile(
      server,
      'north.admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
      file.fileName,
      file.content,
    );
    if (response.statusCode !== 200) throw new Error(`${file.fileName}: ${response.body}`);
    const answer = response.json() as { errorMessages: string[]; execution: { id: string } | null };
    if (answer.errorMessages.length) throw new Error(answer.errorMessages.join('; '));
    if (answer.execution) executions.add(answer.execution.id);
  }
  const done = await waitForExecutions(db(), [...executions], 600_000);
  const failed = done.filter((e) => e.state !== 'done');
  if (failed.length) throw new Error(`executions failed: ${failed.map((e) => e.error).join('; ')}`);
  await server.services.queue!.drained(undefined, { timeoutMs: 600_000 });
}, 900_000);

afterAll(async () => {
  await server?.close();
});

describe('FuelEU Maritime of the month of a bulk carrier (Hamburg, Rotterdam, Baltimore)', () => {
  let expected: ReturnType<typeof expectedFuelEu>;
  let year: FuelEuShipYear;
  beforeAll(async () => {
    const ledger = expectedLedger(rows, await portsNearRoute(db(), rows), FLOWS);
    expect(ledger.calls.map((c) => c.locode)).toEqual(['DEHAM', 'NLRTM', 'USBAL']);
    expected = expectedFuelEu(ledger);
    const answer = await (
      await server.as('north.anna')
    ).get(`/api/facilities/${facilityId}/fueleu?year=2026`);
    expect(answer.statusCode, answer.body).toBe(200);
    year = answer.json() as FuelEuShipYear;
  });

  it('counts the energy in scope: berths in the EU and the intra-EEA leg whole, the leg to the US half, the US none', () => {
    within(year.actual.energyInScopeMj, expected.energy, 'energy in scope');
    expect(year.legs.map((l) => [l.kind, l.name, l.share])).toEqual([
      ['stay', 'Hamburg', 1],
      ['voyage', 'Hamburg - Rotterdam', 1],
      ['stay', 'Rotterdam', 1],
      ['voyage', 'Rotterdam - Baltimore', 0.5],
      ['stay', 'Baltimore', 0],
      ['voyage', 'Baltimore - ?', 0],
    ]);
    // At sea after Baltimore with the next port unknown: said so.
    expect(year.legs.at(-1)!.provisional).toBe(true);
    expect(year.missing.map((m) => m.item)).toEqual(['Next port of call']);
  });

  it('gives the well-to-wake intensity, the limit of 2026, the compliance balance and the penalty', () => {
    expect(year.applies).toBe(true);
    within(year.target!, expected.target, 'target');
    within(year.actual.intensity!, expected.intensity, 'intensity');
    within(year.actual.balanceTonnes * 1e6, expected.balance, 'compliance balance');
    expect(year.actual.balanceTonnes).toBeLessThan(0);
    within(year.actual.penaltyEur, expected.penalty, 'penalty');
    // Nothing banked, borrowed or pooled: the final balance is the balance, the first year with a deficit.
    within(year.finalBalanceTonnes * 1e6, expected.balance, 'final balance');
    within(year.penaltyEur, expected.penalty, 'penalty due');
    expect(year.consecutiveDeficitYears).toBe(1);
    // Projected to the year's end from the month: the same intensity, the balance at the rate of the month.
    expect(year.projected.intensity).toBe(year.actual.intensity);
    const factor =
      (Date.UTC(2027, 0, 1) - Date.UTC(2026, 2, 1)) / (Date.UTC(2026, 3, 1) - Date.UTC(2026, 2, 1));
    within(year.projected.balanceTonnes, year.actual.balanceTonnes * factor, 'projected balance');
  });

  it('borrows within the limits of Art. 20 only, and audits it', async () => {
    const admin = await server.as('north.admin');
    const limit = (0.02 * expected.target * expected.energy) / 1e6;
    within(year.borrowLimitTonnes, Math.min(limit, -expected.balance / 1e6), 'borrow limit');
    const bank = await admin.put(`/api/facilities/${facilityId}/fueleu/flexibility`, {
      year: 2026,
      bankedTonnes: 1,
      borrowedTonnes: 0,
    });
    expect(bank.statusCode).toBe(400);
    expect(bank.json().message).toBe('Only a surplus can be banked: this ship has no surplus in the year.');
    const tooMuch = await admin.put(`/api/facilities/${facilityId}/fueleu/flexibility`, {
      year: 2026,
      bankedTonnes: 0,
      borrowedTonnes: year.borrowLimitTonnes + 1,
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toMatch(
      /^At most (2 % of the year's limit times the ship's energy|the year's deficit) can be borrowed/,
    );
    const user = await (
      await server.as('north.anna')
    ).put(`/api/facilities/${facilityId}/fueleu/flexibility`, {
      year: 2026,
      bankedTonnes: 0,
      borrowedTonnes: 1,
    });
    expect(user.statusCode).toBe(403);

    const borrowed = await admin.put(`/api/facilities/${facilityId}/fueleu/flexibility`, {
      year: 2026,
      bankedTonnes: 0,
      borrowedTonnes: year.borrowLimitTonnes,
    });
    expect(borrowed.statusCode, borrowed.body).toBe(200);
    const after = borrowed.json() as FuelEuShipYear;
    expect(after.flexibility).toMatchObject({ bankedTonnes: 0, borrowedTonnes: year.borrowLimitTonnes });
    within(
      after.finalBalanceTonnes,
      year.actual.balanceTonnes + year.borrowLimitTonnes,
      'final after borrowing',
    );
    within(
      after.penaltyEur,
      (Math.abs(after.finalBalanceTonnes * 1e6) / (expected.intensity * 41_000)) * 2_400,
      'penalty after borrowing',
    );
    const audit = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'fueleu.flexibility.set')
      .execute();
    expect(audit).toHaveLength(1);
    // 2027 repays 1.1 times it: with no data that year, a deficit of 1.1 x the advance, and no borrowing again.
    const next = (await admin.get(`/api/facilities/${facilityId}/fueleu?year=2027`)).json() as FuelEuShipYear;
    within(next.finalBalanceTonnes, -1.1 * year.borrowLimitTonnes, '2027 repayment');
    const twice = await admin.put(`/api/facilities/${facilityId}/fueleu/flexibility`, {
      year: 2027,
      bankedTonnes: 0,
      borrowedTonnes: 1,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('borrowing is not allowed for two consecutive years');
  });

  it('pools ships of the organization only when Art. 21 allows it, and shows the pool with the year', async () => {
    const admin = await server.as('north.admin');
    const deficit = year.actual.balanceTonnes;
    // The other ship has no data: a balance of 0. Together they are negative: refused.
    const negative = await admin.post(`/api/organizations/${northId}/fueleu/pools`, {
      year: 2026,
      name: 'North pool',
      members: [
        { facilityId, allocatedTonnes: deficit },
        { facilityId: otherShipId, allocatedTonnes: 0 },
      ],
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toContain("a pool's total must not be negative");
    // Another organization's ship is not found.
    const southShip = await db()
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', server.seed.organizationIds.south!)
      .executeTakeFirstOrThrow();
    const foreign = await admin.post(`/api/organizations/${northId}/fueleu/pools`, {
      year: 2026,
      name: 'North pool',
      members: [
        { facilityId, allocatedTonnes: 0 },
        { facilityId: southShip.id, allocatedTonnes: 0 },
      ],
    });
    expect(foreign.statusCode).toBe(404);

    const org = (
      await admin.get(`/api/organizations/${northId}/fueleu?year=2026`)
    ).json() as FuelEuOrganizationYear;
    const ours = org.ships.find((s) => s.shipId === facilityId)!;
    within(ours.actual.intensity!, expected.intensity, 'org view intensity');
    within(org.totals.penaltyEur, ours.penaltyEur, 'org penalty: only this ship has one');
    expect(org.pools).toEqual([]);
  });

  it('a pool that balances is formed and listed', async () => {
    const admin = await server.as('north.admin');
    // A ship of the organization with a surplus: none has data but ours, so a pool of two zero ships is valid only
    // at zero; the pool of ours and another with allocations equal to the balances is refused (negative total).
    const ships = await db()
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', northId)
      .where('id', '!=', facilityId)
      .orderBy('name')
      .limit(2)
      .execute();
    const created = await admin.post(`/api/organizations/${northId}/fueleu/pools`, {
      year: 2026,
      name: 'Idle ships',
      members: ships.map((s) => ({ facilityId: s.id, allocatedTonnes: 0 })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const pool = created.json() as FuelEuPool;
    expect(pool).toMatchObject({ year: 2026, name: 'Idle ships', valid: true, problems: [], totalTonnes: 0 });
    const again = await admin.post(`/api/organizations/${northId}/fueleu/pools`, {
      year: 2026,
      name: 'Twice',
      members: ships.map((s) => ({ facilityId: s.id, allocatedTonnes: 0 })),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('is already in the pool Idle ships of this year');
    const removed = await admin.delete(`/api/organizations/${northId}/fueleu/pools/${pool.id}`);
    expect(removed.statusCode).toBe(204);
    const actions = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'fueleu.pool.%')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['fueleu.pool.create', 'fueleu.pool.delete']);
  });
});

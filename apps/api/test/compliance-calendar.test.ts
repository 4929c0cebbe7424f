import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceCalendar } from '@portal/contracts/compliance-calendar';
import type { CostCockpit } from '@portal/contracts/cost-cockpit';
import { calendarOf } from '../src/features/compliance-calendar/service';
import { sendDueDeadlineReminders } from '../src/features/compliance-calendar/reminders';
import { startTestServer, type TestServer } from './harness';

/**
 * The compliance calendar and the cost cockpit (decision 0119): an organization's deadlines with their state, the
 * "done" its administrator records (audited, with the change), the reminders sent once through the bell and the
 * alert e-mail, the fuel prices (audited) and the cockpit's honest "not available" where the portal has no figure.
 */
let server: TestServer;
let north: string;
let south: string;
const db = () => server.services.database.db;

beforeAll(async () => {
  server = await startTestServer();
  north = server.seed.organizationIds.north!;
  south = server.seed.organizationIds.south!;
}, 60_000);
afterAll(() => server?.close());

const auditOf = (action: string) =>
  db()
    .selectFrom('audit_log')
    .select(['subject', 'detail', 'user_id'])
    .where('action', '=', action)
    .execute();

describe('the compliance calendar', () => {
  it("lists the year's deadlines with their state as of a day", async () => {
    const calendar = await calendarOf(db(), north, 2026, Date.UTC(2026, 2, 31, 12));
    const states = Object.fromEntries(calendar.deadlines.map((d) => [d.code, d.state]));
    expect(states).toMatchObject({
      MRV_REPORT_TO_VERIFIER: 'overdue',
      FUELEU_REPORT_TO_VERIFIER: 'overdue',
      DCS_REPORT: 'due',
      EU_ETS_SURRENDER: 'due',
    });
    expect(calendar.deadlines.find((d) => d.code === 'EU_ETS_SURRENDER')).toMatchObject({
      dueOn: '2026-09-30',
      reportingYear: 2025,
      daysLeft: 183,
      done: null,
    });
    expect(states.UK_ETS_REPORT).toBeUndefined();
  });

  it("is read by the organization's users and refused to another organization's as a missing one", async () => {
    const anna = await server.as('north.anna');
    const own = await anna.get(`/api/organizations/${north}/compliance-calendar?year=2026`);
    expect(own.statusCode, own.body).toBe(200);
    expect((own.json() as ComplianceCalendar).deadlines).toHaveLength(9);
    const foreign = await anna.get(`/api/organizations/${south}/compliance-calendar?year=2026`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Organization not found');
  });

  it('is marked done by an administrator only, audited with the change, and taken back', async () => {
    const url = `/api/organizations/${north}/compliance-calendar/2026/DCS_REPORT`;
    const refused = await (await server.as('north.anna')).put(url, { doneOn: '2026-03-20', note: 'x' });
    expect(refused.statusCode).toBe(403);
    const admin = await server.as('north.admin');
    const future = await admin.put(url, { doneOn: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    const done = await admin.put(url, { doneOn: '2026-03-20', note: 'Sent to the flag State, ref. 42' });
    expect(done.statusCode, done.body).toBe(200);
    const dcs = (done.json() as ComplianceCalendar).deadlines.find((d) => d.code === 'DCS_REPORT')!;
    expect(dcs).toMatchObject({
      state: 'done',
      done: { on: '2026-03-20', note: 'Sent to the flag State, ref. 42', by: 'north.admin' },
    });
    expect(await auditOf('compliance-calendar.done')).toEqual([
      expect.objectContaining({
        subject: north,
        detail: {
          year: 2026,
          code: 'DCS_REPORT',
          doneOn: '2026-03-20',
          note: 'Sent to the flag State, ref. 42',
        },
      }),
    ]);
    const hostile = await admin.put(url, { doneOn: '2026-03-20', note: 'bad\u0000note' });
    expect(hostile.statusCode).toBe(400);
    const undone = await admin.delete(url);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(
      (undone.json() as ComplianceCalendar).deadlines.find((d) => d.code === 'DCS_REPORT')!.done,
    ).toBeNull();
    expect(await auditOf('compliance-calendar.undone')).toHaveLength(1);
    const noDeadline = await admin.put(`/api/organizations/${north}/compliance-calendar/2026/UK_ETS_REPORT`, {
      doneOn: '2026-03-20',
    });
    expect(noDeadline.statusCode).toBe(404);
  });
});

describe("the verifier's opinion", () => {
  it('makes the IMO DCS report of its reporting year done, unless it is "not verified"', async () => {
    const opinion = (sequence: number, value: string, day: string) =>
      db()
        .insertInto('verification_opinions')
        .values({
          id: randomUUID(),
          organization_id: south,
          year: 2024,
          sequence,
          opinion: value as 'satisfactory',
          comment: '',
          version: 1,
          figures_fingerprint: 'f',
          figures: '{}',
          finding_ids: [],
          recorded_by_name: 'verifier@example.com',
          recorded_on: new Date(`${day}T10:00:00Z`),
          previous_hash: '',
          hash: `h${sequence}`,
        })
        .execute();
    await opinion(1, 'not-verified', '2025-02-10');
    const refused = await calendarOf(db(), south, 2025, Date.UTC(2025, 2, 1));
    expect(refused.deadlines.find((d) => d.code === 'DCS_REPORT')!.done).toBeNull();
    await opinion(2, 'satisfactory-with-comments', '2025-02-20');
    const verified = await calendarOf(db(), south, 2025, Date.UTC(2025, 2, 1));
    expect(verified.deadlines.find((d) => d.code === 'DCS_REPORT')).toMatchObject({
      state: 'done',
      done: {
        on: '2025-02-20',
        by: 'verifier@example.com',
        source: 'verifier',
        note: "The verifier's opinion on the figures: satisfactory with comments.",
      },
    });
    // Only the DCS report: the opinion is on the IMO DCS totals.
    expect(verified.deadlines.find((d) => d.code === 'MRV_VERIFIED_REPORT')!.done).toBeNull();
  });
});

describe('the deadline reminders', () => {
  it("go once, 14 days before, to each organization's administrators in the bell and by e-mail", async () => {
    await db()
      .insertInto('alert_subscriptions')
      .values({ user_id: server.seed.userIds['north.admin']!, email: 'north.admin@example.com' })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ email: 'north.admin@example.com' }))
      .execute();
    const early = await sendDueDeadlineReminders(server.services, Date.UTC(2026, 8, 15, 9));
    expect(early).toBe(0);
    const organizations = (await db().selectFrom('organizations').select('id').execute()).length;
    const first = await sendDueDeadlineReminders(server.services, Date.UTC(2026, 8, 16, 9));
    expect(first).toBe(organizations);
    expect(await sendDueDeadlineReminders(server.services, Date.UTC(2026, 8, 17, 9))).toBe(0);
    const deliveries = await db()
      .selectFrom('alert_deliveries')
      .select(['channel', 'subject', 'status'])
      .where('kind', '=', 'deadline-reminder')
      .where('user_id', '=', server.seed.userIds['north.admin']!)
      .orderBy('channel')
      .execute();
    expect(deliveries).toEqual([
      {
        channel: 'email',
        subject: 'EU ETS deadline in 14 days: EU allowances surrendered for the verified emissions',
        status: 'pending',
      },
      { channel: 'in-app', subject: null, status: 'sent' },
    ]);
    const calendar = await calendarOf(db(), north, 2026, Date.UTC(2026, 8, 17));
    expect(calendar.deadlines.find((d) => d.code === 'EU_ETS_SURRENDER')!.remindedAt).toBe(
      '2026-09-16T09:00:00.000Z',
    );
  });

  it('do not go for a deadline recorded as done', async () => {
    // FuelEU's document of compliance, 30 June 2027: done ahead of its reminder days.
    await db()
      .insertInto('compliance_deadline_marks')
      .values({
        organization_id: north,
        year: 2027,
        code: 'FUELEU_DOCUMENT_OF_COMPLIANCE',
        done_on: '2026-11-01',
        marked_by_name: 'north.admin',
      })
      .execute();
    await sendDueDeadlineReminders(server.services, Date.UTC(2027, 5, 20, 9));
    const north2027 = await db()
      .selectFrom('compliance_deadline_reminders')
      .select('code')
      .where('organization_id', '=', north)
      .where('year', '=', 2027)
      .execute();
    expect(north2027.map((r) => r.code)).not.toContain('FUELEU_DOCUMENT_OF_COMPLIANCE');
  });
});

describe('the cost cockpit', () => {
  it('says what it cannot show, and uses the fuel prices the administrator entered (audited)', async () => {
    const anna = await server.as('north.anna');
    const before = (await anna.get('/api/cost-cockpit?year=2026')).json() as CostCockpit;
    expect(before.fuelPrice).toBeNull();
    expect(before.ships.length).toBeGreaterThan(0);
    for (const ship of before.ships) {
      expect(ship.scrubber).toBeNull();
      expect(ship.scrubberMissing).toMatch(/No fuel prices entered/);
      expect(ship.regimes.EU_ETS.available).toBe(false);
      expect((ship.regimes.EU_ETS as { reason: string }).reason).toMatch(
        /^No EU allowance price entered on or before \d{4}\.\d{2}\.\d{2}: [\d.,]+ allowances due so far\.$/,
      );
      expect(ship.regimes.UK_ETS.available).toBe(false);
      expect((ship.regimes.UK_ETS as { reason: string }).reason).toMatch(
        /^No UK allowance price in the portal yet: [\d.,]+ t CO2e to surrender for so far\.$/,
      );
    }
    // FuelEU's euros are the FuelEU feature's penalty of each ship, never the cockpit's own figure.
    for (const ship of before.ships) {
      const fuelEu = (await anna.get(`/api/facilities/${ship.shipId}/fueleu?year=2026`)).json();
      expect(ship.regimes.FUELEU).toMatchObject({ available: true, eurToDate: fuelEu.penaltyEur });
    }
    const refused = await anna.post(`/api/organizations/${north}/fuel-prices`, {
      on: '2026-11-01',
      hsfoEurPerTonne: 450,
      vlsfoEurPerTonne: 600,
    });
    expect(refused.statusCode).toBe(403);
    const admin = await server.as('north.admin');
    const entered = await admin.post(`/api/organizations/${north}/fuel-prices`, {
      on: '2026-11-01',
      hsfoEurPerTonne: 450,
      vlsfoEurPerTonne: 600,
    });
    expect(entered.statusCode, entered.body).toBe(201);
    expect(await auditOf('cost-cockpit.fuel-price.set')).toHaveLength(1);
    const after = (await anna.get('/api/cost-cockpit?year=2026')).json() as CostCockpit;
    expect(after.fuelPrice).toMatchObject({ on: '2026-11-01', hsfoEurPerTonne: 450, vlsfoEurPerTonne: 600 });
    // An allowance price entered: the cockpit's EU ETS euros are the EU ETS API's, ship by ship.
    const eua = await admin.post(`/api/organizations/${north}/eua-prices`, {
      on: '2026-11-01',
      eurPerAllowance: 70,
    });
    expect(eua.statusCode, eua.body).toBe(201);
    const priced = (await anna.get('/api/cost-cockpit?year=2026')).json() as CostCockpit;
    for (const ship of priced.ships) {
      const eu = (await anna.get(`/api/facilities/${ship.shipId}/eu-ets?year=2026`)).json();
      if (eu.figures.eur === null) expect(ship.regimes.EU_ETS.available).toBe(false);
      else
        expect(ship.regimes.EU_ETS).toMatchObject({
          available: true,
          eurToDate: eu.figures.eur,
          eurProjected: eu.figures.projectedEur,
        });
    }
    const south = await (await server.as('south.admin')).get('/api/cost-cockpit?year=2026');
    expect((south.json() as CostCockpit).fuelPrice).toBeNull();
  });
});

describe('the fleet sums of the cockpit', () => {
  it("add the ships that have figures, and say the ships' reason when none has", async () => {
    const { fleetRegime } = await import('../src/features/cost-cockpit/regimes');
    const some = { available: true as const, eurToDate: 100, eurProjected: 150, basis: 'x' };
    const none = (reason: string) => ({ available: false as const, reason });
    expect(fleetRegime([some, none('No price.'), some])).toEqual({
      available: true,
      eurToDate: 200,
      eurProjected: 300,
      basis: '2 of 3 ships with figures',
    });
    expect(fleetRegime([none('No price.'), none('No price.')])).toEqual(none('No price.'));
    expect(fleetRegime([none('a'), none('b')])).toEqual(none('No ship has a figure: each ship says why.'));
  });
});

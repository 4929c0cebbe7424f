import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestServer, type TestServer } from './harness';

/**
 * A verifier's seat (docs/decisions/0115-verifier.md): North's administrator invites a verifier for a year; the
 * e-mail's link sets its password; it signs in, reads North's ledger of that year only, writes nothing but its
 * verification; its opinion fixes the year's figures, and a bunker delivery note entered later shows as a change.
 */

let server: TestServer;
let north: string;
let south: string;
let ship: string;
let southShip: string;
let token: string;
const YEAR = 2025;
const EMAIL = 'Vera.Verifier@example.com';
const PASSWORD = 'Verify2025a';

const as = (bearer: string) => ({
  get: (url: string) => server.app.inject({ url, headers: { authorization: `Bearer ${bearer}` } }),
  post: (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${bearer}` } }),
});

beforeAll(async () => {
  server = await startTestServer();
  north = server.seed.organizationIds.north!;
  south = server.seed.organizationIds.south!;
  const db = server.services.database.db;
  const ships = await db
    .selectFrom('facilities')
    .select(['id', 'primary_organization_id'])
    .orderBy('name')
    .execute();
  ship = ships.find((s) => s.primary_organization_id === north)!.id;
  southShip = ships.find((s) => s.primary_organization_id === south)!.id;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('inviting a verifier', () => {
  it('lets an administrator invite by e-mail; the link sets the password once, then the verifier signs in', async () => {
    const admin = await server.as('north.admin');
    const invited = await admin.post(`/api/organizations/${north}/verifiers`, {
      email: EMAIL,
      years: [YEAR],
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ username: EMAIL.toLowerCase(), years: [YEAR], acceptedOn: null });
    // A User may not invite; South's administrator does not see North.
    expect(
      (
        await (
          await server.as('north.anna')
        ).post(`/api/organizations/${north}/verifiers`, { email: 'x@example.com', years: [YEAR] })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await server.as('south.admin')
        ).post(`/api/organizations/${north}/verifiers`, { email: 'y@example.com', years: [YEAR] })
      ).statusCode,
    ).toBe(404);

    const db = server.services.database.db;
    const mail = await db
      .selectFrom('alert_deliveries')
      .select(['address', 'subject', 'text_body', 'kind'])
      .where('kind', '=', 'verifier-invitation')
      .executeTakeFirstOrThrow();
    expect(mail.address).toBe(EMAIL.toLowerCase());
    expect(mail.subject).toContain(String(YEAR));
    const link = /https?:\/\/\S+\/invitation\/(\S+)/.exec(mail.text_body!)!;
    const path = `/invitation/${link[1]}`;
    const page = await server.app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Choose your password');
    const weak = await server.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: 'short', confirmPassword: 'short' }).toString(),
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('Must be minimum 8 characters');
    const saved = await server.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: PASSWORD, confirmPassword: PASSWORD }).toString(),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Password saved');
    expect((await server.app.inject({ url: path })).statusCode).toBe(404);
    token = await signIn(server.app, EMAIL, PASSWORD);
    const me = (await as(token).get('/api/auth/me')).json();
    expect(me).toMatchObject({ organizationId: north, roles: ['Verifier'] });
  });
});

describe("the verifier's reads and writes", () => {
  it("reads its organization's ledger of the invited year only, and nothing of South", async () => {
    const v = as(token);
    const period = `from=${YEAR}-01-01&to=${YEAR}-12-31`;
    expect((await v.get(`/api/facilities/${ship}/reconciliation?${period}`)).statusCode).toBe(200);
    expect((await v.get(`/api/facilities/${ship}/bunker-notes?${period}`)).statusCode).toBe(200);
    expect((await v.get(`/api/facilities/${ship}/dcs-report?year=${YEAR}`)).statusCode).toBe(200);
    // The record book takes instants, its end excluded: New Year's midnight closes the year.
    const instants = `from=${YEAR}-01-01T00:00:00.000Z&to=${YEAR + 1}-01-01T00:00:00.000Z`;
    expect((await v.get(`/api/facilities/${ship}/record-book?${instants}`)).statusCode).toBe(200);
    // The regimes' figures of the year, which the verifier signs: EU MRV/ETS, FuelEU, UK ETS, the company's too.
    for (const url of [
      `/api/facilities/${ship}/eu-ets?year=${YEAR}`,
      `/api/facilities/${ship}/fueleu?year=${YEAR}`,
      `/api/facilities/${ship}/uk-ets?year=${YEAR}`,
      `/api/organizations/${north}/eu-ets?year=${YEAR}`,
      `/api/organizations/${north}/fueleu?year=${YEAR}`,
    ]) {
      const answer = await v.get(url);
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      expect((await v.get(url.replace(`year=${YEAR}`, `year=${YEAR - 1}`))).statusCode, url).toBe(403);
    }
    // Another year, no period, another organization's ship, a screen that is not the ledger's.
    const otherYear = await v.get(`/api/facilities/${ship}/dcs-report?year=${YEAR - 1}`);
    expect([otherYear.statusCode, otherYear.json().message]).toEqual([
      403,
      'You are invited to verify other years than this period',
    ]);
    expect((await v.get(`/api/facilities/${ship}/bunker-notes`)).statusCode).toBe(403);
    expect((await v.get(`/api/facilities/${southShip}/reconciliation?${period}`)).statusCode).toBe(404);
    const ships = (await v.get('/api/facilities')).json() as { id: string }[];
    expect(ships.map((s) => s.id)).toContain(ship);
    expect(ships.map((s) => s.id)).not.toContain(southShip);
    const users = await v.get(`/api/organizations/${north}/users`);
    expect([users.statusCode, users.json().code, users.json().message]).toEqual([
      403,
      'FORBIDDEN',
      'A verifier may only read the ledger and record the verification',
    ]);
  });

  it('writes nothing of the ledger: a bunker delivery note is refused with 403 and nothing is stored', async () => {
    const response = await as(token).post(`/api/facilities/${ship}/bunker-notes`, {
      deliveredAt: `${YEAR}-06-01T00:00:00.000Z`,
      portId: null,
      portName: 'Bergen',
      fuelType: 'HFO',
      massTonnes: 100,
      sulfurPercent: 0.5,
      lcvMjPerKg: null,
      densityKgM3: null,
      bdnNumber: 'REFUSED-1',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
    const stored = await server.services.database.db
      .selectFrom('bunker_delivery_notes')
      .select('id')
      .where('facility_id', '=', ship)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('findings and the opinion', () => {
  it('flags the misstatement between a BDN and the flow meters, records it and the opinion, and the year locks until a new BDN', async () => {
    const admin = await server.as('north.admin');
    // ROB 0 t at the year's start and end, 120 t bunkered: the notes account for 120 t, the flow meters for none.
    for (const at of [`${YEAR}-01-01T00:00:00.000Z`, `${YEAR + 1}-01-01T00:00:00.000Z`])
      expect(
        (await admin.post(`/api/facilities/${ship}/tank-soundings`, { at, fuelType: 'HFO', robTonnes: 0 }))
          .statusCode,
      ).toBe(201);
    const bdn = await admin.post(`/api/facilities/${ship}/bunker-notes`, {
      deliveredAt: `${YEAR}-05-02T10:00:00.000Z`,
      portId: null,
      portName: 'Bergen',
      fuelType: 'HFO',
      massTonnes: 120,
      sulfurPercent: 0.5,
      lcvMjPerKg: null,
      densityKgM3: null,
      bdnNumber: 'BDN-2025-7',
    });
    expect(bdn.statusCode).toBe(201);

    const v = as(token);
    const url = `/api/organizations/${north}/verification/${YEAR}`;
    const view = (await v.get(url)).json();
    expect(view).toMatchObject({ state: 'open', version: 1, mayRecord: true, thresholdPercent: 5 });
    const suggestion = view.suggestedMisstatements.find((s: { facilityId: string }) => s.facilityId === ship);
    expect(suggestion).toMatchObject({ fuelType: 'HFO', evidenceValue: 120, aboveThreshold: true });
    expect(suggestion.evidence).toContain('BDN-2025-7');

    const finding = await v.post(`${url}/findings`, {
      facilityId: ship,
      kind: 'misstatement',
      description: 'The flow meters miss the HFO of BDN-2025-7',
      figure: suggestion.figure,
      evidence: suggestion.evidence,
      reportedValue: suggestion.reportedValue,
      evidenceValue: suggestion.evidenceValue,
    });
    expect(finding.statusCode).toBe(201);
    expect(finding.json()).toMatchObject({ aboveThreshold: true, version: 1 });
    expect(Math.abs(finding.json().differencePercent)).toBeGreaterThan(5);
    // A finding's text is checked like every text: a NUL is refused.
    expect(
      (await v.post(`${url}/findings`, { ...finding.json(), description: 'bad\u0000text', facilityId: ship }))
        .statusCode,
    ).toBe(400);
    // The opinion with comments needs its comments.
    expect((await v.post(`${url}/opinions`, { opinion: 'satisfactory-with-comments' })).statusCode).toBe(400);
    const opinion = await v.post(`${url}/opinions`, {
      opinion: 'not-verified',
      comment: 'Material misstatement of HFO.',
    });
    expect(opinion.statusCode).toBe(201);
    expect(opinion.json()).toMatchObject({ sequence: 1, version: 1, findingIds: [finding.json().id] });
    expect(opinion.json().previousHash).toBe('0'.repeat(64));

    const locked = (await v.get(url)).json();
    expect(locked).toMatchObject({ state: 'locked', version: 1, chainIntact: true });
    // The administrator sees the verification, records nothing.
    expect((await admin.get(url)).json()).toMatchObject({ state: 'locked', mayRecord: false });
    expect((await admin.post(`${url}/opinions`, { opinion: 'satisfactory' })).statusCode).toBe(403);

    // A later note opens a new version: the verifier sees the year changed since its opinion.
    await admin.post(`/api/facilities/${ship}/bunker-notes`, {
      deliveredAt: `${YEAR}-09-02T10:00:00.000Z`,
      portId: null,
      portName: 'Bergen',
      fuelType: 'HFO',
      massTonnes: 10,
      sulfurPercent: 0.5,
      lcvMjPerKg: null,
      densityKgM3: null,
      bdnNumber: 'BDN-2025-9',
    });
    const changed = (await v.get(url)).json();
    expect(changed).toMatchObject({ state: 'changed', version: 2 });
    expect(changed.figuresFingerprint).not.toBe(opinion.json().figuresFingerprint);
    const second = await v.post(`${url}/opinions`, { opinion: 'satisfactory', comment: '' });
    expect(second.json()).toMatchObject({ sequence: 2, version: 2, previousHash: opinion.json().hash });
    expect((await v.get(url)).json()).toMatchObject({ state: 'locked', version: 2, chainIntact: true });

    // Each change has its audit entry.
    const actions = await server.services.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'verifi%')
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual([
      'verification.finding',
      'verification.opinion',
      'verification.opinion',
      'verifier.accept',
      'verifier.invite',
    ]);
  });

  it('refuses another year and another organization', async () => {
    const v = as(token);
    const other = await v.get(`/api/organizations/${north}/verification/${YEAR - 1}`);
    expect([other.statusCode, other.json().message]).toEqual([
      403,
      'You are not invited to verify this year',
    ]);
    const foreign = await v.get(`/api/organizations/${south}/verification/${YEAR}`);
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Organization not found']);
    expect(
      (await v.post(`/api/organizations/${south}/verification/${YEAR}/opinions`, { opinion: 'satisfactory' }))
        .statusCode,
    ).toBe(404);
  });
});

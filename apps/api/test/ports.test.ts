import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORT_MESSAGES, type OrganizationPort, type Port, type PortList } from '@portal/contracts/ports';
import { buildPortIndex, portAt } from '../src/features/ports/port-at';
import { ensurePortReference, portsDataFile } from '../src/features/ports/reference';
import { portShapesForOrganization } from '../src/features/ports/service';
import { startTestServer, type TestServer } from './harness';

/**
 * Ports (issue 31, docs/decisions/0108-ports.md): the shipped reference is loaded at start and listed to everyone;
 * an organization's additions and corrections are its own (seen by its users, changed by its administrators,
 * audited), and replace the reference for it alone.
 */
let server: TestServer;
let north: string;
let south: string;
const db = () => server.services.database.db;
const M = PORT_MESSAGES;

beforeAll(async () => {
  server = await startTestServer();
  north = server.seed.organizationIds.north!;
  south = server.seed.organizationIds.south!;
}, 60_000);
afterAll(() => server?.close());

async function list(username: string, query: Record<string, string> = {}): Promise<PortList> {
  const response = await (await server.as(username)).get(`/api/ports?${new URLSearchParams(query)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function auditOf(subject: string) {
  return db()
    .selectFrom('audit_log')
    .select(['action', 'user_id', 'organization_id', 'detail'])
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();
}

const QUAY_POLYGON = {
  type: 'Polygon',
  coordinates: [
    [
      [4.1, 51.95],
      [4.14, 51.95],
      [4.14, 51.97],
      [4.1, 51.97],
      [4.1, 51.95],
    ],
  ],
};

describe('the port reference', () => {
  it('is loaded at start from the shipped file, and a second start with the same file loads nothing', async () => {
    const data = portsDataFile();
    const { reference, total, items } = await list('north.anna');
    expect(reference).toMatchObject({ release: data.release, digest: data.digest, count: data.ports.length });
    expect(reference!.sources.join(' ')).toContain('UN/LOCODE');
    expect(total).toBe(data.ports.length);
    expect(items).toHaveLength(50);
    const again = await ensurePortReference(db());
    expect(again.loaded).toBe(false);
  });

  it('finds ports by name with or without diacritics, and by UN/LOCODE, the code asked for first', async () => {
    const byName = await list('north.anna', { search: 'rotterdam' });
    expect(byName.items.map((p) => p.locode)).toContain('NLRTM');
    const ascii = await list('north.anna', { search: 'Goteborg' });
    expect(ascii.items.find((p) => p.locode === 'SEGOT')).toMatchObject({
      name: 'Göteborg',
      nameAscii: 'Goteborg',
      country: 'SE',
    });
    const withDiacritics = await list('north.anna', { search: 'Göteb' });
    expect(withDiacritics.items.map((p) => p.locode)).toContain('SEGOT');
    const byCode = await list('north.anna', { search: 'nlrtm' });
    expect(byCode.items[0]).toMatchObject({ locode: 'NLRTM', source: 'reference', radiusNm: 5 });
    const prefix = await list('north.anna', { search: 'NLRT' });
    expect(prefix.items.every((p) => p.locode!.startsWith('NLRT') || /nlrt/i.test(p.name))).toBe(true);
    // A LIKE wildcard is a character like any other.
    expect((await list('north.anna', { search: '%' })).items.every((p) => p.name.includes('%'))).toBe(true);
  });

  it('lists the ports inside a box, across the 180th meridian too, a page at a time', async () => {
    const box = await list('north.anna', { bbox: '3.9,51.8,4.6,52.1', limit: '500' });
    expect(box.items.map((p) => p.locode)).toContain('NLRTM');
    expect(box.items.every((p) => p.lat >= 51.8 && p.lat <= 52.1 && p.lon >= 3.9 && p.lon <= 4.6)).toBe(true);
    const across = await list('north.anna', { bbox: '178,-20,-178,-15', limit: '500' });
    expect(across.total).toBeGreaterThan(0);
    expect(across.items.every((p) => p.lon >= 178 || p.lon <= -178)).toBe(true);
    const first = await list('north.anna', { bbox: '-10,35,30,60', limit: '20' });
    const second = await list('north.anna', { bbox: '-10,35,30,60', limit: '20', offset: '20' });
    expect(second.total).toBe(first.total);
    const names = [...first.items, ...second.items].map((p) => p.locode);
    expect(new Set(names).size).toBe(40);
  });

  it('gives one port with its regimes on the day asked: Belfast in Northern Ireland, in the EEA only until the end of 2020', async () => {
    const anna = await server.as('north.anna');
    const belfast = (await anna.get('/api/ports/GBBEL?date=2026-07-01')).json() as Port;
    expect(belfast).toMatchObject({ locode: 'GBBEL', country: 'GB', area: 'GB-NIR' });
    expect(belfast.regimes).toEqual({
      eu: false,
      eea: false,
      outermostRegion: false,
      uk: true,
      northernIreland: true,
      greatBritain: false,
    });
    expect(((await anna.get('/api/ports/GBBEL?date=2020-12-31')).json() as Port).regimes.eea).toBe(true);
    const lasPalmas = (await anna.get('/api/ports/eslpa')).json() as Port;
    expect(lasPalmas).toMatchObject({ locode: 'ESLPA', area: 'ES-CN' });
    expect(lasPalmas.regimes).toMatchObject({ eu: true, eea: true, outermostRegion: true });
    const missing = await anna.get('/api/ports/XXXXX');
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Port not found']);
  });

  it('refuses a bad box, date or search with the field and what is wrong', async () => {
    const anna = await server.as('north.anna');
    const bbox = await anna.get('/api/ports?bbox=4,52,3');
    expect(bbox.statusCode).toBe(400);
    expect(bbox.json().fields.bbox).toBe(M.bboxInvalid);
    const date = await anna.get('/api/ports?date=2025-02-30');
    expect(date.json().fields.date).toBe(M.dateInvalid);
    const search = await anna.get(`/api/ports?search=${'x'.repeat(101)}`);
    expect(search.json().fields.search).toBe(M.searchTooLong);
  });
});

describe("an organization's ports", () => {
  let quay: OrganizationPort;
  let correction: OrganizationPort;

  it('are added by its administrator, with an audit entry in the same transaction', async () => {
    const admin = await server.as('north.admin');
    const created = await admin.post(`/api/organizations/${north}/ports`, {
      name: 'North private quay',
      country: 'nl',
      polygon: QUAY_POLYGON,
      activeFrom: '2025-01-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    quay = created.json();
    expect(quay).toMatchObject({
      organizationId: north,
      locode: null,
      corrects: false,
      name: 'North private quay',
      country: 'NL',
      // The polygon's centre is its point.
      lat: 51.96,
      lon: 4.12,
      radiusNm: 5,
      polygon: QUAY_POLYGON,
      activeFrom: '2025-01-01',
      activeTo: null,
      createdBy: 'north.admin',
    });
    const audit = await auditOf(quay.id);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'port.create',
        user_id: server.seed.userIds['north.admin'],
        organization_id: north,
      }),
    ]);
    expect(audit[0]!.detail).toMatchObject({
      organizationId: north,
      name: 'North private quay',
      polygon: true,
    });
  });

  it('correct a reference port with a radius alone, the rest taken from the reference', async () => {
    const admin = await server.as('north.admin');
    const created = await admin.post(`/api/organizations/${north}/ports`, { locode: 'nlrtm', radiusNm: 8 });
    expect(created.statusCode, created.body).toBe(201);
    correction = created.json();
    const reference = portsDataFile().ports.find((p) => p[0] === 'NLRTM')!;
    expect(correction).toMatchObject({
      locode: 'NLRTM',
      corrects: true,
      name: reference[1],
      country: 'NL',
      lat: reference[5],
      lon: reference[6],
      radiusNm: 8,
    });
    const again = await admin.post(`/api/organizations/${north}/ports`, { locode: 'NLRTM', radiusNm: 3 });
    expect(again.statusCode).toBe(409);
    expect(again.json().fields).toEqual({ locode: M.locodeTaken });
  });

  it('replace the reference for their organization only', async () => {
    const northRotterdam = (await (await server.as('north.anna')).get('/api/ports/NLRTM')).json() as Port;
    expect(northRotterdam).toMatchObject({
      source: 'organization',
      organizationPortId: correction.id,
      radiusNm: 8,
      positionSource: 'organization',
    });
    const southRotterdam = (await (await server.as('south.maria')).get('/api/ports/NLRTM')).json() as Port;
    expect(southRotterdam).toMatchObject({ source: 'reference', organizationPortId: null, radiusNm: 5 });

    const northList = await list('north.anna', { search: 'rotterdam' });
    expect(northList.items.filter((p) => p.locode === 'NLRTM')).toEqual([
      expect.objectContaining({ source: 'organization', radiusNm: 8 }),
    ]);
    expect((await list('north.anna', { search: 'private quay' })).items).toEqual([
      expect.objectContaining({
        organizationPortId: quay.id,
        name: 'North private quay',
        source: 'organization',
      }),
    ]);
    expect((await list('south.maria', { search: 'private quay' })).items).toEqual([]);
    // The quay is not active before its first day.
    expect((await list('north.anna', { search: 'private quay', date: '2024-12-31' })).items).toEqual([]);
    expect(
      (await list('north.anna', { bbox: '4.0,51.9,4.2,52.0', limit: '500' })).items.map((p) => p.name),
    ).toContain('North private quay');
  });

  it("give the engine the organization's ports first, and another organization the reference alone", async () => {
    const day = Date.parse('2025-06-01T12:00:00Z');
    const northIndex = buildPortIndex(await portShapesForOrganization(db(), north));
    const southIndex = buildPortIndex(await portShapesForOrganization(db(), south));
    // Inside the quay's polygon; before the quay's first day, and for South, the reference port there.
    expect(portAt(northIndex, 51.96, 4.12, day)?.name).toBe('North private quay');
    const southAt = portAt(southIndex, 51.96, 4.12, day);
    expect(southAt?.organization).toBeFalsy();
    expect(southAt?.locode).toBeTruthy();
    expect(portAt(northIndex, 51.96, 4.12, Date.parse('2024-06-01T00:00:00Z'))?.locode).toBe(southAt?.locode);
    // 6.5 nm east of Rotterdam's point: in the corrected circle only.
    const reference = portsDataFile().ports.find((p) => p[0] === 'NLRTM')!;
    const east = reference[6] + 6.5 / 60 / Math.cos((reference[5] * Math.PI) / 180);
    expect(portAt(northIndex, reference[5], east, day)?.locode).toBe('NLRTM');
    expect(portAt(southIndex, reference[5], east, day)?.locode).not.toBe('NLRTM');
  });

  it("are listed to the organization's users and a SystemAdmin, and to nobody else", async () => {
    const anna = await server.as('north.anna');
    const own = await anna.get(`/api/organizations/${north}/ports`);
    expect(own.statusCode).toBe(200);
    expect((own.json() as OrganizationPort[]).map((p) => p.id).sort()).toEqual(
      [quay.id, correction.id].sort(),
    );
    expect((await anna.get(`/api/organizations/${north}/ports/${quay.id}`)).json()).toMatchObject({
      id: quay.id,
    });
    const admin = await server.as('admin');
    expect((await admin.get(`/api/organizations/${north}/ports`)).statusCode).toBe(200);
    const southAdmin = await server.as('south.admin');
    for (const url of [`/api/organizations/${north}/ports`, `/api/organizations/${north}/ports/${quay.id}`]) {
      const answer = await southAdmin.get(url);
      expect([answer.statusCode, answer.json().message], url).toEqual([404, 'Organization not found']);
    }
    // South's own path, North's port: not found, as an unknown one.
    const crossed = await southAdmin.get(`/api/organizations/${south}/ports/${quay.id}`);
    expect([crossed.statusCode, crossed.json().message]).toEqual([404, 'Port not found']);
  });

  it('are changed only by an administrator of the organization', async () => {
    const anna = await server.as('north.anna');
    const refused = await anna.put(`/api/organizations/${north}/ports/${quay.id}`, { name: 'Taken over' });
    expect([refused.statusCode, refused.json().message]).toEqual([403, 'Only an administrator may do this']);
    const south = await server.as('south.admin');
    const hidden = await south.delete(`/api/organizations/${north}/ports/${quay.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(await auditOf(quay.id)).toHaveLength(1);
  });

  it('are changed whole by PUT, with the before and after in the audit entry', async () => {
    const admin = await server.as('north.admin');
    const changed = await admin.put(`/api/organizations/${north}/ports/${quay.id}`, {
      name: 'North private quay',
      country: 'NL',
      lat: 51.96,
      lon: 4.12,
      radiusNm: 1.5,
      activeFrom: '2025-01-01',
      activeTo: '2025-12-31',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      polygon: null,
      radiusNm: 1.5,
      activeTo: '2025-12-31',
      updatedBy: 'north.admin',
    });
    const audit = await auditOf(quay.id);
    expect(audit.map((a) => a.action)).toEqual(['port.create', 'port.update']);
    expect(audit[1]!.detail).toMatchObject({
      before: { polygon: true, radiusNm: 5, activeTo: null },
      after: { polygon: false, radiusNm: 1.5, activeTo: '2025-12-31' },
    });
  });

  it('refuse what is not a port, naming the field', async () => {
    const admin = await server.as('north.admin');
    const post = (body: object) => admin.post(`/api/organizations/${north}/ports`, body);
    const cases: [object, string, string][] = [
      [{}, 'name', M.nameRequired],
      [{ name: 'No place', country: 'NL' }, 'lat', M.positionRequired],
      [{ name: 'Half', country: 'NL', lat: 52 }, 'lon', M.positionRequired],
      [{ name: 'Far north', country: 'NL', lat: 95, lon: 4 }, 'lat', M.latitudeInvalid],
      [{ name: 'Wide', country: 'NL', lat: 52, lon: 4, radiusNm: 0 }, 'radiusNm', M.radiusInvalid],
      [{ locode: 'NL-RTM' }, 'locode', M.locodeInvalid],
      [{ locode: 'NLXYZ', name: 'Own code', country: 'BE', lat: 52, lon: 4 }, 'country', M.countryNotLocode],
      [{ name: 'Bad country', country: 'NLD', lat: 52, lon: 4 }, 'country', M.countryInvalid],
      [
        {
          name: 'Open ring',
          country: 'NL',
          polygon: { type: 'Polygon', coordinates: [QUAY_POLYGON.coordinates[0]!.slice(0, 4)] },
        },
        'polygon',
        M.polygonInvalid,
      ],
      [
        {
          name: 'Backwards',
          country: 'NL',
          lat: 52,
          lon: 4,
          activeFrom: '2025-06-01',
          activeTo: '2025-05-31',
        },
        'activeTo',
        M.activeToBeforeFrom,
      ],
      [
        { name: 'No day', country: 'NL', lat: 52, lon: 4, activeFrom: '2025-02-30' },
        'activeFrom',
        M.dateInvalid,
      ],
    ];
    const before = await db().selectFrom('organization_ports').select('id').execute();
    for (const [body, field, message] of cases) {
      const answer = await post(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().fields[field], `${JSON.stringify(body)}: ${answer.body}`).toBe(message);
    }
    expect(await db().selectFrom('organization_ports').select('id').execute()).toEqual(before);
  });

  it('are removed with an audit entry, and the reference port is the reference again', async () => {
    const admin = await server.as('north.admin');
    const removed = await admin.delete(`/api/organizations/${north}/ports/${correction.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await auditOf(correction.id)).map((a) => a.action)).toEqual(['port.create', 'port.delete']);
    const rotterdam = (await admin.get('/api/ports/NLRTM')).json() as Port;
    expect(rotterdam).toMatchObject({ source: 'reference', radiusNm: 5 });
    expect((await admin.get(`/api/organizations/${north}/ports/${correction.id}`)).statusCode).toBe(404);
  });
});

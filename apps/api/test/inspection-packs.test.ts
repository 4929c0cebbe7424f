import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { EVENT_TYPE_NAMES, type ComplianceEvent } from '@portal/contracts/events';
import type { InspectionPack } from '@portal/contracts/inspection-packs';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';
import { executeDemoDays } from './execution-fixtures';
import { startSmtpServer, type TestSmtpServer } from './smtp-helpers';
import { hasPoppler, hasQpdf, pdfText, qpdfCheck } from '../src/pdf/testing';
import { queueMonthlyPacks } from '../src/features/inspection-packs/schedule';

/**
 * Inspection packs end to end on a real database and the real job queue: three demo days of a ship uploaded and
 * executed, a pack built by its job, downloaded, its zip read back (manifest hashes against the originals store and
 * the PDF in it), the PDF read with pdftotext and checked by qpdf, another organization refused, and the monthly
 * schedule e-mailing its link through a real SMTP server.
 */
const SHIP = 'atlantic_meridian';
const START = Date.UTC(2025, 2, 3);
const DAYS = 3;

let server: TestServer;
let smtp: TestSmtpServer;
let facilityId: string;
let pack: InspectionPack;
let zip: Record<string, Uint8Array>;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const db = () => server.services.database.db;

async function waitUntilBuilt(
  username: string,
  packId: string,
  seen: number[] = [],
): Promise<InspectionPack> {
  const client = await server.as(username);
  return waitFor(
    async () => {
      const response = await client.get(`/api/facilities/${facilityId}/inspection-packs/${packId}`);
      expect(response.statusCode, response.body).toBe(200);
      const current = response.json() as InspectionPack;
      seen.push(current.progress);
      return current;
    },
    {
      what: 'the pack to be built',
      until: (current) => current.state === 'ready' || current.state === 'failed',
      show: (current) => JSON.stringify(current),
      timeoutMs: 180_000,
      intervalMs: 200,
    },
  );
}

/** manifest.csv as rows of its header's names (no field of this test's files needs quoting). */
function manifestRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\r\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v])));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ jobs: 'work', env: { SMTP_URL: smtp.url } });
  const executed = await executeDemoDays(server, { shipKeys: [SHIP], start: START, days: DAYS });
  facilityId = executed.facilityIdOf[SHIP]!;
}, 300_000);

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('an inspection pack of three days of a ship', () => {
  let event: ComplianceEvent;

  it('is queued by anyone who sees the ship, built by its job with its progress, and listed on the ship', async () => {
    const anna = await server.as('north.anna');
    const events = await anna.get(`/api/events?facilityId=${facilityId}&limit=500`);
    const list = events.json().items as ComplianceEvent[];
    event = list.find((e) => e.type === 'scrubber-off' || e.type === 'emission-exceedance') ?? list[0]!;
    expect(event, 'the demo days have events').toBeDefined();
    const acknowledged = await anna.post(`/api/events/${event.id}/acknowledge`, {
      cause: 'scrubber-equipment',
      actionsTaken: 'Circulation pump restarted',
      comment: '',
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);

    const refused = await anna.post(`/api/facilities/${facilityId}/inspection-packs`, {
      from: '2025-03-05',
      to: '2025-03-03',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The last day must not be before the first day');

    const queued = await anna.post(`/api/facilities/${facilityId}/inspection-packs`, {
      from: '2025-03-03',
      to: '2025-03-05',
    });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toMatchObject({ state: 'queued', from: '2025-03-03', to: '2025-03-05' });
    const seen: number[] = [];
    pack = await waitUntilBuilt('north.anna', queued.json().id as string, seen);
    expect(pack, pack.error ?? '').toMatchObject({ state: 'ready', progress: 1, originals: DAYS });
    expect(pack.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(pack.fileName).toBe('Atlantic_Meridian_2025-03-03_2025-03-05_inspection_pack.zip');
    // The progress only moves forward.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const listed = await anna.get(`/api/facilities/${facilityId}/inspection-packs`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as InspectionPack[]).map((p) => p.id)).toContain(pack.id);
    const audit = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', pack.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('inspection-pack.create');
  }, 200_000);

  it('downloads as a zip whose manifest holds the SHA-256 of each stored original and of the PDF', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/facilities/${facilityId}/inspection-packs/${pack.id}/download`,
      headers: { authorization: `Bearer ${await server.tokenFor('north.olav')}` },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(pack.fileName);
    expect(response.rawPayload.length).toBe(pack.zipBytes);
    zip = unzipSync(new Uint8Array(response.rawPayload));
    const names = Object.keys(zip).sort();
    const pdfName = pack.fileName.replace(/\.zip$/, '.pdf');
    expect(names).toContain('manifest.csv');
    expect(names).toContain(pdfName);
    expect(names.filter((n) => n.startsWith('originals/'))).toHaveLength(DAYS);

    const rows = manifestRows(Buffer.from(zip['manifest.csv']!).toString('utf8'));
    const pdfRow = rows.find((r) => r.kind === 'pdf')!;
    expect(pdfRow.sha256).toBe(sha256(zip[pdfName]!));
    expect(pdfRow.sha256).toBe(pack.pdfSha256);

    const files = await db()
      .selectFrom('data_files')
      .select(['id', 'file_name', 'content_sha256'])
      .where('facility_id', '=', facilityId)
      .execute();
    const originalRows = rows.filter((r) => r.kind === 'original');
    expect(originalRows).toHaveLength(DAYS);
    for (const row of originalRows) {
      const file = files.find((f) => f.file_name === row.file_name)!;
      expect(file, row.file_name).toBeDefined();
      const stored = await server.services.database.originals.read(db(), {
        facilityId,
        dataFileId: file.id,
      });
      expect(stored).not.toBeNull();
      expect(row.sha256).toBe(sha256(stored!));
      expect(row.sha256).toBe(sha256(zip[row.path!]!));
      expect(row.sha256).toBe(file.content_sha256);
      expect(Number(row.bytes)).toBe(stored!.length);
    }
    const audit = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', pack.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('inspection-pack.download');
  });

  it.skipIf(!hasPoppler || !hasQpdf)(
    'has a PDF that names the ship, its events, the record book verification and the calculations',
    async () => {
      const pdf = Buffer.from(zip[pack.fileName.replace(/\.zip$/, '.pdf')]!);
      if (process.env.INSPECTION_PACK_PDF) writeFileSync(process.env.INSPECTION_PACK_PDF, pdf);
      expect(() => qpdfCheck(pdf)).not.toThrow();
      // pdftotext may break a long line: compare the words.
      const text = pdfText(pdf).replace(/\s+/g, ' ');
      expect(text).toContain('Inspection pack');
      expect(text).toContain('Atlantic Meridian');
      expect(text).toContain(EVENT_TYPE_NAMES[event.type]);
      expect(text).toContain('Acknowledged');
      expect(text).toContain('Verified: the whole record book');
      const calculation = await db()
        .selectFrom('measurement_field_calculations as c')
        .innerJoin('measurement_fields as f', 'f.id', 'c.measurement_field_id')
        .select(['f.name', 'c.version', 'c.revision'])
        .where('c.facility_id', '=', facilityId)
        .where('c.approved_on', 'is not', null)
        .orderBy('f.position')
        .executeTakeFirstOrThrow();
      expect(text).toContain(`Measurement field ${calculation.name}`);
      expect(text).toContain(`${calculation.version}.${calculation.revision}`);
      expect(text).toContain('SO2/CO2 ratio against its limit');
      expect(text).toContain('Data health and coverage');
    },
  );

  it('is refused to another organization: not listed, not downloaded, not built', async () => {
    const south = await server.as('south.admin');
    const base = `/api/facilities/${facilityId}/inspection-packs`;
    for (const answer of [
      await south.get(base),
      await south.get(`${base}/${pack.id}`),
      await south.get(`${base}/${pack.id}/download`),
      await south.post(base, { from: '2025-03-03', to: '2025-03-05' }),
      await south.get(`${base}/schedule`),
      await south.put(`${base}/schedule`, { recipientIds: [server.seed.userIds['south.maria']] }),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toContain('Ship not found');
    }
    // A pack asked for under a ship the caller sees, but of another ship: missing.
    const maria = await server.as('south.maria');
    const shared = server.seed.facilityIds.baltic_tern!;
    const other = await maria.get(`/api/facilities/${shared}/inspection-packs/${pack.id}/download`);
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('Inspection pack not found');
    const malformed = await maria.get(`/api/facilities/${shared}/inspection-packs/not-a-pack`);
    expect(malformed.statusCode).toBe(404);
  });
});

describe('the routes', () => {
  it('are described in the OpenAPI document', async () => {
    const doc = (await server.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, object>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/facilities/{id}/inspection-packs',
        '/api/facilities/{id}/inspection-packs/{packId}',
        '/api/facilities/{id}/inspection-packs/{packId}/download',
        '/api/facilities/{id}/inspection-packs/schedule',
      ]),
    );
  });
});

describe('the monthly inspection pack', () => {
  it("e-mails the link of the previous month's pack to the chosen users, once", async () => {
    const anna = await server.as('north.anna');
    const subscribed = await anna.put('/api/profile/alert-subscription', {
      email: 'anna@north.example',
      useDefaults: true,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const base = `/api/facilities/${facilityId}/inspection-packs/schedule`;
    const annaId = server.seed.userIds['north.anna']!;

    expect((await anna.put(base, { recipientIds: [annaId] })).statusCode).toBe(403);
    const admin = await server.as('north.admin');
    const candidates = (await admin.get(base)).json();
    expect(candidates).toMatchObject({ enabled: false, recipients: [] });
    expect(candidates.candidates.map((c: { username: string }) => c.username)).toEqual(
      expect.arrayContaining(['north.admin', 'north.anna']),
    );
    expect(candidates.candidates.map((c: { username: string }) => c.username)).not.toContain('south.maria');
    const foreign = await admin.put(base, { recipientIds: [server.seed.userIds['south.maria']] });
    expect(foreign.statusCode).toBe(400);
    const saved = await admin.put(base, { recipientIds: [annaId] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      enabled: true,
      recipients: [{ username: 'north.anna', email: 'anna@north.example' }],
    });

    expect(await queueMonthlyPacks(server.services, new Date('2025-04-10T08:00:00Z'))).toBe(1);
    expect(await queueMonthlyPacks(server.services, new Date('2025-04-10T09:00:00Z'))).toBe(0);
    const scheduled = await db()
      .selectFrom('inspection_packs')
      .select('id')
      .where('facility_id', '=', facilityId)
      .where('scheduled', '=', true)
      .executeTakeFirstOrThrow();
    const built = await waitUntilBuilt('north.admin', scheduled.id);
    expect(built).toMatchObject({ state: 'ready', from: '2025-03-01', to: '2025-03-31', scheduled: true });

    const [mail] = await smtp.waitFor(1, 60_000);
    expect(mail!.to).toEqual(['anna@north.example']);
    expect(mail!.subject).toBe('Inspection pack of Atlantic Meridian, March 2025');
    const link = `http://localhost:18080/facilities/${facilityId}/inspection-packs?pack=${scheduled.id}`;
    expect(mail!.text).toContain(link);
    expect(mail!.text).toContain(built.pdfSha256!);
    expect(mail!.html).toContain(link.replaceAll('&', '&amp;'));
    expect(mail!.listUnsubscribe).toBeNull();

    // Again in the same month: no new pack, no second e-mail.
    expect(await queueMonthlyPacks(server.services, new Date('2025-04-20T08:00:00Z'))).toBe(0);
    // Nothing more arrives: every job is done (the queue drained), and still one e-mail.
    await server.services.queue!.drained();
    expect(smtp.received).toHaveLength(1);

    const stopped = await admin.delete(base);
    expect(stopped.json()).toMatchObject({ enabled: false });
    expect(await queueMonthlyPacks(server.services, new Date('2025-05-10T08:00:00Z'))).toBe(0);
  }, 240_000);
});

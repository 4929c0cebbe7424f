import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../src/features/documents/content-disposition';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let org: Record<string, string>;
let user: Record<string, string>;
let northShip: { id: string; name: string };
let southShip: { id: string; name: string };
beforeAll(async () => {
  server = await startTestServer();
  ({ organizationIds: org, userIds: user } = server.seed);
  const db = server.services.database.db;
  // A North ship that Anna is assigned to and that is not shared with South.
  northShip = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.north!)
    .where('id', 'not in', db.selectFrom('organization_facility_access').select('facility_id'))
    .orderBy('name')
    .executeTakeFirstOrThrow();
  southShip = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.south!)
    .orderBy('name')
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server?.close();
});

async function upload(
  username: string,
  facilityId: string,
  file: { name: string; content: string } | null,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.content], { type: 'application/pdf' }), file.name);
  const response = await server.app.inject({
    method: 'POST',
    url: `/api/facilities/${facilityId}/documents`,
    headers: { authorization: `Bearer ${await server.tokenFor(username)}` },
    payload: form,
  });
  return { statusCode: response.statusCode, json: () => response.json() };
}

async function download(username: string, fileRef: string) {
  return server.app.inject({
    method: 'POST',
    url: '/api/facilities/documents/download',
    headers: { authorization: `Bearer ${await server.tokenFor(username)}` },
    payload: { fileRef },
  });
}

describe('service documents', () => {
  it('lets a SystemAdmin upload a document for a ship, with its fields', async () => {
    const response = await upload(
      'admin',
      northShip.id,
      { name: 'Service report.pdf', content: '%PDF-1 service' },
      {
        docType: 'Service report',
        visitOrActionDate: '2025-04-02',
        docDate: '2025-04-03',
        expiry: '',
        equipmentTag: 'SCR-1',
      },
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      fileName: 'Service report.pdf',
      docType: 'Service report',
      visitOrActionDate: '2025-04-02T00:00:00.000Z',
      docDate: '2025-04-03T00:00:00.000Z',
      expiry: null,
      equipmentTag: 'SCR-1',
      facilityId: northShip.id,
      facilityName: northShip.name,
    });
  });

  it('leaves a FacilityDocuments message for the ship, shown for 30 days', async () => {
    const message = await server.services.database.db
      .selectFrom('messages')
      .selectAll()
      .where('type', '=', 'FacilityDocuments')
      .where('facility_id', '=', northShip.id)
      .executeTakeFirstOrThrow();
    expect(message.text).toContain('Service report.pdf');
    const days = (new Date(message.show_to).getTime() - new Date(message.show_from).getTime()) / 86_400_000;
    expect(days).toBe(30);
    expect(Math.abs(new Date(message.show_from).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses an upload without a file, with a bad date, and by anyone but a SystemAdmin', async () => {
    const noFile = await upload('admin', northShip.id, null, { docType: 'x' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Choose a file to upload');
    const badDate = await upload(
      'admin',
      northShip.id,
      { name: 'a.pdf', content: 'x' },
      { docDate: 'yesterday' },
    );
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().fields.docDate).toBe('Must be a valid date');
    expect((await upload('north.admin', northShip.id, { name: 'a.pdf', content: 'x' })).statusCode).toBe(403);
    expect((await upload('north.admin', southShip.id, { name: 'a.pdf', content: 'x' })).statusCode).toBe(404);
  });

  it("lists the documents of the ships the caller sees, and nobody else's", async () => {
    await upload('admin', southShip.id, { name: 'south.pdf', content: 'south' }, { docType: 'Certificate' });
    const anna = (await (await server.as('north.anna')).get('/api/facilities/documents')).json();
    expect(anna.map((d: { fileName: string }) => d.fileName)).toEqual(['Service report.pdf']);
    const southAdmin = (await (await server.as('south.admin')).get('/api/facilities/documents')).json();
    expect(southAdmin.map((d: { fileName: string }) => d.fileName)).toEqual(['south.pdf']);
    const admin = (await (await server.as('admin')).get('/api/facilities/documents')).json();
    expect(admin).toHaveLength(2);
  });

  it("downloads a document as a blob with a safely encoded name; another organization's is not found", async () => {
    const [doc] = (await (await server.as('north.anna')).get('/api/facilities/documents')).json();
    const response = await download('north.anna', doc.fileRef);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('%PDF-1 service');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Service report.pdf"; filename*=UTF-8''Service%20report.pdf`,
    );
    const denied = await download('south.lee', doc.fileRef);
    expect(denied.statusCode).toBe(404);
    expect((await download('north.anna', 'not-a-ref')).statusCode).toBe(404);
  });

  it('encodes names with quotes, line breaks and non-ASCII letters without breaking the header', () => {
    const header = attachmentDisposition('Rapport "final"\r\nX-Injected: 1 – Ålesund.pdf');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''[A-Za-z0-9%._~-]+$/);
    expect(decodeURIComponent(header.split("''")[1]!)).toBe('Rapport "final"  X-Injected: 1 – Ålesund.pdf');
  });

  it('marks the active FacilityDocuments messages as read when the user opens the documents', async () => {
    const db = server.services.database.db;
    const anna = await server.as('north.anna');
    const visit = (
      await anna.put(`/api/users/${user['north.anna']}/visit`, { section: 'FacilityDocuments' })
    ).json();
    expect(visit.messagesMarkedRead).toBe(1);
    const reads = await db
      .selectFrom('message_reads')
      .innerJoin('messages', 'messages.id', 'message_reads.message_id')
      .select('messages.facility_id')
      .where('message_reads.user_id', '=', user['north.anna']!)
      .execute();
    expect(reads.map((r) => r.facility_id)).toEqual([northShip.id]);
    // South's document message is not Anna's.
    const lee = await server.as('south.lee');
    const leeVisit = (
      await lee.put(`/api/users/${user['south.lee']}/visit`, { section: 'FacilityDocuments' })
    ).json();
    const leeSees = await db
      .selectFrom('user_facility_access')
      .select('facility_id')
      .where('user_id', '=', user['south.lee']!)
      .where('facility_id', '=', southShip.id)
      .executeTakeFirst();
    expect(leeVisit.messagesMarkedRead).toBe(leeSees ? 1 : 0);
    expect(
      (await anna.put(`/api/users/${user['north.anna']}/visit`, { section: 'FacilityDocuments' })).json()
        .messagesMarkedRead,
    ).toBe(0);
  });
});

interface ListedDocument {
  fileRef: string;
  fileId: string;
  fileName: string;
  facilityId: string;
}

/** A document uploaded by the SystemAdmin, as the list shows it. */
async function uploadDocument(facilityId: string, name: string, content: string): Promise<ListedDocument> {
  const response = await upload('admin', facilityId, { name, content }, { docType: 'Service report' });
  expect(response.statusCode).toBe(201);
  return response.json() as ListedDocument;
}

async function remove(username: string, fileId: string) {
  return (await server.as(username)).delete(`/api/facilities/documents/${encodeURIComponent(fileId)}`);
}

async function list(username: string): Promise<ListedDocument[]> {
  const response = await (await server.as(username)).get('/api/facilities/documents');
  expect(response.statusCode).toBe(200);
  return response.json() as ListedDocument[];
}

const stored = (fileId: string) =>
  server.services.database.db
    .selectFrom('facility_documents')
    .select(['id', 'content'])
    .where('id', '=', fileId)
    .executeTakeFirst();

const deleteAudits = (fileId: string) =>
  server.services.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'document.delete')
    .execute()
    .then((rows) => rows.filter((r) => JSON.stringify(r.detail ?? '').includes(fileId)));

describe('deleting service documents', () => {
  it('lets a SystemAdmin delete a document: 204, gone from the list with its bytes, its download is not found, audited', async () => {
    const doc = await uploadDocument(northShip.id, 'To delete.pdf', '%PDF-1 delete me');
    const keep = await uploadDocument(northShip.id, 'To keep.pdf', '%PDF-1 keep me');
    expect((await list('north.anna')).map((d) => d.fileId)).toEqual(
      expect.arrayContaining([doc.fileId, keep.fileId]),
    );
    expect((await download('north.anna', doc.fileRef)).statusCode).toBe(200);

    const response = await remove('admin', doc.fileId);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect((await list('admin')).map((d) => d.fileId)).not.toContain(doc.fileId);
    const annaSees = (await list('north.anna')).map((d) => d.fileId);
    expect(annaSees).toContain(keep.fileId);
    expect(annaSees).not.toContain(doc.fileId);
    expect(await stored(doc.fileId)).toBeUndefined();
    expect((await download('admin', doc.fileRef)).statusCode).toBe(404);
    expect((await download('north.anna', doc.fileRef)).statusCode).toBe(404);
    // The other document of the ship is untouched.
    const kept = await download('north.anna', keep.fileRef);
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe('%PDF-1 keep me');

    const audits = await deleteAudits(doc.fileId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ user_id: user.admin, subject: northShip.id });
    expect(JSON.stringify(audits[0]!.detail)).toContain('To delete.pdf');

    // Deleting it again: it is not there any more.
    expect((await remove('admin', doc.fileId)).statusCode).toBe(404);
  });

  it('refuses a UserAdmin and a User who see the ship (403), and nothing changes', async () => {
    const doc = await uploadDocument(northShip.id, 'Protected.pdf', '%PDF-1 protected');
    for (const username of ['north.admin', 'north.anna']) {
      expect((await list(username)).map((d) => d.fileId)).toContain(doc.fileId);
      const response = await remove(username, doc.fileId);
      expect(response.statusCode).toBe(403);
      expect((await list(username)).map((d) => d.fileId)).toContain(doc.fileId);
    }
    expect(await stored(doc.fileId)).toBeDefined();
    const still = await download('north.anna', doc.fileRef);
    expect(still.statusCode).toBe(200);
    expect(still.body).toBe('%PDF-1 protected');
    expect(await deleteAudits(doc.fileId)).toHaveLength(0);
  });

  it("does not reveal another organization's document (404), and nothing changes", async () => {
    const north = await uploadDocument(northShip.id, 'North only.pdf', '%PDF-1 north');
    const south = await uploadDocument(southShip.id, 'South only.pdf', '%PDF-1 south');
    for (const username of ['south.admin', 'south.maria']) {
      const response = await remove(username, north.fileId);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Document not found');
    }
    for (const username of ['north.admin', 'north.anna'])
      expect((await remove(username, south.fileId)).statusCode).toBe(404);
    expect(await stored(north.fileId)).toBeDefined();
    expect(await stored(south.fileId)).toBeDefined();
    expect((await list('north.anna')).map((d) => d.fileId)).toContain(north.fileId);
    expect((await list('admin')).map((d) => d.fileId)).toEqual(
      expect.arrayContaining([north.fileId, south.fileId]),
    );
  });

  it('answers 404 for an unknown id, a non-uuid id and the fileRef of the download', async () => {
    const doc = await uploadDocument(northShip.id, 'By id.pdf', '%PDF-1 by id');
    expect((await remove('admin', randomUUID())).statusCode).toBe(404);
    expect((await remove('admin', 'not-a-uuid')).statusCode).toBe(404);
    expect((await remove('admin', "1' or '1'='1")).statusCode).toBe(404);
    // The document is addressed by the list's fileId; its fileRef (the download's handle) is not a document id.
    expect((await remove('admin', doc.fileRef)).statusCode).toBe(404);
    expect(await stored(doc.fileId)).toBeDefined();
    expect((await remove('north.anna', 'not-a-uuid')).statusCode).toBe(404);
  });
});

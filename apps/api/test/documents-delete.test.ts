import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

interface ListedDocument {
  fileRef: string;
  fileId: string;
  fileName: string;
  facilityId: string;
}

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
    .where('id', 'in', db.selectFrom('user_facility_access').select('facility_id').where('user_id', '=', user['north.anna']!))
    .orderBy('name')
    .executeTakeFirstOrThrow();
  southShip = await db.selectFrom('facilities').select(['id', 'name']).where('primary_organization_id', '=', org.south!).orderBy('name').executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server?.close();
});

async function upload(facilityId: string, name: string, content: string): Promise<ListedDocument> {
  const form = new FormData();
  form.append('docType', 'Service report');
  form.append('file', new Blob([content], { type: 'application/pdf' }), name);
  const response = await server.app.inject({ method: 'POST', url: `/api/facilities/${facilityId}/documents`, headers: { authorization: `Bearer ${await server.tokenFor('admin')}` }, payload: form });
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

async function download(username: string, fileRef: string) {
  return (await server.as(username)).post('/api/facilities/documents/download', { fileRef });
}

const stored = (fileId: string) => server.services.database.db.selectFrom('facility_documents').select(['id', 'content']).where('id', '=', fileId).executeTakeFirst();

const deleteAudits = (fileId: string) =>
  server.services.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'document.delete')
    .execute()
    .then((rows) => rows.filter((r) => JSON.stringify(r.detail ?? '').includes(fileId)));

describe('deleting service documents', () => {
  it('lets a SystemAdmin delete a document: 204, gone from the list with its bytes, its download is not found, audited', async () => {
    const doc = await upload(northShip.id, 'To delete.pdf', '%PDF-1 delete me');
    const keep = await upload(northShip.id, 'To keep.pdf', '%PDF-1 keep me');
    expect((await list('north.anna')).map((d) => d.fileId)).toEqual(expect.arrayContaining([doc.fileId, keep.fileId]));
    expect((await download('north.anna', doc.fileRef)).statusCode).toBe(200);

    const response = await remove('admin', doc.fileId);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect((await list('admin')).map((d) => d.fileId)).not.toContain(doc.fileId);
    expect((await list('north.anna')).map((d) => d.fileId)).toEqual([keep.fileId]);
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
    const doc = await upload(northShip.id, 'Protected.pdf', '%PDF-1 protected');
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
    const north = await upload(northShip.id, 'North only.pdf', '%PDF-1 north');
    const south = await upload(southShip.id, 'South only.pdf', '%PDF-1 south');
    for (const username of ['south.admin', 'south.maria']) {
      const response = await remove(username, north.fileId);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Document not found');
    }
    for (const username of ['north.admin', 'north.anna']) expect((await remove(username, south.fileId)).statusCode).toBe(404);
    expect(await stored(north.fileId)).toBeDefined();
    expect(await stored(south.fileId)).toBeDefined();
    expect((await list('north.anna')).map((d) => d.fileId)).toContain(north.fileId);
    expect((await list('admin')).map((d) => d.fileId)).toEqual(expect.arrayContaining([north.fileId, south.fileId]));
  });

  it('answers 404 for an unknown id, a non-uuid id and the fileRef of the download', async () => {
    const doc = await upload(northShip.id, 'By id.pdf', '%PDF-1 by id');
    expect((await remove('admin', randomUUID())).statusCode).toBe(404);
    expect((await remove('admin', 'not-a-uuid')).statusCode).toBe(404);
    expect((await remove('admin', "1' or '1'='1")).statusCode).toBe(404);
    // The document is addressed by the list's fileId; its fileRef (the download's handle) is not a document id.
    expect((await remove('admin', doc.fileRef)).statusCode).toBe(404);
    expect(await stored(doc.fileId)).toBeDefined();
    expect((await remove('north.anna', 'not-a-uuid')).statusCode).toBe(404);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importUploadedFile, originalCompressionFor, originalsCompressed, readOriginal } from '../src/features/files/import';
import { compressPendingOriginals } from '../src/jobs/compress-originals';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource, csvFile, sendFile } from './upload-helpers';

let server: TestServer;
let facilityId: string;
let dataSourceId: string;
const db = () => server.services.database.db;

const partsOf = (dataFileId: string) =>
  db().selectFrom('data_file_originals').select(['part', 'compression']).where('data_file_id', '=', dataFileId).orderBy('part').execute();

beforeAll(async () => {
  // The queue takes jobs but no worker runs them here: the test runs the sweep itself, when it wants to.
  server = await startTestServer({ jobs: 'send' });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await createCsvDataSource(server, facilityId);
});
afterAll(async () => {
  await server?.close();
});

describe('originals stored raw by an upload are compressed afterwards', () => {
  it('answers a deferred import with the original stored raw, then stores it compressed; a sweep picks up what a stopped process left', async () => {
    // 9 MB: two parts of the original.
    const content = csvFile({ start: '2026-08-01 00:00:00', rows: 160_000, channels: ['SO2', 'CO2', 'Flow', 'Temp', 'Load'] });
    expect(content.length).toBeGreaterThan(8 * 1024 * 1024);
    const imported = await importUploadedFile(db(), { facilityId, dataSourceId, fileName: 'raw.csv', content: Buffer.from(content), importedBy: null, originalCompression: 'deferred' });
    const id = imported.ids[0]!;
    // Readable at once, raw or compressed.
    expect((await readOriginal(db(), facilityId, id))?.toString()).toBe(content);
    await originalsCompressed();
    expect((await partsOf(id)).map((p) => p.compression)).toEqual(['gzip', 'gzip']);
    expect((await readOriginal(db(), facilityId, id))?.toString()).toBe(content);

    // A process stopped before compressing: its parts stay pending until the compress-originals job sweeps them.
    const raw = Buffer.from(content);
    for (const part of [0, 1]) {
      await db()
        .updateTable('data_file_originals')
        .set({ compression: 'pending', content: raw.subarray(part * 8 * 1024 * 1024, (part + 1) * 8 * 1024 * 1024) })
        .where('data_file_id', '=', id)
        .where('part', '=', part)
        .execute();
    }
    expect((await readOriginal(db(), facilityId, id))?.toString()).toBe(content);
    const swept = await compressPendingOriginals(db());
    expect(swept.parts).toBe(2);
    expect(swept.bytesAfter).toBeLessThan(swept.bytesBefore);
    expect((await partsOf(id)).map((p) => p.compression)).toEqual(['gzip', 'gzip']);
    expect((await readOriginal(db(), facilityId, id))?.toString()).toBe(content);
    expect(await compressPendingOriginals(db())).toEqual({ parts: 0, bytesBefore: 0, bytesAfter: 0 });
  });

  it('compresses inline on PGlite and through the job on PostgreSQL when the upload comes through the API', async () => {
    const content = csvFile({ start: '2026-09-01 00:00:00', rows: 500 });
    const response = await sendFile(server, 'admin', 'POST', `/api/algorithm/facilitydatasource/${dataSourceId}/file`, 'api.csv', content);
    const id = response.json().ids[0] as string;
    const kind = server.services.database.kind;
    if (originalCompressionFor(kind) === 'inline') {
      expect((await partsOf(id)).map((p) => p.compression)).toEqual(['gzip']);
    } else {
      // Stored raw, compressed by this process once committed; a sweep is queued for a minute later in case it stopped.
      await originalsCompressed();
      expect((await partsOf(id)).map((p) => p.compression)).toEqual(['gzip']);
      const queued = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'compress-originals' and state = 'created' and start_after > now() + interval '30 seconds'`.execute(db());
      expect(queued.rows[0]!.n).toBe(1);
    }
    expect((await readOriginal(db(), facilityId, id))?.toString()).toBe(content);
  });
});

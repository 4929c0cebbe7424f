import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originalsCompressed, type OriginalKey } from '../src/storage';
import { importUploadedFile } from '../src/features/files/import';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource, csvFile, sendFile } from './upload-helpers';

/**
 * The originals of uploaded files (storage/originals.ts): in the database on PostgreSQL, as files beside PGlite. Either
 * way an upload stores the original raw, this process gzips it once the import has committed, and the
 * compress-originals sweep finishes what a stopped process left.
 */
let server: TestServer;
let facilityId: string;
let dataSourceId: string;
const db = () => server.services.database.db;
const originals = () => server.services.database.originals;

/** How each stored piece of the original is kept: 'pending' (raw), 'gzip' or 'none'. */
async function storedForm(key: OriginalKey): Promise<string[]> {
  if (originals().kind === 'database') {
    const parts = await db()
      .selectFrom('data_file_originals')
      .select('compression')
      .where('data_file_id', '=', key.dataFileId)
      .orderBy('part')
      .execute();
    return parts.map((p) => p.compression);
  }
  const dir = path.join(originals().location, key.facilityId);
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(key.dataFileId))
    .map((name) => (name.endsWith('.gz') ? 'gzip' : name === key.dataFileId ? 'pending' : name));
}

/** What a process stopped before compressing leaves: the original raw. */
async function leaveRaw(key: OriginalKey, raw: Buffer): Promise<void> {
  if (originals().kind === 'database') {
    for (const part of [0, 1]) {
      await db()
        .updateTable('data_file_originals')
        .set({
          compression: 'pending',
          content: raw.subarray(part * 8 * 1024 * 1024, (part + 1) * 8 * 1024 * 1024),
        })
        .where('data_file_id', '=', key.dataFileId)
        .where('part', '=', part)
        .execute();
    }
    return;
  }
  const file = path.join(originals().location, key.facilityId, key.dataFileId);
  fs.rmSync(`${file}.gz`);
  fs.writeFileSync(file, raw);
}

beforeAll(async () => {
  // The queue takes jobs but no worker runs them here: the test runs the sweep itself, when it wants to.
  server = await startTestServer({ jobs: 'send' });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await createCsvDataSource(server, facilityId);
});
afterAll(async () => {
  await server?.close();
});

describe('originals of uploaded files', () => {
  it('are kept on PGlite as files in the data directory, on PostgreSQL in the database', () => {
    expect(originals().kind).toBe(server.services.database.kind === 'pglite' ? 'directory' : 'database');
  });

  it('are stored raw by the upload, then compressed; a sweep compresses what a stopped process left raw', async () => {
    // 9 MB: two pieces of the original.
    const content = csvFile({
      start: '2026-08-01 00:00:00',
      rows: 160_000,
      channels: ['SO2', 'CO2', 'Flow', 'Temp', 'Load'],
    });
    expect(content.length).toBeGreaterThan(8 * 1024 * 1024);
    const imported = await importUploadedFile(server.services.database, {
      facilityId,
      dataSourceId,
      fileName: 'raw.csv',
      content: Buffer.from(content),
      importedBy: null,
    });
    const key = { facilityId, dataFileId: imported.ids[0]! };
    // Readable at once, raw or compressed.
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    await originalsCompressed();
    expect(await storedForm(key)).toEqual(originals().kind === 'database' ? ['gzip', 'gzip'] : ['gzip']);
    expect((await originals().read(db(), key))?.toString()).toBe(content);

    await leaveRaw(key, Buffer.from(content));
    expect(await storedForm(key)).toEqual(
      originals().kind === 'database' ? ['pending', 'pending'] : ['pending'],
    );
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    const swept = await originals().sweep(db());
    expect(swept.compressed).toBe(originals().kind === 'database' ? 2 : 1);
    expect(swept.bytesAfter).toBeLessThan(swept.bytesBefore);
    expect(await storedForm(key)).toEqual(originals().kind === 'database' ? ['gzip', 'gzip'] : ['gzip']);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    expect(await originals().sweep(db())).toEqual({
      compressed: 0,
      bytesBefore: 0,
      bytesAfter: 0,
      removed: 0,
    });
  });

  it('through the API: compressed once committed, with a sweep queued for a minute later', async () => {
    const content = csvFile({ start: '2026-09-01 00:00:00', rows: 500 });
    const response = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
      'api.csv',
      content,
    );
    const key = { facilityId, dataFileId: response.json().ids[0] as string };
    await originalsCompressed();
    expect(await storedForm(key)).toEqual(['gzip']);
    const queued = await sql<{
      n: number;
    }>`select count(*)::int as n from pgboss.job where name = 'compress-originals' and state = 'created' and start_after > now() + interval '30 seconds'`.execute(
      db(),
    );
    expect(queued.rows[0]!.n).toBeGreaterThanOrEqual(1);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
  });

  it('go with their file, and with their data source', async () => {
    const admin = await server.as('admin');
    const url = `/api/algorithm/facilitydatasource/${dataSourceId}/file`;
    const first = await sendFile(
      server,
      'admin',
      'POST',
      url,
      'first.csv',
      csvFile({ start: '2026-10-01 00:00:00', rows: 100 }),
    );
    const firstKey = { facilityId, dataFileId: first.json().ids[0] as string };
    await originalsCompressed();
    // Removed from the list but its data kept: the original stays.
    expect((await admin.delete(`${url}/${firstKey.dataFileId}`)).statusCode).toBe(204);
    expect(await originals().read(db(), firstKey)).not.toBeNull();
    expect((await admin.delete(`${url}/${firstKey.dataFileId}?deleteData=true`)).statusCode).toBe(404);

    const otherSource = await createCsvDataSource(server, facilityId, { name: 'SecondLogger' });
    const second = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${otherSource}/file`,
      'second.csv',
      csvFile({ start: '2026-10-02 00:00:00', rows: 100 }),
    );
    const secondKey = { facilityId, dataFileId: second.json().ids[0] as string };
    await originalsCompressed();
    expect(await originals().storedFileIds(db())).toContain(secondKey.dataFileId);
    expect(
      (await admin.delete(`/api/algorithm/facility/${facilityId}/datasource/${otherSource}`)).statusCode,
    ).toBe(204);
    expect(await originals().read(db(), secondKey)).toBeNull();
    expect(await originals().storedFileIds(db())).not.toContain(secondKey.dataFileId);
  });

  it('go with their file deleted while the original is still being compressed', async () => {
    const url = `/api/algorithm/facilitydatasource/${dataSourceId}/file`;
    const sent = await sendFile(
      server,
      'admin',
      'POST',
      url,
      'quick.csv',
      csvFile({ start: '2026-11-01 00:00:00', rows: 100 }),
    );
    const key = { facilityId, dataFileId: sent.json().ids[0] as string };
    await originalsCompressed();
    // The store's side of it, with no time in between: a compression under way (the original again, 16 MB), and the
    // deletion of its data file right then.
    const content = Buffer.alloc(16 * 1024 * 1024, 'Timestamp,SO2\n2026-11-01 00:00:00,1.5\n');
    const compressing = originals().compressAfterCommit(db(), key, content);
    await db().deleteFrom('data_files').where('id', '=', key.dataFileId).execute();
    await originals().removeDeleted([key]);
    await compressing;
    expect(await originals().read(db(), key)).toBeNull();
    expect(await originals().storedFileIds(db())).not.toContain(key.dataFileId);
  });

  it('on PGlite, a sweep removes the files of an import that stopped half-way, and what is left of a compression', async (context) => {
    if (originals().kind !== 'directory') return context.skip("the directory store is PGlite's");
    const dir = path.join(originals().location, facilityId);
    const orphan = '00000000-0000-4000-8000-000000000001';
    fs.writeFileSync(path.join(dir, orphan), 'Timestamp,SO2\n');
    fs.writeFileSync(path.join(dir, `${orphan}.gz.partial`), 'half');
    const content = csvFile({ start: '2026-10-03 00:00:00', rows: 100 });
    const imported = await importUploadedFile(server.services.database, {
      facilityId,
      dataSourceId,
      fileName: 'kept.csv',
      content: Buffer.from(content),
      importedBy: null,
    });
    await originalsCompressed();
    const kept = imported.ids[0]!;
    fs.writeFileSync(path.join(dir, `${kept}.gz.partial`), 'half');

    const swept = await originals().sweep(db());
    expect(swept.removed).toBe(1);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith(orphan) || name.startsWith(kept))).toEqual([
      `${kept}.gz`,
    ]);
    expect((await originals().read(db(), { facilityId, dataFileId: kept }))?.toString()).toBe(content);
  });
});

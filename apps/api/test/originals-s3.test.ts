import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStoreSettings } from '../src/config';
import { AppError } from '../src/errors';
import { importUploadedFile } from '../src/features/files/import';
import { originalsCompressed, s3OriginalStore, type OriginalStore } from '../src/storage';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource, csvFile, ingestionCounts, sendFile } from './upload-helpers';

/**
 * The originals in an S3-compatible bucket (ORIGINALS_URL, storage/originals-s3.ts), against s3rver run here in this
 * process: what several API nodes share. On PGlite by default, on PostgreSQL with DATABASE_URL.
 */
const BUCKET = 'portal-originals';
let s3: S3rver;
let s3Dir: string;
let endpoint: string;
let server: TestServer;
let client: S3Client;
let facilityId: string;
let dataSourceId: string;
const db = () => server.services.database.db;
const originals = () => server.services.database.originals;
const settings = (): ObjectStoreSettings => ({
  bucket: BUCKET,
  prefix: 'test/',
  endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
});
const url = () => `/api/algorithm/facilitydatasource/${dataSourceId}/file`;

/** The bucket's keys of one data file, without the prefix and the ship: '<id>', '<id>.gz', '<id>.none'. */
async function objectsOf(dataFileId: string): Promise<string[]> {
  const listed = await client.send(
    new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `test/${facilityId}/${dataFileId}` }),
  );
  return (listed.Contents ?? []).map((o) => o.Key!.split('/').pop()!.replace(dataFileId, '<id>')).sort();
}

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const address = (await s3.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
  // s3rver takes any signature made with its documented key pair; the SDK reads them where it reads real ones.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
  });
  server = await startTestServer({
    jobs: 'send',
    env: {
      ORIGINALS_URL: `s3://${BUCKET}/test?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    },
  });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await createCsvDataSource(server, facilityId);
});
afterAll(async () => {
  await server?.close();
  client?.destroy();
  await s3?.close();
  if (s3Dir) fs.rmSync(s3Dir, { recursive: true, force: true });
});

describe('originals in an S3-compatible bucket (ORIGINALS_URL)', () => {
  it('are kept in the bucket on either database', () => {
    expect(originals().kind).toBe('bucket');
    expect(originals().location).toBe(`s3://${BUCKET}/test/`);
  });

  it('an upload stores the original in the bucket, compressed once committed, and it reads back byte for byte', async () => {
    // 9 MB: two gzip members in one object.
    const content = csvFile({
      start: '2026-08-01 00:00:00',
      rows: 160_000,
      channels: ['SO2', 'CO2', 'Flow', 'Temp', 'Load'],
    });
    expect(content.length).toBeGreaterThan(8 * 1024 * 1024);
    const response = await sendFile(server, 'admin', 'POST', url(), 'big.csv', content);
    expect(response.statusCode).toBe(200);
    expect(response.json().errorMessages).toEqual([]);
    const key = { facilityId, dataFileId: response.json().ids[0] as string };
    await originalsCompressed();
    expect(await objectsOf(key.dataFileId)).toEqual(['<id>.gz']);
    const stored = await client.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `test/${facilityId}/${key.dataFileId}.gz` }),
    );
    expect(Number(stored.ContentLength)).toBeLessThan(content.length);
    stored.Body?.transformToByteArray().catch(() => undefined);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    // Streamed: the same bytes, in pieces.
    const stream = await originals().stream(db(), key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString()).toBe(content);
    expect(await originals().storedFileIds(db())).toContain(key.dataFileId);
  });

  it('the sweep compresses what a stopped process left raw, and removes objects without a data file once they are old', async () => {
    const content = csvFile({ start: '2026-09-01 00:00:00', rows: 2_000 });
    const imported = await importUploadedFile(server.services.database, {
      facilityId,
      dataSourceId,
      fileName: 'raw.csv',
      content: Buffer.from(content),
      importedBy: null,
    });
    const key = { facilityId, dataFileId: imported.ids[0]! };
    await originalsCompressed();
    // What a process stopped right after the commit leaves: the raw object only.
    const raw = `test/${facilityId}/${key.dataFileId}`;
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: raw, Body: Buffer.from(content) }));
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${raw}.gz` }));
    expect(await objectsOf(key.dataFileId)).toEqual(['<id>']);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    // An import under way on another node (no committed data file yet), or one that stopped half-way.
    const orphan = '00000000-0000-4000-8000-0000000000a1';
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `test/${facilityId}/${orphan}`, Body: Buffer.from('x') }),
    );

    const swept = await originals().sweep(db());
    expect(swept).toMatchObject({ compressed: 1, removed: 0 });
    expect(swept.bytesAfter).toBeLessThan(swept.bytesBefore);
    expect(await objectsOf(key.dataFileId)).toEqual(['<id>.gz']);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
    // Too young to be left over: it may be an import that has not committed yet.
    expect(await originals().storedFileIds(db())).toContain(orphan);

    const later = s3OriginalStore(settings(), { orphanAgeMs: 0 });
    try {
      expect(await later.sweep(db())).toEqual({ compressed: 0, bytesBefore: 0, bytesAfter: 0, removed: 1 });
    } finally {
      await later.close();
    }
    expect(await originals().storedFileIds(db())).not.toContain(orphan);
    expect((await originals().read(db(), key))?.toString()).toBe(content);
  });

  it('go with their file', async () => {
    const admin = await server.as('admin');
    const sent = await sendFile(
      server,
      'admin',
      'POST',
      url(),
      'gone.csv',
      csvFile({ start: '2026-10-01 00:00:00', rows: 100 }),
    );
    const key = { facilityId, dataFileId: sent.json().ids[0] as string };
    await originalsCompressed();
    expect(await objectsOf(key.dataFileId)).toEqual(['<id>.gz']);
    expect((await admin.delete(`${url()}/${key.dataFileId}?deleteData=true`)).statusCode).toBe(204);
    expect(await objectsOf(key.dataFileId)).toEqual([]);
    expect(await originals().read(db(), key)).toBeNull();
  });

  describe('a bucket that cannot be reached', () => {
    /** The server's store swapped for one that fails, for the length of `run`. */
    async function withStore(store: OriginalStore, run: () => Promise<void>) {
      const database = server.services.database as { originals: OriginalStore };
      const own = database.originals;
      database.originals = store;
      try {
        await run();
      } finally {
        database.originals = own;
        await store.close();
      }
    }

    it('refuses the upload with a clear error and stores nothing of it (no server there)', async () => {
      const before = await ingestionCounts(server);
      // A port nothing listens on: s3rver's own, once closed, would be taken by another test; port 9 is discard.
      const unreachable = s3OriginalStore({ ...settings(), endpoint: 'http://127.0.0.1:9' });
      await withStore(unreachable, async () => {
        const response = await sendFile(
          server,
          'admin',
          'POST',
          url(),
          'refused.csv',
          csvFile({ start: '2026-11-01 00:00:00', rows: 100 }),
        );
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          code: 'UNAVAILABLE',
          message:
            'The store of uploaded files could not be reached, so the file was not imported. Nothing of it was kept: send it again later.',
        });
      });
      expect(await ingestionCounts(server)).toEqual(before);
      // The same file, once the bucket answers again: imported as if the first attempt had never been.
      const again = await sendFile(
        server,
        'admin',
        'POST',
        url(),
        'refused.csv',
        csvFile({ start: '2026-11-01 00:00:00', rows: 100 }),
      );
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ errorMessages: [] });
      expect(again.json().ids).toHaveLength(1);
    });

    it('refuses the upload when the bucket does not exist, and nothing of it is kept', async () => {
      const before = await ingestionCounts(server);
      const missing = s3OriginalStore({ ...settings(), bucket: 'no-such-bucket' });
      await withStore(missing, async () => {
        const refused = await importUploadedFile(server.services.database, {
          facilityId,
          dataSourceId,
          fileName: 'nowhere.csv',
          content: Buffer.from(csvFile({ start: '2026-11-02 00:00:00', rows: 100 })),
          importedBy: null,
        }).catch((error: unknown) => error as Error);
        expect(refused).toBeInstanceOf(AppError);
        // What the log gets: which bucket, where, and what it answered.
        expect(String((refused as Error).cause)).toMatch(
          /^Error: The store of originals \(bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+\) could not store the original: NoSuchBucket \(HTTP 404\)/,
        );
      });
      expect(await ingestionCounts(server)).toEqual(before);
    });
  });
});

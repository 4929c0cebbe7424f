import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importUploads } from '../src/features/files/import';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource, csvFile, ingestionCounts } from './upload-helpers';

/**
 * Several files in one import (importUploads, docs/decisions/0127-originals-in-object-storage-and-batch-import.md):
 * each file answered as if uploaded alone, the ship's range once, through the one upload route too.
 */
let server: TestServer;
let facilityId: string;
let dataSourceId: string;
const db = () => server.services.database.db;

const day = (date: string) => ({
  fileName: `${date}.csv`,
  content: Buffer.from(csvFile({ start: `${date} 00:00:00`, rows: 1440 })),
});

/** A multipart body with one `file` field per file, as a folder or a multi-file selection sends it. */
function multipartFiles(files: { fileName: string; content: Buffer }[]) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const parts = files.flatMap((f) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    f.content,
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'send' });
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await createCsvDataSource(server, facilityId);
});
afterAll(async () => {
  await server?.close();
});

describe('a batch of files in one import', () => {
  it('keeps the good files of a batch, answers each bad one on its own, audits each file, and is idempotent', async () => {
    const before = await ingestionCounts(server);
    const first = day('2026-03-01');
    const batch = [
      first,
      { fileName: 'broken.csv', content: Buffer.from('no,timestamps,here\n1,2,3\n') },
      { fileName: 'again.csv', content: first.content },
      day('2026-03-02'),
    ];
    const admin = { userId: null, organizationId: null };
    const imported = await importUploads(server.services.database, {
      facilityId,
      dataSourceId,
      uploads: batch,
      importedBy: null,
      auditedBy: { actor: admin },
    });
    expect(imported.ids).toHaveLength(2);
    expect(imported.errorMessages).toHaveLength(2);
    expect(imported.errorMessages[0]).toMatch(/^broken\.csv: /);
    expect(imported.errorMessages[1]).toMatch(/^again\.csv: already imported on /);
    const after = await ingestionCounts(server);
    expect(after.files).toBe(before.files + 2);
    expect(after.originals).toBe(before.originals + 2);
    const audited = await db()
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'datafile.upload')
      .where('subject', '=', dataSourceId)
      .execute();
    expect(audited.map((a) => (a.detail as { fileName: string }).fileName).sort()).toEqual([
      '2026-03-01.csv',
      '2026-03-02.csv',
    ]);
    // The ship's range covers both days, set once for the batch.
    const ship = await db()
      .selectFrom('facilities')
      .select(['data_timestamp_min', 'data_timestamp_max'])
      .where('id', '=', facilityId)
      .executeTakeFirstOrThrow();
    expect(new Date(ship.data_timestamp_min!).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(ship.data_timestamp_max!).toISOString()).toBe('2026-03-02T23:59:00.000Z');

    // Sent again: nothing new, each file told.
    const again = await importUploads(server.services.database, {
      facilityId,
      dataSourceId,
      uploads: batch,
      importedBy: null,
      auditedBy: { actor: admin },
    });
    expect(again.ids).toEqual([]);
    expect(again.errorMessages).toHaveLength(4);
    expect(await ingestionCounts(server)).toEqual(after);
  });

  it('takes several files in one upload request, each answered on its own', async () => {
    const token = await server.tokenFor('admin');
    const { payload, headers } = multipartFiles([
      day('2026-04-01'),
      { fileName: 'notes.txt', content: Buffer.from('hello\n') },
      day('2026-04-02'),
    ]);
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/algorithm/facilitydatasource/${dataSourceId}/file?execute=false`,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.ids).toHaveLength(2);
    expect(answer.errorMessages).toHaveLength(1);
    expect(answer.errorMessages[0]).toMatch(/^notes\.txt: /);
    const listed = await (
      await server.as('admin')
    ).get(`/api/algorithm/facilitydatasource/${dataSourceId}/file`);
    expect(listed.json().map((f: { fileName: string }) => f.fileName)).toEqual(
      expect.arrayContaining(['2026-04-01.csv', '2026-04-02.csv']),
    );
  });
});

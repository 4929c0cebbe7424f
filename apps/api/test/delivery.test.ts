import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CODES } from '@portal/contracts/reports';
import { startTestServer, type TestServer } from './harness';
import { DAY, FAST_QUEUE, UNTIL, prepareShips, waitForExecutions } from './execution-fixtures';
import type { Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';

/**
 * Delivery (docs/decisions/0061-delivery.md): what proxies and browsers may keep, the web build's cache headers
 * and compression, and report data ETags that a server checks before it reads anything.
 */

describe('API answers are never stored, report data is revalidated', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends Cache-Control: no-store on authenticated answers, errors included', async () => {
    const anna = await server.as('north.anna');
    for (const url of ['/api/auth/me', '/api/facilities', '/api/messages?isActive=true']) {
      const response = await anna.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const missing = await anna.get('/api/facilities/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const anonymous = await server.app.inject({ url: '/api/facilities' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('keeps report data private to the browser, revalidated by its ETag', async () => {
    const anna = await server.as('north.anna');
    const response = await anna.get(
      `/api/reports/${REPORT_CODES.fleetCo2Reduction}/data?from=2024-01-01T00:00:00.000Z&to=2024-01-31T23:59:59.999Z`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
  });
});

describe('report data ETag', () => {
  let server: TestServer;
  let queue: Queue;
  let ship: string;
  const FROM = new Date(UNTIL.getTime() - DAY);
  const TO = new Date(UNTIL.getTime() - 1);
  const url = `/api/reports/${REPORT_CODES.fleetCo2Reduction}/data?${new URLSearchParams({
    from: FROM.toISOString(),
    to: TO.toISOString(),
  })}`;
  const get = async (username: string, etag?: string) =>
    server.app.inject({
      url,
      headers: {
        authorization: `Bearer ${await server.tokenFor(username)}`,
        ...(etag ? { 'if-none-match': etag } : {}),
      },
    });

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    const { db } = server.services.database;
    const north = await db
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', server.seed.organizationIds.north!)
      .orderBy('name')
      .execute();
    const key = Object.keys(server.seed.facilityIds).find(
      (k) => server.seed.facilityIds[k] === north[north.length - 1]!.id,
    )!;
    ship = server.seed.facilityIds[key]!;
    await prepareShips(server.services.database, { [key]: ship }, 1);
    queue = await startJobs(server.services, { work: true, tuning: FAST_QUEUE });
  }, 120_000);
  afterAll(async () => {
    await queue?.stop();
    await server?.close();
  });

  it('stays while nothing changes, and changes with the values (an execution) and with access', async () => {
    const first = await get('north.anna');
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(first.json().fields.ActualAverage.value).toBeNull();

    // Nothing changed: the same tag on the next call (the version is read from the database on every call,
    // features/reports/cache.ts: no cache of it to outlast), and a 304 for it.
    const again = await get('north.anna', etag);
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.body).toBe('');

    // Another caller's tag is not this caller's.
    const lee = await get('south.lee', etag);
    expect(lee.statusCode).toBe(200);
    expect(lee.headers.etag).not.toBe(etag);

    // An execution stores new report values: the old tag gets the new answer.
    const admin = await server.as('admin');
    const files = await server.services.database.db
      .selectFrom('data_files')
      .select('id')
      .where('facility_id', '=', ship)
      .execute();
    const started = await admin.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId: ship,
      from: FROM.toISOString(),
      to: TO.toISOString(),
      facilityDataSourceFileIds: files.map((f) => f.id),
    });
    expect(started.statusCode).toBe(202);
    const [execution] = await waitForExecutions(server.services.database.db, [started.json().id]);
    expect(execution!.state).toBe('done');
    const executed = await get('north.anna', etag);
    expect(executed.statusCode).toBe(200);
    expect(executed.json().fields.ActualAverage.value).not.toBeNull();
    const afterExecution = String(executed.headers.etag);
    expect(afterExecution).not.toBe(etag);
    expect((await get('north.anna', afterExecution)).statusCode).toBe(304);

    // Access changes (the ship leaves anna's organization's view): the old tag gets a new answer without it.
    const { db } = server.services.database;
    const anna = server.seed.userIds['north.anna']!;
    const assigned = await db
      .deleteFrom('user_facility_access')
      .where('user_id', '=', anna)
      .where('facility_id', '=', ship)
      .returningAll()
      .execute();
    const withoutShip = await get('north.anna', afterExecution);
    expect(withoutShip.statusCode).toBe(200);
    expect(withoutShip.headers.etag).not.toBe(afterExecution);
    if (assigned.length) await db.insertInto('user_facility_access').values(assigned).execute();
  });
});

describe('the web build: cache headers and compression', () => {
  let server: TestServer;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));
  const script = `console.log(${JSON.stringify('fleet '.repeat(2000))});\n`;
  const html = `<!doctype html><html><head><script src="/settings.js"></script><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>\n`;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    // As the build writes them: each text file, and beside it .br and .gz (apps/web/vite.config.ts).
    for (const [file, text] of [
      ['index.html', html],
      ['assets/index-AbCd1234.js', script],
    ] as const) {
      fs.writeFileSync(path.join(dist, file), text);
      fs.writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(text));
      fs.writeFileSync(path.join(dist, `${file}.gz`), gzipSync(text));
    }
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ seed: false, webDist: dist });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('never caches index.html, on / and on any route of the app', async () => {
    for (const url of ['/', '/ship/abc', '/index.html']) {
      const response = await server.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await server.app.inject({ url: '/index.html' })).body).toBe(html);
    // Revalidation: the browser's copy is still good.
    const first = await server.app.inject({ url: '/' });
    const revalidated = await server.app.inject({
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('carries the settings inline on the routes of the app, allowed by their hash in the CSP', async () => {
    const settings = (await server.app.inject({ url: '/settings.js' })).body;
    expect(settings).toMatch(/^window\.settings = /);
    const page = await server.app.inject({ url: '/ship/abc' });
    expect(page.body).toBe(
      html.replace('<script src="/settings.js"></script>', `<script>${settings}</script>`),
    );
    const hash = createHash('sha256').update(settings).digest('base64');
    const scriptSrc = String(page.headers['content-security-policy']).match(/script-src ([^;]*)/)![1]!;
    expect(scriptSrc.split(' ')).toEqual(["'self'", `'sha256-${hash}'`]);
  });

  it('keeps hashed assets a year, immutable; other files are revalidated', async () => {
    const asset = await server.app.inject({ url: '/assets/index-AbCd1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await server.app.inject({ url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends brotli or gzip by Accept-Encoding, and the plain file to a client that accepts neither', async () => {
    const url = '/assets/index-AbCd1234.js';
    const br = await server.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gzip = await server.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await server.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const page = await server.app.inject({ url: '/index.html', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(html);
  });
});

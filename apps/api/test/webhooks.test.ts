import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { webhookPayloadSchema, type WebhookDelivery } from '@portal/contracts/webhooks';
import { demoShips } from '@portal/demo-fleet/ships';
import { queueWebhookDeliveries } from '../src/features/webhooks/queue-deliveries';
import { verifyWebhookSignature } from '../src/features/webhooks/signature';
import { JOB_NAMES } from '../src/jobs';
import { jobQueueOf } from '../src/services';
import { PUBLIC_URL, startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';

/**
 * Webhooks (issue 19) against a real HTTP receiver on 127.0.0.1 started here, through the real job queue (pg-boss on
 * PGlite, or PostgreSQL with DATABASE_URL): signing, idempotent queueing, retries with backoff, the retry budget, a
 * slow receiver, the SSRF guard at save and at send, isolation and audit.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A receiver whose paths answer as told: /ok 200, /flaky 500 twice then 200, /down always 500, /slow after 8 s. */
async function startReceiver() {
  const received: Received[] = [];
  let connections = 0;
  let flaky = 0;
  /** How many requests the slow path came to answer (8 s after each came; its client may be gone by then). */
  let slowAnswers = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      });
      const answer = (status: number) => response.writeHead(status).end(status < 300 ? 'ok' : 'no');
      if (path.startsWith('/flaky')) answer(++flaky <= 2 ? 500 : 200);
      else if (path.startsWith('/down')) answer(500);
      else if (path.startsWith('/slow'))
        setTimeout(() => {
          slowAnswers++;
          if (!response.destroyed) answer(200);
        }, 8000).unref();
      else answer(200);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    slowAnswered: () => slowAnswers,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000) {
  return waitFor(read, { what, until: done, timeoutMs: ms, intervalMs: 200 });
}

const ships = demoShips(6);
const northShipKey = ships.filter((s) => s.organizationKey === 'north')[0]!.key;
const southShipKey = ships.filter((s) => s.organizationKey === 'south')[0]!.key;

async function insertEvent(server: TestServer, facilityId: string, type = 'scrubber-off') {
  return server.services.database.db
    .insertInto('compliance_events')
    .values({
      facility_id: facilityId,
      type,
      start_on: new Date('2025-03-09T10:00:00Z'),
      end_on: new Date('2025-03-09T11:30:00Z'),
      worst_value: 6.2,
      limit_value: 4.3,
      classification: 'malfunction',
      report_required: true,
      rules: JSON.stringify(DEFAULT_EVENT_RULES),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe('webhooks with the receiver allowed (WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let north: string;
  let south: string;
  let admin: Awaited<ReturnType<TestServer['as']>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      jobs: 'work',
      env: {
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_RETRY_DELAY_SECONDS: '0.3',
        WEBHOOK_RETRY_DELAY_MAX_SECONDS: '0.6',
        WEBHOOK_RETRY_WINDOW_SECONDS: '4',
      },
    });
    north = server.seed.organizationIds.north!;
    south = server.seed.organizationIds.south!;
    admin = await server.as('north.admin');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const create = async (path: string, eventTypes = ['scrubber-off', 'emission-exceedance'], as = admin) => {
    const response = await as.post(`/api/organizations/${north}/webhooks`, {
      url: receiver.url(path),
      eventTypes,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; secret: string; secretHint: string };
  };
  const deliveries = async (webhookId: string) => {
    const response = await admin.get(`/api/organizations/${north}/webhooks/${webhookId}/deliveries`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as WebhookDelivery[];
  };
  const sendTest = async (webhookId: string) => {
    const response = await admin.post(`/api/organizations/${north}/webhooks/${webhookId}/test`);
    expect(response.statusCode, response.body).toBe(202);
    return response.json() as WebhookDelivery;
  };
  const finished = (list: WebhookDelivery[]) => list.length > 0 && list.every((d) => d.status !== 'pending');

  it('creates, lists, changes and removes a webhook; the secret is shown once; each change audited', async () => {
    const created = await create('/ok');
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.secretHint).toBe(created.secret.slice(-4));
    const list = await admin.get(`/api/organizations/${north}/webhooks`);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json()).toEqual([
      expect.objectContaining({ id: created.id, enabled: true, lastDelivery: null }),
    ]);

    const changed = await admin.put(`/api/organizations/${north}/webhooks/${created.id}`, {
      url: receiver.url('/ok?changed'),
      eventTypes: ['data-gap'],
      enabled: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      url: receiver.url('/ok?changed'),
      eventTypes: ['data-gap'],
      enabled: false,
    });

    const rotated = await admin.post(`/api/organizations/${north}/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).not.toBe(created.secret);

    expect((await admin.delete(`/api/organizations/${north}/webhooks/${created.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/organizations/${north}/webhooks`)).json()).toEqual([]);

    const audit = await server.services.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail', 'user_id'])
      .where('subject', '=', created.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'webhook.rotate-secret',
      'webhook.delete',
    ]);
    expect(audit.every((a) => a.user_id === server.seed.userIds['north.admin'])).toBe(true);
    const details = JSON.stringify(audit.map((a) => a.detail));
    expect(details).not.toContain(created.secret);
    expect(details).not.toContain(rotated.json().secret);
  });

  it('answers bad input with 400 and the named problem', async () => {
    const post = (body: unknown) => admin.post(`/api/organizations/${north}/webhooks`, body);
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/x', eventTypes: ['data-gap'] }, 'url: Must start with http:// or https://'],
      [
        { url: 'not a url', eventTypes: ['data-gap'] },
        'url: Must be a URL such as https://example.com/portal-events',
      ],
      [{ url: receiver.url('/ok'), eventTypes: [] }, 'eventTypes: Choose at least one event type'],
      [
        { url: 'https://no-such-host.invalid/x', eventTypes: ['data-gap'] },
        'url: The host no-such-host.invalid was not found',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    // Allowed networks do not include the cloud metadata address.
    const metadata = await post({
      url: 'http://169.254.169.254/latest/meta-data/',
      eventTypes: ['data-gap'],
    });
    expect(metadata.statusCode).toBe(400);
    expect(metadata.json().message).toMatch(/169\.254\.169\.254 is the cloud metadata address/);
  });

  it('is for the organization administrators: a User gets 403, another organization 404 as for none', async () => {
    const created = await create('/ok');
    const anna = await server.as('north.anna');
    expect((await anna.get(`/api/organizations/${north}/webhooks`)).statusCode).toBe(403);
    expect((await anna.post(`/api/organizations/${north}/webhooks/${created.id}/test`)).statusCode).toBe(403);
    const southAdmin = await server.as('south.admin');
    const foreign = await southAdmin.get(`/api/organizations/${north}/webhooks`);
    const unknown = await southAdmin.get(`/api/organizations/00000000-0000-4000-8000-000000000000/webhooks`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(unknown.json().message);
    // South's own path with North's webhook id: the webhook is not found.
    for (const [method, suffix] of [
      ['get', '/deliveries'],
      ['post', '/test'],
      ['post', '/rotate-secret'],
      ['delete', ''],
    ] as const) {
      const response = await southAdmin[method](
        `/api/organizations/${south}/webhooks/${created.id}${suffix}`,
      );
      expect(response.statusCode, `${method} ${suffix}`).toBe(404);
      expect(response.json().message).toBe('Webhook not found');
    }
    const systemAdmin = await server.as('admin');
    expect((await systemAdmin.get(`/api/organizations/${north}/webhooks`)).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.id })]),
    );
    await admin.delete(`/api/organizations/${north}/webhooks/${created.id}`);
  });

  it('queues one signed delivery per webhook that wants the event, and none more when called again', async () => {
    const northShip = server.seed.facilityIds[northShipKey]!;
    const wanted = await create('/ok?wanted');
    const otherType = await create('/ok?other-type', ['data-gap']);
    const disabled = await create('/ok?disabled');
    await admin.put(`/api/organizations/${north}/webhooks/${disabled.id}`, {
      url: receiver.url('/ok?disabled'),
      eventTypes: ['scrubber-off', 'emission-exceedance'],
      enabled: false,
    });
    // An emission exceedance: its worst SO2/CO2 ratio and limit carry the ratio's unit.
    const event = await insertEvent(server, northShip, 'emission-exceedance');
    const alert = {
      alertId: `alert-${event.id}`,
      kind: 'opened' as const,
      eventId: event.id,
      facilityId: northShip,
    };
    const { db } = server.services.database;
    const first = await db
      .transaction()
      .execute((trx) => queueWebhookDeliveries(trx, alert, server.services));
    const again = await db
      .transaction()
      .execute((trx) => queueWebhookDeliveries(trx, alert, server.services));
    expect([first, again]).toEqual([1, 0]);

    const [delivery] = await until('the delivery', () => deliveries(wanted.id), finished);
    expect(delivery).toMatchObject({ status: 'delivered', kind: 'opened', eventId: event.id, attempts: 1 });
    expect(delivery!.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'delivered', responseStatus: 200, nextAttemptOn: null }),
    ]);
    expect(await deliveries(otherType.id)).toEqual([]);
    expect(await deliveries(disabled.id)).toEqual([]);

    const got = receiver.received.filter((r) => r.path === '/ok?wanted');
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    const signed = {
      body,
      timestamp: headers['x-portal-timestamp'] as string,
      signature: headers['x-portal-signature'] as string,
    };
    expect(verifyWebhookSignature({ secret: wanted.secret, ...signed })).toBe(true);
    expect(verifyWebhookSignature({ secret: otherType.secret, ...signed })).toBe(false);
    expect(headers['content-type']).toBe('application/json');
    const payload = webhookPayloadSchema.parse(JSON.parse(body));
    expect(headers['x-portal-delivery']).toBe(payload.id);
    expect(payload.id).toBe(delivery!.id);
    const ship = await db
      .selectFrom('facilities')
      .select(['name', 'imo'])
      .where('id', '=', northShip)
      .executeTakeFirstOrThrow();
    expect(payload).toMatchObject({
      kind: 'opened',
      event: {
        id: event.id,
        type: 'emission-exceedance',
        typeName: 'Emission exceedance',
        classification: 'malfunction',
        reportRequired: true,
        start: '2025-03-09T10:00:00.000Z',
        end: '2025-03-09T11:30:00.000Z',
        ongoing: false,
        durationMinutes: 90,
        worstValue: 6.2,
        limit: 4.3,
        unit: 'SO2 (ppm)/CO2 (% v/v)',
        link: `${PUBLIC_URL}/events/${event.id}`,
      },
      ship: { id: northShip, name: ship.name, imo: ship.imo },
      organization: { id: north },
      link: `${PUBLIC_URL}/events/${event.id}`,
    });
    for (const hook of [wanted, otherType, disabled])
      await admin.delete(`/api/organizations/${north}/webhooks/${hook.id}`);
  });

  it('delivers an event of a ship shared with an organization to that organization too', async () => {
    const southShip = server.seed.facilityIds[southShipKey]!;
    const { db } = server.services.database;
    await db
      .insertInto('organization_facility_access')
      .values({ organization_id: north, facility_id: southShip })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const northHook = await create('/ok?north-shared');
    const southAdmin = await server.as('south.admin');
    const southHook = await southAdmin.post(`/api/organizations/${south}/webhooks`, {
      url: receiver.url('/ok?south-own'),
      eventTypes: ['scrubber-off'],
    });
    expect(southHook.statusCode, southHook.body).toBe(201);
    const event = await insertEvent(server, southShip);
    const alert = {
      alertId: `alert-${event.id}`,
      kind: 'resolved' as const,
      eventId: event.id,
      facilityId: southShip,
    };
    expect(await db.transaction().execute((trx) => queueWebhookDeliveries(trx, alert, server.services))).toBe(
      2,
    );
    await until(
      'both deliveries',
      async () => receiver.received.filter((r) => /shared|south-own/.test(r.path)),
      (l) => l.length === 2,
    );
    const bodies = receiver.received
      .filter((r) => /shared|south-own/.test(r.path))
      .map((r) => webhookPayloadSchema.parse(JSON.parse(r.body)));
    expect(bodies.map((b) => b.organization.id).sort()).toEqual([north, south].sort());
    expect(bodies.every((b) => b.event?.id === event.id && b.kind === 'resolved')).toBe(true);
    await admin.delete(`/api/organizations/${north}/webhooks/${northHook.id}`);
    await southAdmin.delete(`/api/organizations/${south}/webhooks/${southHook.json().id}`);
    await db.deleteFrom('organization_facility_access').where('facility_id', '=', southShip).execute();
  });

  it('retries a receiver that answers 500 twice, then 200: three attempts logged, delivered', async () => {
    const hook = await create('/flaky');
    const test = await sendTest(hook.id);
    expect(test).toMatchObject({ kind: 'test', status: 'pending', attempts: 0 });
    const [delivery] = await until('the flaky delivery', () => deliveries(hook.id), finished);
    expect(delivery).toMatchObject({
      id: test.id,
      status: 'delivered',
      attempts: 3,
      lastResponseStatus: 200,
    });
    const log = delivery!.attemptLog;
    expect(log.map((a) => [a.attempt, a.outcome, a.responseStatus])).toEqual([
      [1, 'http-error', 500],
      [2, 'http-error', 500],
      [3, 'delivered', 200],
    ]);
    // Each failed attempt named its next try, and the next one started no earlier (backoff 0.3 s, then 0.6 s).
    for (const [i, a] of log.slice(0, 2).entries()) {
      expect(a.nextAttemptOn).not.toBeNull();
      const failedAt = new Date(a.startedOn).getTime() + a.durationMs;
      expect(new Date(a.nextAttemptOn!).getTime() - failedAt).toBeGreaterThanOrEqual(i === 0 ? 290 : 590);
      expect(new Date(log[i + 1]!.startedOn).getTime()).toBeGreaterThanOrEqual(
        new Date(a.nextAttemptOn!).getTime() - 50,
      );
    }
    const got = receiver.received.filter((r) => r.path === '/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['x-portal-delivery']))).toEqual(new Set([test.id]));
    expect(
      got.every((r) =>
        verifyWebhookSignature({
          secret: hook.secret,
          body: r.body,
          timestamp: r.headers['x-portal-timestamp'] as string,
          signature: r.headers['x-portal-signature'] as string,
        }),
      ),
    ).toBe(true);
    const list = (await admin.get(`/api/organizations/${north}/webhooks`)).json() as {
      id: string;
      lastDelivery: unknown;
    }[];
    expect(list.find((w) => w.id === hook.id)?.lastDelivery).toMatchObject({
      status: 'delivered',
      responseStatus: 200,
    });
    await admin.delete(`/api/organizations/${north}/webhooks/${hook.id}`);
  });

  it('marks a delivery failed once the retry window is spent, every attempt in the log', async () => {
    const hook = await create('/down');
    const test = await sendTest(hook.id);
    const [delivery] = await until('the failing delivery', () => deliveries(hook.id), finished, 40_000);
    expect(delivery).toMatchObject({
      id: test.id,
      status: 'failed',
      lastResponseStatus: 500,
      nextAttemptOn: null,
    });
    expect(delivery!.attempts).toBeGreaterThanOrEqual(3);
    expect(delivery!.attemptLog).toHaveLength(delivery!.attempts);
    expect(delivery!.attemptLog.every((a) => a.outcome === 'http-error' && a.responseStatus === 500)).toBe(
      true,
    );
    expect(delivery!.attemptLog.at(-1)!.nextAttemptOn).toBeNull();
    expect(delivery!.attemptLog.slice(0, -1).every((a) => a.nextAttemptOn !== null)).toBe(true);
    // Every retry was scheduled within the window (4 s after it was made), and none after it.
    const createdOn = new Date(delivery!.createdOn).getTime();
    for (const a of delivery!.attemptLog.slice(0, -1))
      expect(new Date(a.nextAttemptOn!).getTime() - createdOn).toBeLessThanOrEqual(4_000);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(delivery!.attempts);
    await jobQueueOf(server.services).drained([JOB_NAMES.webhookDelivery]);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(delivery!.attempts);
    await admin.delete(`/api/organizations/${north}/webhooks/${hook.id}`);
  });

  it('logs a slow receiver as a timeout while another delivery goes through meanwhile', async () => {
    const slow = await create('/slow');
    const fast = await create('/ok?fast');
    const slowTest = await sendTest(slow.id);
    await until(
      'the slow request',
      async () => receiver.received.filter((r) => r.path === '/slow').length,
      (n) => n >= 1,
    );
    await sendTest(fast.id);
    const [fastDelivery] = await until('the fast delivery', () => deliveries(fast.id), finished);
    expect(fastDelivery!.status).toBe('delivered');
    // It went through while the slow receiver still held its request (it answers 8 s after it came).
    expect(receiver.slowAnswered()).toBe(0);
    const [slowFirst] = await until(
      'the slow attempt',
      () => deliveries(slow.id),
      (l) => (l[0]?.attemptLog.length ?? 0) >= 1,
    );
    const attempt = slowFirst!.attemptLog[0]!;
    expect(slowFirst!.id).toBe(slowTest.id);
    expect(attempt).toMatchObject({
      outcome: 'timeout',
      responseStatus: null,
      error: 'No answer within 1 s',
    });
    // The attempt waited out the timeout (the timer under test), and gave up on the slow receiver's answer.
    expect(attempt.durationMs).toBeGreaterThanOrEqual(950);
    expect(slowFirst!.status).toBe('pending');
    await admin.delete(`/api/organizations/${north}/webhooks/${slow.id}`);
    await admin.delete(`/api/organizations/${north}/webhooks/${fast.id}`);
  });

  it('signs with the new secret after a rotation', async () => {
    const hook = await create('/ok?rotated');
    const rotated = (
      await admin.post(`/api/organizations/${north}/webhooks/${hook.id}/rotate-secret`)
    ).json() as {
      secret: string;
    };
    await sendTest(hook.id);
    await until('the delivery', () => deliveries(hook.id), finished);
    const got = receiver.received.find((r) => r.path === '/ok?rotated')!;
    const signed = {
      body: got.body,
      timestamp: got.headers['x-portal-timestamp'] as string,
      signature: got.headers['x-portal-signature'] as string,
    };
    expect(verifyWebhookSignature({ secret: rotated.secret, ...signed })).toBe(true);
    expect(verifyWebhookSignature({ secret: hook.secret, ...signed })).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({ kind: 'test', event: null, ship: null, link: PUBLIC_URL });
    await admin.delete(`/api/organizations/${north}/webhooks/${hook.id}`);
  });
});

describe('webhooks with the default configuration (no private networks)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let north: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ jobs: 'work' });
    north = server.seed.organizationIds.north!;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('refuses 127.0.0.1, localhost and 169.254.169.254 at save with a clear text', async () => {
    const admin = await server.as('north.admin');
    const cases: [string, string][] = [
      [
        receiver.url('/ok'),
        'url: 127.0.0.1 is a loopback address: webhooks go only to public addresses unless the operator allows this network',
      ],
      [
        `http://localhost:${receiver.port}/ok`,
        'url: localhost resolves to 127.0.0.1, a loopback address: webhooks go only to public addresses unless the operator allows this network',
      ],
      [
        'http://169.254.169.254/latest/meta-data/',
        'url: 169.254.169.254 is the cloud metadata address: webhooks go only to public addresses unless the operator allows this network',
      ],
      [
        'http://[::1]:8080/x',
        'url: ::1 is a loopback address: webhooks go only to public addresses unless the operator allows this network',
      ],
      [
        'http://10.1.2.3/x',
        'url: 10.1.2.3 is a private network address: webhooks go only to public addresses unless the operator allows this network',
      ],
      ['http://0.0.0.0:8080/x', 'url: 0.0.0.0 is an unspecified address: a webhook cannot go there'],
    ];
    for (const [url, message] of cases) {
      const response = await admin.post(`/api/organizations/${north}/webhooks`, {
        url,
        eventTypes: ['data-gap'],
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    expect(await server.services.database.db.selectFrom('webhooks').select('id').execute()).toEqual([]);
    expect(receiver.connections()).toBe(0);
  });

  it('fails a delivery whose host resolves to a refused address at send, without a connection', async () => {
    // Saved when it was allowed (or when its name resolved elsewhere): at send time it is refused all the same.
    const { db } = server.services.database;
    const hooks = await db
      .insertInto('webhooks')
      .values([
        {
          organization_id: north,
          url: `http://localhost:${receiver.port}/ok`,
          event_types: ['data-gap'],
          secret: 'whsec_x',
        },
        {
          organization_id: north,
          url: 'http://169.254.169.254/latest/meta-data/',
          event_types: ['data-gap'],
          secret: 'whsec_y',
        },
      ])
      .returning('id')
      .execute();
    const admin = await server.as('north.admin');
    for (const hook of hooks) {
      const response = await admin.post(`/api/organizations/${north}/webhooks/${hook.id}/test`);
      expect(response.statusCode, response.body).toBe(202);
    }
    const logs = await Promise.all(
      hooks.map((hook) =>
        until(
          'the refused delivery',
          async () =>
            (
              await admin.get(`/api/organizations/${north}/webhooks/${hook.id}/deliveries`)
            ).json() as WebhookDelivery[],
          (l) => l[0]?.status === 'failed',
        ),
      ),
    );
    expect(logs.map((l) => l[0]!.attemptLog)).toEqual([
      [
        expect.objectContaining({
          attempt: 1,
          outcome: 'refused',
          responseStatus: null,
          nextAttemptOn: null,
          error:
            'localhost resolves to 127.0.0.1, a loopback address: webhooks go only to public addresses unless the operator allows this network',
        }),
      ],
      [
        expect.objectContaining({
          attempt: 1,
          outcome: 'refused',
          error: expect.stringMatching(/^169\.254\.169\.254 is the cloud metadata address/),
        }),
      ],
    ]);
    expect(receiver.connections()).toBe(0);
    expect(receiver.received).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeTable, type RouteEntry } from '../src/app';
import { forbidden, notFound } from '../src/errors';
import { isUuid } from '../src/features/access/policy';
import { VERIFIER_READ_ONLY_TEXT } from '../src/features/access/verifier';
import { signIn, startTestServer, type TestServer } from './harness';
import {
  buildWorld,
  changedTables,
  OBJECT_KINDS,
  snapshotTables,
  tableNames,
  VERIFICATION_YEAR,
  VERIFIER_PASSWORD,
  type IsolationWorld,
  type ObjectKind,
} from './isolation/fixtures';
import {
  fillPath,
  idFieldsOf,
  isGlobalKind,
  kindOfParam,
  paramsOf,
  resolverFor,
  sampleBody,
  sampleIsValid,
  sampleQuery,
  type Resolver,
} from './isolation/requests';

/**
 * Tenant isolation across the whole API (issue 9, docs/decisions/0004-permissions.md), generated from the app's own
 * route table: a route added tomorrow is walked by itself. For each /api route, as a North User, a North UserAdmin and a North API key,
 * South's objects are put into every path parameter (each kind into each parameter) and into the ids of bodies and
 * queries. The answer must be 400, 403 or 404, never 2xx; it must be the same answer (status, code and text) as for
 * an id that does not exist (so South's objects are not revealed); and no table may change.
 */

/**
 * A North User, a North UserAdmin, a North API key with every scope (it acts as North's organization), and North's
 * Verifier invited for 2025 (docs/decisions/0115-verifier.md).
 */
const ROLES = ['north.anna', 'north.admin', 'north.key', 'north.verifier'] as const;
type Role = (typeof ROLES)[number];
let verifierToken: Promise<string> | undefined;
/** The bearer of a role: a user's access token from the sign-in, or the key. */
const bearerOf = (role: Role | 'admin' | 'north.olav') =>
  role === 'north.key'
    ? Promise.resolve(world.northApiKey)
    : role === 'north.verifier'
      ? (verifierToken ??= signIn(server.app, world.northVerifier, VERIFIER_PASSWORD))
      : server.tokenFor(role);
const ALLOWED = new Set([400, 403, 404]);

/**
 * Cross-organization flows the spec wants to work (not executed here; organizations.test.ts covers them):
 * North and South are linked, so North's UserAdmin may unlink South, or share an own ship with it.
 */
const LEGITIMATE: {
  method: string;
  url: string;
  param: string;
  kind: ObjectKind;
  role: Role;
  why: string;
}[] = [
  {
    method: 'DELETE',
    url: '/api/organizations/:id/:otherId',
    param: 'otherId',
    kind: 'organization',
    role: 'north.admin',
    why: 'unlinking a linked organization',
  },
  {
    method: 'POST',
    url: '/api/organizations/:orgId/:facilityId/organization-facility-link',
    param: 'orgId',
    kind: 'organization',
    role: 'north.admin',
    why: 'sharing an own ship with a linked organization',
  },
];
/** A link key is the secret an organization hands out so others can link to it: naming it is the flow itself. */
const REVEALING_BY_DESIGN = (url: string, param: string, kind: ObjectKind) =>
  url.endsWith('/organization-link') && param === 'linkKey' && kind === 'linkKey';

let server: TestServer;
let world: IsolationWorld;
let tables: string[];
let routes: RouteEntry[];
let canaries: RouteEntry[];
const tally = {
  routes: 0,
  requests: 0,
  cases: 0,
  statuses: {} as Record<number, number>,
  invalidSamples: new Set<string>(),
};

beforeAll(async () => {
  server = await startTestServer();
  addCanaryRoutes(server);
  world = await buildWorld(server);
  tables = await tableNames(server.services.database.db);
  const all = routeTable(server.app).filter(
    (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && !r.constraints && !r.public,
  );
  routes = all.filter((r) => !r.url.startsWith('/api/isolation-canary/'));
  canaries = all.filter((r) => r.url.startsWith('/api/isolation-canary/'));
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/**
 * Routes that forget the policy, added before the app is ready: the matrix must report each of them, or it could
 * pass without looking. A ship read without facilityVisibleTo; a 403-or-404 that tells existing from unknown; a
 * 404 whose text tells them apart; a write that happens before the 404.
 */
function addCanaryRoutes(target: TestServer) {
  const { db } = target.services.database;
  const params = z.object({ id: z.string() });
  const app = target.app.withTypeProvider<ZodTypeProvider>();
  app.get('/api/isolation-canary/facility/:id', { schema: { params } }, async (request) => {
    const row = isUuid(request.params.id)
      ? await db
          .selectFrom('facilities')
          .select(['id', 'name'])
          .where('id', '=', request.params.id)
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound('Ship not found');
    return row;
  });
  app.get('/api/isolation-canary/reveals/:id', { schema: { params } }, async (request) => {
    const row = isUuid(request.params.id)
      ? await db.selectFrom('facilities').select('id').where('id', '=', request.params.id).executeTakeFirst()
      : undefined;
    throw row ? forbidden() : notFound('Ship not found');
  });
  // Same status and code, another text: "Organization not found" for a foreign object told it exists (issue 14).
  app.get('/api/isolation-canary/tells/:id', { schema: { params } }, async (request) => {
    const row = isUuid(request.params.id)
      ? await db.selectFrom('facilities').select('id').where('id', '=', request.params.id).executeTakeFirst()
      : undefined;
    throw notFound(row ? 'Organization not found' : 'Ship not found');
  });
  app.post('/api/isolation-canary/message/:id/read', { schema: { params } }, async (request) => {
    const { id } = request.params;
    if (
      isUuid(id) &&
      (await db.selectFrom('messages').select('id').where('id', '=', id).executeTakeFirst())
    ) {
      await db
        .insertInto('message_reads')
        .values({ message_id: id, user_id: request.caller!.userId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    throw notFound('Message not found');
  });
}

interface Answer {
  status: number;
  code?: string;
  /** The error's text: it must not differ between a foreign object and a missing one either. */
  message?: string;
  body: string;
}

async function send(
  role: Role | 'admin',
  route: RouteEntry,
  path: string,
  resolve: Resolver,
): Promise<Answer> {
  tally.requests++;
  // A fresh address per request: the matrix must reach the access checks, not the per-address rate limits.
  const remoteAddress = `10.${(tally.requests >> 16) & 255}.${(tally.requests >> 8) & 255}.${tally.requests & 255}`;
  const token = await bearerOf(role);
  const query = new URLSearchParams(sampleQuery(route, resolve)).toString();
  const body = sampleBody(route, resolve);
  if (!sampleIsValid(route, body, sampleQuery(route, resolve)))
    tally.invalidSamples.add(describeRoute(route));
  const response = await server.app.inject({
    method: route.method as 'GET',
    url: query ? `${path}?${query}` : path,
    headers: { authorization: `Bearer ${token}` },
    remoteAddress,
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  let code: string | undefined;
  let message: string | undefined;
  try {
    ({ code, message } = response.json() as { code?: string; message?: string });
  } catch {
    code = undefined;
  }
  return { status: response.statusCode, code, message, body: response.body };
}

/** Ids and values of South that North must never be shown (South's organization itself is linked to North, so its name and id are not secret). */
function southSecrets(): string[] {
  const { organization: _organization, ...rest } = world.south;
  return [
    ...Object.values(rest),
    String(world.southReportValue),
    world.southMessageText,
    world.southFindingText,
    'whsec_south_secret',
    'hooks.example.com/south',
    'south private quay',
  ];
}

const describeRoute = (route: RouteEntry) => `${route.method} ${route.url}`;

/** Runs the matrix over `list`: the failures, one line each (empty when isolation holds). */
async function runMatrix(list: RouteEntry[]): Promise<string[]> {
  const db = server.services.database.db;
  const failures: string[] = [];
  const secrets = southSecrets();
  for (const route of list) {
    const params = paramsOf(route.url);
    const idFields = [...idFieldsOf(route.schema?.body), ...idFieldsOf(route.schema?.querystring)];
    if (!params.length && !idFields.length) continue;
    tally.routes++;
    const before = await snapshotTables(db, tables);
    for (const role of ROLES) {
      const own = resolverFor(world, world.north);
      const natural = (param: string, resolve: Resolver) => {
        const kind = kindOfParam(route.url, param);
        return kind ? resolve(kind) : world.north.facility;
      };
      const ownPath: Record<string, string> = Object.fromEntries(params.map((p) => [p, natural(p, own)]));
      const check = (
        label: string,
        answer: Answer,
        unknown: Answer | undefined,
        options: { mayReveal?: boolean; mayAnswer2xx?: boolean } = {},
      ) => {
        tally.cases++;
        tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
        const where = `${role} ${describeRoute(route)} ${label}`;
        if (answer.status >= 200 && answer.status < 300) {
          if (!options.mayAnswer2xx) failures.push(`${where}: answered ${answer.status}`);
          else if (secrets.some((s) => answer.body.includes(s)))
            failures.push(`${where}: the answer contains South's data`);
          return;
        }
        if (!ALLOWED.has(answer.status) && !options.mayReveal)
          failures.push(`${where}: answered ${answer.status} ${answer.code ?? ''}`);
        if (
          unknown &&
          !options.mayReveal &&
          (unknown.status !== answer.status ||
            unknown.code !== answer.code ||
            unknown.message !== answer.message)
        ) {
          failures.push(
            `${where}: answered ${answer.status} ${answer.code} "${answer.message}" but ${unknown.status} ${unknown.code} "${unknown.message}" for an unknown id: the object's existence shows`,
          );
        }
        if (secrets.some((s) => answer.body.includes(s)))
          failures.push(`${where}: the error contains South's data`);
      };

      if (params.length) {
        // The whole path South's: a ship and its data source, a user and its organization, ...
        const southPath = Object.fromEntries(
          params.map((p) => [p, natural(p, resolverFor(world, world.south))]),
        );
        const unknownPath = Object.fromEntries(
          params.map((p) => [p, isGlobalKind(kindOfParam(route.url, p)) ? ownPath[p]! : randomUUID()]),
        );
        const allForeign = await send(role, route, fillPath(route.url, southPath), own);
        const allUnknown = await send(role, route, fillPath(route.url, unknownPath), own);
        const naturalKinds = params.map((p) => kindOfParam(route.url, p));
        const anyLegit = LEGITIMATE.some(
          (l) =>
            l.method === route.method &&
            l.url === route.url &&
            l.role === role &&
            naturalKinds[params.indexOf(l.param)] === l.kind,
        );
        const allGlobal = naturalKinds.every((k) => isGlobalKind(k));
        if (!anyLegit && !allGlobal)
          check('with every parameter South’s', allForeign, allUnknown, {
            mayReveal: params.some((p) => REVEALING_BY_DESIGN(route.url, p, 'linkKey')),
          });

        // One parameter at a time: each kind of South's objects, the other parameters the caller's own.
        for (const param of params) {
          const unknown = await send(
            role,
            route,
            fillPath(route.url, { ...ownPath, [param]: randomUUID() }),
            own,
          );
          for (const kind of OBJECT_KINDS) {
            if (
              LEGITIMATE.some(
                (l) =>
                  l.method === route.method &&
                  l.url === route.url &&
                  l.param === param &&
                  l.kind === kind &&
                  l.role === role,
              )
            )
              continue;
            const answer = await send(
              role,
              route,
              fillPath(route.url, { ...ownPath, [param]: world.south[kind] }),
              own,
            );
            check(`with ${param} = South's ${kind}`, answer, unknown, {
              mayReveal: REVEALING_BY_DESIGN(route.url, param, kind),
            });
          }
        }
      }

      if (idFields.length) {
        // The caller's own path, South's ids in the body and query: lists may answer, without South's objects.
        const foreign = resolverFor(world, world.north, { kind: undefined, set: world.south });
        const unknownSet = Object.fromEntries(
          OBJECT_KINDS.map((k) => [k, randomUUID()]),
        ) as typeof world.south;
        const answer = await send(role, route, fillPath(route.url, ownPath), foreign);
        const unknown = await send(
          role,
          route,
          fillPath(route.url, ownPath),
          resolverFor(world, world.north, { kind: undefined, set: unknownSet }),
        );
        check(`with South's ids in the body and query (${idFields.join(', ')})`, answer, unknown, {
          mayAnswer2xx: true,
        });
      }
    }
    const changed = changedTables(before, await snapshotTables(db, tables));
    if (changed.length) failures.push(`${describeRoute(route)}: changed ${changed.join(', ')}`);
  }
  return failures;
}

describe('isolation matrix', () => {
  it('walks every /api route of the route table', () => {
    // The matrix must see the routes of every domain; a filter gone wrong would make it pass vacuously.
    expect(routes.length).toBeGreaterThan(60);
    for (const prefix of [
      '/api/facilities',
      '/api/algorithm/facility/',
      '/api/algorithm/facilitydatasource/',
      '/api/organizations',
      '/api/users/',
      '/api/messages',
      '/api/reports/',
      '/api/scripts/psdu/',
      '/api/ports',
    ]) {
      expect(
        routes.some((r) => r.url.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it('answers 400, 403 or 404 to North for every route and every foreign object, the same as for an unknown id, and changes nothing', async () => {
    const failures = await runMatrix(routes);
    console.info(
      `isolation matrix: ${tally.routes} routes x ${ROLES.length} roles x ${OBJECT_KINDS.length} object kinds: ${tally.cases} cases, ${tally.requests} requests, answers ${JSON.stringify(tally.statuses)}`,
    );
    expect(failures).toEqual([]);
    // A body the route's own schema refuses would stop at validation, before any access check: the matrix would prove nothing there.
    expect([...tally.invalidSamples], 'routes whose sampled body or query fails their own schema').toEqual(
      [],
    );
    // A guard against a hang, not a measure: 16,000 cases of four roles took 585 s on a two-core machine at load 20.
  }, 900_000);

  it('finds a leak: canary routes that skip the policy are reported', async () => {
    const failures = await runMatrix(canaries);
    expect(
      failures.some(
        (f) => f.includes('GET /api/isolation-canary/facility/:id') && f.includes('answered 200'),
      ),
    ).toBe(true);
    expect(
      failures.some(
        (f) => f.includes('GET /api/isolation-canary/reveals/:id') && f.includes('existence shows'),
      ),
    ).toBe(true);
    expect(
      failures.some(
        (f) => f.includes('GET /api/isolation-canary/tells/:id') && f.includes('existence shows'),
      ),
    ).toBe(true);
    expect(
      failures.some(
        (f) =>
          f.includes('POST /api/isolation-canary/message/:id/read') && f.includes('changed message_reads'),
      ),
    ).toBe(true);
  });

  it("gives North's API key, on the routes that accept its scopes, what a North UserAdmin gets for South's objects (not a blanket 403)", async () => {
    const keyRoutes = routes.filter((r) => r.apiKeyScopes.length && paramsOf(r.url).length);
    expect(keyRoutes.map(describeRoute)).toEqual(
      expect.arrayContaining(['GET /api/events/:id', 'POST /api/algorithm/facilitydatasource/:id/file']),
    );
    const south = resolverFor(world, world.south, { kind: undefined, set: world.south });
    const failures: string[] = [];
    for (const route of keyRoutes) {
      const path = fillPath(
        route.url,
        Object.fromEntries(
          paramsOf(route.url).map((p) => [p, south(kindOfParam(route.url, p) ?? 'facility')]),
        ),
      );
      const asKey = await send('north.key', route, path, south);
      const asAdmin = await send('north.admin', route, path, south);
      if (asKey.status !== 404 || asKey.status !== asAdmin.status || asKey.message !== asAdmin.message)
        failures.push(
          `${describeRoute(route)}: key ${asKey.status} "${asKey.message}", UserAdmin ${asAdmin.status} "${asAdmin.message}"`,
        );
    }
    expect(failures).toEqual([]);
    // Every other route refuses the key for its scopes, whatever it names.
    const closed = routes.find((r) => r.method === 'GET' && r.url === '/api/organizations/:id/users')!;
    const refused = await send(
      'north.key',
      closed,
      fillPath(closed.url, { id: world.north.organization }),
      south,
    );
    expect([refused.status, refused.message]).toEqual([403, 'An API key may not do this: sign in as a user']);
  });

  it('lists nothing of South to North, whatever organizationId, userId or role the query names', async () => {
    const lists = routes.filter((r) => r.method === 'GET' && !paramsOf(r.url).length);
    expect(lists.length).toBeGreaterThan(5);
    const secrets = southSecrets();
    for (const role of ROLES) {
      const token = await bearerOf(role);
      for (const route of lists) {
        const query = new URLSearchParams({
          ...sampleQuery(route, resolverFor(world, world.north)),
          organizationId: world.south.organization,
          role: 'SystemAdmin',
          roles: 'SystemAdmin',
          isActive: 'true',
        });
        const response = await server.app.inject({
          url: `${route.url}?${query}`,
          headers: { authorization: `Bearer ${token}` },
        });
        for (const secret of secrets)
          expect(response.body.includes(secret), `${role} GET ${route.url} shows ${secret}`).toBe(false);
      }
    }
  });

  it('shows North the ship South shared with it, not South’s other ships', async () => {
    const north = await server.as('north.admin');
    const ids = (await north.get('/api/facilities')).json().map((f: { id: string }) => f.id);
    expect(ids).toContain(world.sharedSouthFacility);
    expect(ids).toContain(world.north.facility);
    expect(ids).not.toContain(world.south.facility);
    expect((await north.get(`/api/facilities/${world.sharedSouthFacility}/facility`)).statusCode).toBe(200);
    // Seeing a shared ship is not configuring it.
    expect(
      (await north.put(`/api/facilities/${world.sharedSouthFacility}/facility`, { name: 'Taken over' }))
        .statusCode,
    ).toBeGreaterThanOrEqual(400);
  });

  it('answers report data without the foreign ships posted in facilityIds', async () => {
    const reports = await server.services.database.db
      .selectFrom('reports')
      .select(['id', 'target'])
      .execute();
    const fleetReports = reports.filter((r) => r.target === 'FacilityGroup');
    expect(fleetReports.length).toBeGreaterThan(0);
    for (const role of [...ROLES, 'north.olav'] as const) {
      const token = await bearerOf(role);
      for (const report of fleetReports) {
        if (role === 'north.verifier') {
          // A verifier reads the ledger, not the dashboards' reports.
          const refused = await server.app.inject({
            method: 'POST',
            url: `/api/reports/${encodeURIComponent(report.id)}/data`,
            headers: { authorization: `Bearer ${token}` },
            payload: { from: '2025-03-01T00:00:00.000Z', to: '2025-03-10T00:00:00.000Z', facilityIds: [] },
          });
          expect(refused.statusCode).toBe(403);
          continue;
        }
        const response = await server.app.inject({
          method: 'POST',
          url: `/api/reports/${encodeURIComponent(report.id)}/data`,
          headers: { authorization: `Bearer ${token}` },
          payload: {
            from: '2025-03-01T00:00:00.000Z',
            to: '2025-03-10T00:00:00.000Z',
            facilityIds: [world.south.facility, world.north.facility],
          },
        });
        expect(response.statusCode, `${role} ${report.id}`).toBe(200);
        expect(response.body).not.toContain(world.south.facility);
        expect(response.body).not.toContain(String(world.southReportValue));
      }
    }
    // The control: a SystemAdmin asking the same sees South's value, so the check above can fail.
    const admin = await server.as('admin');
    const control = await admin.post(`/api/reports/${encodeURIComponent(fleetReports[0]!.id)}/data`, {
      from: '2025-03-01T00:00:00.000Z',
      to: '2025-03-10T00:00:00.000Z',
      facilityIds: [world.south.facility],
    });
    expect(control.statusCode).toBe(200);
    expect(control.body).toContain(String(world.southReportValue));
  });

  it('gives the SystemAdmin (the control) South’s objects on the same paths and bodies, so the 404s above mean isolation', async () => {
    const failures: string[] = [];
    const south = resolverFor(world, world.south, { kind: undefined, set: world.south });
    for (const route of routes.filter((r) => r.method === 'GET' && paramsOf(r.url).length)) {
      const path = fillPath(
        route.url,
        Object.fromEntries(
          paramsOf(route.url).map((p) => [p, south(kindOfParam(route.url, p) ?? 'facility')]),
        ),
      );
      const answer = await send('admin', route, path, south);
      if (answer.status === 404 || answer.status === 403)
        failures.push(`${describeRoute(route)}: ${answer.status} ${answer.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("a verifier's seat", () => {
  /** North's own objects in every path parameter, its own ids in bodies and queries, a period of the invited year. */
  const ownRequest = (route: RouteEntry) => {
    const own = resolverFor(world, world.north);
    const path = fillPath(
      route.url,
      Object.fromEntries(paramsOf(route.url).map((p) => [p, own(kindOfParam(route.url, p) ?? 'facility')])),
    );
    return { path, resolve: own };
  };

  it('writes nothing but its own verification records: every other write answers 403 with the error schema, and nothing changes', async () => {
    const db = server.services.database.db;
    const writes = routes.filter((r) => r.method !== 'GET' && r.verifier !== 'own');
    expect(writes.length).toBeGreaterThan(60);
    const before = await snapshotTables(db, tables);
    const failures: string[] = [];
    for (const route of writes) {
      const { path, resolve } = ownRequest(route);
      const answer = await send('north.verifier', route, path, resolve);
      if (
        answer.status !== 403 ||
        answer.code !== 'FORBIDDEN' ||
        answer.message !== 'A verifier may only read the ledger and record the verification'
      )
        failures.push(`${describeRoute(route)}: ${answer.status} ${answer.code} ${answer.message}`);
    }
    expect(failures).toEqual([]);
    expect(changedTables(before, await snapshotTables(db, tables))).toEqual([]);
    // What it may write: its verification records, its sign-out (and its profile's read).
    expect(routes.filter((r) => r.verifier === 'own').map(describeRoute)).toEqual(
      expect.arrayContaining([
        'POST /api/organizations/:id/verification/:year/findings',
        'POST /api/organizations/:id/verification/:year/opinions',
        'GET /api/organizations/:id/verification/:year',
      ]),
    );
  });

  it("reads only the ledger's routes, and North's of its year there; everything else answers 403", async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const { path, resolve } = ownRequest(route);
      const answer = await send('north.verifier', route, path, resolve);
      const opened = route.verifier !== undefined;
      // An opened route is past the verifier rule (it may still refuse for its own reasons: a period outside the
      // year, a list that is the SystemAdmin's); every other answers the rule's 403.
      const ruled = answer.status === 403 && answer.message === VERIFIER_READ_ONLY_TEXT;
      if (opened && ruled) failures.push(`${describeRoute(route)}: refused by the verifier rule`);
      if (!opened && !ruled)
        failures.push(`${describeRoute(route)}: answered ${answer.status} ${answer.message}`);
    }
    expect(failures).toEqual([]);
    const verifier = await bearerOf('north.verifier');
    const ledger = await server.app.inject({
      url: `/api/facilities/${world.north.facility}/reconciliation?from=${VERIFICATION_YEAR}-01-01&to=${VERIFICATION_YEAR}-12-31`,
      headers: { authorization: `Bearer ${verifier}` },
    });
    expect(ledger.statusCode).toBe(200);
    const dcs = await server.app.inject({
      url: `/api/facilities/${world.north.facility}/dcs-report?year=${VERIFICATION_YEAR}`,
      headers: { authorization: `Bearer ${verifier}` },
    });
    expect(dcs.statusCode).toBe(200);
    const ships = await server.app.inject({
      url: '/api/facilities',
      headers: { authorization: `Bearer ${verifier}` },
    });
    const ids = (ships.json() as { id: string }[]).map((f) => f.id);
    // Its organization's own ships: not South's, not even the one South shares with North.
    expect(ids).toContain(world.north.facility);
    expect(ids).not.toContain(world.south.facility);
    expect(ids).not.toContain(world.sharedSouthFacility);
    const shared = await server.app.inject({
      url: `/api/facilities/${world.sharedSouthFacility}/dcs-report?year=${VERIFICATION_YEAR}`,
      headers: { authorization: `Bearer ${verifier}` },
    });
    expect(shared.statusCode).toBe(404);
    const view = await server.app.inject({
      url: `/api/organizations/${world.north.organization}/verification/${VERIFICATION_YEAR}`,
      headers: { authorization: `Bearer ${verifier}` },
    });
    expect(view.statusCode).toBe(200);
    expect(view.body).not.toContain(world.southFindingText);
    expect(view.json().opinions).toEqual([]);
  });
});

describe('access that changes under a valid token', () => {
  it('refuses a ship on the next call once the user’s access to it is taken away, with the same token', async () => {
    const anna = await server.as('north.anna');
    const admin = await server.as('north.admin');
    const annaId = server.seed.userIds['north.anna']!;
    expect((await anna.get(`/api/facilities/${world.north.facility}/facility`)).statusCode).toBe(200);
    expect(
      (
        await admin.delete(
          `/api/organizations/facilities/${annaId}/${world.north.facility}/user-facility-link`,
        )
      ).statusCode,
    ).toBe(204);
    expect((await anna.get(`/api/facilities/${world.north.facility}/facility`)).statusCode).toBe(404);
    expect(
      (await anna.get(`/api/algorithm/facilitydatasource/${world.north.dataSource}/file`)).statusCode,
    ).toBe(404);
    expect((await anna.get('/api/facilities')).json().map((f: { id: string }) => f.id)).not.toContain(
      world.north.facility,
    );
    expect(
      (await admin.post(`/api/organizations/facilities/${annaId}/${world.north.facility}/user-facility-link`))
        .statusCode,
    ).toBe(204);
    expect((await anna.get(`/api/facilities/${world.north.facility}/facility`)).statusCode).toBe(200);
  });

  it('refuses a shared ship at once when the owner takes the share back', async () => {
    const north = await server.as('north.admin');
    const southAdmin = await server.as('south.admin');
    expect((await north.get(`/api/facilities/${world.sharedSouthFacility}/facility`)).statusCode).toBe(200);
    expect(
      (
        await southAdmin.delete(
          `/api/organizations/${world.north.organization}/${world.sharedSouthFacility}/organization-facility-link`,
        )
      ).statusCode,
    ).toBe(204);
    expect((await north.get(`/api/facilities/${world.sharedSouthFacility}/facility`)).statusCode).toBe(404);
    expect(
      (
        await southAdmin.post(
          `/api/organizations/${world.north.organization}/${world.sharedSouthFacility}/organization-facility-link`,
        )
      ).statusCode,
    ).toBe(204);
  });
});

describe('organizationId and role in a request never widen access', () => {
  it('creates a UserAdmin’s user in the organization of the path, never the one or the role the body names', async () => {
    const admin = await server.as('north.admin');
    const db = server.services.database.db;
    const created = await admin.post(`/api/organizations/${world.north.organization}/users`, {
      username: 'north.widening',
      password: 'Widening1234',
      roles: ['User'],
      organizationId: world.south.organization,
      role: 'SystemAdmin',
    });
    expect(created.statusCode).toBe(201);
    const row = await db
      .selectFrom('users')
      .select(['organization_id', 'role'])
      .where('username', '=', 'north.widening')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ organization_id: world.north.organization, role: 'User' });
    // South's organization in the path is refused whatever the body says.
    const south = await admin.post(`/api/organizations/${world.south.organization}/users`, {
      username: 'north.intruder',
      password: 'Intruder1234',
      roles: ['User'],
      organizationId: world.north.organization,
    });
    expect(south.statusCode).toBe(404);
    expect(
      await db.selectFrom('users').select('id').where('username', '=', 'north.intruder').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('does not let a UserAdmin raise a user (or themselves) to SystemAdmin', async () => {
    const admin = await server.as('north.admin');
    const db = server.services.database.db;
    const before = await snapshotTables(db, ['users']);
    for (const id of [server.seed.userIds['north.olav']!, server.seed.userIds['north.admin']!]) {
      const user = await db
        .selectFrom('users')
        .select('username')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const response = await admin.put(`/api/users/${id}`, {
        username: user.username,
        roles: ['SystemAdmin'],
      });
      expect(response.statusCode).toBe(403);
    }
    const created = await admin.post(`/api/organizations/${world.north.organization}/users`, {
      username: 'north.raised',
      password: 'Raised12345',
      roles: ['SystemAdmin'],
    });
    expect(created.statusCode).toBe(403);
    expect(await snapshotTables(db, ['users'])).toEqual(before);
  });

  it('takes the caller from the token and the database: a query or body naming another organization or role changes nothing', async () => {
    const anna = await server.as('north.anna');
    const query = new URLSearchParams({
      organizationId: world.south.organization,
      role: 'SystemAdmin',
      asAdmin: 'true',
    });
    const ships = (await anna.get(`/api/facilities?${query}`)).json() as { id: string }[];
    expect(ships.map((s) => s.id)).not.toContain(world.south.facility);
    const me = (await anna.get(`/api/auth/me?${query}`)).json();
    expect(me).toMatchObject({ organizationId: world.north.organization, roles: ['User'] });
    const messages = await anna.get(
      `/api/messages?${new URLSearchParams({ isActive: 'false', role: 'SystemAdmin' })}`,
    );
    expect(messages.statusCode).toBe(403);
  });
});

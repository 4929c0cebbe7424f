import type { SwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_KEY_PREFIX, type ApiKeyScope } from '@portal/contracts/api-keys';
import { PACKAGE_VERSION } from '@portal/contracts/version';

/**
 * The API's OpenAPI 3.0 description (/api/docs/json), made from the routes' zod schemas, in a form a client
 * generator and a standard linter accept (`@redocly/cli lint`, run by .ci/run; openapi-typescript in
 * test/openapi.test.ts): every operation has an operationId and a summary, its 4xx answers with the error schema,
 * and `nullable` always stands beside a `type`.
 */

/** The OpenAPI document's introduction: how to authenticate, with a user's token or an organization's API key. */
const API_DESCRIPTION = [
  'Every operation needs a caller, but for the few marked otherwise.',
  '',
  "**Users** send the access token of the portal's sign-in: `Authorization: Bearer <access token>`.",
  '',
  `**Integrations** (a BI tool reading KPIs, the onboard uploader sending files) send an organization's API key, made by its administrator under Administration (\`POST /api/organizations/{id}/api-keys\`): \`Authorization: Bearer ${API_KEY_PREFIX}...\` or \`X-API-Key: ${API_KEY_PREFIX}...\`. The key is shown once, when it is made. It acts as its organization (it sees the ships the organization sees) and only within its scopes:`,
  '',
  '- `reports:read`: report data (`/api/reports/...`), compliance events (`/api/events...`) and record books, the ship list, the carbon ledger (port calls, voyages, fuel, bunker notes, the reconciliation, IMO DCS and CII, FuelEU Maritime), EU MRV / EU ETS figures and allowance prices;',
  '- `files:upload`: uploading files (`POST /api/algorithm/facilitydatasource/{id}/file`, which also queues their execution), the data sources of a ship, following an execution (`GET /api/executions/{id}`).',
  '',
  'An operation outside its scopes answers 403; a revoked or expired key, 401. Each operation that accepts keys names its scopes.',
  '',
  'Example: `curl -H "X-API-Key: spk_..." "https://portal.example/api/reports/data?reportIds=FacilityCO2reduction&facilityId=...&from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z"`',
].join('\n');

/**
 * The operationId of a route: its method and path in camel case, a parameter as `By<Name>`
 * (GET /api/events/{id}/report -> getEventsByIdReport). Method and path are unique, so the id is too.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^[:{](\w+)\}?$/.exec(segment);
      const text = param ? `by-${param[1]}` : segment;
      return text.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
    });
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
  return method.toLowerCase() + words.map(capital).join('');
}

/** A summary when the route has none: the first sentence of its description, or its method and path. */
export function summaryOf(method: string, url: string, description: string | undefined): string {
  const first = description
    ?.split(/(?<=\.)\s|\n/)[0]
    ?.trim()
    .replace(/\.$/, '');
  if (first) return first.length > 120 ? `${first.slice(0, 117)}...` : first;
  return `${method.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`;
}

const ERROR_RESPONSE = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

/**
 * `nullable` beside `anyOf` without a `type` (what zod's `.nullable()` of a union becomes) is invalid in OpenAPI 3.0:
 * each branch carries `nullable` instead, and a union of one branch is that branch.
 */
export function moveNullableIntoBranches(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(moveNullableIntoBranches);
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(
    Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, moveNullableIntoBranches(v)]),
  );
  if (object.nullable === true && object.type === undefined && Array.isArray(object.anyOf)) {
    const { nullable: _nullable, anyOf, ...rest } = object;
    const branches = (anyOf as Record<string, unknown>[]).map((branch) =>
      branch.$ref ? { allOf: [branch], nullable: true } : { ...branch, nullable: true },
    );
    return branches.length === 1 ? { ...rest, ...branches[0] } : { ...rest, anyOf: branches };
  }
  return object;
}

const API_KEY_SECURITY: { [label: string]: readonly string[] }[] = [{ bearer: [] }, { apiKey: [] }];

type Transform = NonNullable<Parameters<typeof jsonSchemaTransform>[0]>;

/** One route's entry: the zod transform, its operationId, summary, 4xx answers, and its API key scopes. */
const transform = (document: Transform) => {
  const transformed = jsonSchemaTransform(document);
  const { route, url } = document;
  const config = route.config as { public?: boolean; apiKeyScopes?: readonly ApiKeyScope[] } | undefined;
  const schema = moveNullableIntoBranches(transformed.schema) as Record<string, unknown> & {
    description?: string;
    summary?: string;
    params?: unknown;
    response?: Record<string, unknown>;
  };
  const method = [route.method].flat()[0] ?? 'GET';
  const response: Record<string, unknown> = { ...schema.response };
  const hasInput = Boolean(schema.params || schema.body || schema.querystring);
  if (hasInput) response['400'] ??= ERROR_RESPONSE('The request is not valid (the fields say why)');
  if (!config?.public) {
    response['401'] ??= ERROR_RESPONSE('No valid access token or API key');
    response['403'] ??= ERROR_RESPONSE('The caller may not do this');
  }
  if (schema.params) response['404'] ??= ERROR_RESPONSE('Not found, or not visible to the caller');
  if (Object.keys(response).every((status) => !/^2/.test(status))) response['200'] = { description: 'Done' };
  const scopes = config?.apiKeyScopes;
  const note = scopes?.length
    ? `API keys: accepted with the scope ${scopes.map((s) => `\`${s}\``).join(' or ')}.`
    : undefined;
  return {
    ...transformed,
    schema: {
      ...schema,
      operationId: operationIdOf(method, url),
      summary: schema.summary ?? summaryOf(method, url, schema.description),
      ...(note ? { description: schema.description ? `${schema.description}\n\n${note}` : note } : {}),
      ...(scopes?.length ? { security: API_KEY_SECURITY } : {}),
      // A public operation needs no caller.
      ...(config?.public ? { security: [] } : {}),
      response,
    },
  };
};

/** The swagger plugin's options: document, transforms, and the error schema every 4xx answer refers to. */
export function openApiOptions(publicUrl: string, errorSchema: unknown): SwaggerOptions {
  return {
    openapi: {
      info: {
        title: 'Scrubber fleet monitoring portal API',
        version: PACKAGE_VERSION,
        description: API_DESCRIPTION,
      },
      servers: [{ url: publicUrl, description: 'This deployment' }],
      components: {
        schemas: { ApiError: errorSchema as Record<string, unknown> },
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: `An access token of the portal's sign-in (OpenID Connect, a JWT), or an API key (\`${API_KEY_PREFIX}...\`) on the operations that accept one of its scopes.`,
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: `An API key (\`${API_KEY_PREFIX}...\`) of an organization, created by its administrator under Administration; accepted by the operations that name one of its scopes.`,
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform,
    // Schemas registered with an id (the reader configurations) are listed as components.
    transformObject: (document) => moveNullableIntoBranches(jsonSchemaTransformObject(document)) as never,
  };
}

import { z } from 'zod';
import type { RouteEntry } from '../../src/app';
import { CSV_CONFIGURATION } from '../upload-helpers';
import type { GlobalKind, IsolationWorld, ObjectKind, ObjectSet } from './fixtures';

/** What a path parameter names, from the route's own words; `undefined` when nobody taught the matrix (then every kind is tried). */
export function kindOfParam(url: string, param: string): ObjectKind | GlobalKind | undefined {
  const before = url.slice(0, url.indexOf(`:${param}`));
  const segment = before.split('/').filter(Boolean).at(-1) ?? '';
  if (param === 'facilityId') return 'facility';
  if (param === 'dataSourceId') return 'dataSource';
  if (param === 'fileId') return before.includes('/documents') ? 'document' : 'file';
  if (param === 'channelId') return 'channel';
  if (param === 'credentialId') return 'credential';
  if (param === 'webhookId') return 'webhook';
  if (param === 'keyId') return 'apiKey';
  if (param === 'packId') return 'inspectionPack';
  if (param === 'portId') return 'organizationPort';
  if (param === 'poolId') return 'fueleuPool';
  if (param === 'locode') return 'port';
  if (param === 'year') return 'verificationYear';
  if (param === 'userId') return 'user';
  if (param === 'orgId' || param === 'otherId') return 'organization';
  if (param === 'linkKey') return 'linkKey';
  if (param === 'reportId') return 'report';
  if (param === 'revision') return 'reportRevision';
  if (param === 'calcId')
    return before.includes('/reports/') ? 'reportCalculation' : 'measurementCalculation';
  if (param === 'fieldId') return before.includes('/reports/') ? 'reportField' : 'measurementField';
  if (param !== 'id') return undefined;
  if (segment === 'facility' || segment === 'facilities') return 'facility';
  if (segment === 'facilitydatasource') return 'dataSource';
  if (segment === 'reports') return 'report';
  if (segment === 'measurement-fields') return 'measurementField';
  if (segment === 'datasourcereader') return 'reader';
  if (segment === 'users') return 'user';
  if (segment === 'organizations') return 'organization';
  if (segment === 'messages') return 'message';
  if (segment === 'executions') return 'execution';
  if (segment === 'events') return 'event';
  if (segment === 'voyages') return 'voyage';
  if (segment === 'bunker-notes') return 'bunkerNote';
  if (segment === 'tank-soundings') return 'tankSounding';
  if (segment === 'eua-prices') return 'euaPrice';
  return undefined;
}

export const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);

export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? '00000000-0000-4000-8000-000000000000'),
  );
}

/** Ids a body or query field names, by its name. */
function kindOfField(name: string): ObjectKind | GlobalKind | undefined {
  if (/^facilityIds?$/.test(name)) return 'facility';
  if (name === 'facilityDataSourceFileIds') return 'file';
  if (name === 'fileRef') return 'documentRef';
  if (name === 'organizationId') return 'organization';
  if (name === 'userId' || name === 'recipientIds') return 'user';
  if (name === 'measurementFieldId') return 'measurementField';
  if (name === 'reportFieldId') return 'reportField';
  if (name === 'dataSourceId') return 'dataSource';
  if (name === 'reportCode' || name === 'reportId') return 'report';
  if (name === 'dataSourceReaderId') return 'reader';
  return undefined;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  default?: unknown;
};

/** Names an object of `kind`: the foreign one when the field is attacked, the caller's own otherwise. */
export type Resolver = (kind: ObjectKind | GlobalKind) => string;

/** A plausible value for a JSON schema: what a well-behaved client would send (ids come from the resolver). */
function sample(schema: JsonSchema, name: string, resolve: Resolver, depth = 0, optionals = true): unknown {
  const kind = kindOfField(name);
  if (/password/i.test(name)) return 'Isolation1234';
  if (name === 'url') return 'https://hooks.example.com/probe';
  // A channel's ISO 19848 local id (packages/contracts/src/local-id.ts checks its shape).
  if (name === 'localId') return '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature';
  if (/Configuration$/.test(name)) return CSV_CONFIGURATION;
  if (schema.format === 'date') return '2025-03-08';
  // A day that may be null (an organization port's activeFrom): a day, not the instant its name suggests.
  if (schema.anyOf?.some((v) => v.format === 'date'))
    return /(to|To)$/.test(name) ? '2025-03-10' : '2025-03-08';
  // An expiry must lie ahead (an API key's).
  if (/^expires/i.test(name)) return '2999-01-01';
  if (/(Date|From|To|On)$/.test(name) || /^(from|to)$/.test(name))
    return /(to|To)$/.test(name) ? '2025-03-10T00:00:00.000Z' : '2025-03-08T00:00:00.000Z';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length)
    return schema.enum.includes('SystemAdmin') ? schema.enum.find((e) => e === 'User') : schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && !kind && variants.some((v) => v.type === 'null')) return null;
  if (variants) return sample(variants.find((v) => v.type !== 'null') ?? variants[0]!, name, resolve, depth);
  if (schema.allOf?.length) return sample(Object.assign({}, ...schema.allOf), name, resolve, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const required = schema.required?.includes(key);
        if (!required && !kindOfField(key) && (depth > 0 || !optionals)) continue;
        out[key] = sample(property, key, resolve, depth + 1);
      }
      return out;
    }
    case 'array': {
      const item = sample(schema.items ?? { type: 'string' }, name.replace(/s$/, ''), resolve, depth + 1);
      return kind ? [resolve(kind)] : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'string': {
      if (kind) return resolve(kind);
      if (schema.format === 'date-time')
        return /to$/i.test(name) ? '2025-03-10T00:00:00.000Z' : '2025-03-08T00:00:00.000Z';
      if (schema.format === 'date') return '2025-03-08';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'email' || name === 'email') return 'someone@example.com';
      if (/^(username|name)$/i.test(name)) return 'IsolationProbe';
      if (/algorithm|formula/i.test(name)) return 'input1';
      // An IMO number (a ship's or a company's) has 7 digits.
      if (/ImoNumber$/.test(name)) return '1234567';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    default:
      return schema.default ?? null;
  }
}

function toJson(schema: unknown): JsonSchema | undefined {
  if (!schema || !(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Field names of a body or query schema that name objects (ids): the ones a foreign id goes into. */
export function idFieldsOf(schema: unknown): string[] {
  const json = toJson(schema);
  return Object.keys(json?.properties ?? {}).filter((k) => kindOfField(k));
}

/** Does the sample pass the route's own body and query schemas (else the case stops at validation, before any access check)? */
export function sampleIsValid(route: RouteEntry, body: unknown, query: Record<string, string>): boolean {
  const ok = (schema: unknown, value: unknown) =>
    !(schema instanceof z.ZodType) || schema.safeParse(value).success;
  return ok(route.schema?.body, body) && ok(route.schema?.querystring, query);
}

export function sampleBody(route: RouteEntry, resolve: Resolver): unknown {
  const json = toJson(route.schema?.body);
  return json ? sample(json, '', resolve) : undefined;
}

export function sampleQuery(route: RouteEntry, resolve: Resolver): Record<string, string> {
  const json = toJson(route.schema?.querystring);
  if (!json) return {};
  const value = sample(json, '', resolve, 0, false) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value))
    if (v !== null && v !== undefined) out[k] = Array.isArray(v) ? v.join(',') : String(v);
  return out;
}

/** Looks up an object: of the set given for the attacked kinds, the caller's own (or a global one) for the rest. */
export function resolverFor(
  world: IsolationWorld,
  own: ObjectSet,
  attacked?: { kind: ObjectKind | GlobalKind | undefined; set: ObjectSet },
): Resolver {
  return (kind) => {
    if (attacked && (attacked.kind === undefined || attacked.kind === kind) && kind in attacked.set)
      return attacked.set[kind as ObjectKind];
    if (kind in own) return own[kind as ObjectKind];
    return world.global[kind as GlobalKind];
  };
}

export const isGlobalKind = (kind: ObjectKind | GlobalKind | undefined): kind is GlobalKind =>
  kind === 'report' ||
  kind === 'reportField' ||
  kind === 'measurementField' ||
  kind === 'reportCalculation' ||
  kind === 'reader' ||
  kind === 'reportRevision' ||
  kind === 'port' ||
  kind === 'verificationYear';

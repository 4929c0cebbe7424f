import type { Kysely, Transaction } from 'kysely';
import type { ApiKey, ApiKeyScope } from '@portal/contracts/api-keys';
import type { Database } from '../../db/schema';
import { isUuid } from '../access/policy';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An organization's keys that were not revoked, newest first, with the username of who created each. */
export async function listApiKeys(db: Kysely<Database>, organizationId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by')
    .select([
      'k.id',
      'k.name',
      'k.scopes',
      'k.created_on',
      'u.username as created_by',
      'k.expires_on',
      'k.last_used_on',
    ])
    .where('k.organization_id', '=', organizationId)
    .where('k.revoked_on', 'is', null)
    .orderBy('k.created_on', 'desc')
    .orderBy('k.id')
    .execute();
  return rows.map(presentApiKey);
}

export function presentApiKey(row: {
  id: string;
  name: string;
  scopes: string[];
  created_on: Date;
  created_by: string | null;
  expires_on: Date | null;
  last_used_on: Date | null;
}): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKeyScope[],
    createdOn: iso(row.created_on)!,
    createdBy: row.created_by,
    expiresOn: iso(row.expires_on),
    lastUsedOn: iso(row.last_used_on),
  };
}

/** Is there a key of the organization, not revoked, by this name (case-insensitive)? */
export async function apiKeyNameTaken(db: Kysely<Database>, organizationId: string, name: string) {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('revoked_on', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .executeTakeFirst();
  return Boolean(row);
}

/** An organization's key that was not revoked, or undefined. */
export function findApiKey(db: Kysely<Database>, organizationId: string, keyId: string) {
  if (!isUuid(keyId)) return Promise.resolve(undefined);
  return db
    .selectFrom('api_keys')
    .select(['id', 'name'])
    .where('id', '=', keyId)
    .where('organization_id', '=', organizationId)
    .where('revoked_on', 'is', null)
    .executeTakeFirst();
}

export function insertApiKey(
  trx: Transaction<Database>,
  key: {
    id: string;
    organizationId: string;
    name: string;
    scopes: ApiKeyScope[];
    secretHash: string;
    createdBy: string;
    expiresOn: string | null;
  },
) {
  return trx
    .insertInto('api_keys')
    .values({
      id: key.id,
      organization_id: key.organizationId,
      name: key.name,
      scopes: key.scopes,
      secret_hash: key.secretHash,
      created_by: key.createdBy,
      expires_on: key.expiresOn,
    })
    .returning(['id', 'name', 'scopes', 'created_on', 'expires_on', 'last_used_on'])
    .executeTakeFirstOrThrow();
}

/** Revokes a key: it stops working at once in every process (its trigger moves the access version). */
export async function revokeApiKey(trx: Transaction<Database>, keyId: string, revokedBy: string) {
  await trx
    .updateTable('api_keys')
    .set({ revoked_on: new Date(), revoked_by: revokedBy })
    .where('id', '=', keyId)
    .where('revoked_on', 'is', null)
    .execute();
}

/** A key that was not revoked, with its organization: what a request presenting it acts as. */
export function apiKeyForRequest(db: Kysely<Database>, keyId: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.organization_id')
    .select([
      'k.id',
      'k.name',
      'k.scopes',
      'k.secret_hash',
      'k.expires_on',
      'k.organization_id',
      'o.name as organization_name',
      'o.priority as organization_priority',
    ])
    .where('k.id', '=', keyId)
    .where('k.revoked_on', 'is', null)
    .executeTakeFirst();
}

/** Notes a key's use, unless it was noted in the last minute (by this or another process). */
export async function noteApiKeyUse(db: Kysely<Database>, keyId: string, now: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_on: now })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([
        eb('last_used_on', 'is', null),
        eb('last_used_on', '<', new Date(now.getTime() - LAST_USE_INTERVAL_MS)),
      ]),
    )
    .execute();
}

/** A key's last use is written at most this often: not a write per request. */
export const LAST_USE_INTERVAL_MS = 60_000;

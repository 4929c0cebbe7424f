import type { Kysely } from 'kysely';
import type { ApiKeyScope } from '@portal/contracts/api-keys';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import type { Caller } from '../access/caller';
import { apiKeyForRequest, LAST_USE_INTERVAL_MS, noteApiKeyUse } from './queries';
import { parseApiKey, secretMatches } from './secret';

type KeyRow = NonNullable<Awaited<ReturnType<typeof apiKeyForRequest>>>;

/** How many resolved keys a process keeps. */
const CACHE_ENTRIES = 2_000;

const refused = (message: string) => new AppError('UNAUTHORIZED', message);

/**
 * Resolves an API key to the caller it acts as (its organization, with its scopes), for the caller resolver
 * (features/auth/verify.ts). The key's row is cached per process under the access version the request read: a key
 * made, revoked or changed moves that version (migration 0017's trigger), so a revoked key is refused on the next
 * request in every process, and no cache outlives it. Expiry is checked on every request against the clock. Its
 * last use is written at most once a minute per key (LAST_USE_INTERVAL_MS), not once per request.
 */
export function createApiKeyResolver(db: Kysely<Database>, now: () => number = Date.now) {
  const rows = new Map<string, KeyRow | null>();
  const noted = new Map<string, number>();
  const remember = (key: string, row: KeyRow | null) => {
    rows.set(key, row);
    if (rows.size > CACHE_ENTRIES) rows.delete(rows.keys().next().value!);
  };

  return async (text: string, accessVersion: string): Promise<Caller> => {
    const parsed = parseApiKey(text);
    if (!parsed) throw refused('The API key is not valid or was revoked');
    const cacheKey = `${accessVersion}|${parsed.id}`;
    let row = rows.get(cacheKey);
    if (row === undefined) {
      row = (await apiKeyForRequest(db, parsed.id)) ?? null;
      remember(cacheKey, row);
    }
    if (!row || !secretMatches(parsed.secret, row.secret_hash))
      throw refused('The API key is not valid or was revoked');
    const at = now();
    if (row.expires_on && new Date(row.expires_on).getTime() <= at) throw refused('The API key has expired');
    if (at - (noted.get(row.id) ?? -Infinity) >= LAST_USE_INTERVAL_MS) {
      noted.set(row.id, at);
      if (noted.size > CACHE_ENTRIES) noted.delete(noted.keys().next().value!);
      await noteApiKeyUse(db, row.id, new Date(at));
    }
    return {
      userId: row.id,
      username: `API key ${row.name}`,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      organizationPriority: row.organization_priority,
      role: 'User',
      accessVersion,
      apiKey: { id: row.id, name: row.name, scopes: row.scopes as ApiKeyScope[] },
    };
  };
}

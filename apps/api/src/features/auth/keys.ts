import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export interface ProviderKeys {
  signing: JWK[];
  cookieKeys: string[];
}

/**
 * The provider's signing keys and cookie keys, made once and kept in the settings table, so that tokens
 * stay valid across restarts and every API process signs and verifies with the same keys.
 */
export async function loadOrCreateProviderKeys(db: Kysely<Database>): Promise<ProviderKeys> {
  const existing = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'oidc.keys')
    .executeTakeFirst();
  if (existing)
    return (typeof existing.value === 'string' ? JSON.parse(existing.value) : existing.value) as ProviderKeys;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const keys: ProviderKeys = {
    signing: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  // Two processes starting at once: the first insert wins and both use its keys.
  await db
    .insertInto('settings')
    .values({ key: 'oidc.keys', value: JSON.stringify(keys) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'oidc.keys')
    .executeTakeFirstOrThrow();
  return (typeof stored.value === 'string' ? JSON.parse(stored.value) : stored.value) as ProviderKeys;
}

export function publicJwks(keys: ProviderKeys): { keys: JWK[] } {
  return {
    keys: keys.signing.map(
      ({ kty, n, e, kid, alg, use, crv, x, y }) =>
        Object.fromEntries(
          Object.entries({ kty, n, e, kid, alg, use, crv, x, y }).filter(([, v]) => v !== undefined),
        ) as JWK,
    ),
  };
}

import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import type { Caller } from '../access/caller';
import { isUuid } from '../access/policy';
import { readAfterArrival } from './read-after-arrival';
import { createApiKeyResolver } from '../api-keys/resolve';
import { looksLikeApiKey } from '../api-keys/secret';

export const ACCEPTED_ALGORITHMS = ['RS256', 'PS256', 'ES256'];

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** The embedded provider's public keys; without them the issuer's JWKS is fetched. */
  localJwks?: { keys: JWK[] };
  /** Require `typ: at+jwt` (the embedded provider sets it, so an ID token is never taken for an access token). */
  requireAccessTokenType: boolean;
}

/**
 * The caller of a request from its `Authorization` header (`Bearer <access token>` or `Bearer spk_...`, an API key)
 * or, without one, its `X-API-Key` header (an API key).
 */
export type CallerResolver = (authorization: string | undefined, apiKeyHeader?: string) => Promise<Caller>;

const unauthorized = (message = 'Sign in to continue') => new AppError('UNAUTHORIZED', message);

/** How many verified tokens and callers a process keeps (each a few hundred bytes). */
const CACHE_ENTRIES = 5_000;

/** A bounded map that forgets its oldest entries. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  get(key: string): V | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: V): void {
    this.entries.set(key, value);
    if (this.entries.size > CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The version of everything a caller and the ships it sees depend on (migration 0010_access_version). */
export async function readAccessVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('access_version').select('version').executeTakeFirstOrThrow();
  return String(row.version);
}

/**
 * Verifies a bearer access token (signature against the provider's keys, issuer, audience, algorithm allow-list,
 * expiry) and loads the caller from the database, so the role and organization are today's, not the token's.
 *
 * Each request reads the access version (one row; concurrent requests share a read that began after they arrived,
 * read-after-arrival.ts); the caller is read again whenever it changed, which any change to users, organizations,
 * ships or access does, in any process (a trigger keeps it). A token's signature is
 * checked once per process: the same token verifies the same way until it expires, which is checked on every call.
 */
export function createCallerResolver(db: Kysely<Database>, options: VerifierOptions): CallerResolver {
  let keys: JWTVerifyGetKey | undefined;
  const getKeys = async (): Promise<JWTVerifyGetKey> => {
    if (keys) return keys;
    if (options.localJwks) return (keys = createLocalJWKSet(options.localJwks));
    const discovery = (await (
      await fetch(`${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
    ).json()) as { jwks_uri: string };
    return (keys = createRemoteJWKSet(new URL(discovery.jwks_uri)));
  };
  const verifiedTokens = new Recent<Record<string, unknown>>();
  // Concurrent requests share version reads, each read starting after the requests it serves arrived.
  const accessVersion = readAfterArrival(() => readAccessVersion(db));
  const callers = new Recent<(Caller & { validAfter: number }) | null>();

  const verify = async (token: string): Promise<Record<string, unknown>> => {
    const known = verifiedTokens.get(token);
    if (known) {
      const now = Date.now() / 1000;
      if (Number(known.exp) <= now || (known.nbf !== undefined && Number(known.nbf) > now))
        throw unauthorized('Your session has expired or is not valid. Please sign in again.');
      return known;
    }
    try {
      const verified = await jwtVerify(token, await getKeys(), {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        requiredClaims: ['sub', 'exp', 'iat'],
        ...(options.requireAccessTokenType ? { typ: 'at+jwt' } : {}),
      });
      const payload = verified.payload as Record<string, unknown>;
      verifiedTokens.set(token, payload);
      return payload;
    } catch {
      throw unauthorized('Your session has expired or is not valid. Please sign in again.');
    }
  };

  const loadCaller = async (
    sub: string,
    username: string,
  ): Promise<(Caller & { validAfter: number }) | null> => {
    const row = await db
      .selectFrom('users')
      .innerJoin('organizations', 'organizations.id', 'users.organization_id')
      .select([
        'users.id',
        'users.username',
        'users.role',
        'users.organization_id',
        'organizations.name as organization_name',
        'organizations.priority as organization_priority',
        sql<number>`extract(epoch from users.tokens_valid_after)`.as('valid_after'),
      ])
      // Our own tokens name the user by id; an external issuer's by username (its own id is not ours): the id wins.
      .where((eb) =>
        isUuid(sub)
          ? eb.or([eb('users.id', '=', sub), eb(sql`lower(users.username)`, '=', username.toLowerCase())])
          : eb(sql`lower(users.username)`, '=', username.toLowerCase()),
      )
      .orderBy(sql`users.id::text = ${sub}`, 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    const verifierYears =
      row.role === 'Verifier'
        ? (
            await db
              .selectFrom('verifier_years')
              .select('year')
              .where('user_id', '=', row.id)
              .orderBy('year')
              .execute()
          ).map((y) => y.year)
        : undefined;
    return {
      userId: row.id,
      username: row.username,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      organizationPriority: row.organization_priority,
      role: row.role,
      ...(verifierYears ? { verifierYears } : {}),
      validAfter: Number(row.valid_after),
    };
  };

  const resolveApiKey = createApiKeyResolver(db);

  return async (authorization, apiKeyHeader) => {
    // An API key (features/api-keys), told by its prefix: `Authorization: Bearer spk_...` or `X-API-Key: spk_...`.
    if (apiKeyHeader !== undefined && authorization !== undefined)
      throw unauthorized('Send either an Authorization header or an X-API-Key header, not both');
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const apiKey = apiKeyHeader ?? (looksLikeApiKey(bearer) ? bearer : undefined);
    if (apiKey !== undefined) return resolveApiKey(apiKey, await accessVersion());
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '');
    if (!match) throw unauthorized();
    const [payload, version] = await Promise.all([verify(match[1]!), accessVersion()]);
    const sub = String(payload.sub);
    const username = String(payload.preferred_username ?? '');
    const key = `${version}|${sub}|${username}`;
    let found = callers.get(key);
    if (found === undefined) {
      found = await loadCaller(sub, username);
      callers.set(key, found);
    }
    if (!found) throw unauthorized();
    if (Number(payload.iat) < found.validAfter)
      throw unauthorized('Your session has ended. Please sign in again.');
    const { validAfter: _validAfter, ...caller } = found;
    return { ...caller, accessVersion: version };
  };
}

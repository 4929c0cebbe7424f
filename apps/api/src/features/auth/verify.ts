import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import type { Caller } from '../access/caller';

export const ACCEPTED_ALGORITHMS = ['RS256', 'PS256', 'ES256'];

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** The embedded provider's public keys; without them the issuer's JWKS is fetched. */
  localJwks?: { keys: JWK[] };
  /** Require `typ: at+jwt` (the embedded provider sets it, so an ID token is never taken for an access token). */
  requireAccessTokenType: boolean;
}

export type CallerResolver = (authorization: string | undefined) => Promise<Caller>;

const unauthorized = (message = 'Sign in to continue') => new AppError('UNAUTHORIZED', message);

/**
 * Verifies a bearer access token (signature against the provider's keys, issuer, audience, algorithm allow-list,
 * expiry) and loads the caller from the database, so the role and organization are today's, not the token's.
 */
export function createCallerResolver(db: Kysely<Database>, options: VerifierOptions): CallerResolver {
  let keys: JWTVerifyGetKey | undefined;
  const getKeys = async (): Promise<JWTVerifyGetKey> => {
    if (keys) return keys;
    if (options.localJwks) return (keys = createLocalJWKSet(options.localJwks));
    const discovery = (await (await fetch(`${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
    return (keys = createRemoteJWKSet(new URL(discovery.jwks_uri)));
  };

  return async (authorization) => {
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '');
    if (!match) throw unauthorized();
    let payload: Record<string, unknown>;
    try {
      const verified = await jwtVerify(match[1]!, await getKeys(), {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        requiredClaims: ['sub', 'exp', 'iat'],
        ...(options.requireAccessTokenType ? { typ: 'at+jwt' } : {}),
      });
      payload = verified.payload as Record<string, unknown>;
    } catch {
      throw unauthorized('Your session has expired or is not valid. Please sign in again.');
    }
    const sub = String(payload.sub);
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
      .where(sql<boolean>`users.id::text = ${sub} or lower(users.username) = lower(${String(payload.preferred_username ?? '')})`)
      .executeTakeFirst();
    if (!row) throw unauthorized();
    if (Number(payload.iat) < Number(row.valid_after)) throw unauthorized('Your session has ended. Please sign in again.');
    return {
      userId: row.id,
      username: row.username,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      organizationPriority: row.organization_priority,
      role: row.role,
    };
  };
}

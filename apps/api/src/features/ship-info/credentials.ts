import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { UPLOAD_TOKEN_PREFIX } from '@portal/contracts/ship-info';
import type { Database } from '../../db/schema';
import { isUuid } from '../access/policy';

/**
 * Upload credentials of the onboard uploader. The token is `psdu_<credential id>_<secret>`; the secret is 32 random
 * bytes, so a plain SHA-256 is enough to store it (a slow password hash guards low-entropy secrets, not these).
 */
const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

const TOKEN = new RegExp(`^${UPLOAD_TOKEN_PREFIX}([0-9a-f-]{36})_([A-Za-z0-9_-]{43})$`);

export function parseUploadToken(token: string): { credentialId: string; secret: string } | null {
  const match = TOKEN.exec(token.trim());
  if (!match || !isUuid(match[1]!)) return null;
  return { credentialId: match[1]!, secret: match[2]! };
}

export async function createUploadCredential(
  db: Kysely<Database>,
  facilityId: string,
  createdBy: string | null,
) {
  const secret = randomBytes(32).toString('base64url');
  const row = await db
    .insertInto('upload_credentials')
    .values({ facility_id: facilityId, secret_hash: hashSecret(secret), created_by: createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token: `${UPLOAD_TOKEN_PREFIX}${row.id}_${secret}` };
}

/** The ship a token (not revoked) may upload to, or null. */
export async function resolveUploadToken(
  db: Kysely<Database>,
  token: string,
): Promise<{ facilityId: string; credentialId: string } | null> {
  const parsed = parseUploadToken(token);
  if (!parsed) return null;
  const row = await db
    .selectFrom('upload_credentials')
    .select(['id', 'facility_id', 'secret_hash'])
    .where('id', '=', parsed.credentialId)
    .where('revoked_on', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const expected = Buffer.from(row.secret_hash, 'hex');
  const actual = Buffer.from(hashSecret(parsed.secret), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { facilityId: row.facility_id, credentialId: row.id };
}

/**
 * For the upload route: accepts `Authorization: Bearer psdu_<credential id>_<secret>` and answers the ship the
 * uploader may upload to (only that ship's data sources), or null for anything else. Records when it was last used.
 */
export async function resolveUploadCredential(
  db: Kysely<Database>,
  authorizationHeader: string | undefined | null,
): Promise<{ facilityId: string } | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorizationHeader ?? '');
  if (!match || !match[1]!.startsWith(UPLOAD_TOKEN_PREFIX)) return null;
  const resolved = await resolveUploadToken(db, match[1]!);
  if (!resolved) return null;
  await db
    .updateTable('upload_credentials')
    .set({ last_used_on: new Date() })
    .where('id', '=', resolved.credentialId)
    .execute();
  return { facilityId: resolved.facilityId };
}

/** Is this authorization header an uploader's (so the route should not treat it as a user's access token)? */
export const isUploadAuthorization = (authorizationHeader: string | undefined | null) =>
  /^Bearer\s+psdu_/i.test(authorizationHeader ?? '');

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '@portal/contracts/api-keys';
import { isUuid } from '../access/policy';

/**
 * The key's text: `spk_<key id>_<secret>`, the secret 32 random bytes (base64url). The prefix tells a key from an
 * access token (and lets secret scanners find a leaked one); the id finds the row by its primary key. Only the
 * secret's SHA-256 is stored: a secret of 256 random bits cannot be guessed from its hash, so a slow password hash
 * (which guards low-entropy passwords against guessing) would only cost time on every request
 * (docs/decisions/0090-api-keys-and-auto-execution.md).
 */
const KEY = new RegExp(`^${API_KEY_PREFIX}([0-9a-f-]{36})_([A-Za-z0-9_-]{43})$`);

export const hashApiKeySecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new secret and the hash to store. */
export function newApiKeySecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashApiKeySecret(secret) };
}

export const formatApiKey = (id: string, secret: string) => `${API_KEY_PREFIX}${id}_${secret}`;

/** The key id and secret of a key's text, or null when it is not one. */
export function parseApiKey(text: string): { id: string; secret: string } | null {
  const match = KEY.exec(text.trim());
  if (!match || !isUuid(match[1]!)) return null;
  return { id: match[1]!, secret: match[2]! };
}

/** Does the secret match the stored hash (compared in constant time)? */
export function secretMatches(secret: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashApiKeySecret(secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Is this text an API key's (by its prefix), rather than an access token? */
export const looksLikeApiKey = (text: string | undefined | null) =>
  typeof text === 'string' && text.trim().startsWith(API_KEY_PREFIX);

import { describe, expect, it } from 'vitest';
import { formatApiKey, looksLikeApiKey, newApiKeySecret, parseApiKey, secretMatches } from './secret';

const ID = '3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b';

describe('API key secrets', () => {
  it('round-trips a key: prefix, id and secret, and the secret matches only its own hash', () => {
    const { secret, hash } = newApiKeySecret();
    const key = formatApiKey(ID, secret);
    expect(key.startsWith('spk_')).toBe(true);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(parseApiKey(key)).toEqual({ id: ID, secret });
    expect(secretMatches(secret, hash)).toBe(true);
    expect(secretMatches(newApiKeySecret().secret, hash)).toBe(false);
    expect(hash).not.toContain(secret);
  });

  it('draws a new 256-bit secret every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => newApiKeySecret().secret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(Buffer.from(s, 'base64url')).toHaveLength(32);
  });

  it('refuses what is not a key', () => {
    const { secret } = newApiKeySecret();
    for (const text of [
      '',
      'eyJhbGciOiJSUzI1NiJ9.e30.sig',
      `psdu_${ID}_${secret}`,
      `spk_${ID}`,
      `spk_not-a-uuid-not-a-uuid-not-a-uuid-xx_${secret}`,
      `spk_${ID}_${secret}x`,
    ])
      expect(parseApiKey(text), text).toBeNull();
    expect(looksLikeApiKey('Bearer spk_')).toBe(false);
    expect(looksLikeApiKey(undefined)).toBe(false);
  });
});

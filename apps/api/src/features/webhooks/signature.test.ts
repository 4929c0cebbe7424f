import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhookBody, verifyWebhookSignature } from './signature';

describe('webhook signature', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ id: 'd1', kind: 'opened' });
  const now = 1_750_000_000_000;
  const timestamp = String(now / 1000);

  it('makes secrets of 32 random bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('is the HMAC-SHA256 of timestamp.body in hex', () => {
    // Computed independently: printf '1750000000.{"a":1}' | openssl dgst -sha256 -hmac 'k'
    expect(signWebhookBody('k', 1750000000, '{"a":1}')).toBe(
      'sha256=8b9a863655334b3c16615b77971ce1dd8ac4ce0895f46c7059676b1b53759fcd',
    );
  });

  it('verifies with the secret and fails with another, another body, or an old timestamp', () => {
    const signature = signWebhookBody(secret, Number(timestamp), body);
    expect(verifyWebhookSignature({ secret, body, timestamp, signature, now })).toBe(true);
    expect(verifyWebhookSignature({ secret: newWebhookSecret(), body, timestamp, signature, now })).toBe(
      false,
    );
    expect(verifyWebhookSignature({ secret, body: `${body} `, timestamp, signature, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, timestamp, signature, now: now + 301_000 })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, timestamp, signature: undefined, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, timestamp: 'x', signature, now })).toBe(false);
  });
});

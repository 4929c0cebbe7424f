import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing of webhook deliveries (docs/webhooks.md): HMAC-SHA256 with the webhook's secret over
 * `${timestamp}.${body}`, the timestamp in Unix seconds. Sent as `X-Portal-Timestamp: <timestamp>` and
 * `X-Portal-Signature: sha256=<hex>`; a receiver recomputes it and refuses an old timestamp (a replay).
 */

/** A new secret: 'whsec_' and 32 random bytes in base64url (the HMAC key is the whole text, as UTF-8). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export function signWebhookBody(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Does the signature header match the body and timestamp under this secret, with the timestamp at most
 * `toleranceSeconds` from now? The comparison takes the same time whatever matches.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestamp: string | undefined;
  signature: string | undefined;
  toleranceSeconds?: number;
  now?: number;
}): boolean {
  const { secret, body, timestamp, signature } = input;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - seconds) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhookBody(secret, seconds, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

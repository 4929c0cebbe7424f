import { isIP } from 'node:net';

/**
 * Networks as the operator writes them (WEBHOOK_ALLOWED_NETWORKS): config.ts checks the setting with these, and the
 * webhooks' address policy (features/webhooks/addresses.ts) reads it. Below both, so the configuration imports no
 * feature.
 */

/** Parses "a.b.c.d/n" or "x::y/n" (a bare address is /32 or /128); null when it is no network. */
export function parseNetwork(text: string): { network: string; prefix: number; family: 4 | 6 } | null {
  const [network = '', prefixText, ...rest] = text.trim().split('/');
  const family = isIP(network);
  if (rest.length || (family !== 4 && family !== 6)) return null;
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { network, prefix, family };
}

/** A comma-separated list of networks, or the text of the first that is none. */
export function parseNetworkList(text: string | undefined): { networks: string[] } | { invalid: string } {
  const items = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.find((item) => !parseNetwork(item));
  return bad === undefined ? { networks: items } : { invalid: bad };
}

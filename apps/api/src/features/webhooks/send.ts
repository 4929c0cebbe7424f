import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookAttemptOutcome } from '@portal/contracts/webhooks';
import { addressRefusal, type AddressPolicy } from './addresses';

/** Resolves a host name to all its addresses (dns.lookup: the system's resolver, /etc/hosts included). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;
export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type Target =
  { ok: true; address: string; family: 4 | 6 } | { ok: false; kind: 'refused' | 'not-found'; reason: string };

/**
 * The address a webhook URL is sent to: its host resolved once, every address it resolves to allowed by the policy
 * (a name with one public and one private address is refused), the first one taken. The connection then goes to that
 * address only, so a name that resolves differently a moment later (DNS rebinding) changes nothing.
 */
export async function resolveTarget(
  url: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<Target> {
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch {
      addresses = [];
    }
    if (!addresses.length)
      return { ok: false, kind: 'not-found', reason: `The host ${hostname} was not found` };
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy, hostname);
    if (refusal) return { ok: false, kind: 'refused', reason: refusal };
  }
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface AttemptResult {
  outcome: WebhookAttemptOutcome;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One POST of a delivery: to the resolved address (TLS still checks the certificate against the URL's host name),
 * redirects not followed, the whole exchange (connect, answer, body) within `timeoutMs`; the answer's body is read
 * and dropped. Never throws: every failure is an attempt's outcome.
 */
export async function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  policy: AddressPolicy;
  timeoutMs: number;
  resolve?: Resolver;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = await resolveTarget(input.url, input.policy, input.resolve);
  if (!target.ok)
    return {
      outcome: target.kind === 'refused' ? 'refused' : 'network-error',
      responseStatus: null,
      error: target.reason,
      durationMs: elapsed(),
    };
  const url = new URL(input.url);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolvePromise) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...input.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(input.body)),
          'user-agent': 'ScrubberPortal-Webhooks/1',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.on('data', () => undefined);
        response.on('error', (error) =>
          finish({ outcome: 'network-error', responseStatus: status, error: error.message }),
        );
        response.on('end', () =>
          finish(
            status >= 200 && status < 300
              ? { outcome: 'delivered', responseStatus: status, error: null }
              : { outcome: 'http-error', responseStatus: status, error: `HTTP ${status}` },
          ),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({
        outcome: 'timeout',
        responseStatus: null,
        error: `No answer within ${input.timeoutMs / 1000} s`,
      });
      request.destroy();
    }, input.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        outcome: 'network-error',
        responseStatus: null,
        error: error.code ? `${error.code}: ${error.message}` : error.message,
      }),
    );
    request.end(input.body);
  });
}

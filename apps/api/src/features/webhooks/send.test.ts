import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADDRESS_POLICY } from './addresses';
import { postWebhook, resolveTarget, type Resolver } from './send';

const fixed =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) =>
    (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('resolveTarget', () => {
  it('takes an IP literal as it is and refuses a name with any refused address', async () => {
    expect(await resolveTarget('https://8.8.8.8/x', DEFAULT_ADDRESS_POLICY)).toEqual({
      ok: true,
      address: '8.8.8.8',
      family: 4,
    });
    expect(await resolveTarget('https://[2606:4700::1111]/x', DEFAULT_ADDRESS_POLICY)).toMatchObject({
      ok: true,
      family: 6,
    });
    const resolve = fixed({ 'mixed.example': ['8.8.8.8', '10.0.0.7'], 'public.example': ['8.8.4.4'] });
    expect(await resolveTarget('https://mixed.example/x', DEFAULT_ADDRESS_POLICY, resolve)).toEqual({
      ok: false,
      kind: 'refused',
      reason:
        'mixed.example resolves to 10.0.0.7, a private network address: webhooks go only to public addresses unless the operator allows this network',
    });
    expect(await resolveTarget('https://public.example/x', DEFAULT_ADDRESS_POLICY, resolve)).toEqual({
      ok: true,
      address: '8.8.4.4',
      family: 4,
    });
    expect(await resolveTarget('https://nowhere.example/x', DEFAULT_ADDRESS_POLICY, resolve)).toEqual({
      ok: false,
      kind: 'not-found',
      reason: 'The host nowhere.example was not found',
    });
  });
});

describe('postWebhook', () => {
  let server: http.Server;
  let port: number;
  const seen: { host?: string; body: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => (body += c.toString()));
      request.on('end', () => {
        seen.push({ host: request.headers.host, body });
        response.writeHead(request.url === '/redirect' ? 302 : 204, { location: 'http://8.8.8.8/' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const policy = { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.1/32'] };

  it('connects to the address it resolved once, the URL host in the Host header', async () => {
    let lookups = 0;
    const resolve: Resolver = async () => (lookups++, [{ address: '127.0.0.1', family: 4 }]);
    const result = await postWebhook({
      url: `http://receiver.example:${port}/hook`,
      body: '{"a":1}',
      headers: {},
      policy,
      timeoutMs: 2000,
      resolve,
    });
    expect(result).toMatchObject({ outcome: 'delivered', responseStatus: 204, error: null });
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toEqual({ host: `receiver.example:${port}`, body: '{"a":1}' });
  });

  it('does not follow a redirect', async () => {
    const result = await postWebhook({
      url: `http://127.0.0.1:${port}/redirect`,
      body: '{}',
      headers: {},
      policy,
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ outcome: 'http-error', responseStatus: 302, error: 'HTTP 302' });
  });

  it('names a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await postWebhook({
      url: `http://127.0.0.1:${closedPort}/`,
      body: '{}',
      headers: {},
      policy,
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ outcome: 'network-error', responseStatus: null });
    expect(result.error).toMatch(/^ECONNREFUSED/);
  });
});

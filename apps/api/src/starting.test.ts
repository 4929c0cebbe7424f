import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { healthSchema } from '@portal/contracts/health';
import {
  elapsedText,
  FOLLOW_HEADER,
  healthStatusCode,
  listenDescription,
  Startup,
  startingAnswer,
  startingGate,
  startingPage,
  STARTING_PAGE_CSP,
  startupMessage,
  startupSteps,
} from './starting';

const T0 = Date.parse('2026-11-28T08:00:00Z');

describe('the start as GET /api/health says it', () => {
  it('moves from the loading of the code through the demo fleet to ready', () => {
    const startup = new Startup(T0);
    expect(startup.health()).toEqual({
      state: 'starting',
      step: 'loading',
      message: 'Loading the server',
      progress: null,
      startedAt: '2026-11-28T08:00:00.000Z',
    });
    startup.step('database');
    expect(startup.health().message).toBe('Opening the database');
    startup.step('demo-data', { done: 2, total: 6 });
    expect(startup.health()).toMatchObject({
      state: 'starting',
      step: 'demo-data',
      message: 'Loading the demo fleet (2 of 6 ships)',
      progress: { done: 2, total: 6 },
    });
    startup.step('demo-calculation', { done: 5, total: 6 });
    expect(startup.health().message).toBe('Loading the demo fleet (5 of 6 ships)');
    startup.ready();
    expect(startup.health()).toEqual({
      state: 'ready',
      step: null,
      message: 'Ready',
      progress: null,
      startedAt: '2026-11-28T08:00:00.000Z',
    });
    // A step reported late (a progress callback after the end) changes nothing.
    startup.step('demo-calculation', { done: 6, total: 6 });
    expect(startup.health().state).toBe('ready');
    startup.stopping();
    expect(startup.health()).toMatchObject({ state: 'stopping', message: 'Stopping', step: null });
  });

  it('answers 200 only when ready, in the schema of the contracts', () => {
    const startup = new Startup(T0);
    expect(healthStatusCode(startup.health())).toBe(503);
    expect(healthSchema.parse(startup.health())).toEqual(startup.health());
    startup.ready();
    expect(healthStatusCode(startup.health())).toBe(200);
    startup.stopping();
    expect(healthStatusCode(startup.health())).toBe(503);
  });

  it('names the demo fleet without a count before it knows the ships', () => {
    expect(startupMessage({ state: 'starting', step: 'demo-data', progress: null })).toBe(
      'Loading the demo fleet',
    );
  });
});

describe('what a request gets while the portal starts', () => {
  it('GET /api/health its answer, a page a browser opens the starting page, anything else a 503', () => {
    expect(startingAnswer('GET', '/api/health')).toBe('health');
    expect(startingAnswer('GET', '/api/health?probe=1')).toBe('health');
    expect(startingAnswer('GET', '/')).toBe('page');
    expect(startingAnswer('GET', '/ship/3f1c?tab=events')).toBe('page');
    expect(startingAnswer('HEAD', '/')).toBe('page');
    expect(startingAnswer('GET', '/api/version')).toBe('unavailable');
    expect(startingAnswer('POST', '/oidc/token')).toBe('unavailable');
    expect(startingAnswer('POST', '/')).toBe('unavailable');
  });
});

describe('the starting page', () => {
  const demoAt = (done: number) => {
    const startup = new Startup(T0);
    startup.step('demo-data', { done, total: 6 });
    return startup;
  };

  it('says what the start does, each step done, under way or to come, and how long it has taken', () => {
    const html = startingPage(demoAt(2).status, T0 + 95_000);
    expect(html).toContain('<html lang="en" data-starting>');
    expect(html).toContain('<title>The portal is starting – Scrubber fleet monitoring portal</title>');
    expect(html).toContain('<p id="status" role="status">Loading the demo fleet (2 of 6 ships)</p>');
    expect(startupSteps(demoAt(2).status).map((s) => [s.label, s.state, s.detail])).toEqual([
      ['Loading the server', 'done', 'done'],
      ['Opening the database', 'done', 'done'],
      ["Importing the demo ships' logger files", 'current', '2 of 6 ships'],
      ["Calculating the demo ships' KPIs and compliance events", 'waiting', 'to come'],
    ]);
    expect(html).toContain('aria-current="step"');
    expect(html).toContain('Importing the demo ships&#39; logger files');
    expect(html).toContain('Started 1 min 35 s ago.');
    // Two quick steps, then 6 ships imported and 6 calculated: 2 + 2 of 14.
    expect(html).toContain('<progress id="progress" aria-labelledby="status" max="14" value="4">');
  });

  it('lists no demo steps on a start without the demo', () => {
    const startup = new Startup(T0);
    startup.step('database');
    expect(startupSteps(startup.status).map((s) => s.step)).toEqual(['loading', 'database']);
  });

  it('says when the portal stops, without steps', () => {
    const startup = demoAt(3);
    startup.stopping();
    const html = startingPage(startup.status, T0);
    expect(html).toContain('<h1 id="heading">The portal is stopping</h1>');
    expect(html).toContain('<progress id="progress" aria-labelledby="status"></progress>');
    expect(html).not.toContain('<li');
  });

  it('runs only its own inline script and style (their hashes are in its Content-Security-Policy)', () => {
    const html = startingPage(demoAt(0).status, T0);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*)<\/style>/.exec(html)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(STARTING_PAGE_CSP).toContain(`script-src ${hash(script)}`);
    expect(STARTING_PAGE_CSP).toContain(`style-src ${hash(style)}`);
    expect(STARTING_PAGE_CSP).toContain("default-src 'none'");
    // Without scripts it reloads itself.
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="5"></noscript>');
  });

  it('says elapsed times plainly', () => {
    expect(elapsedText(0)).toBe('0 s');
    expect(elapsedText(59_999)).toBe('59 s');
    expect(elapsedText(125_000)).toBe('2 min 05 s');
  });
});

describe('listenDescription', () => {
  it('says that 0.0.0.0 is every interface, and which address to open', () => {
    expect(listenDescription({ address: '0.0.0.0', port: 8080 }, 'http://localhost:8080')).toEqual({
      where: 'all network interfaces (0.0.0.0), port 8080',
      open: 'http://localhost:8080',
    });
    expect(listenDescription({ address: '::', port: 8080 }, 'http://localhost:8080').where).toBe(
      'all network interfaces (::), port 8080',
    );
    expect(listenDescription({ address: '127.0.0.1', port: 8080 }, 'http://localhost:8080').where).toBe(
      'this machine only (127.0.0.1), port 8080',
    );
    expect(listenDescription({ address: '10.1.2.3', port: 80 }, 'https://portal.example/')).toEqual({
      where: '10.1.2.3, port 80',
      open: 'https://portal.example',
    });
    // PORT=0: the port the system gave.
    expect(listenDescription({ address: '127.0.0.1', port: 43121 }, 'http://localhost:0').open).toBe(
      'http://localhost:43121',
    );
  });
});

describe('the starting gate', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(startup: Startup) {
    const gate = startingGate(startup);
    server = http.createServer(gate.handle);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`app ${req.url}`);
    };
    return { url, gate, app };
  }

  it('answers alone until the app is there, then leaves GET /api/health to it, then everything once ready', async () => {
    const startup = new Startup();
    const { url, gate, app } = await serve(startup);

    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(await health.json()).toMatchObject({ state: 'starting', step: 'loading' });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('2');
    expect(page.headers.get('content-security-policy')).toBe(STARTING_PAGE_CSP);
    expect(await page.text()).toContain('The portal is starting');
    // The page's own requests for itself: 200, no error in the browser's console every 2 s.
    const followed = await fetch(`${url}/`, { headers: { [FOLLOW_HEADER]: 'follow' } });
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('data-starting');
    const api = await fetch(`${url}/api/version`);
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({
      code: 'UNAVAILABLE',
      message: 'The portal is starting (Loading the server): try again in a moment',
    });

    gate.open(app);
    startup.step('demo-data', { done: 1, total: 6 });
    expect(await (await fetch(`${url}/api/health`)).text()).toBe('app /api/health');
    expect(await (await fetch(`${url}/`)).text()).toContain('Loading the demo fleet (1 of 6 ships)');

    startup.ready();
    expect(await (await fetch(`${url}/`)).text()).toBe('app /');
    expect(await (await fetch(`${url}/api/version`)).text()).toBe('app /api/version');

    startup.stopping();
    const stopping = await fetch(`${url}/api/health`);
    expect(stopping.status).toBe(503);
    expect(await stopping.json()).toMatchObject({ state: 'stopping' });
  });

  it('sends no page body to HEAD', async () => {
    const { url } = await serve(new Startup());
    const head = await fetch(`${url}/`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
  });
});

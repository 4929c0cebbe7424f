import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Request } from '@playwright/test';
import { acceptCookiesIfAsked, fillSignIn, signInAs, watchActivity, accessToken } from '../support';

const OFFLINE_TEXT =
  'There seems to be a connection issue. Please check your internet access. Any unsaved changed will be lost.';
/** Ours (apps/web/src/lib/connectivity.ts): a proxy answers for the portal's server, the network is fine. */
const SERVER_UNREACHABLE =
  "There seems to be a connection issue with the portal's server. Trying again… Any unsaved changes stay on this page.";
const NO_ACCESS = 'You do not have access to this page';
const CHUNK_FAILED = 'This page could not be loaded';
const port = Number(process.env.E2E_PORT ?? 18181);
const screenshots = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '.artifacts', 'screens');

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Screenshots of a state at desktop and phone size (e2e/.artifacts/screens), the state checked at each size. */
async function shoot(page: Page, name: string, visible: () => Promise<void>) {
  fs.mkdirSync(screenshots, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await visible();
    await page.screenshot({ path: path.join(screenshots, `${name}-${size.name}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Counts the full page loads (document requests of the main frame) from now on. */
function countPageLoads(page: Page) {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      loads.push(new URL(request.url()).pathname);
  });
  return loads;
}

/**
 * The page's code and styles asked for from now on, with how each ended (a status, or the browser's error): a page
 * that reloads by itself after a lost server had asked for code while it was down, and this names it.
 */
function watchCodeRequests(page: Page) {
  const asked: string[] = [];
  const code = (request: Request) => ['script', 'stylesheet', 'document'].includes(request.resourceType());
  page.on('response', (response) => {
    if (code(response.request())) asked.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => {
    if (code(request))
      asked.push(`${request.failure()?.errorText ?? 'failed'} ${new URL(request.url()).pathname}`);
  });
  return asked;
}

async function firstShipId(page: Page): Promise<string> {
  const response = await page.request.get('/api/facilities', {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  });
  const ships = (await response.json()) as { id: string }[];
  return ships[0]!.id;
}

const SYSTEM_ADMIN_ONLY = (ship: string) => [
  '/report-config/overview',
  '/report-config/calculation-queue',
  '/report-config/data-export',
  '/report-config/detail',
  `/facilities/${ship}/config/info`,
  `/facilities/${ship}/config/channels`,
  `/facilities/${ship}/config/calculation-queue`,
  `/facilities/${ship}/config/list`,
  `/facilities/${ship}/config/detail`,
  '/admin/organizations',
  '/admin/messages',
];

test.describe('access failures', () => {
  for (const username of ['north.anna', 'north.admin']) {
    test(`${username} opens every SystemAdmin-only URL: the no-access view in the shell, no sign-in round trip`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await signInAs(page, username);
      await expect(page.getByRole('banner')).toBeVisible();
      const ship = await firstShipId(page);
      for (const url of SYSTEM_ADMIN_ONLY(ship)) {
        const loads = countPageLoads(page);
        const activity = watchActivity(page);
        const refused: string[] = [];
        page.on('response', (r) => {
          if ([401, 403].includes(r.status())) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
        });
        await page.goto(url);
        await expect(page.getByRole('heading', { name: NO_ACCESS }), url).toBeVisible();
        await expect(page.getByRole('banner')).toBeVisible();
        // Everything the page set out to do is done (a loop would still be under way: the seen one went round
        // every 1.3 s through sign-in): one page load, and no refused call.
        await activity.settled();
        expect(loads, url).toEqual([new URL(url, 'http://x').pathname]);
        expect(page.url()).toMatch(new RegExp(`${url}$`));
        // The screen is not rendered: none of its calls is made and refused.
        expect(refused, url).toEqual([]);
        expect(await page.evaluate(() => sessionStorage.getItem('portal.redirectPath'))).toBeNull();
        activity.stop();
        page.removeAllListeners('request');
        page.removeAllListeners('response');
      }
      // The way back: My fleet.
      await page.getByRole('link', { name: 'Go to My fleet' }).click();
      await expect(page).toHaveURL(new RegExp(`:${port}/$`));
    });
  }

  test('a User sees no configuration buttons: the Configure entry is absent and the screen is refused', async ({
    page,
  }) => {
    await signInAs(page, 'north.anna');
    const ship = await firstShipId(page);
    await page.goto(`/facilities/${ship}/config/channels`);
    await expect(page.getByRole('heading', { name: NO_ACCESS })).toBeVisible();
    for (const name of [/add/i, /edit/i, /delete/i, /approve all/i, /mapping/i])
      await expect(page.getByRole('main').getByRole('button', { name })).toHaveCount(0);
  });

  test('a 403 from the API shows the no-access view, clears the remembered path and never signs in again', async ({
    page,
  }) => {
    await signInAs(page, 'north.anna');
    await page.route('**/api/facilities/documents*', (route) =>
      route.fulfill({ status: 403, json: { code: 'FORBIDDEN', message: 'Forbidden' } }),
    );
    await page.evaluate(() => sessionStorage.setItem('portal.redirectPath', '/service/documents'));
    const loads = countPageLoads(page);
    const activity = watchActivity(page);
    await page.goto('/service/documents');
    await expect(page.getByRole('heading', { name: NO_ACCESS })).toBeVisible();
    await activity.settled();
    expect(loads).toEqual(['/service/documents']);
    expect(await page.evaluate(() => sessionStorage.getItem('portal.redirectPath'))).toBeNull();
    await shoot(page, 'no-access', () =>
      expect(page.getByRole('heading', { name: NO_ACCESS })).toBeVisible(),
    );
    // Another page of the portal works as before.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect(page.getByRole('heading', { name: NO_ACCESS })).toHaveCount(0);
  });

  test('an expired session on a deep link signs in again and returns to it once', async ({ page }) => {
    await signInAs(page, 'north.anna');
    const ship = await firstShipId(page);
    const deepLink = `/ship/${ship}`;
    await page.goto(deepLink);
    await expect(page.getByRole('banner')).toBeVisible();
    // The stored token runs out (as after a night with the tab closed).
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
      const user = JSON.parse(sessionStorage.getItem(key)!);
      user.expires_at = Math.floor(Date.now() / 1000) - 60;
      sessionStorage.setItem(key, JSON.stringify(user));
    });
    const loads = countPageLoads(page);
    const activity = watchActivity(page);
    await page.goto(deepLink);
    await expect(page).toHaveURL(new RegExp(`${deepLink}$`));
    await expect(page.getByRole('banner')).toBeVisible();
    await activity.settled();
    expect(page.url()).toMatch(new RegExp(`${deepLink}$`));
    // One round trip through sign-in: the deep link, /login, the provider, /login with the code.
    expect(loads.filter((p) => p === '/login')).toHaveLength(2);
    expect(loads.filter((p) => p === deepLink)).toHaveLength(1);
  });

  test('a deep link opened without a session comes back after sign-in, even when the tab forgot it on the way', async ({
    page,
  }) => {
    // Find a ship to link to (as north.anna), then start afresh: no session, no memory in the tab.
    await signInAs(page, 'north.anna');
    const deepLink = `/events?state=open&ship=${await firstShipId(page)}&report=required`;
    await page.evaluate(() => sessionStorage.clear());
    await page.context().clearCookies();
    await page.goto(deepLink);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
    // The tab's session storage is gone while the provider's page is open (a tab restored without it, a browser
    // that drops it): the path travels with the sign-in itself.
    await page.evaluate(() => sessionStorage.clear());
    await fillSignIn(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${deepLink.replace(/[?]/g, '\\?')}$`));
    await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  });

  test('an expired session on an events link signs in again and lands there', async ({ page }) => {
    await signInAs(page, 'north.anna');
    const deepLink = `/events?state=open&ship=${await firstShipId(page)}`;
    await page.goto(deepLink);
    await expect(page.getByRole('banner')).toBeVisible();
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
      const user = JSON.parse(sessionStorage.getItem(key)!);
      user.expires_at = Math.floor(Date.now() / 1000) - 60;
      sessionStorage.setItem(key, JSON.stringify(user));
    });
    // The provider's session has ended too: the sign-in form, then back to the link.
    await page.context().clearCookies();
    await page.reload();
    await fillSignIn(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${deepLink.replace(/[?]/g, '\\?')}$`));
  });

  for (const elsewhere of [
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
  ])
    test(`sign-in never returns to another site: /login?returnTo=${JSON.stringify(elsewhere)}`, async ({
      page,
    }) => {
      const activity = watchActivity(page);
      await page.goto(`/login?returnTo=${encodeURIComponent(elsewhere)}`);
      await acceptCookiesIfAsked(page);
      await fillSignIn(page, 'north.anna');
      await expect(page.getByRole('banner')).toBeVisible();
      await activity.settled();
      expect(page.url()).toBe(`http://localhost:${port}/`);
    });

  test('a 401 that persists after a fresh sign-in goes to sign-in once per minute, then says so', async ({
    page,
  }) => {
    await signInAs(page, 'north.anna');
    await page.route('**/api/facilities/documents*', (route) =>
      route.fulfill({ status: 401, json: { code: 'UNAUTHORIZED', message: 'Unauthorized' } }),
    );
    const loads = countPageLoads(page);
    const activity = watchActivity(page);
    await page.goto('/service/documents');
    await expect(page.getByRole('heading', { name: 'Your sign-in was not accepted' })).toBeVisible();
    await activity.settled();
    // One round trip (the deep link, /login, the provider, /login with the code, back in the app), no second.
    expect(loads.filter((p) => p === '/login')).toHaveLength(2);
    expect(loads.filter((p) => p === '/service/documents')).toHaveLength(1);
    await expect(page).toHaveURL(/\/service\/documents$/);
    await expect(page.getByRole('banner')).toBeVisible();
  });
});

test.describe('chunk and version failures', () => {
  test('a page chunk that fails to load shows the notice inside the shell; Reload loads it', async ({
    page,
  }) => {
    await signInAs(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    await page.route(/\/assets\/HelpPage-[^/]*\.js$/, (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    // The shell stays: top bar, menu, footer.
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByTestId('footer-version')).toBeVisible();
    await shoot(page, 'chunk-failed', () =>
      expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible(),
    );
    // Other pages still open from the menu.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Legal' }).click();
    await expect(page.getByRole('heading', { name: 'Legal', level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible();
    await page.unroute(/\/assets\/HelpPage-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
  });

  test('after a redeploy a failed chunk reloads the page by itself, once', async ({ page }) => {
    await signInAs(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    // A new build is served: the old chunk names are gone.
    await page.route('**/api/version', (route) =>
      route.fulfill({
        json: { version: '1.6.7', build: 'next-build' },
        headers: { 'cache-control': 'no-store' },
      }),
    );
    await page.route(/\/assets\/HelpPage-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    const loads = countPageLoads(page);
    const activity = watchActivity(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await expect.poll(() => loads).toEqual(['/help']);
    // Still missing after the reload (the route stays): the notice, and no second reload once all is done.
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible();
    await activity.settled();
    expect(loads).toEqual(['/help']);
  });

  test('after a new build is served, an open tab offers the reload', async ({ page }) => {
    await signInAs(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByTestId('update-available')).toHaveCount(0);
    await page.route('**/api/version', (route) =>
      route.fulfill({
        json: { version: '1.6.8', build: 'next-build' },
        headers: { 'cache-control': 'no-store' },
      }),
    );
    // The tab comes back into view (the check also runs every 5 minutes).
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const notice = page.getByTestId('update-available');
    await expect(notice).toContainText('A new version is available');
    const loads = countPageLoads(page);
    await notice.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => loads).toEqual(['/']);
  });
});

test.describe('offline from the browser', () => {
  test('the browser set offline shows the offline text, no endless loading, and recovers', async ({
    page,
    context,
  }) => {
    await signInAs(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    const ship = await firstShipId(page);
    await context.setOffline(true);
    await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
    // A page opened while offline ends in a notice, not in skeletons that never end.
    await page.getByTestId('drawer-ships').getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/ship/${ship}$`));
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible();
    await shoot(page, 'offline', () => expect(page.getByText(OFFLINE_TEXT)).toBeVisible());
    const loads = countPageLoads(page);
    await context.setOffline(false);
    await expect(page.getByText('Connection established')).toBeVisible();
    // The page reloads and the ship's page is there.
    await expect.poll(() => loads).toEqual([`/ship/${ship}`]);
    await expect(page.getByText(OFFLINE_TEXT)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toHaveCount(0);
    await expect(page.getByRole('banner')).toBeVisible();
  });

  test('queries started while the browser is offline fail into offline mode instead of waiting', async ({
    page,
    context,
  }) => {
    await signInAs(page, 'north.anna', '/help');
    await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
    // Load the ship list's code first, so only its data is missing offline.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Ships' }).click();
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await context.setOffline(true);
    await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
    const started: string[] = [];
    page.on('requestfailed', (r) => started.push(new URL(r.url()).pathname));
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Ships' }).click();
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    // The request was made and failed (TanStack Query did not hold it back waiting for the browser).
    await expect.poll(() => started.some((p) => p.startsWith('/api/'))).toBe(true);
    await context.setOffline(false);
    await expect(page.getByText('Connection established')).toBeVisible();
  });
});

test.describe('wrong host', () => {
  test('the portal opened at 127.0.0.1 instead of PUBLIC_URL says where to open it', async ({ page }) => {
    await page.goto(`http://127.0.0.1:${port}/ship/abc`);
    await acceptCookiesIfAsked(page);
    const notice = page.getByTestId('wrong-host');
    await expect(notice).toContainText('Open the portal at');
    await expect(notice.getByRole('link', { name: `http://localhost:${port}` })).toHaveAttribute(
      'href',
      `http://localhost:${port}/ship/abc`,
    );
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
  });

  test("the provider's sign-in page opened at 127.0.0.1 says where to open the portal", async ({ page }) => {
    const settings = await (await page.request.get('/settings.js')).text();
    const clientId = /"clientId":"([^"]+)"/.exec(settings)![1]!;
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `http://127.0.0.1:${port}/login`,
      response_type: 'code',
      scope: 'openid profile',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    await page.goto(`http://127.0.0.1:${port}/oidc/auth?${query}`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(`Open the portal at http://localhost:${port}`);
    // At the right address the sign-in page says nothing of the kind.
    await page.goto('/');
    await acceptCookiesIfAsked(page);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await fillSignIn(page, 'north.anna');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByTestId('wrong-host')).toHaveCount(0);
  });
});

/**
 * A portal of its own for the tests that stop the server: a fresh data folder (no demo, the first SystemAdmin from
 * ADMIN_USERNAME), behind a reverse proxy that answers 502 while the server is down, as nginx does. The browser
 * opens the proxy's address (PUBLIC_URL), so the sign-in and the tokens live on across a restart.
 */
class PortalBehindProxy {
  readonly serverPort = port + 100;
  readonly proxyPort = port + 200;
  readonly address = `http://localhost:${this.proxyPort}`;
  /** Made at the first start (not when the file loads: a run without these tests leaves nothing behind). */
  private dataDir: string | undefined;
  private server: ChildProcess | undefined;
  private proxy: http.Server | undefined;
  private readonly root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

  async start(): Promise<void> {
    this.dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-lost-'));
    const env = {
      ...process.env,
      PORT: String(this.serverPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: this.address,
      DATA_DIR: this.dataDir,
      DEMO: 'off',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'Admin1234',
      LOG_LEVEL: 'warn',
      LOGIN_ATTEMPTS_PER_MINUTE: '500',
    } as NodeJS.ProcessEnv;
    delete env.DATABASE_URL;
    const log = fs.openSync(path.join(this.root, 'e2e', '.artifacts', `server-${this.serverPort}.log`), 'a');
    const server = spawn('npx', ['tsx', 'apps/api/src/main.ts'], {
      cwd: this.root,
      env,
      stdio: ['ignore', log, log],
      detached: true,
    });
    this.server = server;
    // Up when it answers (a condition, polled by Playwright; an exited server fails at once).
    await expect
      .poll(
        async () => {
          if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
          return fetch(`http://127.0.0.1:${this.serverPort}/api/version`)
            .then((r) => r.ok)
            .catch(() => false);
        },
        { message: 'the server answers', timeout: 240_000, intervals: [300] },
      )
      .toBe(true);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    process.kill(-server.pid!, 'SIGTERM');
    const killed = setTimeout(() => process.kill(-server.pid!, 'SIGKILL'), 20_000);
    await exited;
    clearTimeout(killed);
  }

  /** The reverse proxy: passes everything on, and answers 502 (an HTML page) when the server does not answer. */
  async startProxy(): Promise<void> {
    this.proxy = http.createServer((request, response) => {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.serverPort,
          path: request.url,
          method: request.method,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => {
        if (response.headersSent) return response.destroy();
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      });
      request.pipe(upstream);
    });
    await new Promise<void>((r) => this.proxy!.listen(this.proxyPort, '127.0.0.1', r));
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise((r) => (this.proxy ? this.proxy.close(r) : r(undefined)));
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

test.describe('lost server', () => {
  // Once more on a failure: CI saw the page reload itself once after the server came back (stop 38, under a load
  // of 10), not seen in five runs here since, with or without load; the failure names the code the page asked for
  // meanwhile (watchCodeRequests), so a second sighting says why.
  test.describe.configure({ retries: 1 });
  const portal = new PortalBehindProxy();
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    await portal.startProxy();
    await portal.start();
  });
  test.afterAll(async () => {
    await portal.close();
  });

  test('the server stops under an open page: the notice says so, and when it is back the page carries on by itself', async ({
    page,
  }) => {
    test.setTimeout(420_000);
    await page.goto(`${portal.address}/admin/organizations`);
    await acceptCookiesIfAsked(page);
    await fillSignIn(page, 'admin');
    await expect(page.getByTestId('admin-organization-name')).toBeVisible();
    // The page at phone size once, while the server is there: the screenshots below, taken while it is down, must
    // not ask for code the page has not loaded yet (that would be a failed chunk, which reloads after recovery).
    const activity = watchActivity(page);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await expect(page.getByRole('banner')).toBeVisible();
      await activity.settled();
    }
    activity.stop();
    await page.setViewportSize({ width: 1440, height: 900 });
    const loads = countPageLoads(page);
    const code = watchCodeRequests(page);

    await portal.stop();
    // Nothing asked by the page itself: the check every 30 s notices.
    await expect(page.getByText(SERVER_UNREACHABLE)).toBeVisible({ timeout: 45_000 });
    await expect(page.getByText(OFFLINE_TEXT)).toHaveCount(0);
    await shoot(page, 'lost-server', () => expect(page.getByText(SERVER_UNREACHABLE)).toBeVisible());

    // Back: Connection established, the message goes, the page's data is fetched again, nothing reloads.
    const refetched = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/organizations' && r.status() === 200,
      { timeout: 240_000 },
    );
    await portal.start();
    await expect(page.getByText('Connection established')).toBeVisible({ timeout: 30_000 });
    await refetched;
    await expect(page.getByText(SERVER_UNREACHABLE)).toHaveCount(0);
    await expect(page.getByTestId('admin-organization-name')).toBeVisible();
    await expect(page.getByText('Connection established')).toHaveCount(0, { timeout: 10_000 });
    expect(loads, `the page's code asked for meanwhile: ${code.join(', ') || 'none'}`).toEqual([]);

    // Down again, and a page whose code has not arrived yet is opened: its notice, then it loads by itself.
    await portal.stop();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await expect(page.getByRole('heading', { name: CHUNK_FAILED })).toBeVisible();
    await expect(page.getByText(SERVER_UNREACHABLE)).toBeVisible({ timeout: 15_000 });
    await portal.start();
    await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible({ timeout: 30_000 });
    expect(loads).toEqual(['/help']);
    await expect(page.getByRole('banner')).toBeVisible();
  });
});

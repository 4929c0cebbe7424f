import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  type APIResponse,
  type Frame,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';

export const DEMO_PASSWORDS: Record<string, string> = {
  admin: 'Admin1234',
  'north.admin': 'North1234',
  'north.anna': 'Anna12345',
  'north.olav': 'Olav12345',
  'south.admin': 'South1234',
  'south.maria': 'Maria1234',
  'south.lee': 'Lee123456',
  'north.vera': 'Vera12345',
};

/** Fills the identity provider's sign-in form (the browser is already there). */
export async function fillSignIn(
  page: Page,
  username: string,
  password = DEMO_PASSWORDS[username]!,
): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Accepts cookies when the portal asks (the cookie sheet of the shell). */
export async function acceptCookiesIfAsked(page: Page): Promise<void> {
  const accept = page.getByRole('button', { name: /accept/i });
  // Wait until the app has decided: the cookie sheet, the sign-in form, or the signed-in shell.
  await expect(
    accept
      .or(page.getByRole('heading', { name: 'Sign in' }))
      .or(page.getByRole('banner'))
      .first(),
  ).toBeVisible();
  if (await accept.isVisible().catch(() => false)) await accept.click();
}

/** Opens `path` and signs in as `username` through the real OpenID flow. */
export async function signInAs(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(path);
  await acceptCookiesIfAsked(page);
  await fillSignIn(page, username);
  await acceptCookiesIfAsked(page);
}

/** A report's answer as reports/{id}/data gives it. */
export interface ReportData {
  information: string | null;
  fields: Record<string, { value: unknown; format: string | null }>;
}

/** A report answer the page received, with the request that asked for it. */
export interface ReceivedReport {
  data: ReportData;
  method: string;
  url: string;
  body: any;
}

/**
 * Collects the report data answers the page gets, by report id: the dashboards ask for all their reports in one
 * call (reports/data), each answer as reports/{id}/data gives it.
 */
export function collectReports(page: Page): Map<string, ReceivedReport> {
  const answers = new Map<string, ReceivedReport>();
  page.on('response', async (response) => {
    if (!/\/api\/reports\/data(\?|$)/.test(response.url()) || response.status() !== 200) return;
    const request = response.request();
    // A response of a page navigated away from has no body any more: it is not one we compare.
    const answer = (await response.json().catch(() => null)) as {
      reports: Record<string, ReportData>;
    } | null;
    for (const [id, data] of Object.entries(answer?.reports ?? {}))
      answers.set(id, { data, method: request.method(), url: request.url(), body: request.postDataJSON() });
  });
  return answers;
}

/**
 * Waits until the page is still, for a screenshot: every visible chart has finished drawing at its box's size
 * (EChart's data-drawn), every map is laid out for its box (MapCanvas's data-drawn), no finite CSS transition or
 * animation runs (a drawer sliding in, a table opening), and two more frames are painted (Leaflet draws its canvas
 * in the frame after a fit). A condition, not a pause: after a viewport change it holds once all has redrawn.
 */
export async function still(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const shown = (e: HTMLElement) => e.offsetParent !== null && e.clientWidth > 0 && e.clientHeight > 0;
    const drawn = (e: HTMLElement) => e.dataset.drawn === `${e.clientWidth}x${e.clientHeight}`;
    const canvases = [
      ...document.querySelectorAll<HTMLElement>('[data-ready], [data-testid="map-canvas"]'),
    ].filter(shown);
    const moving = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
    return canvases.every(drawn) && moving.length === 0;
  });
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Waits until the bell has decided whether to open by itself (its messages are in, nothing is due to open it):
 * after this, a list that is not open stays closed.
 */
export async function bellSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('message-bell')).toHaveAttribute('data-settled', 'true');
}

/**
 * Watches what the page does from now on, to wait until it has done everything it set out to do: `settled()` holds
 * once no request of the page is waiting for its answer (Playwright's own count, so a navigation, a chunk or a
 * sign-in round trip counts too), the app has no query or mutation running or waiting to retry (the root's `data-fetching`,
 * apps/web/src/lib/query-client.ts), and that is still so after another frame and task with no new request. From
 * then on only a timer of the app (the connectivity check every 30 s, the version check every 5 minutes) or the
 * test itself makes anything happen: what a test checks then is final, with no window of time watched.
 */
export function watchActivity(page: Page): { settled: () => Promise<void>; stop: () => void } {
  const inFlight = new Set<Request>();
  let started = 0;
  const onRequest = (request: Request) => {
    started++;
    inFlight.add(request);
  };
  const onDone = (request: Request) => inFlight.delete(request);
  // Answered: a request a test's route fulfils gets its response but not always a finished event.
  const onResponse = (response: Response) => inFlight.delete(response.request());
  // A new document in the tab: what the one before had in flight was cancelled with it (and Playwright does not
  // always say so).
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) inFlight.clear();
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  page.on('framenavigated', onNavigated);
  const appFetching = () =>
    page
      .evaluate(
        () =>
          new Promise<string | undefined>((resolve) =>
            requestAnimationFrame(() =>
              setTimeout(() => resolve(document.documentElement.dataset.fetching), 0),
            ),
          ),
      )
      // A page that is being replaced has no answer: not settled.
      .catch(() => 'the page is being replaced');
  return {
    settled: async () => {
      await expect
        .poll(
          async () => {
            const before = started;
            const fetching = await appFetching();
            if (fetching !== '0') return `the app has ${fetching} queries or mutations running`;
            if (inFlight.size > 0) return `in flight: ${[...inFlight].map((r) => r.url()).join(', ')}`;
            return started === before ? 'settled' : 'a new request started';
          },
          { message: 'the page settles: nothing in flight, nothing more asked', timeout: 60_000 },
        )
        .toBe('settled');
    },
    stop: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      page.off('framenavigated', onNavigated);
    },
  };
}

/** The page's own access token (oidc-client-ts keeps the signed-in user in sessionStorage), for calls to the API. */
export async function accessToken(page: Page): Promise<string> {
  let token: string | null = null;
  await expect
    .poll(async () => {
      token = await page
        .evaluate(() => {
          const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
          return key ? (JSON.parse(sessionStorage.getItem(key)!).access_token as string) : null;
        })
        .catch(() => null);
      return token;
    })
    .not.toBeNull();
  return token!;
}

/** The WCAG 2.1 A and AA rules: what every accessibility check in these tests holds the pages to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Waits until every animation and transition on the page that ends has ended (a spinner's endless one is left
 * alone). Colours are judged as they end up: a chip whose text turned white at once while its background still fades
 * from grey to green reads as too little contrast for the transition's 300 ms (seen in CI on an inspection pack that
 * turned "Ready").
 */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** What axe finds on the page, or on what `include` holds, once its transitions have ended. */
export async function axeFindings(
  page: Page,
  options: { include?: string; tags?: string[] } = {},
): Promise<Awaited<ReturnType<AxeBuilder['analyze']>>['violations']> {
  await transitionsEnded(page);
  // Without frames on the page axe runs in it alone (legacy mode): the default merges the frames' results in a blank
  // page of its own, which took 40 % of each scan (7 s of 16 on a table of 400 rows, a busy 2-core machine). A page
  // with a frame (the outbox shows an e-mail in one) is scanned frames and all.
  const frames = await page.locator('iframe').count();
  let builder = new AxeBuilder({ page }).withTags(options.tags ?? WCAG_TAGS).setLegacyMode(frames === 0);
  if (options.include) builder = builder.include(options.include);
  return (await builder.analyze()).violations;
}

/** axe (WCAG 2.1 A and AA) on what `include` holds (the whole page without it): nothing found at all. */
export async function noViolations(page: Page, include?: string): Promise<void> {
  const found = await axeFindings(page, { include });
  expect(found.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** axe (WCAG 2.1 A and AA, best practices unless told otherwise) on what `include` holds: no critical or serious finding. */
export async function noSeriousViolations(
  page: Page,
  include?: string,
  tags: string[] = [...WCAG_TAGS, 'best-practice'],
): Promise<void> {
  const found = await axeFindings(page, { include, tags });
  const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target).join(' ')}`),
  ).toEqual([]);
}

/** Closes the notifications one after the other, so that none covers a screenshot. */
export async function closeNotifications(page: Page): Promise<void> {
  await expect
    .poll(async () => {
      const shown = page.getByTestId('notification');
      if ((await shown.count()) === 0) return 0;
      await shown
        .getByRole('button', { name: /close/i })
        .click({ timeout: 2000 })
        .catch(() => undefined);
      return shown.count();
    })
    .toBe(0);
}

/**
 * The e2e server's embedded MQTT broker (global-setup.ts): a port of its own, 1000 above the HTTP port (E2E_PORT),
 * so that the servers of several checkouts on one machine do not meet; E2E_MQTT_PORT names another.
 */
export function mqttPort(): number {
  return Number(process.env.E2E_MQTT_PORT ?? Number(process.env.E2E_PORT ?? 18181) + 1000);
}

/** Where a spec's own edge node connects (live.spec.ts). */
export const mqttUrl = (): string => `mqtt://127.0.0.1:${mqttPort()}`;

/** The API as the signed-in user of `page` calls it (its bearer token); each answer must be a success. */
export async function apiClient(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const ok = async <T>(response: Promise<APIResponse>): Promise<T> => {
    const answer = await response;
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return (await answer.json().catch(() => null)) as T;
  };
  return {
    get: <T>(url: string) => ok<T>(page.request.get(url, { headers })),
    post: <T>(url: string, data: unknown) => ok<T>(page.request.post(url, { headers, data })),
    put: <T>(url: string, data: unknown) => ok<T>(page.request.put(url, { headers, data })),
    delete: <T>(url: string) => ok<T>(page.request.delete(url, { headers })),
    upload: <T>(url: string, name: string, content: string) =>
      ok<T>(
        page.request.post(url, {
          headers,
          multipart: { file: { name, mimeType: 'text/csv', buffer: Buffer.from(content) } },
        }),
      ),
  };
}
export type ApiClient = Awaited<ReturnType<typeof apiClient>>;

/** A channel of a spec's own ship: its logger column (the source) is named as its measurement field. */
export interface ShipChannel {
  name: string;
  dataType: 'Double' | 'Boolean';
  unit: string;
}

/**
 * A new ship of the first organization the client sees, with a CSV data source (a `Timestamp` column, a minute's
 * interval, UTC) whose channels map the columns named as their fields, the default calculations made (drafts) and
 * those of the channels' fields approved from 2020: what live.spec.ts streams and zone-warnings.spec.ts uploads to.
 */
export async function createShipWithChannels(
  client: ApiClient,
  name: string,
  dataSourceName: string,
  channels: readonly ShipChannel[],
): Promise<{ shipId: string; dataSourceId: string }> {
  const ships = await client.get<{ primaryOrganizationId: string }[]>('/api/facilities');
  const ship = await client.post<{ id: string }>('/api/facilities', {
    organizationId: ships[0]!.primaryOrganizationId,
    name,
  });
  const source = await client.post<{ id: string }>(`/api/algorithm/facility/${ship.id}/datasource`, {
    name: dataSourceName,
    dataSourceReaderId: 'delimited-text',
    dataSourceReaderConfiguration: JSON.stringify({
      delimiter: ',',
      decimalSeparator: '.',
      headerRow: 1,
      firstDataRow: 2,
      timestampColumns: ['Timestamp'],
      timestampFormat: 'YYYY-MM-DD HH:mm:ss',
    }),
    measureFrequencyInSeconds: 60,
    utcTimezoneOffsetInMinutes: 0,
    note: '',
    isPrimary: true,
  });
  for (const channel of channels)
    await client.post(`/api/algorithm/facilitydatasource/${source.id}/facilitydatasourcechannels`, {
      source: channel.name,
      name: channel.name,
      dataType: channel.dataType,
      description: '',
      unit: channel.unit,
      qualityScore: 5,
    });
  // With the channels there: the default calculations (drafts), those of the channels' fields approved.
  await client.post(`/api/algorithm/measurement-fields/facility/${ship.id}/default-calculations`, {});
  const fields = await client.get<{ id: string; name: string }[]>(
    `/api/algorithm/measurement-fields/facility/${ship.id}`,
  );
  for (const field of fields.filter((f) => channels.some((c) => c.name === f.name))) {
    const base = `/api/algorithm/facility/${ship.id}/measurement-field/${field.id}/calculations`;
    for (const calculation of await client.get<{ id: string }[]>(base))
      await client.put(`${base}/${calculation.id}/approve`, { validFrom: '2020-01-01T00:00:00Z' });
  }
  return { shipId: ship.id, dataSourceId: source.id };
}

import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORDS: Record<string, string> = {
  admin: 'Admin1234',
  'north.admin': 'North1234',
  'north.anna': 'Anna12345',
  'north.olav': 'Olav12345',
  'south.admin': 'South1234',
  'south.maria': 'Maria1234',
  'south.lee': 'Lee123456',
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

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

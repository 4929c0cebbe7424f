import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { acceptCookiesIfAsked, axeFindings, fillSignIn, WCAG_TAGS, accessToken } from '../support';

/**
 * Axe (WCAG 2.1 A and AA, best practices, experimental rules) on every route of the route table
 * (apps/web/src/shell/router.tsx) for each role, at desktop and phone size: one browser context per role and size.
 * Nothing critical or serious may be found, and no page is wider than the screen; the moderate and minor findings
 * are written to e2e/.artifacts/accessibility/ and listed with their reasons in docs/accessibility.md.
 */

// Axe's best practices too (headings, landmarks): reported, and held to the same bar (nothing serious). And its
// experimental rules, off by default: among them label-in-name (WCAG 2.5.3, label-content-name-mismatch), which
// found the drawer's period button named "Period" while it shows "Last month …" on every desktop page.
const TAGS = [...WCAG_TAGS, 'best-practice', 'experimental'];
const SIZES = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
type Size = keyof typeof SIZES;

interface Ids {
  facilityId: string;
  fieldId: string;
  /** An event of the role's ships: one that needs a report where there is one (its page has the most on it). */
  eventId: string;
  /** A voyage of the first ship, when it has one. */
  voyageId?: string;
  reportId?: string;
  organizationId?: string;
  /** `?year=…` where the role reads a year only (a verifier, the year it verifies); else empty. */
  period: string;
}

/** Who signs in for each role: the README's demo users. A role added later: one line here, and its name in the
 * `only` lists of the routes it may open. */
const ROLES = [
  { role: 'SystemAdmin', username: 'admin' },
  { role: 'UserAdmin', username: 'north.admin' },
  { role: 'User', username: 'north.anna' },
  { role: 'Verifier', username: 'north.vera' },
] as const;
type Role = (typeof ROLES)[number]['role'];

const SYSTEM_ADMIN: readonly Role[] = ['SystemAdmin'];
const ADMINISTRATORS: readonly Role[] = ['SystemAdmin', 'UserAdmin'];
/** The fleet's screens (apps/web/src/lib/access.ts FLEET_ROLES): every role but Verifier. */
const FLEET: readonly Role[] = ['SystemAdmin', 'UserAdmin', 'User'];
/** A verifier's own view and its year's (the administrators read it for their organization). */
const VERIFICATION_READERS: readonly Role[] = ['Verifier', 'SystemAdmin', 'UserAdmin'];
/** An id no object has: routes a role may not open are refused before anything is asked. */
const NO_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Every route of the route table (apps/web/src/shell/router.tsx; a new route gets a line here), with the roles that
 * may open it (its `handle.roles`; none: every role). Each role visits every route: one it may open is scanned as
 * it shows, one it may not must show the no-access view (scanned once per role and size: the same view).
 * Redirects (`/facilities`, `/service`, `/admin`, `/report-config`, a ship's `config`) land on routes of the list.
 * `/login` (the sign-in page) and `/unsubscribe` are scanned without a session below; `/logoff` signs out.
 */
const ROUTES: { path: (ids: Ids) => string; only?: readonly Role[] }[] = [
  { path: () => '/' },
  { path: (ids) => `/ship/${ids.facilityId}`, only: FLEET },
  { path: (ids) => `/ship/${ids.facilityId}/map`, only: FLEET },
  { path: (ids) => `/ship/${ids.facilityId}/carbon`, only: FLEET },
  { path: () => '/map', only: FLEET },
  { path: () => '/carbon/calendar', only: FLEET },
  { path: () => '/carbon/cockpit', only: FLEET },
  { path: () => '/KPIWidgetPreview', only: FLEET },
  { path: () => '/facilities/overview', only: FLEET },
  { path: (ids) => `/facilities/${ids.facilityId}/files`, only: FLEET },
  { path: (ids) => `/facilities/${ids.facilityId}/events`, only: FLEET },
  { path: (ids) => `/facilities/${ids.facilityId}/record-book${ids.period}` },
  { path: (ids) => `/facilities/${ids.facilityId}/voyages/${ids.voyageId ?? NO_ID}`, only: FLEET },
  { path: (ids) => `/facilities/${ids.facilityId}/fuel-records${ids.period}` },
  { path: (ids) => `/facilities/${ids.facilityId}/inspection-packs`, only: FLEET },
  { path: (ids) => `/facilities/${ids.facilityId}/config/info`, only: SYSTEM_ADMIN },
  { path: (ids) => `/facilities/${ids.facilityId}/config/channels`, only: SYSTEM_ADMIN },
  { path: (ids) => `/facilities/${ids.facilityId}/config/calculation-queue`, only: SYSTEM_ADMIN },
  { path: (ids) => `/facilities/${ids.facilityId}/config/list`, only: SYSTEM_ADMIN },
  { path: (ids) => `/facilities/${ids.facilityId}/config/detail?id=${ids.fieldId}`, only: SYSTEM_ADMIN },
  { path: (ids) => `/facilities/${ids.facilityId}/config/data-health`, only: SYSTEM_ADMIN },
  { path: () => '/events', only: FLEET },
  { path: (ids) => `/events/${ids.eventId}`, only: FLEET },
  { path: () => '/service/pureserv', only: FLEET },
  { path: () => '/service/full-remote-access', only: FLEET },
  { path: () => '/service/tailor-made-service-agreements', only: FLEET },
  { path: () => '/service/documents', only: FLEET },
  { path: () => '/report-config/overview', only: SYSTEM_ADMIN },
  { path: () => '/report-config/calculation-queue', only: SYSTEM_ADMIN },
  { path: () => '/report-config/data-export', only: SYSTEM_ADMIN },
  { path: (ids) => `/report-config/detail/${ids.reportId ?? NO_ID}`, only: SYSTEM_ADMIN },
  { path: () => '/admin/organizations', only: SYSTEM_ADMIN },
  { path: () => '/admin/messages', only: SYSTEM_ADMIN },
  { path: () => '/admin/maintenance', only: SYSTEM_ADMIN },
  { path: () => '/admin/outbox', only: SYSTEM_ADMIN },
  { path: () => '/admin/data-retention', only: SYSTEM_ADMIN },
  { path: (ids) => `/admin/${ids.organizationId}/manage`, only: ADMINISTRATORS },
  { path: (ids) => `/admin/${ids.organizationId}/webhooks`, only: ADMINISTRATORS },
  // A verifier's own view (its years; e2e/tests/verifier.spec.ts invites one); administrators read their organization's.
  { path: () => '/verification', only: VERIFICATION_READERS },
  { path: () => `/verification/${new Date().getUTCFullYear()}`, only: VERIFICATION_READERS },
  {
    path: (ids) => `/verification/${ids.organizationId}/${new Date().getUTCFullYear()}`,
    only: ADMINISTRATORS,
  },
  { path: () => '/help' },
  { path: () => '/legal' },
  { path: () => '/profile' },
  { path: () => '/no/such/page' },
];

const NO_ACCESS = 'You do not have access to this page';

interface Finding {
  role: string;
  size: Size;
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');
/** Every finding of a test in e2e/.artifacts/accessibility/{role}-{size}.json (moderate ones feed docs/accessibility.md). */
function record(role: string, size: Size, found: Finding[]): void {
  const folder = path.join(artifacts, 'accessibility');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${role}-${size}.json`), JSON.stringify(found, null, 2));
}

async function api<T>(page: Page, url: string): Promise<T> {
  // Right after sign-in the app may still be leaving the callback address: ask until the token is there.
  const token = await accessToken(page);
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `GET ${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

async function idsFor(page: Page, role: Role): Promise<Ids> {
  if (role === 'Verifier') {
    // A verifier reads the ledger of the years it verifies: its ships are those of its year's figures.
    const year = new Date().getUTCFullYear();
    const { organizationId } = await api<{ organizationId: string }>(page, '/api/auth/me');
    const figures = await api<{ ships: { facilityId: string }[] }>(
      page,
      `/api/organizations/${organizationId}/verification/${year}`,
    );
    return {
      facilityId: figures.ships[0]!.facilityId,
      fieldId: NO_ID,
      eventId: NO_ID,
      organizationId,
      period: `?year=${year}`,
    };
  }
  const facilities = await api<{ id: string }[]>(page, '/api/facilities');
  const facilityId = facilities[0]!.id;
  const fields = await api<{ id: string }[]>(
    page,
    `/api/algorithm/measurement-fields/facility/${facilityId}`,
  );
  const reported = await api<{ items: { id: string }[] }>(page, '/api/events?reportRequired=true&limit=1');
  const anyEvent = await api<{ items: { id: string }[] }>(page, '/api/events?limit=1');
  const ids: Ids = {
    facilityId,
    fieldId: fields[0]!.id,
    eventId: (reported.items[0] ?? anyEvent.items[0])!.id,
    voyageId: (await api<{ id: string }[]>(page, `/api/facilities/${facilityId}/voyages`))[0]?.id,
    period: '',
  };
  if (role === 'SystemAdmin') {
    ids.reportId = (await api<{ id: string }[]>(page, '/api/algorithm/reports'))[0]!.id;
    ids.organizationId = (await api<{ id: string }[]>(page, '/api/organizations'))[0]!.id;
  } else {
    ids.organizationId = (await api<{ organizationId: string }>(page, '/api/auth/me')).organizationId;
  }
  return ids;
}

/**
 * Waits until the page shows its one h1 (every page has one: part of the check) and its data: no skeleton or
 * progress bar left and the charts drawn, within reason (a queue may keep a progress bar running).
 */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('h1'), 'one h1 on the page').toHaveCount(1);
  await expect(page.locator('.MuiSkeleton-root, .MuiLinearProgress-indeterminate, [data-ready="false"]'))
    .toHaveCount(0, { timeout: 5_000 })
    .catch(() => undefined);
}

async function scan(page: Page, role: string, size: Size, url: string): Promise<Finding[]> {
  // Colours are judged as they end up (axeFindings waits for the transitions): a fade-in caught half-way reads as too
  // little contrast.
  return (await axeFindings(page, { tags: TAGS })).map((v) => ({
    role,
    size,
    page: url,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}

async function signedIn(browser: Browser, username: string, size: Size) {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  await page.goto('/');
  await acceptCookiesIfAsked(page);
  return { context, page };
}

const blocking = (f: Finding) => f.impact === 'critical' || f.impact === 'serious';
const describe = (list: Finding[]) =>
  list.map((f) => `${f.impact} ${f.rule} on ${f.page}: ${f.help} (${f.targets.join(', ')})`).join('\n');

test.describe('accessibility (axe, WCAG 2.1 A and AA)', () => {
  for (const size of Object.keys(SIZES) as Size[]) {
    test(`the sign-in page has nothing critical or serious (${size})`, async ({ browser }) => {
      const { context, page } = await signedIn(browser, '', size);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      const found = await scan(page, 'anonymous', size, 'sign-in');
      record('anonymous', size, found);
      await context.close();
      expect(found.filter(blocking), describe(found.filter(blocking))).toEqual([]);
    });
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    test(`the unsubscribe page of an alert e-mail, before cookies are accepted, has nothing critical or serious (${size})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: SIZES[size] });
      const page = await context.newPage();
      await page.goto('/unsubscribe?token=not-a-token');
      // The page itself, with the cookie sheet above it: nothing covers it.
      await expect(page.getByRole('heading', { name: 'Stop alert e-mails', level: 1 })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Cookies' })).toBeVisible();
      await expect(page.getByRole('alert')).toBeVisible();
      const heading = await page.getByRole('heading', { name: 'Stop alert e-mails' }).boundingBox();
      const sheet = await page.getByRole('region', { name: 'Cookies' }).boundingBox();
      expect(heading!.y).toBeGreaterThanOrEqual(sheet!.y + sheet!.height);
      await page.screenshot({
        path: path.join(artifacts, 'accessibility', 'screens', `unsubscribe-${size}.png`),
        fullPage: true,
      });
      const found = await scan(page, 'anonymous', size, '/unsubscribe');
      record('unsubscribe', size, found);
      await context.close();
      expect(found.filter(blocking), describe(found.filter(blocking))).toEqual([]);
    });
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    test(`the data source dialog with its reader form and preview has nothing critical or serious (${size})`, async ({
      browser,
    }) => {
      const { context, page } = await signedIn(browser, 'admin', size);
      await fillSignIn(page, 'admin');
      await acceptCookiesIfAsked(page);
      const { facilityId } = await idsFor(page, 'SystemAdmin');
      await page.goto(`/facilities/${facilityId}/config/channels`);
      await settle(page);
      await page
        .locator('[data-testid^="datasource-"]')
        .first()
        .getByRole('button', { name: /^Edit / })
        .click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('region', { name: /^First rows of / })).toBeVisible();
      await dialog.getByRole('button', { name: 'Advanced' }).click();
      await expect(dialog.getByLabel('Parser configuration (JSON)')).toBeVisible();
      const found = await scan(page, 'SystemAdmin', size, 'data source dialog');
      // The dialog as it opens and scrolled to its preview, to look at (e2e/.artifacts/accessibility/screens).
      const shot = (name: string) =>
        dialog.screenshot({
          path: path.join(artifacts, 'accessibility', 'screens', `data-source-dialog-${size}-${name}.png`),
        });
      await dialog.getByLabel('Name').scrollIntoViewIfNeeded();
      await shot('top');
      await dialog.getByRole('switch', { name: 'Date and time in two columns' }).scrollIntoViewIfNeeded();
      await shot('form');
      await dialog.getByRole('region', { name: /^First rows of / }).scrollIntoViewIfNeeded();
      await shot('preview');
      await context.close();
      expect(found.filter(blocking), describe(found.filter(blocking))).toEqual([]);
    });
  }

  for (const { role, username } of ROLES) {
    for (const size of Object.keys(SIZES) as Size[]) {
      test(`every route for a ${role} has nothing critical or serious (${size})`, async ({ browser }) => {
        // The sign-in, then up to 20 s for each route (a busy 2-core machine: the CI runs the PostgreSQL tests beside
        // the browser's; 420 s in all was too little for the SystemAdmin's 49 routes there).
        test.setTimeout(60_000 + ROUTES.length * 20_000);
        const { context, page } = await signedIn(browser, username, size);
        await fillSignIn(page, username);
        await acceptCookiesIfAsked(page);
        await expect(page.getByRole('banner')).toBeVisible();
        const ids = await idsFor(page, role);
        const found: Finding[] = [];
        const timings: string[] = [];
        fs.mkdirSync(path.join(artifacts, 'accessibility'), { recursive: true });
        let noAccessScanned = false;
        for (const route of ROUTES) {
          const url = route.path(ids);
          const mayOpen = !route.only || route.only.includes(role);
          await test.step(url, async () => {
            const started = Date.now();
            // A route the role may open must not be refused by the API; one it may not shows the no-access view.
            const refused: string[] = [];
            const onResponse = (r: { status(): number; url(): string }) => {
              if (r.status() === 403) refused.push(r.url());
            };
            page.on('response', onResponse);
            await page.goto(url);
            if (!mayOpen) {
              await expect(page.getByRole('heading', { name: NO_ACCESS }), `${role} at ${url}`).toBeVisible();
              page.off('response', onResponse);
              expect(refused, `${role} at ${url}: nothing is asked`).toEqual([]);
              if (noAccessScanned) return;
              noAccessScanned = true;
            }
            await settle(page);
            page.off('response', onResponse);
            expect(refused, `${role} may not open ${url}`).toEqual([]);
            if (mayOpen)
              await expect(page.getByRole('heading', { name: NO_ACCESS }), `${role} at ${url}`).toHaveCount(
                0,
              );
            const settled = Date.now();
            // Nothing pushes the page wider than the screen (a sideways scroll on a phone); the message names
            // the innermost elements that reach its right edge.
            const overflow = await page.evaluate(() => {
              const width = document.documentElement.clientWidth;
              const scrollWidth = document.documentElement.scrollWidth;
              if (scrollWidth <= width) return { scrollWidth, width, out: [] as string[] };
              // The elements that reach the page's right edge: those that make it scroll.
              const out = [...document.body.querySelectorAll('*')].filter(
                (e) => e.getBoundingClientRect().right >= scrollWidth - 1,
              );
              return {
                scrollWidth,
                width,
                out: out
                  .filter((e) => !out.some((o) => o !== e && e.contains(o)))
                  .slice(0, 5)
                  .map(
                    (e) =>
                      `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 2).join('.')} "${(e.textContent ?? '').slice(0, 40)}"`,
                  ),
              };
            });
            expect(
              overflow.scrollWidth,
              `${url} is wider than the screen (${overflow.width} px): ${overflow.out.join(', ')}`,
            ).toBeLessThanOrEqual(overflow.width);
            found.push(...(await scan(page, role, size, url)));
            // E2E_SCREENSHOTS=1: each page as scanned, to look at (e2e/.artifacts/accessibility/screens).
            if (process.env.E2E_SCREENSHOTS)
              await page.screenshot({
                path: path.join(
                  artifacts,
                  'accessibility',
                  'screens',
                  `${role}-${size}${url.replace(/\W+/g, '_')}.png`,
                ),
                fullPage: true,
              });
            const outline = await page
              .locator('h1, h2, h3, h4, h5, h6')
              .evaluateAll((list) =>
                list.map((h) => `${h.tagName} ${h.textContent?.slice(0, 30)}`).join(' | '),
              );
            timings.push(
              `${url}${mayOpen ? '' : ' (no access)'} settle ${settled - started} ms, axe ${Date.now() - settled} ms\n   ${outline}`,
            );
            // Written as it goes: a test that runs out of time still says where the time went.
            fs.writeFileSync(
              path.join(artifacts, 'accessibility', `${role}-${size}.pages.txt`),
              timings.join('\n'),
            );
          });
        }
        record(role, size, found);
        await context.close();
        expect(found.filter(blocking), describe(found.filter(blocking))).toEqual([]);
      });
    }
  }
});

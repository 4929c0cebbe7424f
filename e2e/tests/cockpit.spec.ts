import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { ComplianceCalendar } from '@portal/contracts/compliance-calendar';
import type { CostCockpit } from '@portal/contracts/cost-cockpit';
import { signInAs, still, accessToken, noSeriousViolations, closeNotifications } from '../support';

/**
 * The compliance calendar and the cost cockpit (decision 0119) as the demo fleet's administrator (north.admin):
 * the calendar's deadlines and states are the API's, one is marked done through the dialog; the cockpit shows the
 * regimes the portal has no figures for as "Not available yet" and, once fuel prices are entered, each ship's
 * scrubber savings as the API computes them. Axe finds nothing serious; screenshots at 1440x900 and 390x844 go to
 * e2e/.artifacts/screenshots/cockpit-*.png.
 */

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const YEAR = new Date().getUTCFullYear();
const EUROS = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});

async function screenshots(page: Page, name: string) {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await still(page);
    await noSeriousViolations(page, 'main');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `cockpit-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await still(page);
}

test('the compliance calendar and the cost cockpit, as the API has them', async ({ page }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await signInAs(page, 'north.admin', '/');
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const get = async <T>(url: string): Promise<T> => {
    const response = await page.request.get(url, { headers: auth });
    expect(response.status(), `GET ${url}`).toBe(200);
    return (await response.json()) as T;
  };
  const profile = await get<{ organizationId: string }>('/api/auth/me');

  // 1. The calendar, from the drawer: each deadline's date and state as the API has them.
  await page.getByRole('link', { name: 'Compliance calendar' }).click();
  await expect(page).toHaveURL(/\/carbon\/calendar$/);
  const calendar = await get<ComplianceCalendar>(
    `/api/organizations/${profile.organizationId}/compliance-calendar?year=${YEAR}`,
  );
  const rows = page.getByTestId('deadline');
  await expect(rows).toHaveCount(calendar.deadlines.length);
  expect(await rows.evaluateAll((r) => r.map((e) => `${e.dataset.code} ${e.dataset.state}`))).toEqual(
    calendar.deadlines.map((d) => `${d.code} ${d.state}`),
  );
  test.info().annotations.push({
    type: 'calendar',
    description: calendar.deadlines.map((d) => `${d.dueOn} ${d.code} ${d.state}`).join('; '),
  });
  // Mark the first one not done as done, through the dialog.
  const open = calendar.deadlines.find((d) => d.state !== 'done');
  if (open) {
    const row = page.locator(`[data-testid="deadline"][data-code="${open.code}"]`);
    await row.getByTestId('mark-done').click();
    const dialog = page.getByRole('dialog', { name: 'Mark as done' });
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Filed by the e2e test, ref. E2E-1');
    await dialog.getByRole('button', { name: 'Mark as done' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute('data-state', 'done');
    await expect(row.getByText('Filed by the e2e test, ref. E2E-1')).toBeVisible();
    const after = await get<ComplianceCalendar>(
      `/api/organizations/${profile.organizationId}/compliance-calendar?year=${YEAR}`,
    );
    expect(after.deadlines.find((d) => d.code === open.code)!.done?.note).toBe(
      'Filed by the e2e test, ref. E2E-1',
    );
  }
  await closeNotifications(page);
  await screenshots(page, 'calendar');

  // 2. The cockpit: an EU allowance price entered (the EU ETS feature's own route), no fuel prices yet, then fuel
  // prices entered through the page; figures as the API has them.
  const eua = await page.request.post(`/api/organizations/${profile.organizationId}/eua-prices`, {
    headers: auth,
    data: { on: `${YEAR}-11-01`, eurPerAllowance: 72.5 },
  });
  expect(eua.status(), await eua.text()).toBe(201);
  await page.getByRole('link', { name: 'Cost cockpit' }).click();
  await expect(page).toHaveURL(/\/carbon\/cockpit$/);
  const before = await get<CostCockpit>(`/api/cost-cockpit?year=${YEAR}`);
  await expect(page.getByTestId('cockpit-ship')).toHaveCount(before.ships.length);
  for (const [i, regime] of (['EU_ETS', 'FUELEU', 'UK_ETS'] as const).entries()) {
    const fleet = before.fleet.regimes[regime];
    await expect(page.getByTestId('fleet-regime-value').nth(i)).toHaveText(
      fleet.available ? EUROS.format(fleet.eurToDate) : 'Not available yet',
    );
  }
  await page.getByTestId('enter-prices').click();
  const dialog = page.getByRole('dialog', { name: 'Fuel prices' });
  await dialog.getByRole('textbox', { name: 'HSFO' }).fill('455');
  await dialog.getByRole('textbox', { name: 'VLSFO' }).fill('590');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('fuel-prices-text')).toContainText('a spread of €135/t');
  const cockpit = await get<CostCockpit>(`/api/cost-cockpit?year=${YEAR}`);
  expect(cockpit.fuelPrice).toMatchObject({ hsfoEurPerTonne: 455, vlsfoEurPerTonne: 590 });
  const priced = cockpit.ships.filter((s) => s.scrubber);
  expect(priced.length, 'the demo ships burn HSFO with their scrubbers this year').toBeGreaterThan(0);
  for (const ship of priced) {
    const row = page.locator(`[data-testid="cockpit-ship"][data-ship-id="${ship.shipId}"]`);
    await expect(row.getByTestId('ship-net')).toContainText(EUROS.format(ship.scrubber!.netEur));
  }
  await expect(page.getByTestId('fleet-scrubber-net')).toHaveText(
    EUROS.format(cockpit.fleet.scrubberNetEur!),
  );
  for (const ship of cockpit.ships) {
    const row = page.locator(`[data-testid="cockpit-ship"][data-ship-id="${ship.shipId}"]`);
    const eu = ship.regimes.EU_ETS;
    await expect(row.locator('td').nth(0)).toContainText(
      eu.available ? EUROS.format(eu.eurToDate) : 'Not available yet',
    );
  }
  test.info().annotations.push({
    type: 'cockpit',
    description: cockpit.ships
      .map(
        (s) =>
          `${s.shipName}: ${s.daysWithData} d, HSFO ${s.scrubber?.hsfoTonnes.toFixed(1)} t, power ${s.scrubber?.penaltyTonnes.toFixed(1)} t, net ${s.scrubber?.netEur.toFixed(0)} EUR, projected ${s.scrubber?.projectedNetEur?.toFixed(0)} EUR; EU ETS ${s.regimes.EU_ETS.available ? s.regimes.EU_ETS.eurToDate.toFixed(0) : 'n/a'}, FuelEU ${s.regimes.FUELEU.available ? s.regimes.FUELEU.eurToDate.toFixed(0) : 'n/a'}, UK ETS ${s.regimes.UK_ETS.available ? s.regimes.UK_ETS.eurToDate.toFixed(0) : 'n/a'}`,
      )
      .join('; '),
  });
  for (const a of test.info().annotations) console.log(`${a.type}: ${a.description}`);
  await closeNotifications(page);
  await screenshots(page, 'cockpit');
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { ExecutionStatus } from '@portal/contracts/executions';
import type { VerificationYear } from '@portal/contracts/verification';
import { acceptCookiesIfAsked, fillSignIn, signInAs, still, accessToken, axeFindings } from '../support';

/**
 * A verifier's seat end to end (docs/decisions/0115-verifier.md): North's administrator invites a verifier for this
 * year on the organization's page; the invitation e-mail (the embedded outbox, read by the SystemAdmin) holds the
 * link where the verifier chooses a password; a bunker delivery note far above what the flow meters burnt is
 * entered through the API with the soundings around the year; the verifier signs in, sees only its verification,
 * finds the misstatement above 5 % between the note and the flow meters, records it as a finding and its opinion,
 * and the year shows as locked; then it follows the ship's links to its bunker delivery notes and record book of the
 * year, read only. axe finds nothing serious on its view at desktop and phone size nor on those two pages;
 * screenshots go to e2e/.artifacts/screenshots/verifier-*.png.
 */

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');
const EMAIL = 'vera.verifier@example.com';
const PASSWORD = 'Verify2026x';
const YEAR = new Date().getUTCFullYear();
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

async function axeSerious(page: Page): Promise<string[]> {
  return (await axeFindings(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target).join(' ')}`);
}

test('an invited verifier finds a misstatement above 5 % between a BDN and the flow meters, records it and its opinion, and the year locks', async ({
  browser,
}) => {
  test.setTimeout(300_000);

  // North's administrator invites the verifier on the organization's page.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAs(admin, 'north.admin', '/admin');
  await expect(admin.getByTestId('manage-organization-name')).toBeVisible();
  const token = await accessToken(admin);
  const api = async <T>(url: string, init: { method?: string; data?: unknown } = {}): Promise<T> => {
    const response = await admin.request.fetch(url, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}` },
      ...(init.data !== undefined ? { data: init.data } : {}),
    });
    expect(
      response.ok(),
      `${init.method ?? 'GET'} ${url}: ${response.status()} ${await response.text()}`,
    ).toBe(true);
    return (await response.json()) as T;
  };
  const me = await api<{ organizationId: string }>('/api/auth/me');
  const verifiers = admin.getByTestId('verifiers');
  await verifiers.getByRole('button', { name: 'Invite verifier' }).click();
  const invite = admin.getByRole('dialog', { name: 'Invite verifier' });
  await invite.getByLabel('E-mail').fill(EMAIL);
  await invite.getByLabel('Reporting years').fill(String(YEAR));
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(admin.getByTestId('notification')).toContainText(`${EMAIL} was invited`);
  await expect(verifiers.getByTestId('verifier-row').filter({ hasText: EMAIL })).toContainText('Not yet');

  // The demo fleet's executions done, the ship of North whose flow meters burnt most of one fuel this year.
  await expect
    .poll(async () => (await api<ExecutionStatus>('/api/algorithm/calculations/base')).items.length, {
      timeout: 240_000,
      intervals: [2000],
    })
    .toBe(0);
  const before = await api<VerificationYear>(`/api/organizations/${me.organizationId}/verification/${YEAR}`);
  const candidates = before.ships.flatMap((ship) =>
    ship.reconciliation.rows.map((row) => ({ ship, row })).filter(({ row }) => row.flowMeterTonnes > 1),
  );
  expect(candidates.length, 'a North ship with fuel from its flow meters this year').toBeGreaterThan(0);
  const { ship, row } = candidates.sort((a, b) => b.row.flowMeterTonnes - a.row.flowMeterTonnes)[0]!;
  // Nothing on board at the year's start and now, and notes of twice what the flow meters burnt: −50 %. (Other
  // tests may have entered notes for this ship in the year already: this one makes up the rest.)
  const bunkered = Math.round((row.flowMeterTonnes * 2 - row.bunkeredTonnes) * 1000) / 1000;
  for (const at of [`${YEAR}-01-01T00:00:00.000Z`, new Date().toISOString()])
    await api(`/api/facilities/${ship.facilityId}/tank-soundings`, {
      method: 'POST',
      data: { at, fuelType: row.fuelType, robTonnes: 0 },
    });
  await api(`/api/facilities/${ship.facilityId}/bunker-notes`, {
    method: 'POST',
    data: {
      deliveredAt: `${YEAR}-01-02T08:00:00.000Z`,
      portId: null,
      portName: 'Rotterdam',
      fuelType: row.fuelType,
      massTonnes: bunkered,
      sulfurPercent: 0.48,
      lcvMjPerKg: null,
      densityKgM3: null,
      bdnNumber: `BDN-${YEAR}-0042`,
    },
  });

  // The SystemAdmin reads the invitation in the embedded outbox: its link.
  const outboxContext = await browser.newContext();
  const outbox = await outboxContext.newPage();
  await signInAs(outbox, 'admin', '/admin/outbox');
  const mail = outbox.locator(`[data-testid="outbox-row"][data-to="${EMAIL}"]`);
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText(`You are invited to verify`);
  await expect(mail).toContainText('Sent');
  await mail.getByRole('button', { name: /^Show / }).click();
  const text = (await outbox.getByTestId('outbox-text').textContent()) ?? '';
  const link = /https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(link, text).toBeTruthy();
  await outboxContext.close();

  // The verifier chooses a password from the link, then signs in as everyone does.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link!).pathname);
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('heading', { name: 'Password saved' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the portal' }).click();
  await acceptCookiesIfAsked(page);
  await fillSignIn(page, EMAIL, PASSWORD);
  await acceptCookiesIfAsked(page);
  await expect(page).toHaveURL(new RegExp(`/verification/${YEAR}$`));
  const view = page.getByTestId('verification-page');
  await expect(view.getByRole('heading', { name: `Verification ${YEAR}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('verification-state')).toHaveAttribute('data-state', 'open');

  // Its navigation: the verification only.
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link')).toHaveText(['Verification']);

  // The misstatement: the flow meters against the note and the soundings, −50 %, above 5 %.
  const suggestion = view
    .getByTestId('suggested-misstatement')
    .filter({ hasText: ship.name })
    .filter({ hasText: '50.0 %' });
  await expect(suggestion).toHaveAttribute('data-above', 'true');
  await expect(suggestion).toContainText('Above 5 %');
  await expect(suggestion).toContainText(`BDN-${YEAR}-0042`);
  const shipSection = view.getByTestId('verification-ship').filter({ hasText: ship.name });
  await expect(shipSection.locator('[data-testid="reconciliation-row"][data-flagged="true"]')).toHaveCount(1);
  await expect(shipSection.getByTestId('evidence')).toContainText(`Bunker delivery note BDN-${YEAR}-0042`);

  // Recorded as a finding (pre-filled from the reconciliation), then the opinion.
  await suggestion.getByRole('button', { name: 'Record as finding' }).click();
  const findingDialog = page.getByRole('dialog', { name: 'Record finding' });
  await expect(findingDialog.getByTestId('finding-difference')).toContainText('above 5 %');
  await findingDialog.getByRole('button', { name: 'Record' }).click();
  await expect(findingDialog).toBeHidden();
  await expect(view.getByTestId('finding')).toHaveCount(1);
  await expect(view.getByTestId('finding')).toContainText('Misstatement');
  await expect(view.getByTestId('finding')).toContainText('Above 5 %');
  await page.getByTestId('record-opinion').click();
  const opinionDialog = page.getByRole('dialog', { name: `Opinion on ${YEAR}` });
  await opinionDialog.getByLabel('Not verified').check();
  await opinionDialog
    .getByRole('textbox', { name: 'Comments' })
    .fill(
      `The flow meters account for half the ${row.fuelType} of BDN-${YEAR}-0042: a material misstatement.`,
    );
  await opinionDialog.getByRole('button', { name: 'Record opinion' }).click();
  await expect(opinionDialog).toBeHidden();
  await expect(page.getByTestId('verification-state')).toHaveAttribute('data-state', 'locked');
  await expect(page.getByTestId('verification-state')).toContainText('Locked: not verified');
  await expect(view.getByTestId('opinion')).toContainText('1. Not verified (version 1)');
  await expect(view.getByTestId('opinion-chain')).toContainText('The chain of opinions holds');

  // The verifier's view at both sizes: axe finds nothing serious; screenshots to look at (without the notice).
  await expect(page.getByTestId('notification')).toBeHidden({ timeout: 15_000 });
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await expect(page.getByTestId('verification-state')).toBeVisible();
    await still(page);
    expect(await axeSerious(page), `axe at ${size}`).toEqual([]);
    // Nothing wider than the screen: wide tables scroll in their own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await page.screenshot({ path: path.join(SHOTS, `verifier-${size}.png`), fullPage: true });
  }

  // The evidence its view links to, read only and of the year: the ship's bunker delivery notes, then its record
  // book. The route table opens these two to a verifier; every write control is gone.
  await page.setViewportSize(SIZES[0][1]);
  await shipSection.getByRole('link', { name: 'Bunker delivery notes' }).click();
  await expect(page).toHaveURL(new RegExp(`/facilities/${ship.facilityId}/fuel-records\\?year=${YEAR}$`));
  const records = page.getByTestId('fuel-records-page');
  await expect(records.getByTestId('bdn-row').filter({ hasText: `BDN-${YEAR}-0042` })).toHaveCount(1);
  await expect(records.getByTestId('sounding-row').first()).toBeVisible();
  // The reconciliation of the year so far (to today, as the view's): the note's −50 % flagged here too.
  await expect(records.getByTestId('reconciliation')).toContainText('50.0 %');
  await expect(records.getByTestId('reconciliation-flag').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^New (note|sounding)$/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit the note|Delete the sounding)/ })).toHaveCount(0);
  await expect(page.getByTestId('noon-reports')).toHaveCount(0);
  await expect(page.getByRole('tab')).toHaveText(['Record book', 'Fuel records']);
  await still(page);
  expect(await axeSerious(page), 'axe on the fuel records').toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'verifier-fuel-records.png'), fullPage: true });

  await page.goBack();
  await shipSection.getByRole('link', { name: 'Record book' }).click();
  await expect(page).toHaveURL(new RegExp(`/facilities/${ship.facilityId}/record-book\\?year=${YEAR}$`));
  const book = page.getByTestId('record-book-page');
  await expect(
    book
      .locator('[data-testid="record-book-row"][data-kind="bunkering"]')
      .filter({ hasText: `BDN-${YEAR}-0042` }),
  ).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'New entry' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Correct entry/ })).toHaveCount(0);
  await still(page);
  expect(await axeSerious(page), 'axe on the record book').toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'verifier-record-book.png'), fullPage: true });

  // The administrator sees the year locked too, and may record nothing.
  await admin.goto(`/verification/${me.organizationId}/${YEAR}`);
  await expect(admin.getByTestId('verification-state')).toHaveAttribute('data-state', 'locked');
  await expect(admin.getByTestId('record-opinion')).toHaveCount(0);
  await context.close();
  await adminContext.close();
});

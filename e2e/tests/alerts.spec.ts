import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { fillSignIn, acceptCookiesIfAsked, signInAs, noViolations } from '../support';

/**
 * Issue 19 in the browser: a user subscribes to alerts on the profile screen (one ship, by e-mail and in the
 * portal), uploads a logger file with a 90-minute SO2 excursion (its execution queued by the upload); the alert is in the bell, a SystemAdmin
 * reads its e-mail in /admin/outbox (no SMTP server: the embedded outbox), and the alert's link leads to the event,
 * from the bell and, through sign-in, from the e-mail.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, 'e2e', '.artifacts');
const DAY_MS = 86_400_000;
const SHIP = 'Straits Pioneer';
const ADDRESS = 'anna.alerts@nordic.example';

/**
 * The ship's logger file of `day` from the demo fleet generator, with SO2 at the outlet eight times higher for 90
 * minutes while the scrubber is required and running: an emission exceedance, a malfunction that needs a report.
 */
function excursionFile(day: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-alerts-'));
  const script = `
    import { demoShips, generateShipDay, writeSamplesFile } from '@portal/demo-fleet';
    import fs from 'node:fs';
    import path from 'node:path';
    const ship = demoShips().find((s) => s.name === ${JSON.stringify(SHIP)});
    const { samples } = generateShipDay(ship, new Date(${day}));
    const c = samples.channels;
    const required = (i) => c.FUEL_FLOW[i] > 100 && c.FUEL_SULFUR[i] > 0.5 && c.SCRUBBER_RUNNING[i] === 1;
    let start = -1;
    for (let i = 0; i + 90 < samples.timestamps.length && start < 0; i++) {
      let all = true;
      for (let k = i; k < i + 90 && all; k++) all = required(k);
      if (all) start = i;
    }
    if (start < 0) throw new Error('no 90 minutes at sea with the scrubber required');
    for (let k = start; k < start + 90; k++) c.SO2_PPM[k] = c.SO2_PPM[k] * 8 + 60;
    const file = await writeSamplesFile(ship, samples);
    const out = path.join(${JSON.stringify(dir)}, file.fileName);
    fs.writeFileSync(out, file.content);
    console.log(JSON.stringify({ file: out, start: samples.timestamps[start] }));`;
  const scriptFile = path.join(root, 'apps', 'api', `.e2e-alerts-${process.pid}.mts`);
  fs.writeFileSync(scriptFile, script);
  try {
    const output = execFileSync('npx', ['tsx', scriptFile], {
      cwd: path.join(root, 'apps', 'api'),
      encoding: 'utf8',
    });
    return (JSON.parse(output.trim().split('\n').pop()!) as { file: string }).file;
  } finally {
    fs.rmSync(scriptFile, { force: true });
  }
}

test('a user subscribes, an upload with an SO2 excursion alerts them in the bell and by e-mail, and the link opens the event', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const file = excursionFile(today);

  // The profile: own settings, one ship, e-mail and in the portal, as they happen.
  await signInAs(page, 'north.anna', '/profile');
  const alerts = page.getByTestId('alert-subscription');
  await expect(alerts.getByRole('heading', { name: 'Alerts' })).toBeVisible();
  await alerts.getByLabel('E-mail address for alerts').fill('anna');
  await alerts.getByLabel("Use my organization's defaults").uncheck();
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(alerts.getByText('E-mail must be valid')).toBeVisible();
  await alerts.getByLabel('E-mail address for alerts').fill(ADDRESS);
  await alerts.getByLabel('Selected ships').check();
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(alerts.getByText('Choose at least one ship')).toBeVisible();
  await alerts.getByRole('combobox', { name: 'Ships' }).click();
  await page.getByRole('option', { name: SHIP }).click();
  await page.keyboard.press('Escape');
  await expect(alerts.getByLabel('Malfunction')).toBeChecked();
  await expect(alerts.getByLabel('Report required')).toBeChecked();
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await page.reload();
  await expect(page.getByTestId('alert-subscription').getByLabel('Selected ships')).toBeChecked();
  await expect(page.getByTestId('alert-subscription').getByLabel('E-mail address for alerts')).toHaveValue(
    ADDRESS,
  );
  await page
    .getByTestId('alert-subscription')
    .screenshot({ path: path.join(artifacts, 'alerts-profile.png') });

  // Upload the file on the ship's files screen: Run for the uploaded files is ticked by default, so the upload
  // queues their execution, which the files screen follows.
  await page.goto('/facilities/overview');
  await page
    .getByTestId('ship-row')
    .filter({ hasText: SHIP })
    .getByRole('link', { name: 'Upload data' })
    .click();
  await page.getByRole('button', { name: 'Add file' }).first().click();
  const upload = page.getByRole('dialog');
  await upload.getByTestId('upload-file-input').setInputFiles(file);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByText('1 file(s) imported')).toBeVisible({ timeout: 60_000 });
  await expect(upload.getByLabel('Run for the uploaded files')).toBeChecked();
  await expect(upload.getByTestId('upload-execution')).toBeVisible();
  await upload.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('execution-progress')).toHaveText(/^Done /, { timeout: 120_000 });

  // The bell: the alert as a short title, the ship, the worst ratio against its limit and the link to its event
  // (the e-mail's subject and text are the outbox's).
  const title = `${SHIP}: Emission exceedance (malfunction, report required)`;
  const bellMessage = page
    .getByRole('region', { name: 'Messages' })
    .getByTestId('message')
    .filter({ has: page.getByRole('heading', { name: 'Emission exceedance', exact: true }) })
    .filter({ hasText: SHIP })
    .filter({ hasText: 'Malfunction, report required · 1 h 30 min' });
  await expect(async () => {
    await page.reload();
    await page.getByTestId('message-bell').click();
    await expect(bellMessage).toHaveCount(1, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(bellMessage).toContainText(/SO2\/CO2 ratio \d+\.\d{2} \(limit \d+\.\d{2}\)/);
  await expect(bellMessage).not.toContainText('Duration:');
  const link = bellMessage.getByTestId('message-link');
  await expect(link).toHaveText('Open the event');
  const path_ = (await link.getAttribute('href'))!;
  expect(path_).toMatch(/^\/events\/[0-9a-f-]{36}$/);
  const href = new URL(path_, page.url()).href;

  // A SystemAdmin reads the e-mail in the outbox.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAs(admin, 'admin', '/admin/outbox');
  await expect(admin.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(admin.getByTestId('outbox-transport')).toContainText('No SMTP server is configured');
  const row = admin.locator(`[data-testid="outbox-row"][data-to="${ADDRESS}"]`).filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Sent');
  await row.getByRole('button', { name: `Show ${title}` }).click();
  const text = admin.getByTestId('outbox-text');
  await expect(text).toContainText(`Ship: ${SHIP}`);
  await expect(text).toContainText(`Open the event: ${href}`);
  await expect(admin.getByTitle(`HTML of ${title}`)).toBeVisible();
  const stopLink = /Stop alert e-mails: (\S+)/.exec((await text.textContent()) ?? '')?.[1];
  expect(stopLink).toMatch(/\/unsubscribe\?token=/);
  await admin.screenshot({ path: path.join(artifacts, 'alerts-outbox.png'), fullPage: true });
  await adminContext.close();

  // The bell's link opens the event.
  await link.click();
  await expect(page).toHaveURL(href);
  await expect(page.getByTestId('event-title')).toHaveText('Emission exceedance');

  // The e-mail's link, opened by someone not signed in: sign-in first, then the event.
  const fresh = await browser.newContext();
  const reader = await fresh.newPage();
  await reader.goto(href);
  await acceptCookiesIfAsked(reader);
  await fillSignIn(reader, 'north.anna');
  await acceptCookiesIfAsked(reader);
  await expect(reader).toHaveURL(href);
  await expect(reader.getByTestId('event-title')).toHaveText('Emission exceedance');
  await fresh.close();

  // The e-mail's "Stop alert e-mails" link, without signing in: it asks, then stops; the profile shows it.
  const outside = await browser.newContext();
  const stopPage = await outside.newPage();
  await stopPage.goto(new URL(stopLink!).pathname + new URL(stopLink!).search);
  await acceptCookiesIfAsked(stopPage);
  await expect(stopPage.getByRole('heading', { name: 'Stop alert e-mails' })).toBeVisible();
  await expect(stopPage.getByText(ADDRESS)).toBeVisible();
  await stopPage.screenshot({ path: path.join(artifacts, 'alerts-unsubscribe.png') });
  await noViolations(stopPage);
  await stopPage.getByRole('button', { name: 'Stop alert e-mails' }).click();
  await expect(stopPage.getByTestId('unsubscribe-result')).toHaveText(/^Alert e-mails are stopped\./);
  await outside.close();
  await page.goto('/profile');
  const settings = page.getByTestId('alert-subscription');
  await expect(settings.getByLabel('E-mail', { exact: true })).not.toBeChecked();
  await expect(settings.getByLabel('In the portal', { exact: true })).toBeChecked();
});

test('quiet hours on the profile: the night on the clock of a chosen time zone, an empty window refused, kept', async ({
  page,
}) => {
  await signInAs(page, 'south.maria', '/profile');
  const alerts = page.getByTestId('alert-subscription');
  await expect(alerts.getByRole('heading', { name: 'Alerts' })).toBeVisible();
  await alerts.getByLabel('E-mail address for alerts').fill('maria.quiet@southern.example');
  await alerts.getByLabel("Use my organization's defaults").uncheck();
  await alerts.getByLabel('Hold e-mails that come as they happen during quiet hours').check();
  await expect(alerts.getByTestId('my-alerts-quiet-from')).toHaveValue('22:00');
  await expect(alerts.getByTestId('my-alerts-quiet-to')).toHaveValue('06:00');
  await alerts.getByTestId('my-alerts-quiet-to').fill('22:00');
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(alerts.getByText('Quiet hours must end at another time than they start')).toBeVisible();
  await alerts.getByTestId('my-alerts-quiet-to').fill('06:30');
  await alerts.getByRole('combobox', { name: 'Time zone' }).fill('Asia/Singapore');
  await page.getByRole('option', { name: 'Asia/Singapore' }).click();
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await noViolations(page, '[data-testid="alert-subscription"]');
  await alerts.screenshot({ path: path.join(artifacts, 'alerts-quiet-hours-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await alerts.screenshot({ path: path.join(artifacts, 'alerts-quiet-hours-phone.png') });
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.reload();
  const again = page.getByTestId('alert-subscription');
  await expect(again.getByLabel('Hold e-mails that come as they happen during quiet hours')).toBeChecked();
  await expect(again.getByTestId('my-alerts-quiet-to')).toHaveValue('06:30');
  await expect(again.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Singapore');
  // Back to the organization's defaults, as the demo had it.
  await again.getByLabel("Use my organization's defaults").check();
  await again.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
});

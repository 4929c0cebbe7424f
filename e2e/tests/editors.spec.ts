import fs from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { bellSettled, signInAs, still, accessToken } from '../support';

/**
 * Editors and administration (issue 15): the custom period refuses what it cannot show, a broken formula is never
 * queued, an edited message keeps who read it, the maintenance screen switches and shows the audit log, and the
 * phone shows every day of the uptime matrix. Screenshots go to e2e/.artifacts/editors-*.png.
 */

// A browser far from UTC with a 12-hour locale: the inputs must still be UTC, 24-hour, in the spec's format.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const SHOTS = new URL('../.artifacts', import.meta.url).pathname;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const unique = () => Date.now().toString(36).slice(-5);
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString();

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await still(page);
  await page.screenshot({ path: `${SHOTS}/editors-${name}.png`, fullPage: true });
}

/** Calls the API as the signed-in user of `page` (oidc-client-ts keeps the user in session storage). */
async function api(page: Page) {
  const token = await accessToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method: string, url: string, data?: unknown) => {
    const response = await page.request.fetch(url, { method, headers, data });
    expect(response.ok(), `${method} ${url}: ${response.status()} ${await response.text()}`).toBe(true);
    return response.status() === 204 ? undefined : response.json();
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, data?: unknown) => call('POST', url, data),
    put: (url: string, data?: unknown) => call('PUT', url, data),
    delete: (url: string) => call('DELETE', url),
  };
}

async function newPage(browser: Browser, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

/** Types into a MUI X date field of the open dialog: its sections take the digits in order. */
async function typeDate(page: Page, label: string, day: string) {
  const field = page.getByRole('dialog').getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(day.replace(/-/g, ''));
}

test('the custom period refuses From after To and days after today; Set waits until it is valid', async ({
  page,
}) => {
  await signInAs(page, 'south.lee');
  await page.getByTestId('period-button').click();
  await page.getByRole('menuitem', { name: /Custom period/ }).click();
  const dialog = page.getByRole('dialog');
  const set = dialog.getByRole('button', { name: 'Set' });

  await typeDate(page, 'From', '2025-03-15');
  await typeDate(page, 'To', '2025-03-01');
  await expect(dialog.getByText('Must not be before From')).toBeVisible();
  await expect(set).toBeDisabled();
  await shot(page, 'period-reversed-desktop');

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await typeDate(page, 'To', tomorrow);
  await expect(dialog.getByText('Must not be after today (UTC)')).toBeVisible();
  await expect(set).toBeDisabled();

  await typeDate(page, 'To', '2025-03-31');
  await expect(dialog.getByText(/Must not be/)).toHaveCount(0);
  await expect(set).toBeEnabled();
  await set.click();
  await expect(page.getByTestId('period-range')).toHaveText('2025.03.15 – 2025.03.31');
});

test('a broken formula cannot be queued: Save offers a draft only, and disabled buttons say why', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/profile');
  const call = await api(page);
  const me = await call.get('/api/auth/me');
  const { id: facilityId } = await call.post('/api/facilities', {
    organizationId: me.organizationId,
    name: `Draft test ${unique()}`,
  });
  const fields = (await call.get('/api/algorithm/measurement-fields')) as { id: string; name: string }[];
  const field = fields.find((f) => f.name === 'SCRUBBER_FUEL')!;
  const url = `/api/algorithm/facility/${facilityId}/measurement-field/${field.id}/calculations`;
  await call.post(url, { transformAlgorithm: 'return 1;', inputIds: [] });

  await page.goto(`/facilities/${facilityId}/config/detail?id=${field.id}`);
  const editor = page.getByTestId('calculation-editor');
  await expect(editor.getByTestId('calculation-version')).toHaveText('Version 1.0');
  // Test needs a validation first, and says so.
  await editor.getByRole('button', { name: 'Test' }).hover({ force: true });
  await expect(page.getByRole('tooltip')).toHaveText('Validate the algorithm successfully first');

  const content = page.getByTestId('algorithm-editor').locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('return 1 +;');
  await page.keyboard.press('Escape');

  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  const draft = page.getByRole('dialog', { name: 'The algorithm has errors' });
  await expect(draft).toBeVisible();
  await expect(draft).toContainText('No recalculation can be queued with it');
  await expect(draft.getByTestId('draft-first-error')).toContainText('Line 1');
  await shot(page, 'broken-formula-desktop');
  await draft.getByRole('button', { name: 'Keep editing' }).click();
  let saved = (await call.get(url))[0];
  expect(saved).toMatchObject({ transformAlgorithm: 'return 1;', recalculationRequestedOn: null });

  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await draft.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByTestId('notification')).toContainText('Changes were saved');
  saved = (await call.get(url))[0];
  expect(saved).toMatchObject({
    transformAlgorithm: 'return 1 +;',
    state: 'draft',
    recalculationRequestedOn: null,
  });
  await expect(editor.getByText('Draft', { exact: true })).toBeVisible();
  // Approve says why it is off: the saved code never validated.
  await editor.getByRole('button', { name: 'Approve' }).hover({ force: true });
  await expect(page.getByRole('tooltip')).toHaveText('Validate the algorithm successfully first');

  // The server refuses to queue it too, whatever the client: Save (recalculate) answers 400 and changes nothing.
  const token = await accessToken(page);
  const refused = await page.request.put(`${url}/${saved.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { transformAlgorithm: 'return 1 +;', inputIds: [] },
  });
  expect(refused.status()).toBe(400);
  expect((await call.get(url))[0].recalculationRequestedOn).toBeNull();
});

test('an edited message keeps who read it; the bell opens once per message per session, not for its author', async ({
  page,
  browser,
}) => {
  await signInAs(page, 'admin', '/admin/messages');
  const call = await api(page);
  const title = `Dry dock ${unique()}`;
  const other = `Port call ${unique()}`;
  const created: string[] = [];
  for (const [t, text] of [
    [title, 'Uploads pause on Friday.'],
    [other, 'Another notice.'],
  ] as const)
    created.push(
      (await call.post('/api/messages', { title: t, text, showFrom: iso(-1), showTo: iso(2), notify: true }))
        .id,
    );
  // Other specs count the messages: these go again whatever happens.
  try {
    // The reader: the bell opens by itself once; marked read, the message stays read.
    const reader = await newPage(browser);
    await signInAs(reader, 'south.lee');
    const popover = reader.getByRole('region', { name: 'Messages' });
    await expect(popover).toBeVisible();
    const message = popover.getByTestId('message').filter({ hasText: title });
    await message.getByRole('button', { name: 'Mark as read' }).click();
    await expect(message).toContainText('Read');
    await reader.reload();
    // Still an unread notify message (the other), but the bell opened for it in this session already: once it has
    // decided, it stays closed.
    await bellSettled(reader);
    await expect(popover).toBeHidden();

    // The author's bell does not open for the messages they wrote.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Add message' })).toBeVisible();
    await bellSettled(page);
    await expect(page.getByRole('region', { name: 'Messages' })).toBeHidden();

    // Edit: a change, cancelled, asks first; then saved in place.
    const active = page.getByTestId('messages-active');
    await active.getByRole('button', { name: `Edit ${title}` }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Uploads pause\non Friday.');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expect(discard).toBeVisible();
    await shot(page, 'message-discard-desktop');
    await discard.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Notify users').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
    await expect(active.getByText(title)).toHaveCount(1);
    // On a phone the texts keep clear of the edit and delete buttons.
    await page.setViewportSize(PHONE);
    const row = active.getByRole('listitem').filter({ hasText: title });
    const text = (await row.getByText('Uploads pause').boundingBox())!;
    const edit = (await row.getByRole('button', { name: `Edit ${title}` }).boundingBox())!;
    expect(text.y + text.height <= edit.y || text.x + text.width <= edit.x).toBe(true);
    await shot(page, 'messages-admin-phone');
    await page.setViewportSize(DESKTOP);

    await reader.reload();
    await reader.getByTestId('message-bell').click();
    const edited = popover.getByTestId('message').filter({ hasText: title });
    await expect(edited).toContainText('Uploads pause');
    await expect(edited).toContainText('Read');
    await expect(edited.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
    await reader.setViewportSize(PHONE);
    await shot(reader, 'messages-phone');
    await reader.context().close();
  } finally {
    for (const id of created) await call.delete(`/api/messages/${id}`);
  }
});

test('the maintenance screen switches maintenance mode with a confirmation; while on it is a console without the shell, and the audit log shows both switches', async ({
  page,
  browser,
}) => {
  await signInAs(page, 'admin', '/admin/maintenance');
  const call = await api(page);
  try {
    const state = page.getByTestId('maintenance-state');
    await expect(state).toHaveText('Off');
    await page.getByRole('button', { name: 'Switch maintenance mode on' }).click();
    const confirm = page.getByRole('dialog', { name: 'Switch maintenance mode on?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Switch on' }).click();

    // The page reloads into the maintenance console (decision 0105): the maintenance view as everyone sees it, the
    // switch under it, and nothing of the product: no top bar, no navigation, no audit log.
    await expect(page.getByRole('heading', { level: 1, name: 'Under maintenance' })).toBeVisible();
    await expect(state).toHaveText('On');
    expect(await call.get('/api/settings/maintenance')).toEqual({ maintenance: true });
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByTestId('audit-log')).toHaveCount(0);
    await shot(page, 'maintenance-console-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'maintenance-console-phone');
    await page.setViewportSize(DESKTOP);

    // Everyone else sees the maintenance page; so does the SystemAdmin anywhere but the console.
    const user = await newPage(browser);
    await user.goto('/');
    await expect(user.getByRole('heading', { name: 'Under maintenance' })).toBeVisible();
    await user.context().close();
    await page.goto('/admin/organizations');
    await expect(page.getByRole('heading', { name: 'Under maintenance' })).toBeVisible();
    await expect(state).toHaveCount(0);
    await page.goto('/admin/maintenance');
    await expect(state).toHaveText('On');

    // Switched off from the console, the page reloads into the product, with the audit log of both switches.
    await page.getByRole('button', { name: 'Switch maintenance mode off' }).click();
    await page
      .getByRole('dialog', { name: 'Switch maintenance mode off?' })
      .getByRole('button', { name: 'Switch off' })
      .click();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(state).toHaveText('Off');
    const log = page.getByTestId('audit-log');
    const first = log.getByTestId('audit-entry').first();
    await expect(first).toContainText('maintenance.set');
    await expect(first).toContainText('admin');
    await expect(first).toContainText('maintenance: false');
    await expect(log.getByTestId('audit-entry').nth(1)).toContainText('maintenance: true');

    // Filters: the action, the organization, the period; paged.
    await page.getByLabel('Action').click();
    await page.getByRole('option', { name: 'maintenance.set' }).click();
    await expect(log.getByTestId('audit-entry').first()).toContainText('maintenance.set');
    // Every entry once the filtered page has arrived (the first one was maintenance.set before it too).
    await expect(log.getByTestId('audit-entry').filter({ hasNotText: 'maintenance.set' })).toHaveCount(0);
    await expect(page.getByText(/1–\d+ of \d+/)).toBeVisible();
    await shot(page, 'maintenance-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'maintenance-phone');
    await page.setViewportSize(DESKTOP);
  } finally {
    await call.put('/api/settings/maintenance', { maintenance: false });
  }
});

test('the audit log names the organization an entry was about, not its id', async ({ page }) => {
  await signInAs(page, 'admin', '/admin/maintenance');
  const call = await api(page);
  const organizations = (await call.get('/api/organizations')) as { id: string; name: string }[];
  const north = organizations.find((o) => o.name === 'Nordic Bulk Carriers')!;
  // An audited change that changes nothing: the organization's data health thresholds, none given.
  await call.put(`/api/organizations/${north.id}/data-health-thresholds`, { thresholds: [] });
  await page.reload();
  await page.getByLabel('Action').click();
  await page.getByRole('option', { name: 'datahealth.thresholds' }).click();
  const entry = page.getByTestId('audit-log').getByTestId('audit-entry').first();
  await expect(entry).toContainText('datahealth.thresholds');
  await expect(entry.getByRole('cell').nth(4)).toHaveText('Nordic Bulk Carriers');
  await expect(entry).not.toContainText(north.id);
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('audit-entry').first()).toContainText(
    'datahealth.thresholds · Nordic Bulk Carriers',
  );
  await page.setViewportSize(DESKTOP);
});

test('a UserAdmin opening the maintenance screen sees the no-access view', async ({ page }) => {
  await signInAs(page, 'north.admin', '/admin/maintenance');
  await expect(page.getByText('You do not have access to this page')).toBeVisible();
  await expect(page.getByTestId('maintenance-state')).toHaveCount(0);
});

test('on a phone the uptime matrix shows every day of the period without a sideways scroll', async ({
  browser,
}) => {
  const page = await newPage(browser, PHONE);
  await signInAs(page, 'admin');
  const ships = (await (await api(page)).get('/api/facilities')) as { id: string; name: string }[];
  await page.goto(`/ship/${ships[0]!.id}`);
  const matrix = page.getByTestId('uptime-matrix');
  await expect(page.getByTestId('uptime-heatmap')).toHaveAttribute('data-ready', 'true');
  const cells = JSON.parse((await matrix.getAttribute('data-cells'))!) as unknown[][];
  const days = Number((await page.getByTestId('period-range').textContent())!.match(/(\d{2})$/)![1]);
  expect(cells[0]!.length).toBe(days);
  // The chart fits the phone: nothing of it lies outside the card, and nothing scrolls sideways.
  const chart = (await page.getByTestId('uptime-heatmap').boundingBox())!;
  const card = (await matrix.boundingBox())!;
  expect(chart.x).toBeGreaterThanOrEqual(card.x);
  expect(chart.x + chart.width).toBeLessThanOrEqual(card.x + card.width + 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const scrolls = await matrix.evaluate((el) =>
    [...el.querySelectorAll('*')].some(
      // The screen readers' table is clipped to one pixel on purpose: only what is seen counts.
      (e) =>
        e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible',
    ),
  );
  expect(scrolls).toBe(false);
  // The top bar shows the whole organization name.
  const name = page.getByTestId('organization-name');
  expect(
    await name.evaluate(
      (el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
    ),
  ).toBe(true);
  await matrix.scrollIntoViewIfNeeded();
  await matrix.screenshot({ path: `${SHOTS}/editors-uptime-phone.png` });
  await page.setViewportSize(DESKTOP);
  await shot(page, 'uptime-desktop');
  await page.context().close();
});

test("a demo ship's channels come from its sample file, none is missing from it", async ({ page }) => {
  await signInAs(page, 'admin', '/profile');
  const ships = (await (await api(page)).get('/api/facilities')) as { id: string; name: string }[];
  const ship = ships.find((s) => s.name === 'Atlantic Meridian')!;
  await page.goto(`/facilities/${ship.id}/config/channels`);
  await expect(page.getByText('EGCS1_SO2_ppm')).toBeVisible();
  // Every channel is in the sample file (other tests may add channels of their own that are not mapped yet).
  await expect(page.getByText('Not in the sample file')).toHaveCount(0);
  await shot(page, 'channels-desktop');
});

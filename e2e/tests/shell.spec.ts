import { expect, test, type Page } from '@playwright/test';
import { acceptCookiesIfAsked, bellSettled, fillSignIn, signInAs, still, accessToken } from '../support';

const OFFLINE_TEXT =
  'There seems to be a connection issue. Please check your internet access. Any unsaved changed will be lost.';

const pad = (n: number) => String(n).padStart(2, '0');
const dotted = (d: Date) => `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())}`;
function lastMonthText(now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return `${dotted(from)} – ${dotted(to)}`;
}

async function api(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown) {
  const token = await accessToken(page);
  const response = await page.request.fetch(url, {
    method,
    data,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok(), `${method} ${url}: ${response.status()}`).toBe(true);
  return response.json().catch(() => undefined);
}

const drawerShips = (page: Page) => page.getByTestId('drawer-ships').getByRole('link');

/** Types a day into a MUI X date field (format YYYY-MM-DD). */
async function typeDate(page: Page, label: string, day: string) {
  const field = page.getByRole('dialog').getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(day.replace(/-/g, ''));
}

test.describe('application start', () => {
  test('nothing is usable until cookies are accepted; the acceptance is remembered', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('dialog', { name: 'Cookies' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await page.getByRole('button', { name: 'Accept cookies' }).click();
    // Accepted: on to sign-in.
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    const again = await context.newPage();
    await again.goto('/');
    await expect(again.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(again.getByRole('dialog', { name: 'Cookies' })).toHaveCount(0);
  });

  test('without a user the portal redirects to sign-in and returns to the path asked for', async ({
    page,
  }) => {
    await page.goto('/facilities/overview');
    await acceptCookiesIfAsked(page);
    await fillSignIn(page, 'north.anna');
    await expect(page).toHaveURL(/\/facilities\/overview$/);
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    await expect(page.getByTestId('organization-name')).toHaveText('Nordic Bulk Carriers');
    await expect(page.getByTestId('footer-version')).toHaveText(/^Version 1\.6\.7 \(build .+\)$/);
  });

  test('an unknown route shows a not-found page with a way home', async ({ page }) => {
    await signInAs(page, 'north.anna', '/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to My fleet' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('menus per role', () => {
  test('a User sees no Administration and a disabled Report Configurator', async ({ page }) => {
    await signInAs(page, 'north.anna');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link', { name: 'Service' })).toBeEnabled();
    await expect(nav.getByRole('link', { name: 'Ships' })).toBeEnabled();
    await expect(nav.getByText('Report Configurator')).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('button', { name: 'User menu' }).click();
    const menu = page.getByRole('menu');
    for (const item of ['Help', 'Legal', 'My profile', 'Log out'])
      await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Administration' })).toHaveCount(0);
    await menu.getByRole('menuitem', { name: 'Legal' }).click();
    await expect(page).toHaveURL(/\/legal$/);
    await expect(page.getByRole('heading', { name: 'Legal', level: 1 })).toBeVisible();
  });

  test("a UserAdmin's Administration goes to the own organization's manage page", async ({ page }) => {
    await signInAs(page, 'north.admin');
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByText('Report Configurator'),
    ).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Administration' }).click();
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]{36}\/manage$/);
  });

  test('a SystemAdmin has Administration to the organizations and the Report Configurator', async ({
    page,
  }) => {
    await signInAs(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Report Configurator' }).click();
    await expect(page).toHaveURL(/\/report-config\/overview$/);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Administration' }).click();
    await expect(page).toHaveURL(/\/admin\/organizations$/);
    await nav.getByRole('link', { name: 'Service' }).click();
    await expect(page).toHaveURL(/\/service\/pureserv$/);
    await expect(page.getByText('Critical spares shipped within 24 hours')).toBeVisible();
  });
});

test.describe('period', () => {
  test('last month by default; a custom period is set with two dates, kept over a reload; an unknown stored value falls back', async ({
    page,
  }) => {
    await signInAs(page, 'north.olav');
    // north.olav's welcome message opens the bell by itself; close it first.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('period-type')).toHaveText('Last month');
    await expect(page.getByTestId('period-range')).toHaveText(lastMonthText());

    await page.getByTestId('period-button').click();
    await page.getByRole('menuitem', { name: /Custom period/ }).click();
    const set = page.getByRole('dialog').getByRole('button', { name: 'Set' });
    await expect(set).toBeDisabled();
    await typeDate(page, 'From', '2025-03-01');
    await expect(set).toBeDisabled();
    await typeDate(page, 'To', '2025-03-15');
    await expect(set).toBeEnabled();
    await set.click();
    await expect(page.getByTestId('period-type')).toHaveText('Custom period');
    await expect(page.getByTestId('period-range')).toHaveText('2025.03.01 – 2025.03.15');

    await page.reload();
    await expect(page.getByTestId('period-range')).toHaveText('2025.03.01 – 2025.03.15');

    await page.evaluate(() => localStorage.setItem('portal.period', '{"type":"nextYear"}'));
    await page.reload();
    await expect(page.getByTestId('period-type')).toHaveText('Last month');
    await expect(page.getByTestId('period-range')).toHaveText(lastMonthText());
  });
});

test.describe('fleet filter', () => {
  test('SystemAdmin: Apply is disabled when no ships remain; excluding the viewed ship goes to /; the filter is kept', async ({
    page,
  }) => {
    await signInAs(page, 'admin');
    // Other specs may have added ships: count what the drawer shows once the demo fleet is there.
    await expect(drawerShips(page).filter({ hasText: 'Atlantic Meridian' })).toHaveCount(1);
    const total = await drawerShips(page).count();
    expect(total).toBeGreaterThanOrEqual(6);
    await expect(drawerShips(page).first()).toContainText(/\d{4}\.\d{2}\.\d{2}|No data/);
    await drawerShips(page).filter({ hasText: 'Atlantic Meridian' }).click();
    await expect(page).toHaveURL(/\/ship\/[0-9a-f-]{36}$/);

    await page.getByTestId('fleet-filter-button').click();
    const dialog = page.getByRole('dialog', { name: 'Fleet filter' });
    for (const group of [
      'Organizations',
      'Ships',
      'Scrubber system types',
      'Number of scrubbers',
      'System manufacturers',
    ])
      await expect(dialog.getByRole('group', { name: group })).toBeVisible();
    await dialog.getByRole('button', { name: 'Exclude selected' }).click();
    await dialog.getByLabel('Select all').check();
    await expect(dialog.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await expect(dialog.getByTestId('filter-remaining')).toHaveText('No ships remain with this filter');
    await dialog.getByLabel('Select all').uncheck();
    await dialog.getByLabel('Atlantic Meridian').check();
    await expect(dialog.getByRole('button', { name: 'Apply' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Apply' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(drawerShips(page)).toHaveCount(total - 1);
    await expect(drawerShips(page).filter({ hasText: 'Atlantic Meridian' })).toHaveCount(0);
    await page.reload();
    await expect(drawerShips(page)).toHaveCount(total - 1);
  });

  test('a User filters ships only, with Select all and without the include/exclude toggle', async ({
    page,
  }) => {
    await signInAs(page, 'north.anna');
    await expect(drawerShips(page).filter({ hasText: 'Baltic Tern' })).toHaveCount(1);
    const total = await drawerShips(page).count();
    await page.getByTestId('fleet-filter-button').click();
    const dialog = page.getByRole('dialog', { name: 'Fleet filter' });
    await expect(dialog.getByRole('group')).toHaveCount(1);
    await expect(dialog.getByRole('button', { name: 'Exclude selected' })).toHaveCount(0);
    await dialog.getByLabel('Select all').check();
    await expect(dialog.getByTestId('filter-remaining')).toHaveText(`${total} of ${total} ships`);
    await dialog.getByLabel('Select all').uncheck();
    await dialog.getByLabel('Baltic Tern').check();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(drawerShips(page)).toHaveCount(1);
    await expect(drawerShips(page).first()).toContainText('Baltic Tern');
  });
});

test.describe('messages', () => {
  test('a notify message opens the bell by itself; Mark as read survives a reload', async ({ page }) => {
    await page.goto('/');
    await acceptCookiesIfAsked(page);
    await fillSignIn(page, 'north.olav');
    const list = page.getByRole('region', { name: 'Messages' });
    await expect(list).toBeVisible();
    const welcome = list.getByTestId('message').filter({ hasText: 'Welcome to the portal' });
    await expect(welcome).toContainText('Your account has been set up');
    // Two messages for everyone plus the demo fleet's recent alerts of Olav's ships (issue 19), if any.
    const unread = Number(await page.getByTestId('unread-count').textContent());
    expect(unread).toBeGreaterThanOrEqual(2);
    await welcome.getByRole('button', { name: 'Mark as read' }).click();
    await expect(welcome.getByText('Read', { exact: true })).toBeVisible();
    await expect(page.getByTestId('unread-count')).toHaveText(String(unread - 1));

    await page.reload();
    await expect(page.getByTestId('organization-name')).toBeVisible();
    // Nothing unread is flagged notify any more: once the bell has decided, the list stays closed.
    await bellSettled(page);
    await expect(list).toHaveCount(0);
    await page.getByTestId('message-bell').click();
    await expect(
      list
        .getByTestId('message')
        .filter({ hasText: 'Welcome to the portal' })
        .getByText('Read', { exact: true }),
    ).toBeVisible();
    await expect(
      list
        .getByTestId('message')
        .filter({ hasText: 'New fleet dashboard' })
        .getByRole('button', { name: 'Mark as read' }),
    ).toBeVisible();
  });
});

test.describe('offline and maintenance', () => {
  test('a request without a response enters offline mode; when the server answers: Connection established, no reload', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'north.anna', '/facilities/overview');
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    let loads = 0;
    page.on('load', () => loads++);
    // The server goes away: every API request fails without a response (the version is asked every 30 s).
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await expect(page.getByText(OFFLINE_TEXT)).toBeVisible({ timeout: 45_000 });
    await page.unroute('**/api/**');
    await expect(page.getByText('Connection established')).toBeVisible({ timeout: 25_000 });
    await expect(page.getByText(OFFLINE_TEXT)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    expect(loads).toBe(0);
  });

  test('maintenance switched on at run time replaces the portal with the maintenance view, and back', async ({
    page,
  }) => {
    await page.clock.install();
    await signInAs(page, 'admin');
    await expect(page.getByRole('banner')).toBeVisible();
    const token = await accessToken(page);
    const setMaintenance = (maintenance: boolean) =>
      page.request.put('/api/settings/maintenance', {
        data: { maintenance },
        headers: { authorization: `Bearer ${token}` },
      });
    try {
      expect((await setMaintenance(true)).ok()).toBe(true);
      // settings.js is read again every 300000 ms; the changed flag reloads the page.
      await page.clock.fastForward(300_000);
      await expect(page.getByTestId('maintenance')).toBeVisible();
      await expect(
        page.getByText('The portal is currently unavailable. Please check back later.'),
      ).toBeVisible();
      await expect(page.getByRole('banner')).toHaveCount(0);
      expect((await setMaintenance(false)).ok()).toBe(true);
      await page.clock.fastForward(300_000);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByTestId('maintenance')).toHaveCount(0);
    } finally {
      await setMaintenance(false);
    }
  });
});

test.describe('ship list', () => {
  test('New ship: the validation texts, Create disabled until valid, a failure shows the default error', async ({
    page,
  }) => {
    await signInAs(page, 'admin', '/facilities');
    await expect(page).toHaveURL(/\/facilities\/overview$/);
    await page.getByRole('button', { name: 'New ship' }).click();
    const dialog = page.getByRole('dialog', { name: 'New ship' });
    const create = dialog.getByRole('button', { name: 'Create' });
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Ship name').fill('x');
    await dialog.getByLabel('Ship name').fill('');
    await dialog.getByLabel('Ship name').blur();
    await expect(dialog.getByText('Ship name is required')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Organization' }).click();
    await page.keyboard.press('Escape');
    await expect(dialog.getByText('Please select an organization')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'Nordic Bulk Carriers' }).click();
    await dialog.getByLabel('Ship name').fill('Fjord Runner');
    await expect(create).toBeEnabled();

    await page.route('**/api/facilities', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { code: 'INTERNAL', message: 'Something went wrong' } })
        : route.fallback(),
    );
    await create.click();
    await expect(page.getByTestId('notification')).toHaveText('Something went wrong! Please try again');
    await page.unroute('**/api/facilities');

    await create.click();
    await expect(page).toHaveURL(/\/facilities\/[0-9a-f-]{36}\/config\/info$/);
    await expect(page.getByRole('heading', { name: 'Fjord Runner' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Info' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('link', { name: 'Back to the ship list' }).click();
    await expect(page.getByRole('heading', { name: 'Facility overview' })).toBeVisible();
    await expect(page.getByTestId('ship-row').filter({ hasText: 'Fjord Runner' })).toBeVisible();
  });

  test('a ship with a running execution shows Processing with its start time; Upload data and Configure lead to the ship', async ({
    page,
  }) => {
    await signInAs(page, 'admin', '/facilities/overview');
    const first = page.getByTestId('ship-row').first();
    await expect(first).toBeVisible();
    const ships = (await api(page, 'GET', '/api/facilities')) as { id: string; name: string }[];
    await page.route('**/api/algorithm/calculations/base', (route) =>
      route.fulfill({
        json: {
          items: [
            { id: 'e1', facilityId: ships[0]!.id, startedOn: '2025-02-01T09:00:05.000Z', state: 'running' },
          ],
        },
      }),
    );
    await page.reload();
    await expect(page.getByTestId('ship-row').first().getByTestId('ship-status')).toHaveText(
      /Processing\s*since 2025\.02\.01 09:00/,
    );
    await expect(page.getByTestId('ship-row').nth(1).getByTestId('ship-status')).toHaveText(
      /^(Ready|No data)$/,
    );
    await page.unroute('**/api/algorithm/calculations/base');
    await page.getByTestId('ship-row').first().getByRole('link', { name: 'Upload data' }).click();
    await expect(page).toHaveURL(new RegExp(`/facilities/${ships[0]!.id}/files$`));
    await page.goBack();
    await page.getByTestId('ship-row').first().getByRole('link', { name: 'Configure' }).click();
    await expect(page).toHaveURL(new RegExp(`/facilities/${ships[0]!.id}/config/channels$`));
    await expect(page.getByRole('tab', { name: 'Data sources' })).toHaveAttribute('aria-selected', 'true');
  });

  test('15 ships a page', async ({ page }) => {
    await signInAs(page, 'admin', '/facilities/overview');
    await expect(page.getByTestId('ship-row').first()).toBeVisible();
    const ships = (await api(page, 'GET', '/api/facilities')) as { primaryOrganizationId: string }[];
    for (let i = ships.length; i < 18; i++)
      await api(page, 'POST', '/api/facilities', {
        organizationId: ships[0]!.primaryOrganizationId,
        name: `Paging Test ${pad(i)}`,
      });
    await page.reload();
    await expect(page.getByTestId('ship-row')).toHaveCount(15);
    await expect(page.getByText('1–15 of 18')).toBeVisible();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(page.getByTestId('ship-row')).toHaveCount(3);
    await expect(page.getByText('16–18 of 18')).toBeVisible();
  });
});

test.describe('layout', () => {
  test('screenshots at 1440x900 and on a phone (390x844)', async ({ page }) => {
    await signInAs(page, 'admin', '/facilities/overview');
    await expect(page.getByTestId('ship-row').first()).toBeVisible();
    await page.screenshot({ path: '/tmp/shell-desktop-ships.png' });
    await page.goto('/service/pureserv');
    await expect(page.getByText('Critical spares shipped within 24 hours')).toBeVisible();
    await page.screenshot({ path: '/tmp/shell-desktop-service.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/facilities/overview');
    await expect(page.getByTestId('ship-row').first()).toBeVisible();
    // On a phone the drawer is temporary: closed until the menu button opens it.
    await expect(page.getByTestId('drawer-ships')).toBeHidden();
    await page.screenshot({ path: '/tmp/shell-phone-ships.png' });
    await page.getByRole('button', { name: 'Open ship navigation' }).click();
    await expect(page.getByTestId('drawer-ships')).toBeVisible();
    await still(page); // the drawer slides in
    await page.screenshot({ path: '/tmp/shell-phone-drawer.png' });
    await page.getByTestId('drawer-ships').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/ship\//);
    await expect(page.getByTestId('drawer-ships')).toBeHidden();
  });
});

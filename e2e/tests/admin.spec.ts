import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signInAs, noViolations, accessToken } from '../support';

/** The signed-in user's access token, for setting up through the API. */
async function api(page: Page) {
  const token = await accessToken(page);
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: async (url: string) => (await page.request.get(url, { headers })).json(),
    post: async (url: string, data?: unknown) => page.request.post(url, { headers, data }),
  };
}

/** Screenshots to look at, beside the spec (not under the working directory). */
const SCREENSHOTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '.artifacts',
  'screenshots',
);

/** A section of the page at phone and desktop size: nothing axe finds, and a screenshot of each to look at. */
async function checkSectionAtBothSizes(page: Page, testId: string) {
  for (const [name, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await noViolations(page, `[data-testid="${testId}"]`);
    await page.getByTestId(testId).screenshot({ path: `${SCREENSHOTS}/${testId}-${name}.png` });
  }
}

const notification = (page: Page) => page.getByTestId('notification');
const unique = () => Date.now().toString(36).slice(-5);

test.describe('1. administration shell', () => {
  test('SystemAdmin sees Messages, Organizations, Access management and the switcher', async ({ page }) => {
    await signInAs(page, 'admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/organizations$/);
    const toolbar = page.getByTestId('admin-toolbar');
    await expect(toolbar.getByRole('link', { name: 'Messages' })).toBeVisible();
    await expect(toolbar.getByRole('link', { name: 'Organizations' })).toBeVisible();
    await expect(toolbar.getByRole('button', { name: 'Access management' })).toBeDisabled();
    await toolbar.getByLabel('Organization').click();
    await page.getByRole('option', { name: 'Nordic Bulk Carriers' }).click();
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    await expect(page.getByTestId('admin-organization-name')).toHaveText('Nordic Bulk Carriers');
    await expect(toolbar.getByRole('button', { name: 'Access management' })).toBeEnabled();
  });

  test('UserAdmin goes to the own organization without the SystemAdmin buttons; a User is refused', async ({
    page,
    browser,
  }) => {
    await signInAs(page, 'north.admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    await expect(page.getByTestId('admin-organization-name')).toHaveText('Nordic Bulk Carriers');
    await expect(page.getByRole('link', { name: 'Messages' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Access management' })).toHaveCount(0);
    const userPage = await browser.newPage();
    await signInAs(userPage, 'north.anna', '/admin/organizations');
    await expect(
      userPage.getByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeVisible();
    await userPage.close();
  });
});

test.describe('2. organizations', () => {
  test('SystemAdmin searches, validates and adds an organization', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/organizations');
    const table = page.getByRole('table', { name: 'Organizations' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await page.getByLabel('Search organizations').fill('NORDIC');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('link', { name: 'Nordic Bulk Carriers' })).toBeVisible();
    await page.getByLabel('Search organizations').fill('');

    await page.getByRole('button', { name: 'Add organization' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'Add' })).toBeDisabled();
    await dialog.getByLabel('Name').focus();
    await dialog.getByLabel('Name').blur();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    const name = `Baltic ${unique()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Contact email').fill('not-an-email');
    await dialog.getByLabel('Contact email').blur();
    await expect(dialog.getByText('E-mail must be valid')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add' })).toBeDisabled();
    await dialog.getByLabel('Contact email').fill('ops@baltic.example');
    await dialog.getByLabel('Contact phone number').fill('+46 8 000');
    await expect(dialog.getByLabel('Priority organization')).toBeVisible();
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    await expect(table.getByRole('row', { name: new RegExp(name) })).toContainText('ops@baltic.example');
  });

  test('a failed create shows the error, not the success notice', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/organizations');
    await page.getByRole('button', { name: 'Add organization' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Nordic Bulk Carriers');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(notification(page)).toHaveText('An organization with this name already exists');
    await expect(dialog).toBeVisible();
  });

  test('UserAdmin edits the own organization: name locked, no priority switch', async ({ page }) => {
    await signInAs(page, 'north.admin', '/admin');
    await page.getByRole('button', { name: 'Edit organization' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Name')).toBeDisabled();
    await expect(dialog.getByLabel('Priority organization')).toHaveCount(0);
    await dialog.getByLabel('Contact phone number').fill('+47 55 11 11 11');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
  });
});

test.describe('3. ship access matrix', () => {
  test("UserAdmin gives and takes a user's access to a ship", async ({ page }) => {
    await signInAs(page, 'north.admin', '/admin');
    const matrix = page.getByRole('table', { name: 'Ship access' });
    await expect(matrix.getByRole('columnheader', { name: /north\.olav/ })).toBeVisible();
    await expect(matrix.getByRole('columnheader', { name: /Southern Cross Tankers/ })).toBeVisible();
    const box = matrix.getByRole('checkbox', { name: /^north\.olav access to / }).last();
    const before = await box.isChecked();
    await box.click();
    await expect(box).toBeChecked({ checked: !before });
    await page.reload();
    await expect(
      page
        .getByRole('table', { name: 'Ship access' })
        .getByRole('checkbox', { name: /^north\.olav access to / })
        .last(),
    ).toBeChecked({ checked: !before });
  });

  test('a secondary organization sees the owner and is asked before removing its access; unlink asks too', async ({
    page,
  }) => {
    await signInAs(page, 'south.admin', '/admin');
    const matrix = page.getByRole('table', { name: 'Ship access' });
    await expect(matrix.getByText('(Nordic Bulk Carriers)')).toBeVisible();
    await matrix.getByRole('button', { name: /^Remove access to / }).click();
    await expect(page.getByRole('dialog')).toContainText(
      /Are you sure you want to remove your access to .+\?/,
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await matrix.getByRole('button', { name: 'Unlink Nordic Bulk Carriers' }).click();
    await expect(page.getByRole('dialog')).toContainText(
      'Are you sure you want to unlink Nordic Bulk Carriers?',
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  test('an organization without ships says so', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/organizations');
    await page.getByRole('button', { name: 'Add organization' }).click();
    const name = `Empty ${unique()}`;
    await page.getByRole('dialog').getByLabel('Name').fill(name);
    await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name }).click();
    await expect(page.getByText('No ships in the organization')).toBeVisible();
  });
});

test.describe('4. users', () => {
  test('UserAdmin adds a user with a generated password, edits and deletes it, with the form texts', async ({
    page,
  }) => {
    await signInAs(page, 'north.admin', '/admin');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Used for login')).toBeVisible();
    await dialog.getByLabel('Username').focus();
    await dialog.getByLabel('Username').blur();
    await expect(dialog.getByText('Username is required')).toBeVisible();
    await expect(dialog.getByRole('radio', { name: /Regular user/ })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: /System administrator/ })).toHaveCount(0);
    await dialog.getByLabel('Password', { exact: true }).fill('abc');
    await dialog.getByLabel('Password', { exact: true }).blur();
    await expect(dialog.getByText('Must be minimum 8 characters')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill('abcdefgh');
    await expect(dialog.getByText('Password must contain at least 1 number')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill('abcd 1234');
    await expect(dialog.getByText('No spaces allowed')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill('abcd1234');
    await dialog.getByLabel('Confirm password').fill('abcd12345');
    await dialog.getByLabel('Confirm password').blur();
    await expect(dialog.getByText('Passwords must match')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add' })).toBeDisabled();
    // Empty password: one is generated and shown once.
    await dialog.getByLabel('Password', { exact: true }).fill('');
    await dialog.getByLabel('Confirm password').fill('');
    const username = `north.e2e${unique()}`;
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByRole('radio', { name: /Administrator/ }).check();
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(notification(page)).toHaveText('User created successfully');
    await expect(page.getByTestId('generated-password')).toHaveText(/^[A-Za-z0-9]{8}$/);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `Edit ${username}` }).click();
    const edit = page.getByRole('dialog');
    await expect(edit.getByRole('radio', { name: /Administrator/ })).toBeChecked();
    await edit.getByLabel('Set new password').check();
    await edit.getByLabel('Password', { exact: true }).focus();
    await edit.getByLabel('Password', { exact: true }).blur();
    await expect(edit.getByText('A new password is required')).toBeVisible();
    await edit.getByLabel('Set new password').uncheck();
    await edit.getByRole('radio', { name: /Regular user/ }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(notification(page)).toHaveText('User updated successfully');

    await page.getByRole('button', { name: `Edit ${username}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete user?' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Delete user?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(notification(page)).toHaveText('User deleted successfully');
    await expect(page.getByRole('button', { name: `Edit ${username}` })).toHaveCount(0);
  });

  test('SystemAdmin may give SystemAdmin in the provider organization', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/organizations');
    await page.getByRole('link', { name: 'Scrubber Service Provider' }).click();
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByRole('dialog').getByRole('radio', { name: /System administrator/ })).toBeVisible();
  });
});

test.describe('5. link organization', () => {
  test('shows the own key with Copy and checks the other key', async ({ page }) => {
    await signInAs(page, 'north.admin', '/admin');
    await page.getByRole('button', { name: 'Link organization' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('own-link-key')).toHaveText(/^[A-Za-z0-9]{7}$/);
    await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible();
    const input = dialog.getByLabel('Link key of the other organization');
    await input.focus();
    await input.blur();
    await expect(dialog.getByText('You have to specify a link key')).toBeVisible();
    await input.fill('ab-12');
    await expect(dialog.getByText('Only letters and numbers are allowed')).toBeVisible();
    await input.fill('abc12');
    await expect(dialog.getByText('Key must be 7 characters')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Confirm link' })).toBeDisabled();
    await input.fill('Zz9Zz9Z');
    await dialog.getByRole('button', { name: 'Confirm link' }).click();
    await expect(notification(page)).toHaveText('No organization has this link key');
  });

  test('links two organizations by key', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/organizations');
    const client = await api(page);
    const name = `Linkable ${unique()}`;
    const created = await (await client.post('/api/organizations', { name, email: '', phone: '' })).json();
    await page.getByRole('link', { name: 'Nordic Bulk Carriers' }).click();
    await page.getByRole('button', { name: 'Link organization' }).click();
    await page.getByRole('dialog').getByLabel('Link key of the other organization').fill(created.linkKey);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm link' }).click();
    await expect(notification(page)).toHaveText(`Linked to ${name}`);
    await expect(
      page.getByRole('table', { name: 'Ship access' }).getByRole('columnheader', { name: new RegExp(name) }),
    ).toBeVisible();
  });
});

/** The first ship of an organization, by name, through the API. */
async function shipOf(page: Page, organizationName: string) {
  const client = await api(page);
  const ships = (await client.get('/api/facilities')) as {
    id: string;
    name: string;
    primaryOrganizationName: string;
    organizationIds: string[];
  }[];
  return ships.filter((s) => s.primaryOrganizationName === organizationName);
}

test.describe('6. ship info', () => {
  test('SystemAdmin edits the ship: name required, manufacturer combo, image rule, save', async ({
    page,
  }) => {
    await signInAs(page, 'admin', '/');
    const [ship] = await shipOf(page, 'Southern Cross Tankers');
    await page.goto(`/facilities/${ship!.id}/config/info`);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(ship!.name);
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('Name', { exact: true }).blur();
    await expect(page.getByText('Name is required')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(ship!.name);

    const manufacturer = page.getByLabel('System manufacturer');
    await manufacturer.fill('Zeta Marine Systems');
    await expect(
      page.getByText('No results matching "Zeta Marine Systems". Press enter to create a new one'),
    ).toBeVisible();
    await manufacturer.press('Enter');

    const big = '/tmp/e2e-ship-big.png';
    fs.writeFileSync(big, Buffer.alloc(500_001, 1));
    await page
      .getByLabel('Ship image', { exact: true })
      .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: fs.readFileSync(big) });
    await expect(notification(page)).toHaveText('Ship image must be less than 500 kB!');
    await expect(page.getByLabel('No ship image')).toBeVisible();
    // A 1x1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .getByLabel('Ship image', { exact: true })
      .setInputFiles({ name: 'ship.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByRole('img', { name: `${ship!.name} image` })).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notification(page).last()).toHaveText('Changes were saved');
    await page.reload();
    await expect(page.getByLabel('System manufacturer')).toHaveValue('Zeta Marine Systems');
    await expect(page.getByRole('img', { name: `${ship!.name} image` })).toBeVisible();
    await expect(page.getByText('Transfer ship').first()).toBeVisible();
    await expect(page.getByText('Automate file upload')).toBeVisible();
  });
});

test.describe('7. transfer ship', () => {
  test('warns, notes the secondary organizations, and transfers; the old owner loses the ship', async ({
    page,
    browser,
  }) => {
    await signInAs(page, 'admin', '/');
    // A ship of its own, shared by North with South: the demo ships stay as they are for the other specs.
    const client = await api(page);
    const organizations = (await client.get('/api/organizations')) as { id: string; name: string }[];
    const northId = organizations.find((o) => o.name === 'Nordic Bulk Carriers')!.id;
    const southId = organizations.find((o) => o.name === 'Southern Cross Tankers')!.id;
    const created = await client.post('/api/facilities', {
      organizationId: northId,
      name: `Transfer test ${unique()}`,
    });
    expect(created.status()).toBe(201);
    const shared = (await created.json()) as { id: string };
    expect(
      (await client.post(`/api/organizations/${southId}/${shared.id}/organization-facility-link`)).status(),
    ).toBeLessThan(300);
    await page.goto(`/facilities/${shared.id}/config/info`);
    await page.getByRole('button', { name: 'Transfer ship' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('cannot be undone');
    await expect(dialog).toContainText('shared with other organizations');
    await expect(dialog.getByRole('button', { name: 'Confirm transfer' })).toBeDisabled();
    await dialog.getByLabel('Organization').click();
    await expect(page.getByRole('option', { name: 'Nordic Bulk Carriers' })).toHaveCount(0);
    await page.getByRole('option', { name: 'Scrubber Service Provider' }).click();
    await dialog.getByRole('button', { name: 'Confirm transfer' }).click();
    await expect(notification(page)).toHaveText('Ship was transferred to Scrubber Service Provider');

    const north = await browser.newPage();
    await signInAs(north, 'north.admin', '/');
    const northShips = await shipOf(north, 'Scrubber Service Provider');
    expect(northShips.map((s) => s.id)).not.toContain(shared.id);
    await north.close();
  });
});

test.describe('8. messages admin', () => {
  test('validates, creates, lists and deletes a message; discard asks first', async ({ page }) => {
    await signInAs(page, 'admin', '/admin/messages');
    await page.getByRole('button', { name: 'Add message' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Message is required')).toBeVisible();
    await expect(page.getByText('Specify when the message is shown from')).toBeVisible();
    await expect(page.getByText('Specify when the message is shown to')).toBeVisible();

    await page.getByRole('button', { name: 'Insert default text' }).click();
    await expect(page.getByLabel('Title')).toHaveValue('Maintenance update');
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(/scheduled maintenance/);
    const title = `Maintenance ${unique()}`;
    await page.getByLabel('Title').fill(title);
    const year = new Date().getUTCFullYear() + 1;
    const type = async (label: string, digits: string) => {
      const group = page.getByRole('group', { name: label });
      await group.click();
      await page.keyboard.press('Home');
      await page.keyboard.type(digits);
    };
    await type('Show from (UTC)', `${year}0102` + '1300');
    await type('Show until (UTC)', `${year}0101` + '0900');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Must be before "Show to"')).toBeVisible();
    await expect(page.getByText('Must be after "Show from"')).toBeVisible();
    await type('Show until (UTC)', `${year}0103` + '1700');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    const upcoming = page.getByTestId('messages-upcoming');
    await expect(upcoming).toContainText(title);
    await expect(upcoming).toContainText(`${year}.01.02 13:00 – ${year}.01.03 17:00 UTC`);

    await upcoming.getByRole('button', { name: `Delete ${title}` }).click();
    await expect(page.getByRole('dialog')).toContainText(
      'Users will no longer be able to see it and records of who has seen it will be deleted as well.',
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(upcoming).not.toContainText(title);

    await page.getByRole('button', { name: 'Add message' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('half written');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog', { name: 'Discard the message?' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Show past messages' }).click();
    await expect(page.getByTestId('messages-past')).toBeVisible();
    await page.getByRole('button', { name: 'Hide past messages' }).click();
    await expect(page.getByTestId('messages-past')).toHaveCount(0);
  });
});

test.describe('9. service documents', () => {
  test('SystemAdmin uploads; a User sees it grouped by ship with "No date" and "N/A", and downloads it; the SystemAdmin deletes it', async ({
    page,
    browser,
  }) => {
    await signInAs(page, 'admin', '/service/documents');
    const [ship] = await shipOf(page, 'Southern Cross Tankers');
    await page.getByRole('button', { name: 'Upload document' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Ship').click();
    await page.getByRole('option', { name: ship!.name }).click();
    const fileName = `Service report ${unique()}.pdf`;
    await dialog
      .getByLabel('Document file')
      .setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 e2e') });
    await dialog.getByLabel('Visit/Action date').fill('2025-04-02');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');

    const user = await browser.newPage();
    await signInAs(user, 'south.maria', '/service/documents');
    const table = user.getByRole('table', { name: 'Documents' });
    const row = table.getByRole('row', { name: new RegExp(fileName) });
    await expect(row).toContainText('2025-04-02');
    await expect(row).toContainText('No date');
    await expect(row).toContainText('N/A');
    await expect(table.getByRole('row', { name: ship!.name, exact: true })).toBeVisible();
    await user.getByLabel('Search documents').fill('no such document');
    await expect(row).toHaveCount(0);
    await user.getByLabel('Search documents').fill('');
    const download = user.waitForEvent('download');
    await row.getByRole('button', { name: `Download ${fileName}` }).click();
    expect((await download).suggestedFilename()).toBe(fileName);
    await user.close();

    const other = await browser.newPage();
    await signInAs(other, 'north.anna', '/service/documents');
    await expect(other.getByRole('table', { name: 'Documents' })).toBeVisible();
    await expect(other.getByText(fileName)).toHaveCount(0);
    await other.close();

    // The SystemAdmin deletes it after a confirmation; it is gone from the list.
    await page.reload();
    const adminRow = page
      .getByRole('table', { name: 'Documents' })
      .getByRole('row', { name: new RegExp(fileName) });
    await adminRow.getByRole('button', { name: 'Delete document' }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(`Delete the document "${fileName}"? It cannot be restored.`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(notification(page)).toHaveText('Document was deleted successfully!');
    await expect(page.getByText(fileName)).toHaveCount(0);
  });
});

test.describe('10. automate file upload', () => {
  test('Provision shows the token once and downloads the package named after the ship', async ({ page }) => {
    await signInAs(page, 'admin', '/');
    const ships = await shipOf(page, 'Nordic Bulk Carriers');
    const client = await api(page);
    let ship: { id: string; name: string } | undefined;
    for (const s of ships)
      if (((await client.get(`/api/algorithm/facility/${s.id}/datasource`)) as unknown[]).length) ship = s;
    test.skip(!ship, 'no demo ship has a data source');
    await page.goto(`/facilities/${ship!.id}/config/info`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Provision' }).click();
    expect((await download).suggestedFilename()).toBe(`${ship!.name.toLowerCase()}.zip`);
    await expect(page.getByTestId('upload-token')).toHaveText(/^psdu_/);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(
      page.getByRole('list', { name: 'Upload credentials' }).getByRole('button', { name: 'Revoke' }),
    ).toHaveCount(1);
  });
});

test.describe('11. API keys', () => {
  test('a UserAdmin makes a key for an integration, sees it once, the integration reads with it, and it stops when revoked', async ({
    page,
  }) => {
    await signInAs(page, 'north.admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    // Axe reads the colours as they are: no button caught half-way through its fade.
    await page.addStyleTag({
      content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
    });
    const section = page.getByTestId('api-keys');
    await expect(section.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await section.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    const create = dialog.getByRole('button', { name: 'Create' });
    await expect(create).toBeDisabled();
    // The rules' texts, as the other dialogs show them.
    await dialog.getByLabel('Name').focus();
    await dialog.getByLabel('Name').blur();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    const name = `BI ${unique()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Read reports and events (reports:read)').check();
    await noViolations(page, '[role="dialog"]');
    await create.click();

    const shown = page.getByRole('dialog', { name: `API key ${name}` });
    await expect(shown.getByText(/it will not be shown again/)).toBeVisible();
    const key = await shown.getByTestId('created-api-key').inputValue();
    expect(key).toMatch(/^spk_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
    await expect(shown.getByRole('button', { name: 'Copy the API key' })).toBeVisible();
    await noViolations(page, '[role="dialog"]');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const row = section.getByTestId('api-key-row').filter({ hasText: name });
    await expect(row).toContainText('Read reports and events');
    await expect(row).toContainText('by north.admin');
    await expect(row).toContainText('Never');
    await expect(row).toContainText('Not used yet');
    await expect(page.getByText(key)).toHaveCount(0);
    // The section with a key, on a phone too (the table scrolls there: its Revoke buttons can be reached).
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      await noViolations(page, '[data-testid="api-keys"]');
    }

    // The integration: the key in X-API-Key, its organization's ships; an admin route is refused.
    const ships = await page.request.get('/api/facilities', { headers: { 'x-api-key': key } });
    expect(ships.status()).toBe(200);
    expect(((await ships.json()) as { name: string }[]).map((s) => s.name)).toContain('Baltic Tern');
    const users = await page.request.get(`/api/organizations/${page.url().split('/').at(-2)}/users`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(users.status()).toBe(403);
    await page.reload();
    await expect(section.getByTestId('api-key-row').filter({ hasText: name })).not.toContainText(
      'Not used yet',
    );

    await section.getByRole('button', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Revoke the API key ${name}?` });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(notification(page)).toContainText(`The API key ${name} was revoked`);
    await expect(section.getByTestId('api-key-row').filter({ hasText: name })).toHaveCount(0);
    const refused = await page.request.get('/api/facilities', { headers: { 'x-api-key': key } });
    expect(refused.status()).toBe(401);
  });
});

test.describe("12. An organization's alerts, event rules and data health thresholds", () => {
  test("an organization's administrator sets its alert defaults: its users' alerts and the reminder hours", async ({
    page,
  }) => {
    await signInAs(page, 'south.admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    const organizationId = page.url().split('/').at(-2)!;
    const defaultsOf = async () =>
      (await api(page)).get(`/api/organizations/${organizationId}/alert-defaults`) as Promise<{
        isDefault: boolean;
        reminderHours: number;
        settings: { delivery: string };
      }>;
    const card = page.getByTestId('alert-defaults');
    await expect(card.getByRole('heading', { name: 'Alert defaults' })).toBeVisible();
    await card.getByLabel("Use the portal's defaults", { exact: false }).uncheck();
    await card.getByLabel('Reminder after (hours)').fill('0');
    await card.getByRole('button', { name: 'Save alert defaults' }).click();
    await expect(card.getByText('Must be a whole number of hours from 1 to 168')).toBeVisible();
    expect((await defaultsOf()).isDefault).toBe(true);
    await card.getByLabel('Reminder after (hours)').fill('6');
    await card.getByLabel('Daily digest').check();
    await card.getByRole('button', { name: 'Save alert defaults' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    expect(await defaultsOf()).toMatchObject({
      isDefault: false,
      reminderHours: 6,
      settings: { delivery: 'digest' },
    });
    await checkSectionAtBothSizes(page, 'alert-defaults');

    // Back to the portal's defaults, so the organization's users are alerted as they happen again.
    await card.getByLabel("Use the portal's defaults", { exact: false }).check();
    await card.getByLabel('Reminder after (hours)').fill('4');
    await card.getByRole('button', { name: 'Save alert defaults' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    expect((await defaultsOf()).isDefault).toBe(true);
  });

  test("an organization's administrator sets its event thresholds and the washwater excursion allowance, then goes back to the defaults", async ({
    page,
  }) => {
    await signInAs(page, 'south.admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    const organizationId = page.url().split('/').at(-2)!;
    const rulesOf = async () => (await api(page)).get(`/api/organizations/${organizationId}/event-rules`);
    const card = page.getByTestId('event-rules');
    await expect(card.getByRole('heading', { name: 'Event rules' })).toBeVisible();
    const useDefaults = card.getByLabel("Use the portal's defaults", { exact: false });
    const transient = card.getByLabel('Transient when shorter than (min)');
    const allowance = card.getByLabel("Allow the guidelines' short PAH and turbidity excursions", {
      exact: false,
    });
    const pah = card.getByLabel('PAH up to (% above the limit)');
    await expect(useDefaults).toBeChecked();
    await expect(transient).toHaveValue('15');
    await expect(transient).toBeDisabled();

    // Own rules: what is out of bounds is named, with the API's bounds, and nothing is saved.
    await useDefaults.uncheck();
    await expect(pah).toBeDisabled();
    await transient.fill('0');
    await allowance.check();
    await pah.fill('600');
    await card.getByRole('button', { name: 'Save event rules' }).click();
    await expect(card.getByText('Must be a whole number from 1 to 1440')).toBeVisible();
    await expect(card.getByText('Must be a number from 0 to 500')).toBeVisible();
    expect((await rulesOf()).isDefault).toBe(true);

    await transient.fill('20');
    await pah.fill('50');
    await card.getByRole('button', { name: 'Save event rules' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    const saved = await rulesOf();
    expect(saved.isDefault).toBe(false);
    expect(saved.rules).toMatchObject({
      transientMinutes: 20,
      washwaterExcursions: true,
      pahExcursionPercent: 50,
    });
    expect(saved.rules.reportMinutes).toBe(60);
    await page.reload();
    await expect(page.getByTestId('event-rules').getByLabel('Transient when shorter than (min)')).toHaveValue(
      '20',
    );

    await page.addStyleTag({
      content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
    });
    await checkSectionAtBothSizes(page, 'event-rules');

    // Back to the defaults: the organization follows the portal's rules again.
    await page.getByTestId('event-rules').getByLabel("Use the portal's defaults", { exact: false }).check();
    await page.getByTestId('event-rules').getByRole('button', { name: 'Save event rules' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    expect((await rulesOf()).isDefault).toBe(true);
  });
  test("an organization's administrator sets a measurement field's data health thresholds, which its ships' data health uses", async ({
    page,
  }) => {
    await signInAs(page, 'south.admin', '/admin');
    await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
    const organizationId = page.url().split('/').at(-2)!;
    const client = await api(page);
    const card = page.getByTestId('data-health-thresholds');
    await expect(card.getByRole('heading', { name: 'Data health thresholds' })).toBeVisible();
    await card.getByLabel('Measurement field').fill('WASHWATER_PH_INLET');
    await page.getByRole('option', { name: 'WASHWATER_PH_INLET', exact: true }).click();
    const inForce = card.getByTestId('data-health-threshold-in-force');
    await expect(inForce).toHaveText(
      "Range 0 – 14 · stale after 2 h · flat-line after 2 h (the portal's default)",
    );
    await expect(card.getByRole('button', { name: 'Use the default' })).toBeDisabled();

    // An upside-down range is named and nothing is saved.
    await card.getByLabel('Lowest value').fill('9');
    await card.getByLabel('Highest value').fill('6');
    await card.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(card.getByText('The lowest value must not be above the highest')).toBeVisible();
    await card.getByLabel('Lowest value').fill('6');
    await card.getByLabel('Highest value').fill('9');
    await card.getByLabel('Flat-line after (h)').fill('');
    await card.getByRole('button', { name: 'Save thresholds' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    await expect(inForce).toHaveText("Range 6 – 9 · stale after 2 h (the organization's own)");
    await expect(card).toContainText("The organization's own thresholds: WASHWATER_PH_INLET.");
    const entries = (await client.get(`/api/organizations/${organizationId}/data-health-thresholds`)) as {
      fieldName: string;
      isDefault: boolean;
      flatLineHours: number | null;
    }[];
    expect(entries.find((e) => e.fieldName === 'WASHWATER_PH_INLET')).toMatchObject({
      isDefault: false,
      flatLineHours: null,
    });

    // A ship of the organization checks its inlet pH channel with them (the data health its badge and the sensor
    // fault events are made of).
    const ships = (await client.get('/api/facilities')) as { id: string; name: string }[];
    const ship = ships.find((s) => s.name === 'Gulf Horizon')!;
    const health = (await client.get(`/api/facilities/${ship.id}/data-health`)) as {
      channels: {
        name: string;
        threshold: { min: number | null; max: number | null; flatLineHours: number | null };
      }[];
    };
    expect(health.channels.find((c) => c.name === 'WASHWATER_PH_INLET')?.threshold).toMatchObject({
      min: 6,
      max: 9,
      flatLineHours: null,
    });

    await page.goto(`/admin/${organizationId}/manage`);
    await page.addStyleTag({
      content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
    });
    const again = page.getByTestId('data-health-thresholds');
    await expect(again.getByTestId('data-health-threshold-in-force')).toContainText('Range 6 – 9');
    await checkSectionAtBothSizes(page, 'data-health-thresholds');

    // Back to the default.
    await again.getByRole('button', { name: 'Use the default' }).click();
    await expect(notification(page)).toHaveText('Changes were saved');
    await expect(again.getByTestId('data-health-threshold-in-force')).toContainText("(the portal's default)");
    await expect(again).toContainText("Every field uses the portal's defaults.");
  });
});

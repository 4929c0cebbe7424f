import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { accessToken, closeNotifications, noViolations, signInAs } from '../support';

/**
 * The SystemAdmin's data retention page (/admin/data-retention; decisions 0125 and 0134): the archived months of the
 * deployment, each restorable (audited). Two months without data are archived through the API (2001-01 and 2001-02,
 * so no other spec's figures move), one is restored on the page, the other through the API at the end.
 */

const SCREENSHOTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '.artifacts',
  'screenshots',
);

async function api(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  return {
    get: async (url: string) => (await page.request.get(url, { headers })).json(),
    post: async (url: string) => page.request.post(url, { headers }),
  };
}

test('a SystemAdmin sees the archived months and restores one, audited', async ({ page }) => {
  await signInAs(page, 'admin', '/admin/organizations');
  const admin = await api(page);
  for (const month of ['2001-01', '2001-02'])
    expect((await admin.post(`/api/storage/months/${month}/archive`)).status()).toBe(200);
  try {
    await page.getByTestId('admin-toolbar').getByRole('link', { name: 'Data retention' }).click();
    await expect(page).toHaveURL(/\/admin\/data-retention$/);
    const rows = page.getByTestId('archived-month');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('2001-01');
    await expect(rows.first()).toContainText('By an administrator');
    await expect(page.getByTestId('data-retention-summary')).toContainText('are past every organization');

    for (const [name, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1440, height: 900 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await noViolations(page);
      await page.screenshot({ path: `${SCREENSHOTS}/data-retention-${name}.png`, fullPage: true });
    }

    await page.getByRole('button', { name: 'Restore 2001-01' }).click();
    await expect(page.getByTestId('notification')).toContainText(
      '2001-01 was restored: its data are back on the dashboards',
    );
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-month', '2001-02');
    await closeNotifications(page);
    const months = await admin.get('/api/storage/months');
    expect(months.archived.map((m: { month: string }) => m.month)).toEqual(['2001-02']);
    const audit = await admin.get('/api/audit-log?action=storage.restore');
    expect(JSON.stringify(audit)).toContain('2001-01');
  } finally {
    await admin.post('/api/storage/months/2001-01/restore');
    await admin.post('/api/storage/months/2001-02/restore');
  }
});

test('a UserAdmin does not see the page', async ({ page }) => {
  await signInAs(page, 'north.admin', '/admin/data-retention');
  await expect(page.getByText('You do not have access to this page')).toBeVisible();
  await expect(page.getByTestId('admin-toolbar').getByRole('link', { name: 'Data retention' })).toHaveCount(
    0,
  );
});

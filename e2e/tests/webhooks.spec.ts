import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signInAs, still, noSeriousViolations, WCAG_TAGS } from '../support';

/**
 * Webhooks on the screen (issue 19): a UserAdmin adds a webhook to a receiver this test starts on 127.0.0.1 (the e2e
 * server allows 127.0.0.0/8, global-setup.ts), copies the secret shown once, sends a test and sees it delivered in
 * the log; the receiver got it signed with that secret. Axe checks the page with its log open.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
let receiver: http.Server;
let port: number;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (c: Buffer) => (body += c.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

test('a UserAdmin adds a webhook, sends a test and sees it delivered in the log', async ({ page }) => {
  await signInAs(page, 'north.admin', '/admin');
  await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/manage$/);
  await page.getByTestId('admin-toolbar').getByRole('button', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/admin\/[0-9a-f-]+\/webhooks$/);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();

  const url = `http://127.0.0.1:${port}/portal-events`;
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  await dialog.getByLabel('URL').fill('ftp://example.com');
  await dialog.getByLabel('URL').blur();
  await expect(dialog.getByText('Must start with http:// or https://')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add' })).toBeDisabled();
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByLabel('Data gap').check();
  await dialog.getByRole('button', { name: 'Add' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Webhook secret' });
  await expect(secretDialog).toBeVisible();
  const secret = await secretDialog.getByTestId('webhook-secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toHaveCount(0);

  const card = page.getByTestId('webhook').filter({ hasText: url });
  await expect(card).toBeVisible();
  await expect(card.getByText('Emission exceedance, Scrubber off while required, Data gap')).toBeVisible();
  await expect(card.getByText(`Secret ending in ${secret.slice(-4)}`, { exact: false })).toBeVisible();
  await expect(card.getByText('No deliveries yet')).toBeVisible();

  await card.getByRole('button', { name: 'Send test' }).click();
  const row = card.getByTestId('webhook-delivery').first();
  await expect(row).toHaveAttribute('data-status', 'delivered', { timeout: 30_000 });
  await expect(row.getByRole('cell', { name: 'Delivered' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '200', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Test', exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Show attempts' }).click();
  const attempts = card.getByRole('table', { name: 'Attempts' });
  await expect(attempts.getByRole('row')).toHaveCount(2);
  await expect(attempts.getByRole('cell', { name: 'Delivered' })).toBeVisible();
  await expect(attempts).toBeInViewport();

  // The receiver got it once, signed with the secret shown.
  expect(received).toHaveLength(1);
  const [got] = received;
  const timestamp = got!.headers['x-portal-timestamp'] as string;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${got!.body}`).digest('hex')}`;
  expect(got!.headers['x-portal-signature']).toBe(expected);
  expect(JSON.parse(got!.body)).toMatchObject({ kind: 'test', event: null });

  await still(page); // the attempts' table opens with an animation
  await page.screenshot({ path: path.join(artifacts, 'webhooks-desktop.png'), fullPage: true });
  await noSeriousViolations(page, undefined, WCAG_TAGS);

  // Disabled, then deleted after its confirmation.
  // The switch shows the saved state: it turns off once the change is saved.
  await card.getByLabel(`Enabled: ${url}`).click();
  await expect(card.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(card.getByLabel(`Enabled: ${url}`)).not.toBeChecked();
  await card.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No webhooks yet')).toBeVisible();
});

test('a webhook to 169.254.169.254 is refused with the reason under the URL', async ({ page }) => {
  await signInAs(page, 'north.admin', '/admin');
  await page.getByTestId('admin-toolbar').getByRole('button', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  await dialog.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data/');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(
    dialog.getByText(
      '169.254.169.254 is the cloud metadata address: webhooks go only to public addresses unless the operator allows this network',
    ),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('webhook').filter({ hasText: '169.254.169.254' })).toHaveCount(0);
});

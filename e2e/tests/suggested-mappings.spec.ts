import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from '../support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, 'e2e', '.artifacts');

/** A day of Atlantic Meridian as the foreign AMS logger writes it, and the data source settings that read it. */
function foreignSample(): { fileName: string; content: Buffer; dataSource: Record<string, unknown> } {
  const script = `
    import { demoShips, foreignDataSource, foreignLogger, writeForeignDayFile } from '@portal/demo-fleet';
    const logger = foreignLogger('ams');
    const ship = demoShips().find((s) => s.key === 'atlantic_meridian');
    const file = writeForeignDayFile(ship, new Date(Date.UTC(2026, 2, 9)), logger);
    console.log(JSON.stringify({ fileName: file.fileName, content: file.content.toString('base64'), dataSource: foreignDataSource(logger) }));`;
  const scriptFile = path.join(root, 'apps', 'api', `.e2e-foreign-${process.pid}.mts`);
  fs.writeFileSync(scriptFile, script);
  try {
    const output = execFileSync('npx', ['tsx', scriptFile], {
      cwd: path.join(root, 'apps', 'api'),
      encoding: 'utf8',
    });
    const parsed = JSON.parse(output.trim().split('\n').pop()!);
    return { ...parsed, content: Buffer.from(parsed.content, 'base64') };
  } finally {
    fs.rmSync(scriptFile, { force: true });
  }
}

async function accessToken(page: Page): Promise<string> {
  let token: string | null = null;
  await expect
    .poll(async () => {
      token = await page
        .evaluate(() => {
          const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
          return key ? (JSON.parse(sessionStorage.getItem(key)!).access_token as string) : null;
        })
        .catch(() => null);
      return token;
    })
    .not.toBeNull();
  return token!;
}

test('suggested mappings: a ship with an imported configuration and another logger is mapped in one apply', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const ships = (await (await page.request.get('/api/facilities', { headers })).json()) as {
    id: string;
    name: string;
    primaryOrganizationId: string;
  }[];
  const demo = ships.find((s) => s.name === 'Atlantic Meridian')!;
  // A new ship with the demo ship's configuration, whose logger is the AMS export (set up through the API).
  const created = await page.request.post('/api/facilities', {
    headers,
    data: { organizationId: demo.primaryOrganizationId, name: 'MV Suggested' },
  });
  const ship = (await created.json()).id as string;
  await page.request.put(`/api/algorithm/facilities/${ship}/configurations`, {
    headers,
    data: { sourceFacilityId: demo.id },
  });
  const [source] = (await (
    await page.request.get(`/api/algorithm/facility/${ship}/datasource`, { headers })
  ).json()) as { id: string; name: string }[];
  const sample = foreignSample();
  const updated = await page.request.put(`/api/algorithm/facility/${ship}/datasource/${source!.id}`, {
    headers,
    data: { name: source!.name, note: '', isPrimary: true, ...sample.dataSource },
  });
  expect(updated.ok()).toBe(true);
  const uploaded = await page.request.put(
    `/api/algorithm/facility/${ship}/datasource/${source!.id}/SampleFile`,
    {
      headers,
      multipart: { file: { name: sample.fileName, mimeType: 'text/csv', buffer: sample.content } },
    },
  );
  expect(uploaded.ok()).toBe(true);

  await page.goto(`/facilities/${ship}/config/channels`);
  await page.getByRole('button', { name: `Suggest mappings for ${source!.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Suggest mappings for ${source!.name}` });
  await expect(dialog.getByTestId('suggestion-FUEL_FLOW').getByRole('combobox')).toHaveText(
    'ME1_FO_FLOW_KGH',
  );
  await expect(dialog.getByRole('switch', { name: /^Accept / })).toHaveCount(12);
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'suggested-mappings-desktop.png'), fullPage: true });
  const axe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(artifacts, 'suggested-mappings-phone.png') });
  const phoneAxe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(phoneAxe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });

  await dialog.getByRole('button', { name: 'Accept all' }).click();
  for (const toggle of await dialog.getByRole('switch', { name: /^Accept / }).all())
    await expect(toggle).toBeChecked();
  await expect(dialog.getByText('Mappings: 12 changed, 13 removed')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Changes were saved')).toBeVisible();
  const node = page.getByTestId(`datasource-${source!.name}`);
  await expect(node.getByText('SO2_OUT_PPM', { exact: true })).toBeVisible();
  await expect(node.getByText('Not mapped')).toHaveCount(6);
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signInAs, accessToken } from '../support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Two logger files of Atlantic Meridian from before the seeded period, zipped, written by the demo fleet generator. */
function demoZip(): { file: string; names: string[]; days: string[] } {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-zip-')), 'atlantic.zip');
  const script = `
    import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
    import { zipSync } from 'fflate';
    import fs from 'node:fs';
    const ship = demoShips().find((s) => s.key === 'atlantic_meridian');
    const today = Math.floor(Date.now() / 86400000) * 86400000;
    const files = {};
    const days = [];
    for (const back of [70, 69]) {
      const day = new Date(today - back * 86400000);
      const f = await writeShipDayFile(ship, day);
      files[f.fileName] = new Uint8Array(f.content);
      days.push(day.toISOString().slice(0, 10));
    }
    fs.writeFileSync(${JSON.stringify(out)}, zipSync(files));
    console.log(JSON.stringify({ names: Object.keys(files), days }));`;
  const scriptFile = path.join(root, 'apps', 'api', `.e2e-zip-${process.pid}.mts`);
  fs.writeFileSync(scriptFile, script);
  try {
    const output = execFileSync('npx', ['tsx', scriptFile], {
      cwd: path.join(root, 'apps', 'api'),
      encoding: 'utf8',
    });
    const { names, days } = JSON.parse(output.trim().split('\n').pop()!);
    return { file: out, names, days };
  } finally {
    fs.rmSync(scriptFile, { force: true });
  }
}

const dotted = (isoDay: string) => isoDay.replace(/-/g, '.');

test('data sources, channel mapping, upload of demo files and delete with associated data', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/');
  const token = await accessToken(page);
  const ships = (await (
    await page.request.get('/api/facilities', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { id: string; name: string }[];
  const ship = ships.find((s) => s.name === 'Atlantic Meridian')!;

  // Create a data source with a sample file and see its channels.
  await page.goto(`/facilities/${ship.id}/config/channels`);
  await page.getByRole('button', { name: 'Add data source' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Bridge_Gauges');
  await dialog.getByRole('combobox', { name: 'Reader' }).click();
  await page.getByRole('option', { name: 'Delimited text (CSV)' }).click();
  // The reader's configuration is a form, the JSON under Advanced; the preview reads the chosen sample file.
  await expect(dialog.getByRole('combobox', { name: 'Timestamp format' })).toHaveText(/ISO 8601/);
  const sample = 'Timestamp;Gauge_A;Gauge_B\n01.01.2026 00:00:00;1,5;20\n01.01.2026 00:01:00;1,7;21\n';
  await dialog
    .getByTestId('sample-file-input')
    .setInputFiles({ name: 'gauges.csv', mimeType: 'text/csv', buffer: Buffer.from(sample) });
  await expect(dialog.getByText(/The timestamp column 'Timestamp' is not in the header/)).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Delimiter' }).click();
  await page.getByRole('option', { name: 'Semicolon ( ; )' }).click();
  await dialog.getByRole('combobox', { name: 'Decimal separator' }).click();
  await page.getByRole('option', { name: 'Comma ( , )' }).click();
  await expect(
    dialog.getByText(/Row 2: the timestamp '01\.01\.2026 00:00:00' does not match ISO 8601/),
  ).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Timestamp format' }).click();
  await page.getByRole('option', { name: 'Custom pattern' }).click();
  await dialog.getByLabel('Pattern').fill('DD.MM.YYYY HH:mm:ss');
  const rows = dialog.getByRole('region', { name: 'First rows of gauges.csv' });
  await expect(rows.getByRole('row', { name: /2026\.01\.01 00:01:00/ })).toContainText('1.7');
  await dialog.getByRole('button', { name: 'Advanced' }).click();
  await expect(dialog.getByLabel('Parser configuration (JSON)')).toHaveValue(
    /"timestampFormat": "DD.MM.YYYY HH:mm:ss"/,
  );
  await dialog.getByRole('button', { name: 'Add' }).click();
  const node = page.getByTestId('datasource-Bridge_Gauges');
  await expect(node.getByText('Gauge_A', { exact: true })).toBeVisible();
  await expect(node.getByText('Gauge_B', { exact: true })).toBeVisible();
  await expect(node.getByText('Not mapped')).toHaveCount(2);
  // The seeded logger stays the primary data source.
  await expect(
    page.getByTestId('datasource-EGCS_Logger_CSV').getByText('Primary', { exact: true }),
  ).toBeVisible();
  await expect(node.getByText('Primary', { exact: true })).toHaveCount(0);

  // Map a channel: name, data type, quality stars.
  await node.getByText('Gauge_A', { exact: true }).click();
  const panel = page.getByTestId('mapping-panel');
  await panel.getByLabel('Name').fill('GAUGE_A_MAPPED');
  await panel.locator('label', { hasText: '4 Stars' }).click();
  await expect(panel.getByRole('radio', { name: '4 Stars' })).toBeChecked();
  await panel.getByRole('button', { name: 'Map channel' }).click();
  await expect(node.getByText('GAUGE_A_MAPPED')).toBeVisible();
  await expect(node.getByText('Not mapped')).toHaveCount(1);
  await expect(panel.getByRole('button', { name: 'Update mapping' })).toBeVisible();

  // Upload a zip of demo files and see them with their ranges.
  const zip = demoZip();
  await page.goto(`/facilities/${ship.id}/files`);
  const range = page.getByTestId('ship-data-range');
  await expect(range).toBeVisible();
  const rangeBefore = await range.textContent();
  const logger = page.getByTestId('files-EGCS_Logger_CSV');
  await logger.getByRole('button', { name: 'Add file' }).click();
  const upload = page.getByRole('dialog');
  await upload.getByTestId('upload-file-input').setInputFiles(zip.file);
  // Only the files are looked at here: no execution for them (it could run after they were deleted).
  await upload.getByLabel('Run for the uploaded files').uncheck();
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByText('2 file(s) imported')).toBeVisible({ timeout: 60_000 });
  await upload.getByRole('button', { name: 'Close' }).click();
  for (const [i, name] of zip.names.entries()) {
    const row = logger.getByRole('row', { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    await expect(row).toContainText(`${dotted(zip.days[i]!)} 00:00 – ${dotted(zip.days[i]!)} 23:59`);
  }
  await expect(range).toContainText(`Data ${dotted(zip.days[0]!)} 00:00`);

  // Delete them with their data: the ship's data range shrinks back.
  for (const name of zip.names) await logger.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page.getByRole('button', { name: 'Delete files' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByText('Delete 2 file(s)?')).toBeVisible();
  await confirm.getByLabel('Also delete associated data').check();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Files were deleted successfully!')).toBeVisible();
  for (const name of zip.names) await expect(logger.getByText(name)).toHaveCount(0);
  await expect(range).toHaveText(rangeBefore!);
  await expect(range).toContainText('coverage 100 %');
  await page.screenshot({ path: path.join(os.tmpdir(), 'e2e-files.png'), fullPage: true });
});

test('Delete values on the measurement fields tab: a warning with the days and what goes, then both calls, audited', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  // A ship of its own, without values: the demo ships' values stay for the other specs.
  const organizations = (await (await page.request.get('/api/organizations', { headers })).json()) as {
    id: string;
    name: string;
  }[];
  const created = await page.request.post('/api/facilities', {
    headers,
    data: {
      organizationId: organizations.find((o) => o.name === 'Nordic Bulk Carriers')!.id,
      name: 'MV Delete Values',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/facilities/${id}/config/list`);
  await page.getByRole('button', { name: 'Delete values' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete values of MV Delete Values' });
  await expect(dialog).toContainText('will be deleted for good');
  // The drawer's period by default (last month), both kinds of values.
  const summary = dialog.getByTestId('delete-values-summary');
  await expect(summary).toContainText('measurement field values and report values');
  const [from, to] = (await summary.textContent())!.match(/\d{4}-\d{2}-\d{2}/g)!;
  const artifacts = path.join(root, 'e2e', '.artifacts');
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'delete-values-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByRole('button', { name: 'Delete values' })).toBeInViewport();
  await page.screenshot({ path: path.join(artifacts, 'delete-values-phone.png') });
  await page.setViewportSize({ width: 1440, height: 900 });

  await dialog.getByRole('button', { name: 'Delete values' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Values were deleted successfully!');
  await expect(dialog).toHaveCount(0);
  // Each call is audited by the API, for this ship and these days.
  for (const action of ['measurement-values.delete', 'report-values.delete']) {
    const log = (await (await page.request.get(`/api/audit-log?action=${action}`, { headers })).json()) as {
      items: { subject: string; detail: { from: string; to: string } }[];
    };
    expect(log.items[0], action).toMatchObject({ subject: id });
    expect(new Date(log.items[0]!.detail.from).toISOString(), action).toBe(`${from}T00:00:00.000Z`);
    expect(new Date(log.items[0]!.detail.to).toISOString(), action).toBe(`${to}T23:59:59.999Z`);
  }
});

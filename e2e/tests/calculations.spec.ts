import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signInAs, accessToken } from '../support';

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');

/** The editor's algorithm text, replaced as a whole (no autocompletion gets in the way). */
async function setAlgorithm(page: Page, text: string): Promise<void> {
  const content = page.getByTestId('algorithm-editor').locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

/** Signs in as the SystemAdmin and makes a new ship of its organization: the API headers and the ship's id. */
async function newShipAsAdmin(page: Page, name: string) {
  await signInAs(page, 'admin', '/profile');
  await expect(page.getByTestId('signed-in-user')).toHaveText('admin');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const me = await (await page.request.get('/api/auth/me', { headers })).json();
  const created = await page.request.post('/api/facilities', {
    headers,
    data: { organizationId: me.organizationId, name: `${name} ${Date.now()}` },
  });
  expect(created.status()).toBe(201);
  const { id: facilityId } = (await created.json()) as { id: string };
  return { headers, facilityId };
}

test('a configurator writes, fixes, validates, tests, saves and approves a measurement field calculation', async ({
  page,
}) => {
  // A ship of its own, so the field starts with no calculation whatever the demo seeded.
  const { headers, facilityId } = await newShipAsAdmin(page, 'Calc test');
  const fields = (await (
    await page.request.get('/api/algorithm/measurement-fields', { headers })
  ).json()) as { id: string; name: string }[];
  const field = fields.find((f) => f.name === 'SCRUBBER_FUEL')!;

  await page.goto(`/facilities/${facilityId}/config/detail?id=${field.id}`);
  const editor = page.getByTestId('calculation-editor');
  await expect(editor.getByText('NEW', { exact: true })).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Test' })).toBeDisabled();

  await editor.getByLabel('Inputs').click();
  await page.getByRole('option', { name: 'SCRUBBER_POWER', exact: true }).click();
  await page.keyboard.press('Escape');

  // A typo on line 2.
  await setAlgorithm(
    page,
    '// fuel to make the scrubber power, 200 g/kWh\nreturn SCRUBBER_POWR * 200 / 1000;',
  );
  await editor.getByRole('button', { name: 'Validate' }).click();
  const output = page.getByTestId('calculation-output');
  await expect(output).toContainText(
    "Line 2, character 8: Unknown name 'SCRUBBER_POWR'. Did you mean 'SCRUBBER_POWER'?",
  );
  const marker = page
    .getByTestId('algorithm-editor')
    .locator('.cm-line')
    .nth(1)
    .locator('.cm-lintRange-error');
  await expect(marker).toHaveText('SCRUBBER_POWR');
  // The marker starts at character 8 of line 2: right after "return ".
  const lineText = await page.getByTestId('algorithm-editor').locator('.cm-line').nth(1).textContent();
  expect(lineText!.indexOf('SCRUBBER_POWR') + 1).toBe(8);
  await expect(editor.getByRole('button', { name: 'Test' })).toBeDisabled();

  await setAlgorithm(
    page,
    '// fuel to make the scrubber power, 200 g/kWh\nreturn SCRUBBER_POWER * 200 / 1000;',
  );
  await editor.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByTestId('notification')).toContainText('Validation successful');
  await expect(page.getByTestId('algorithm-editor').locator('.cm-lintRange-error')).toHaveCount(0);

  await page.getByLabel('SCRUBBER_POWER 1').fill('500');
  await page.getByLabel('SCRUBBER_POWER 2').fill('1000');
  await editor.getByRole('button', { name: 'Test' }).click();
  await expect(output).toContainText('→ 100');
  await expect(output).toContainText('→ 200');

  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Calculation created successfully')).toBeVisible();
  await expect(page.getByTestId('calculation-version')).toHaveText('Version 1.0');
  await expect(editor.getByText('NEW', { exact: true })).toHaveCount(0);

  const approve = editor.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeEnabled();
  await approve.click();
  const dialog = page.getByRole('dialog');
  // UTC on a 24-hour clock in the spec's format, whatever the browser's locale.
  for (const [label, digits] of [
    ['Valid from', '202401010000'],
    ['Valid to', '203012312300'],
  ] as const) {
    await dialog.getByRole('group', { name: label }).getByRole('spinbutton').first().click();
    await page.keyboard.type(digits);
  }
  await expect(dialog.locator('input[name="validTo"]')).toHaveValue('2030.12.31 23:00');
  await page.screenshot({ path: path.join(ARTIFACTS, 'editors-approve-dialog-desktop.png') });
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Calculation approved')).toBeVisible();
  const [approved] = await (
    await page.request.get(
      `/api/algorithm/facility/${facilityId}/measurement-field/${field.id}/calculations`,
      {
        headers,
      },
    )
  ).json();
  expect(approved).toMatchObject({
    validFrom: '2024-01-01T00:00:00.000Z',
    validTo: '2030-12-31T23:00:00.000Z',
  });
  await expect(editor.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(page.getByTestId('field-status')).toHaveText('Approved');

  await page.goto(`/facilities/${facilityId}/config/list`);
  await expect(page.getByTestId('field-row-SCRUBBER_FUEL').getByTestId('field-status')).toHaveText(
    'Approved',
  );
  await expect(page.getByTestId('field-row-FUEL_FLOW').getByTestId('field-status')).toHaveText('Waiting');
});

test("a configurator adds a new ship's default calculations as drafts and approves them all", async ({
  page,
}) => {
  // A ship whose logger maps the SO2 channels only: its washwater fields have nothing to read.
  const { headers, facilityId } = await newShipAsAdmin(page, 'Defaults test');
  const source = await page.request.post(`/api/algorithm/facility/${facilityId}/datasource`, {
    headers,
    data: {
      name: 'Logger',
      dataSourceReaderId: 'delimited-text',
      dataSourceReaderConfiguration: JSON.stringify({
        delimiter: ',',
        decimalSeparator: '.',
        headerRow: 1,
        firstDataRow: 2,
        timestampColumns: ['Timestamp'],
        timestampFormat: 'YYYY-MM-DD HH:mm:ss',
      }),
      measureFrequencyInSeconds: 60,
      utcTimezoneOffsetInMinutes: 0,
      note: '',
      isPrimary: true,
    },
  });
  expect(source.status()).toBe(201);
  const { id: dataSourceId } = await source.json();
  for (const name of ['FUEL_FLOW', 'FUEL_SULFUR', 'ENGINE_LOAD', 'SO2_PPM', 'CO2_PCT', 'SCRUBBER_RUNNING']) {
    const channel = await page.request.post(
      `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
      {
        headers,
        data: {
          source: name,
          name,
          dataType: name === 'SCRUBBER_RUNNING' ? 'Boolean' : 'Double',
          description: '',
          unit: '',
          qualityScore: 5,
        },
      },
    );
    expect(channel.status()).toBeLessThan(300);
  }

  await page.goto(`/facilities/${facilityId}/config/list`);
  const status = (field: string) => page.getByTestId(`field-row-${field}`).getByTestId('field-status');
  await expect(status('FUEL_FLOW')).toHaveText('Waiting');
  await expect(page.getByRole('button', { name: 'Approve all' })).toBeDisabled();
  await page.getByRole('button', { name: 'Add default calculations' }).click();
  await expect(
    page.getByText(
      'Default calculations added as drafts: 12. Approve them to use them. 23 field(s) stay Waiting: the channels they read are not mapped on the ship.',
    ),
  ).toBeVisible();
  for (const field of ['FUEL_FLOW', 'SO2_CO2_RATIO', 'COMPLIANT', 'EXCESS_SULFUR_REMOVED'])
    await expect(status(field)).toHaveText('In progress');
  for (const field of ['LATITUDE', 'WASHWATER_PH', 'WASHWATER_COMPLIANT'])
    await expect(status(field)).toHaveText('Waiting');
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(ARTIFACTS, 'screenshots', `default-calculations-${size}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // The drafts go through the same approval as any calculation: Approve all with a validity.
  await page.getByRole('button', { name: 'Approve all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve 12 field(s)' });
  await dialog.getByRole('group', { name: 'Valid from' }).getByRole('spinbutton').first().click();
  await page.keyboard.type('202401010000');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Approve all: 12 completed, 0 failed, 0 skipped')).toBeVisible();
  await expect(status('FUEL_FLOW')).not.toHaveText('In progress');
  await expect(status('WASHWATER_PH')).toHaveText('Waiting');
  await expect(page.getByRole('button', { name: 'Add default calculations' })).toBeEnabled();
});

import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInAs, accessToken } from '../support';

/**
 * Issue 6, part 2 in the browser: saving a calculation requests a recalculation; the calculation queue of the ship
 * (measurement field mode) and of the report configurator (report field mode) list the requests and act on them
 * with the enablement rules: Execute and Remove need a selection with nothing queued, Cancel a selection of
 * queued rows only.
 */

const SHIP = 'Pacific Kestrel';
const TITLE = 'Pending report field or measurement field recalculations';
const NO_PENDING = 'No pending recalculations';

/** 'YYYY.MM.DD HH:mm' in UTC, as the portal shows dates. */
const shown = (iso: string) => iso.slice(0, 16).replace('T', ' ').replace(/-/g, '.');

interface Recalculation {
  id: string;
  fieldName: string;
  reportName: string | null;
  version: number;
  revision: number;
  recalculationRequestedOn: string | null;
  recalculationQueuedOn: string | null;
}

const buttons = (page: Page) => ({
  remove: page.getByRole('button', { name: 'Remove from queue' }),
  cancel: page.getByRole('button', { name: 'Cancel execution' }),
  execute: page.getByRole('button', { name: 'Execute', exact: true }),
});

async function expectEnabled(page: Page, enabled: { remove: boolean; cancel: boolean; execute: boolean }) {
  const b = buttons(page);
  for (const key of ['remove', 'cancel', 'execute'] as const) {
    if (enabled[key]) await expect(b[key], key).toBeEnabled();
    else await expect(b[key], key).toBeDisabled();
  }
}

/** The cells of a table row as text. */
const cells = (row: Locator) => row.locator('td').allInnerTexts();

/** Saves the field's calculation on the ship's measurement field detail screen with a new comment: Save requests a recalculation. */
async function saveWithNewComment(page: Page, facilityId: string, fieldId: string, comment: string) {
  await page.goto(`/facilities/${facilityId}/config/detail?id=${fieldId}`);
  const editor = page.getByTestId('calculation-editor');
  await expect(editor.getByText('Approved', { exact: true })).toBeVisible();
  await editor.getByLabel('Comment').fill(comment);
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Changes were saved')).toBeVisible();
  await expect(editor.getByText('Approved, recalculation requested')).toBeVisible();
}

test('the ship calculation queue lists saved calculations and executes, guards and removes them', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAs(page, 'admin', '/');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const ships = (await (await page.request.get('/api/facilities', { headers })).json()) as {
    id: string;
    name: string;
  }[];
  const ship = ships.find((s) => s.name === SHIP)!;
  const fields = (await (
    await page.request.get('/api/algorithm/measurement-fields', { headers })
  ).json()) as { id: string; name: string }[];
  const so2 = fields.find((f) => f.name === 'SO2_PPM')!;
  const ph = fields.find((f) => f.name === 'WASHWATER_PH')!;
  const pending = async () =>
    (await (
      await page.request.get(
        `/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=${ship.id}`,
        { headers },
      )
    ).json()) as Recalculation[];

  // Nothing is pending on the demo ship.
  await page.goto(`/facilities/${ship.id}/config/calculation-queue`);
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(page.getByText(NO_PENDING)).toBeVisible();
  await expectEnabled(page, { remove: false, cancel: false, execute: false });

  // Two saves, two requests; the first saved is listed first.
  await saveWithNewComment(page, ship.id, so2.id, 'Sensor recalibrated (e2e)');
  await saveWithNewComment(page, ship.id, ph.id, 'Probe replaced (e2e)');
  const requests = await pending();
  expect(requests.map((r) => r.fieldName)).toEqual(['SO2_PPM', 'WASHWATER_PH']);

  await page.goto(`/facilities/${ship.id}/config/calculation-queue`);
  const table = page.getByRole('table', { name: TITLE });
  await expect(table.locator('thead th')).toHaveText([
    '',
    'Measurement field',
    'Calculation version',
    'Requested on',
    'Queued on',
  ]);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  for (const [i, r] of requests.entries()) {
    expect(await cells(rows.nth(i))).toEqual([
      '',
      r.fieldName,
      `${r.version}.${r.revision}`,
      shown(r.recalculationRequestedOn!),
      '',
    ]);
  }
  const so2Row = rows.filter({ hasText: 'SO2_PPM' });
  const phRow = rows.filter({ hasText: 'WASHWATER_PH' });

  // Requested rows: Execute and Remove with a selection, never Cancel.
  await expectEnabled(page, { remove: false, cancel: false, execute: false });
  await so2Row.getByRole('checkbox').check();
  await expectEnabled(page, { remove: true, cancel: false, execute: true });

  await buttons(page).execute.click();
  await expect(page.getByText('1 recalculation(s) queued for execution')).toBeVisible();
  // The queued row: its queued date is set, and only Cancel applies to it.
  await expect(so2Row.locator('td').nth(4)).toHaveText(/^\d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/);
  await expectEnabled(page, { remove: false, cancel: false, execute: false });
  await so2Row.getByRole('checkbox').check();
  await expectEnabled(page, { remove: false, cancel: true, execute: false });
  // A queued and a requested row together: no action fits both.
  await phRow.getByRole('checkbox').check();
  await expectEnabled(page, { remove: false, cancel: false, execute: false });
  await so2Row.getByRole('checkbox').uncheck();
  await expectEnabled(page, { remove: true, cancel: false, execute: true });
  await page.screenshot({ path: path.join(os.tmpdir(), 'e2e-queue-ship.png'), fullPage: true });

  await buttons(page).remove.click();
  await expect(page.getByText('1 recalculation(s) removed from queue')).toBeVisible();
  await expect(phRow).toHaveCount(0);

  // The queued recalculation runs in the background and leaves the queue when done.
  await expect
    .poll(async () => (await pending()).map((r) => r.fieldName), { timeout: 180_000, intervals: [2_000] })
    .toEqual([]);
  await page.reload();
  await expect(page.getByText(NO_PENDING)).toBeVisible();
});

test('the report configurator queue lists report field recalculations with their report', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const reportId = 'FacilityMarpolcompliance';
  const report = (await (
    await page.request.get(`/api/algorithm/reports/${reportId}`, { headers })
  ).json()) as { name: string; fields: { id: string; name: string; isApproved: boolean }[] };
  const field = report.fields.find((f) => f.isApproved)!;
  const base = `/api/algorithm/reports/${reportId}/fields/${field.id}/calculations`;
  const [current] = (await (await page.request.get(base, { headers })).json()) as Record<string, unknown>[];
  const { id, documentation, inputIds, transformAlgorithm, qualityScore, algorithmSecondsSpan } = current!;
  // Save (recalculate by default) requests a recalculation of the report field.
  const saved = await page.request.put(`${base}/${String(id)}`, {
    headers,
    data: {
      comment: 'Limit reviewed (e2e)',
      documentation,
      inputIds,
      transformAlgorithm,
      qualityScore,
      algorithmSecondsSpan,
    },
  });
  expect(saved.status()).toBe(200);
  const requests = (await (
    await page.request.get('/api/algorithm/calculations/report-fields?recalculationRequested=true', {
      headers,
    })
  ).json()) as Recalculation[];
  const request = requests.find((r) => r.id === id);
  expect(request).toMatchObject({
    fieldName: field.name,
    reportName: report.name,
    recalculationQueuedOn: null,
  });

  await page.goto('/report-config/calculation-queue');
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
  const table = page.getByRole('table', { name: TITLE });
  await expect(table.locator('thead th')).toHaveText([
    '',
    'Report',
    'Report field',
    'Calculation version',
    'Requested on',
    'Queued on',
  ]);
  const row = table.locator('tbody tr').filter({ hasText: field.name });
  expect(await cells(row)).toEqual([
    '',
    report.name,
    field.name,
    `${request!.version}.${request!.revision}`,
    shown(request!.recalculationRequestedOn!),
    '',
  ]);
  await page.screenshot({ path: path.join(os.tmpdir(), 'e2e-queue-report.png'), fullPage: true });

  // Removing it takes it off the queue (and the queue is empty again unless something else was pending).
  await row.getByRole('checkbox').check();
  await expectEnabled(page, { remove: true, cancel: false, execute: true });
  await buttons(page).remove.click();
  await expect(page.getByText('1 recalculation(s) removed from queue')).toBeVisible();
  await expect(row).toHaveCount(0);
  if (requests.length === 1) await expect(page.getByText(NO_PENDING)).toBeVisible();
});

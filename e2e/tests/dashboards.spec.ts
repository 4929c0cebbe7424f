import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { availabilityNeedle, formatByFormat, marpolNeedle, sfocNeedle } from '@portal/contracts/rules';
import { collectReports, signInAs, still, type ReportData, accessToken } from '../support';

/**
 * The dashboards show the API's numbers: every widget's value, gauge, bar chart and the uptime matrix are
 * compared with the answers that the page received (reports/data: each report as reports/{id}/data gives it) (and, for one report, with an
 * independent call). The living demo's values arrive through the real upload and execution path, so every
 * number is there: none of the widgets may say "No data". Screenshots of both dashboards at 1440x900 and 390x844
 * go to /tmp/dashboards-*.png.
 */

const num = (data: ReportData | undefined, field: string) => {
  const v = data?.fields[field]?.value;
  return typeof v === 'number' ? v : null;
};
const attr = (v: number | null) => (v === null ? 'null' : String(v));

/** Full-page screenshots at desktop and phone size, once the charts have drawn again. */
async function screenshots(page: Page, name: string, chartTestId: string) {
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect(page.getByTestId(chartTestId)).toHaveAttribute('data-ready', 'true');
    await still(page);
    await page.screenshot({ path: `/tmp/dashboards-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function facilities(page: Page) {
  const response = await page.request.get('/api/facilities', {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; name: string; primaryOrganizationName: string }[];
}

test('the fleet dashboard shows the API numbers in its widgets, gauges and charts', async ({ page }) => {
  const answers = collectReports(page);
  await signInAs(page, 'admin');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  const ships = await facilities(page);
  await expect(page.getByTestId('ship-card')).toHaveCount(ships.length);
  await expect.poll(() => answers.size).toBe(8);

  for (const [report, testId] of [
    ['FacilityGroupExtraremovalofsulfur', 'kpi-extra-removal-of-sulfur'],
    ['FacilityGroupCO2reduction', 'kpi-co2-reduction'],
    ['FacilityGroupTotalCO2Emission', 'kpi-total-co2-emission'],
  ] as const) {
    const data = answers.get(report)!.data;
    expect(num(data, 'ActualAverage'), report).toBeGreaterThan(0);
    await expect(page.getByTestId(`${testId}-value`)).toHaveAttribute(
      'data-value',
      attr(num(data, 'ActualAverage')),
    );
    await expect(page.getByTestId(`${testId}-lifetime`)).toHaveAttribute(
      'data-value',
      attr(num(data, 'Lifetime')),
    );
    await expect(page.getByTestId(testId)).not.toContainText('No data');
  }
  const gauges = [
    ['FacilityGroupMarpolComplianceLarge', 'card-marpol', 'chart-marpol', 'Facilities'],
    // One measure with the gauge: the bars are the ships' margins.
    ['FacilityGroupSO2CO2Ratio', 'card-ratio', 'chart-ratio', 'Facilities'],
    ['FacilityGroupOperationalAvailabilitylarge', 'card-availability', 'chart-availability', 'Facilities'],
    ['FacilityGroupSFOCimpactPctlarge', 'card-sfoc', 'chart-sfoc', 'Facilities'],
  ] as const;
  for (const [report, card, chart, listField] of gauges) {
    const data = answers.get(report)!.data;
    expect(num(data, 'ActualAverage'), report).not.toBeNull();
    await expect(page.getByTestId(`${card}-value`)).toHaveAttribute(
      'data-value',
      attr(num(data, 'ActualAverage')),
    );
    await expect(page.getByTestId(card)).not.toContainText('No data');
    await expect(page.getByTestId(`${card}-gauge`)).toHaveAttribute('data-ready', 'true');
    const points = JSON.parse((await page.getByTestId(chart).getAttribute('data-points'))!) as {
      facilityId: string;
      value: number | null;
    }[];
    const list = data.fields[listField]!.value as { facilityId: string; value: number | null }[];
    expect(points.map((p) => [p.facilityId, p.value])).toEqual(list.map((i) => [i.facilityId, i.value]));
    expect(list).toHaveLength(ships.length);
  }
  // The needles follow the gauge rules from the API's numbers.
  const needle = async (card: string) =>
    Number(await page.getByTestId(`${card}-value`).getAttribute('data-needle'));
  expect(await needle('card-marpol')).toBeCloseTo(
    marpolNeedle(num(answers.get('FacilityGroupMarpolComplianceLarge')!.data, 'ActualAverage'))!,
    9,
  );
  expect(await needle('card-availability')).toBeCloseTo(
    availabilityNeedle(
      num(answers.get('FacilityGroupOperationalAvailabilitylarge')!.data, 'ActualAverage'),
      'fleet',
    )!,
    9,
  );
  expect(await needle('card-sfoc')).toBeCloseTo(
    sfocNeedle(num(answers.get('FacilityGroupSFOCimpactPctlarge')!.data, 'ActualAverage'))!,
    9,
  );
  // Each ship card shows its Marpol compliance from the list.
  const marpolList = answers.get('FacilityGroupMarpolComplianceLarge')!.data.fields.Facilities!.value as {
    facilityId: string;
    value: number | null;
  }[];
  // The six demo ships have data; ships other specs created without data show "No data".
  expect(marpolList.filter((item) => item.value !== null).length).toBeGreaterThanOrEqual(6);
  for (const item of marpolList) {
    const card = page.locator(`[data-testid="ship-card"][data-facility-id="${item.facilityId}"]`);
    await expect(card).toContainText(`Marpol compliance: ${formatByFormat(item.value, 'Percent')}`);
  }
  // An independent call gives the same numbers.
  const fromPage = answers.get('FacilityGroupMarpolComplianceLarge')!;
  const single = new URL(fromPage.url);
  single.pathname = '/api/reports/FacilityGroupMarpolComplianceLarge/data';
  single.searchParams.delete('reportIds');
  const direct = await page.request.get(single.toString(), {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(((await direct.json()) as ReportData).fields).toEqual(fromPage.data.fields);
  // SystemAdmin's shortcut to the data export of each widget's report.
  await expect(page.getByTestId('export-FacilityGroupMarpolComplianceLarge')).toHaveAttribute(
    'href',
    '/report-config/data-export?reportCode=FacilityGroupMarpolComplianceLarge',
  );
  await screenshots(page, 'fleet', 'card-marpol-gauge');
});

test('the fleet filter changes the ships and the numbers requested', async ({ page }) => {
  await signInAs(page, 'admin');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  const ships = await facilities(page);
  const chosen = ships.slice(0, 2).map((s) => s.id);
  const before = collectReports(page);
  await page.reload();
  await expect.poll(() => before.size).toBe(8);
  const allShipsEmission = num(before.get('FacilityGroupTotalCO2Emission')!.data, 'ActualAverage')!;
  await page.evaluate(
    (ids) =>
      localStorage.setItem(
        'portal.fleetFilter',
        JSON.stringify({
          organizations: [],
          facilities: ids,
          facilitiesMode: 'include',
          scrubberSystemTypes: [],
          numberOfScrubbers: [],
          systemManufacturers: [],
        }),
      ),
    chosen,
  );
  const answers = collectReports(page);
  await page.reload();
  await expect(page.getByTestId('ship-card')).toHaveCount(2);
  await expect.poll(() => answers.size).toBe(8);
  const marpol = answers.get('FacilityGroupMarpolComplianceLarge')!;
  expect(marpol.method).toBe('POST');
  expect([...marpol.body.facilityIds].sort()).toEqual([...chosen].sort());
  const list = marpol.data.fields.Facilities!.value as { facilityId: string }[];
  expect(list.map((i) => i.facilityId).sort()).toEqual([...chosen].sort());
  await expect(page.getByTestId('card-marpol-value')).toHaveAttribute(
    'data-value',
    attr(num(marpol.data, 'ActualAverage')),
  );
  const points = JSON.parse(
    (await page.getByTestId('chart-marpol').getAttribute('data-points'))!,
  ) as unknown[];
  expect(points).toHaveLength(2);
  // Two ships emit less than six: the page shows the smaller sum.
  const twoShipsEmission = num(answers.get('FacilityGroupTotalCO2Emission')!.data, 'ActualAverage')!;
  expect(twoShipsEmission).toBeGreaterThan(0);
  expect(twoShipsEmission).toBeLessThan(allShipsEmission);
  await expect(page.getByTestId('kpi-total-co2-emission-value')).toHaveAttribute(
    'data-value',
    attr(twoShipsEmission),
  );
  await page.evaluate(() => localStorage.removeItem('portal.fleetFilter'));
});

test('the ship dashboard shows the API numbers, the ratio chart and the uptime matrix', async ({ page }) => {
  await signInAs(page, 'north.anna');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  const ships = await facilities(page);
  const ship = ships[0]!;
  const answers = collectReports(page);
  await page.locator(`a[href="/ship/${ship.id}"]`).first().click();
  await expect(page.getByTestId('ship-name')).toHaveText(ship.name, { timeout: 30_000 });
  await expect(page.getByTestId('edit-ship')).toHaveCount(0);
  // The fleet dashboard's answers may still arrive after the click: count the ship reports.
  await expect
    .poll(() => [...answers.keys()].filter((id) => !id.startsWith('FacilityGroup')).length)
    .toBe(11);

  const marpol = answers.get('FacilityMarpolcompliance')!.data;
  expect(num(marpol, 'ActualAverage')).not.toBeNull();
  // Every widget has its number (the matrix legend names "No data" as a colour, so the widgets are checked one by one).
  for (const testId of [
    'kpi-marpol',
    'kpi-availability',
    'kpi-co2-reduction',
    'card-ship-ratio',
    'kpi-extra-removal-of-sulfur',
    'kpi-sfoc',
    'kpi-total-co2-emission',
  ]) {
    await expect(page.getByTestId(testId)).not.toContainText('No data');
  }
  await expect(page.getByTestId('kpi-marpol-value')).toHaveAttribute(
    'data-value',
    attr(num(marpol, 'ActualAverage')),
  );
  await expect(page.getByTestId('kpi-marpol-fleet')).toHaveAttribute(
    'data-value',
    attr(num(marpol, 'FleetActual')),
  );
  for (const [report, testId] of [
    ['FacilityOperationalavailability', 'kpi-availability'],
    ['FacilityCO2reduction', 'kpi-co2-reduction'],
    ['FacilityExtraremovalofsulfur', 'kpi-extra-removal-of-sulfur'],
    ['FacilitySFOCimpactPct', 'kpi-sfoc'],
    ['FacilityTotalCO2Emission', 'kpi-total-co2-emission'],
  ] as const) {
    expect(num(answers.get(report)!.data, 'ActualAverage'), report).not.toBeNull();
    await expect(page.getByTestId(`${testId}-value`)).toHaveAttribute(
      'data-value',
      attr(num(answers.get(report)!.data, 'ActualAverage')),
    );
  }
  const ratio = answers.get('FacilitySO2CO2Ratio')!.data;
  await expect(page.getByTestId('ship-ratio-value')).toHaveAttribute(
    'data-value',
    attr(num(ratio, 'ActualAverage')),
  );
  await expect(page.getByTestId('ratio-series')).toHaveAttribute(
    'data-points',
    String((ratio.fields.Values!.value as unknown[]).length),
  );

  // The uptime matrix: hourly for the default period (last month), a cell per hour of the API's points.
  const uptime = answers.get('FacilityOperationalAvailabilitylarge')!;
  expect(new URL(uptime.url).searchParams.get('duration')).toBe('hourly');
  const matrix = page.getByTestId('uptime-matrix');
  await expect(matrix).toHaveAttribute('data-mode', 'hourly');
  const cells = JSON.parse((await matrix.getAttribute('data-cells'))!) as (number | string)[][];
  expect(cells).toHaveLength(24);
  const points = uptime.data.fields.Values!.value as { timestamp: string; value: number | null }[];
  expect(points.filter((p) => p.value !== null).length).toBeGreaterThan(24);
  for (const p of points) {
    const t = new Date(p.timestamp);
    const from = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
    const column = Math.floor((t.getTime() - from.getTime()) / 86_400_000);
    expect(cells[t.getUTCHours()]![column]).toEqual(p.value === null ? 'NO_DATA' : p.value);
  }
  await expect(page.getByTestId('uptime-heatmap')).toHaveAttribute('data-ready', 'true');
  await screenshots(page, 'ship', 'uptime-heatmap');
});

test("a user cannot see another organization's ship by its address", async ({ page }) => {
  await signInAs(page, 'south.lee');
  const southShips = await facilities(page);
  await page.goto('/');
  await signOutAndIn(page, 'north.anna');
  const annaShips = await facilities(page);
  const foreign = southShips.find((s) => !annaShips.some((a) => a.id === s.id))!;
  await page.goto(`/ship/${foreign.id}`);
  await expect(page.getByTestId('ship-not-found')).toBeVisible();
  await expect(page.getByText(foreign.name)).toHaveCount(0);
  const response = await page.request.get(
    `/api/reports/FacilityMarpolcompliance/data?${new URLSearchParams({ from: '2024-01-01T00:00:00.000Z', to: '2024-01-31T23:59:59.999Z', facilityId: foreign.id })}`,
    {
      headers: { authorization: `Bearer ${await accessToken(page)}` },
    },
  );
  expect(response.status()).toBe(404);
});

async function signOutAndIn(page: Page, username: string) {
  await page.goto('/logoff');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signInAs(page, username);
}

test('the data export downloads export.xlsx that opens as a workbook', async ({ page }) => {
  await signInAs(page, 'admin', '/report-config/data-export?reportCode=FacilityMarpolcompliance');
  await expect(page.getByTestId('data-export')).toBeVisible();
  await expect(page.getByTestId('export-download')).toBeEnabled();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe('export.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await download.path())!)) as unknown as ArrayBuffer);
  expect(workbook.worksheets.map((s) => s.name)).toEqual(['FacilityMarpolcompliance']);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, 'Ship', 'IMO', 'Timestamp (UTC)', 'ActualAverage (%)']);
  // The demo's values are in it: rows of ships with numbers.
  expect(sheet.rowCount).toBeGreaterThan(1);
  const values: number[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1 && typeof row.getCell(4).value === 'number') values.push(row.getCell(4).value as number);
  });
  expect(values.length).toBeGreaterThan(0);
  expect(values.every((v) => v >= 0 && v <= 100)).toBe(true);
});

import { expect, test, type Page } from '@playwright/test';
import {
  customPeriod,
  formatByFormat,
  RATIO_BAR_COLOURS,
  ratioBarColour,
  ratioGaugeNeedle,
  serializePeriod,
} from '@portal/contracts/rules';
import { collectReports, signInAs, type ReceivedReport, accessToken } from '../support';

/**
 * Issue 15, honest dashboards in the browser: no needle without data, the fleet SO2/CO2 card as one measure (the
 * margins of the API), an info button on every KPI with the report's information, and a failed execution shown as
 * Failed on the ship list and the files screen.
 */

async function api(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  return {
    get: async <T>(url: string): Promise<T> => {
      const response = await page.request.get(url, { headers });
      expect(response.status(), url).toBe(200);
      return (await response.json()) as T;
    },
    post: (url: string, data: unknown) => page.request.post(url, { headers, data }),
    put: (url: string, data: unknown) => page.request.put(url, { headers, data }),
    delete: (url: string, data?: unknown) => page.request.delete(url, { headers, data }),
  };
}

/** Where the web app keeps the chosen period (apps/web/src/lib/fleet-context.tsx). */
const PERIOD_STORAGE_KEY = 'portal.period';
const FLEET_GAUGES = ['card-marpol', 'card-ratio', 'card-availability', 'card-sfoc'] as const;

test('a fleet with no data in the period shows no needle, only No data', async ({ page }) => {
  await signInAs(page, 'admin');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  // January 2001: long before any demo data.
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    PERIOD_STORAGE_KEY,
    serializePeriod(customPeriod('2001-01-01', '2001-01-31')),
  ] as const);
  const answers = collectReports(page);
  await page.reload();
  await expect.poll(() => answers.size).toBe(8);
  for (const card of FLEET_GAUGES) {
    const value = page.getByTestId(`${card}-value`);
    await expect(value).toHaveText('No data');
    await expect(value).toHaveAttribute('data-needle', 'none');
    await expect(value).toHaveAttribute('data-value', 'null');
    await expect(page.getByTestId(`${card}-gauge`)).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId(`${card}-gauge`)).toHaveAttribute('aria-label', /No data$/);
  }
  // The Marpol dial does not read 80, nor the SO2/CO2 dial 100: no number at all under them.
  await expect(page.getByTestId('card-marpol')).not.toContainText('80.0');
  await expect(page.getByTestId('card-ratio')).not.toContainText('100.0');
  await page.screenshot({ path: '/tmp/dashboards-fleet-no-data-desktop.png', fullPage: true });

  // The ship dashboard's gauges too.
  const ships = await (await api(page)).get<{ id: string }[]>('/api/facilities');
  await page.goto(`/ship/${ships[0]!.id}`);
  for (const kpi of ['kpi-marpol', 'kpi-availability']) {
    await expect(page.getByTestId(`${kpi}-gauge`)).toHaveAttribute('data-needle', 'none');
    await expect(page.getByTestId(`${kpi}-value`)).toHaveText('No data');
  }
  await page.evaluate((key) => localStorage.removeItem(key), PERIOD_STORAGE_KEY);
});

test("the fleet SO2/CO2 card's gauge and bars show the API's margins", async ({ page }) => {
  const answers = collectReports(page);
  await signInAs(page, 'admin');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  await expect.poll(() => answers.has('FacilityGroupSO2CO2Ratio')).toBe(true);
  const ratio = answers.get('FacilityGroupSO2CO2Ratio')!.data;
  const margin = ratio.fields.ActualAverage!.value as number;
  expect(typeof margin).toBe('number');

  const value = page.getByTestId('card-ratio-value');
  await expect(value).toHaveAttribute('data-value', String(margin));
  await expect(value).toHaveText(formatByFormat(margin, 'Percent'));
  expect(Number(await value.getAttribute('data-needle'))).toBeCloseTo(100 - ratioGaugeNeedle(margin)!, 9);

  // The bars: each ship's margin (Facilities), not its raw ratio (Values), coloured by its band.
  const margins = ratio.fields.Facilities!.value as { facilityId: string; value: number | null }[];
  const ratios = ratio.fields.Values!.value as { facilityId: string; value: number | null }[];
  expect(margins.some((m) => m.value !== null)).toBe(true);
  const points = JSON.parse((await page.getByTestId('chart-ratio').getAttribute('data-points'))!) as {
    facilityId: string;
    value: number | null;
    colour: string;
  }[];
  expect(points.map((p) => [p.facilityId, p.value])).toEqual(margins.map((m) => [m.facilityId, m.value]));
  for (const p of points) {
    if (p.value === null) continue;
    expect(p.colour).toBe(RATIO_BAR_COLOURS[ratioBarColour(p.value)]);
    // A margin is not a ratio: the chart never shows the raw ratio.
    const raw = ratios.find((r) => r.facilityId === p.facilityId)?.value;
    if (raw !== null && raw !== undefined && Math.abs(raw - p.value) > 1e-9) expect(p.value).not.toBe(raw);
  }
  await expect(page.getByTestId('card-ratio-gauge')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('card-ratio').screenshot({ path: '/tmp/dashboards-ratio-card.png' });
});

/** Opens each KPI's info button and compares the dialog's text with the report information of the API. */
async function expectInformation(
  page: Page,
  answers: Map<string, ReceivedReport>,
  widgets: [string, string][],
) {
  for (const [report, testId] of widgets) {
    const information = answers.get(report)?.data.information;
    expect(information, report).toBeTruthy();
    const text = await page.evaluate((html) => {
      const box = document.createElement('div');
      box.innerHTML = html;
      return box.textContent ?? '';
    }, information!);
    await page.getByTestId(`${testId}-info`).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId(`${testId}-information`)).toHaveText(text);
    if (report.includes('vailability')) await expect(dialog).toContainText('above 100 %');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
}

test('the info button of each KPI shows its report information, on both dashboards', async ({ page }) => {
  const answers = collectReports(page);
  await signInAs(page, 'north.anna');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  await expect.poll(() => answers.size).toBe(8);
  await expectInformation(page, answers, [
    ['FacilityGroupExtraremovalofsulfur', 'kpi-extra-removal-of-sulfur'],
    ['FacilityGroupCO2reduction', 'kpi-co2-reduction'],
    ['FacilityGroupTotalCO2Emission', 'kpi-total-co2-emission'],
    ['FacilityGroupMarpolComplianceLarge', 'card-marpol'],
    ['FacilityGroupSO2CO2Ratio', 'card-ratio'],
    ['FacilityGroupOperationalAvailabilitylarge', 'card-availability'],
    ['FacilityGroupSFOCimpactPctlarge', 'card-sfoc'],
    ['FacilityGroupWashwaterCompliance', 'card-washwater'],
  ]);

  const ships = await (await api(page)).get<{ id: string; name: string }[]>('/api/facilities');
  answers.clear();
  await page.goto(`/ship/${ships[0]!.id}`);
  await expect(page.getByTestId('ship-name')).toHaveText(ships[0]!.name);
  await expect.poll(() => answers.size).toBe(11);
  await expectInformation(page, answers, [
    ['FacilityMarpolcompliance', 'kpi-marpol'],
    ['FacilityOperationalavailability', 'kpi-availability'],
    ['FacilityCO2reduction', 'kpi-co2-reduction'],
    ['FacilitySO2CO2Ratio', 'card-ship-ratio'],
    ['FacilityExtraremovalofsulfur', 'kpi-extra-removal-of-sulfur'],
    ['FacilitySFOCimpactPct', 'kpi-sfoc'],
    ['FacilityTotalCO2Emission', 'kpi-total-co2-emission'],
    ['FacilityOperationalAvailabilitylarge', 'uptime-matrix'],
    ['FacilityWashwaterCompliance', 'card-ship-washwater'],
  ]);
  // The ship dashboard's header KPIs have gauges, with the ship's needle floor of 90 for availability.
  const availability = answers.get('FacilityOperationalavailability')!.data.fields.ActualAverage!
    .value as number;
  await expect(page.getByTestId('kpi-availability-gauge')).toHaveAttribute(
    'data-needle',
    String(Math.min(100, Math.max(90, availability))),
  );
});

interface DataSource {
  id: string;
  isPrimary: boolean;
}
interface DataFile {
  id: string;
  timeStampMin: string;
  timeStampMax: string;
}
interface Calculation {
  id: string;
  transformAlgorithm: string;
  inputIds: string[];
  approvedOn: string | null;
  validFrom: string | null;
  validTo: string | null;
}
interface Status {
  items: { facilityId: string }[];
  failed: { facilityId: string; error: string | null }[];
}

/** A calculation that passes validation and fails while it runs: a string doubled past the 1 000 000 characters allowed. */
const FAILING_ALGORITHM = [
  'var s = "0123456789";',
  ...Array.from({ length: 17 }, () => 's = s + s;'),
  'return 0;',
].join('\n');

test('a failed execution shows Failed with its time and error on the ship list and the files screen', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAs(page, 'admin', '/facilities/overview');
  const client = await api(page);
  const ships = await client.get<{ id: string; name: string }[]>('/api/facilities');
  // A demo ship the other browser tests do not execute or queue for.
  const busy = ['Baltic Tern', 'Straits Pioneer', 'Pacific Kestrel'];
  const ship = ships.find((s) => !busy.includes(s.name) && /\w+ \w+/.test(s.name)) ?? ships.at(-1)!;
  const sources = await client.get<DataSource[]>(`/api/algorithm/facility/${ship.id}/datasource`);
  const primary = sources.find((s) => s.isPrimary) ?? sources[0]!;
  const files = (await client.get<DataFile[]>(`/api/algorithm/facilitydatasource/${primary.id}/file`)).sort(
    (a, b) => a.timeStampMin.localeCompare(b.timeStampMin),
  );
  const file = files[0]!;
  const day = file.timeStampMin.slice(0, 10);
  const validity = {
    validFrom: `${day}T00:00:00.000Z`,
    validTo: new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString(),
  };
  const fields = await client.get<{ id: string; name: string }[]>('/api/algorithm/measurement-fields');
  const field = fields.find((f) => f.name === 'SCRUBBER_FUEL')!;
  const base = `/api/algorithm/facility/${ship.id}/measurement-field/${field.id}/calculations`;
  const approved = (await client.get<Calculation[]>(base)).find((c) => c.approvedOn)!;

  const approveFor = async (transformAlgorithm: string, inputIds: string[]) => {
    const created = await client.post(base, { transformAlgorithm, inputIds, comment: 'e2e failing run' });
    expect(created.status(), await created.text()).toBe(201);
    const { calculation } = (await created.json()) as { calculation: Calculation };
    const response = await client.put(`${base}/${calculation.id}/approve`, validity);
    expect(response.status(), await response.text()).toBe(200);
    return calculation.id;
  };
  const runAndWait = async (expected: 'failed' | 'done') => {
    const response = await client.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId: ship.id,
      from: file.timeStampMin,
      to: file.timeStampMax,
      facilityDataSourceFileIds: [file.id],
    });
    expect(response.status()).toBe(202);
    await expect
      .poll(
        async () => {
          const status = await client.get<Status>('/api/algorithm/calculations');
          if (status.items.some((i) => i.facilityId === ship.id)) return 'running';
          return status.failed.some((f) => f.facilityId === ship.id) ? 'failed' : 'done';
        },
        { timeout: 120_000, intervals: [1000] },
      )
      .toBe(expected);
  };
  const calculationIds = [await approveFor(FAILING_ALGORITHM, [])];
  try {
    await runAndWait('failed');

    await page.goto('/facilities/overview');
    const row = page.getByTestId('ship-row').filter({ hasText: ship.name });
    const status = row.getByTestId('ship-status');
    await expect(status).toContainText('Failed');
    await expect(status).toContainText(/\d{4}\.\d{2}\.\d{2} \d{2}:\d{2}/);
    await expect(row.getByTestId('ship-status-error')).toContainText('1,000,000 characters');
    await page.screenshot({ path: '/tmp/dashboards-ship-list-failed.png', fullPage: true });

    await page.goto(`/facilities/${ship.id}/files`);
    await expect(page.getByTestId('execution-failed')).toContainText('Failed');
    await expect(page.getByTestId('execution-failed')).toContainText('1,000,000 characters');
  } finally {
    // Back as it was: the default calculation again for that day (approved last, it wins), run once more.
    calculationIds.push(await approveFor(approved.transformAlgorithm, approved.inputIds));
    await runAndWait('done');
    await client.delete('/api/algorithm/calculations/measurement-fields/recalculation', {
      ids: calculationIds,
    });
  }
  await page.goto('/facilities/overview');
  await expect(
    page.getByTestId('ship-row').filter({ hasText: ship.name }).getByTestId('ship-status'),
  ).not.toContainText('Failed');
});

/** A 1x1 PNG, as the Info screen stores an uploaded image (a data URL). */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('the ship image from the Info screen shows on the ship list, the ship cards and the ship dashboard', async ({
  page,
}) => {
  await signInAs(page, 'admin', '/facilities/overview');
  const client = await api(page);
  const ships = await client.get<{ id: string; name: string }[]>('/api/facilities');
  const ship = ships[0]!;
  const info = await client.get<Record<string, unknown>>(`/api/facilities/${ship.id}/facility`);
  const save = (imageBase64: unknown) =>
    client.put(`/api/facilities/${ship.id}/facility`, {
      name: info.name,
      imo: info.imo,
      scrubberSystemType: info.scrubberSystemType ?? '',
      numberOfScrubbers: info.numberOfScrubbers,
      totalEffectKW: info.totalEffectKW,
      systemManufacturer: info.systemManufacturer,
      startDate: info.startDate,
      endDate: info.endDate,
      imageBase64,
    });
  const saved = await save(PIXEL);
  expect(saved.status(), await saved.text()).toBe(200);
  try {
    await page.goto('/facilities/overview');
    const row = page.getByTestId('ship-row').filter({ hasText: ship.name });
    await expect(row.getByRole('img', { name: `Image of ${ship.name}` })).toHaveAttribute('src', PIXEL);
    await page.goto('/');
    const card = page.locator(`[data-testid="ship-card"][data-facility-id="${ship.id}"]`);
    await expect(card.getByRole('img', { name: `Image of ${ship.name}` })).toHaveAttribute('src', PIXEL);
    await page.goto(`/ship/${ship.id}`);
    await expect(
      page.getByTestId('ship-info').getByRole('img', { name: `Image of ${ship.name}` }),
    ).toHaveAttribute('src', PIXEL);
    // A ship without an image shows a ship icon, no broken image.
    const other = ships.find((s) => s.id !== ship.id);
    if (other) {
      await page.goto('/facilities/overview');
      await expect(
        page.getByTestId('ship-row').filter({ hasText: other.name }).getByTestId('ship-image'),
      ).toHaveAttribute('data-has-image', 'false');
    }
  } finally {
    expect((await save(info.imageBase64 ?? null)).status()).toBe(200);
  }
});

test("an unknown ship's files page says Ship not found, without asking the API for it", async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/algorithm\/facility\//.test(request.url())) asked.push(request.url());
  });
  await signInAs(page, 'north.anna', '/facilities/00000000-0000-4000-8000-000000000000/files');
  await expect(page.getByTestId('ship-not-found')).toHaveText('Ship not found');
  await expect(page.getByRole('heading', { name: 'Ship', exact: true })).toHaveCount(0);
  await expect(page.getByText('Something went wrong! Please try again')).toHaveCount(0);
  expect(asked).toEqual([]);
});

test('a CO2 reduction below zero says why, on the fleet and the ship dashboard, at both sizes', async ({
  page,
}) => {
  // The scrubber drew more than its rated power: the report answers a negative reduction (as seen, −17.7 t).
  await page.route(/\/api\/reports\/data(\?|$)/, async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as {
      reports: Record<string, { fields: Record<string, { value: unknown }> }>;
    };
    for (const code of ['FacilityGroupCO2reduction', 'FacilityCO2reduction']) {
      const fields = answer.reports[code]?.fields;
      if (fields?.ActualAverage) fields.ActualAverage.value = -17.7;
    }
    await route.fulfill({ response, json: answer });
  });
  await signInAs(page, 'north.anna');
  const note = page.getByTestId('kpi-co2-reduction-note');
  await expect(page.getByTestId('kpi-co2-reduction-value')).toHaveAttribute('data-value', '-17.7');
  await expect(note).toHaveText(
    'Below zero: the scrubber drew more power than the rated 1.5\u00a0% of the installed power, so it caused more CO2 than it saved.',
  );
  const ship = (await api(page).then((a) => a.get<{ id: string }[]>('/api/facilities')))[0]!;
  await page.goto(`/ship/${ship.id}`);
  await expect(page.getByTestId('kpi-co2-reduction-value')).toHaveAttribute('data-value', '-17.7');
  await expect(note).toBeVisible();
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.getByTestId('kpi-co2-reduction').scrollIntoViewIfNeeded();
    await page
      .getByTestId('kpi-co2-reduction')
      .screenshot({ path: `e2e/.artifacts/screens/co2-reduction-negative-${size}.png` });
  }
  // Zero and above need no note.
  await page.unroute(/\/api\/reports\/data(\?|$)/);
  await page.reload();
  await expect(page.getByTestId('kpi-co2-reduction-value')).not.toHaveAttribute('data-value', '-17.7');
  await expect(note).toHaveCount(0);
});

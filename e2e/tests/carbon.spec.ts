import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import type { CiiResult, DcsReportRecord, FleetCii, Voyage } from '@portal/contracts/carbon';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { signInAs, still, accessToken, noSeriousViolations, closeNotifications } from '../support';

/**
 * The carbon ledger's pages, as a User of the demo fleet (north.anna): the fleet dashboard's CII card (ships heading
 * for D or E first) leads to a ship's Carbon tab, whose voyages, CII and DCS report are those of the API; a voyage's
 * page takes its cargo (the API's messages for what is wrong), and the DCS report downloads as an .xlsx that a real
 * reader (ExcelJS) opens with dates as dates and numbers as numbers, and as CSV. Axe finds nothing serious on the
 * three; screenshots at 1440x900 and 390x844 go to e2e/.artifacts/screenshots/carbon-*.png.
 */

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');
const SHOTS = path.join(ARTIFACTS, 'screenshots');
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const YEAR = new Date().getUTCFullYear();

/** The whole page, and the element alone where it lies on it, at both sizes. */
async function screenshots(page: Page, name: string, element?: Locator) {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await still(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `carbon-${name}-${size}.png`), fullPage: true });
    if (element) {
      const box = await element.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
      });
      await page.screenshot({
        path: path.join(SHOTS, `carbon-${name}-card-${size}.png`),
        fullPage: true,
        clip: box,
      });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await still(page);
}

test('the carbon ledger: fleet CII card, a ship’s Carbon tab, a voyage with its cargo, the DCS .xlsx and CSV', async ({
  page,
}) => {
  test.setTimeout(300_000);
  fs.mkdirSync(SHOTS, { recursive: true });

  // 1. The fleet dashboard's CII card, in the order of the API: ships heading for D or E first.
  await signInAs(page, 'north.anna', '/');
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  const get = async <T>(url: string): Promise<T> => {
    const response = await page.request.get(url, { headers: auth });
    expect(response.status(), `GET ${url}`).toBe(200);
    return (await response.json()) as T;
  };
  const fleet = await get<FleetCii>(`/api/cii/fleet?year=${YEAR}`);
  expect(fleet.ships.length, 'north.anna sees demo ships').toBeGreaterThan(0);
  const card = page.getByTestId('fleet-cii-card');
  const rows = card.getByTestId('fleet-cii-row');
  await expect(rows).toHaveCount(fleet.ships.length);
  expect(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-ship-id')))).toEqual(
    fleet.ships.map((s) => s.shipId),
  );
  const rated = fleet.ships.filter((s) => s.rating !== null);
  expect(rated.length, 'the demo ships sail real routes: they have a CII this year').toBeGreaterThan(0);
  test.info().annotations.push({
    type: 'fleet CII',
    description: fleet.ships
      .map((s) => `${s.shipName} ${s.rating ?? '-'}→${s.projectedRating ?? '-'} (${s.attained?.toFixed(2)})`)
      .join('; '),
  });
  await noSeriousViolations(page, '[data-testid="fleet-cii-card"]');
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, 'fleet', card);

  // 2. The ship with the most voyages of the year whose both ports are known: its Carbon tab from the card's link.
  let chosen: { shipId: string; shipName: string; voyages: Voyage[] } | null = null;
  for (const ship of fleet.ships) {
    const voyages = await get<Voyage[]>(
      `/api/facilities/${ship.shipId}/voyages?from=${YEAR}-01-01&to=${YEAR}-12-31`,
    );
    const whole = voyages.filter((v) => v.from && v.to);
    if (whole.length && (!chosen || whole.length > chosen.voyages.filter((v) => v.from && v.to).length))
      chosen = { shipId: ship.shipId, shipName: ship.shipName, voyages };
  }
  expect(chosen, 'a demo ship has a voyage between two ports this year').not.toBeNull();
  const { shipId, shipName, voyages } = chosen!;
  await card.locator(`[data-ship-id="${shipId}"]`).getByRole('link', { name: shipName }).click();
  await expect(page).toHaveURL(new RegExp(`/ship/${shipId}/carbon$`));
  await expect(page.getByRole('tab', { name: 'Carbon' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('ship-name')).toHaveText(shipName);

  // The voyages of the year, newest first, as the API has them.
  const voyageRows = page.getByTestId('voyage-row');
  await expect(voyageRows).toHaveCount(voyages.length);
  const newestFirst = [...voyages].sort((a, b) => b.departure.localeCompare(a.departure));
  expect(await voyageRows.evaluateAll((r) => r.map((e) => e.getAttribute('data-voyage-id')))).toEqual(
    newestFirst.map((v) => v.id),
  );
  // The CII as the API has it: rating, projection and the gauge drawn.
  const cii = await get<CiiResult>(`/api/facilities/${shipId}/cii?year=${YEAR}`);
  test.info().annotations.push({
    type: 'ship CII',
    description: `${shipName}: attained ${cii.attained} (${cii.rating}), projected ${cii.projectedAttained} (${cii.projectedRating}), required ${cii.required} (Z ${cii.z}), scrubber ${cii.scrubberPart}`,
  });
  await expect(page.getByTestId('cii-rating')).toHaveAttribute('data-rating', cii.rating ?? 'none');
  await expect(page.getByTestId('cii-projected-rating')).toHaveAttribute(
    'data-rating',
    cii.projectedRating ?? 'none',
  );
  if (cii.attained !== null) {
    await expect(page.getByTestId('cii-attained')).toHaveText(cii.attained.toFixed(2));
    await expect(page.getByTestId('cii-gauge')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('cii-trajectory-chart')).toHaveAttribute('data-ready', 'true');
  }
  await expect(page.getByTestId('cii-trajectory-ratings').getByRole('listitem')).toHaveCount(
    cii.trajectory.length,
  );
  // Fuel per consumer and type, and the DCS items with what is missing named.
  await expect(page.getByTestId('fuel-row').first()).toBeVisible();
  const dcs = await get<DcsReportRecord>(`/api/facilities/${shipId}/dcs-report?year=${YEAR}`);
  await expect(page.getByTestId('dcs-item').first()).toBeVisible();
  await expect(page.getByTestId('dcs-missing-item')).toHaveCount(dcs.missing.length);
  await expect(page.getByTestId('fuel-records-link')).toHaveAttribute(
    'href',
    `/facilities/${shipId}/fuel-records`,
  );
  await noSeriousViolations(page, '[data-testid="ship-carbon"]');
  await screenshots(page, 'tab');

  // 3. A voyage between two ports: its page, then its cargo, first wrong, then right.
  const voyage = newestFirst.find((v) => v.from && v.to)!;
  await page.locator(`[data-voyage-id="${voyage.id}"]`).getByTestId('voyage-link').click();
  await expect(page).toHaveURL(new RegExp(`/facilities/${shipId}/voyages/${voyage.id}$`));
  await expect(page.getByTestId('voyage-title')).toHaveText(
    `Voyage ${voyage.from!.portName} (${voyage.from!.country}) to ${voyage.to!.portName} (${voyage.to!.country})`,
  );
  await expect(page.getByTestId('voyage-port-departure')).toContainText(voyage.from!.portName);
  await expect(page.getByTestId('voyage-port-arrival')).toContainText(voyage.to!.portName);
  await expect(page.getByTestId('voyage-fuel-table').getByTestId('fuel-row').first()).toBeVisible();
  await page.getByRole('button', { name: /^(Enter|Change) cargo$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cargo of the voyage' });
  await dialog.getByRole('radio', { name: 'Laden' }).check();
  await dialog.getByRole('textbox', { name: 'Cargo' }).fill('-5');
  await expect(dialog.getByText('Cargo cannot be negative')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'TEU' }).fill('12.5');
  await expect(dialog.getByText('TEU is a whole number')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Cargo' }).fill('65000');
  await dialog.getByRole('textbox', { name: 'TEU' }).fill('');
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/voyages/${voyage.id}/cargo`),
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('cargo-text')).toHaveText('Laden, 65,000 t (entered)');
  expect((await get<Voyage>(`/api/voyages/${voyage.id}`)).cargo).toEqual({
    laden: true,
    cargoTonnes: 65_000,
    teu: null,
    source: 'ENTERED',
  });
  // The API refuses what the form does not send, with the message the form shows.
  const refused = await page.request.put(`/api/voyages/${voyage.id}/cargo`, {
    headers: auth,
    data: { laden: true, cargoTonnes: -5, teu: null },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { fields: Record<string, string> }).fields.cargoTonnes).toBe(
    'Cargo cannot be negative',
  );
  await closeNotifications(page);
  await noSeriousViolations(page, '[data-testid="voyage-page"]');
  await screenshots(page, 'voyage');

  // 4. Back on the Carbon tab: the DCS report as .xlsx, opened with ExcelJS; and as CSV.
  await page.getByRole('link', { name: 'Carbon' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/ship/${shipId}/carbon$`));
  const report = await get<DcsReportRecord>(`/api/facilities/${shipId}/dcs-report?year=${YEAR}`);
  const [xlsxDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download the DCS report ${YEAR} (.xlsx)` }).click(),
  ]);
  expect(xlsxDownload.suggestedFilename()).toMatch(new RegExp(`_IMO_DCS_${YEAR}\\.xlsx$`));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(fs.readFileSync((await xlsxDownload.path())!) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('IMO DCS')!;
  expect(sheet, 'the workbook has its IMO DCS sheet').toBeDefined();
  const byItem = new Map<string, ExcelJS.CellValue>();
  sheet.eachRow((row) => byItem.set(String(row.getCell(2).value), row.getCell(3).value));
  const start = byItem.get('Period of calendar year for the data submitted: start date');
  const end = byItem.get('Period of calendar year for the data submitted: end date');
  expect(start).toBeInstanceOf(Date);
  expect(end).toBeInstanceOf(Date);
  expect((start as Date).toISOString().slice(0, 10)).toBe(report.periodStart);
  expect((end as Date).toISOString().slice(0, 10)).toBe(report.periodEnd);
  const distance = byItem.get('Distance travelled (over ground)');
  expect(typeof distance).toBe('number');
  expect(distance as number).toBeCloseTo(report.distanceNm, 6);
  expect(typeof byItem.get('Hours under way')).toBe('number');
  for (const f of report.fuel) {
    const cell = [...byItem.entries()].find(
      ([item]) => item === `Fuel oil consumption: ${FUEL_TYPE_NAMES[f.fuelType]}`,
    );
    expect(cell, `the fuel row of ${f.fuelType}`).toBeDefined();
    expect(typeof cell![1]).toBe('number');
    expect(cell![1] as number).toBeCloseTo(f.tonnes, 6);
  }
  // The laden distance now that a voyage of the year has its cargo.
  if (report.ladenDistanceNm !== null) {
    expect(typeof byItem.get('Laden distance travelled')).toBe('number');
    expect(byItem.get('Laden distance travelled') as number).toBeCloseTo(report.ladenDistanceNm, 6);
  }
  const missingSheet = workbook.getWorksheet('Not in the data')!;
  expect(missingSheet.rowCount - 1).toBe(report.missing.length);
  test.info().annotations.push({
    type: 'DCS',
    description: `${report.periodStart}..${report.periodEnd}, ${report.distanceNm.toFixed(1)} nm, ${report.hoursUnderWay.toFixed(1)} h, fuel ${report.fuel.map((f) => `${f.fuelType} ${f.tonnes.toFixed(1)} t`).join(', ')}, laden ${report.ladenDistanceNm?.toFixed(1)} nm, missing ${report.missing.map((m) => m.item).join('; ')}`,
  });

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download the DCS report ${YEAR} (CSV)` }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(new RegExp(`_IMO_DCS_${YEAR}\\.csv$`));
  const csv = fs.readFileSync((await csvDownload.path())!, 'utf8').split('\r\n');
  expect(csv[0]).toBe('No.,Item,Value,Unit');
  expect(csv.find((l) => l.startsWith('2.1,'))).toContain(report.periodStart);
});

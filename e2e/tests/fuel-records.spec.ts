import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { ReconciliationResult } from '@portal/contracts/carbon';
import { FUEL_CHANNEL_MESSAGES } from '@portal/contracts/fuel-channels';
import { signInAs, still, accessToken, noSeriousViolations } from '../support';

/**
 * The fuel records of a demo ship, as a SystemAdmin (admin): a tank sounding entered through its dialog and one
 * through the API, the same fuel remaining on board at the start and the end of the period; a bunker delivery note
 * entered through its dialog (the port searched in the port list) with a mass 25 % above what the flow meters burnt,
 * so the reconciliation shows -20 % and its flag; the note changed to 2 % above, and the flag gone. Then a fuel flow
 * channel's consumer and fuel in the mapping panel, refused at its field while incomplete, then saved and kept; the
 * ship's type, deadweight and gross tonnage on its info page, refused at their fields, then saved and kept.
 * Axe finds nothing serious on the page or the dialog; screenshots of both at 1440x900 and 390x844 go to
 * e2e/.artifacts/screenshots/fuel-records-*.png.
 */

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;

/** Types into a MUI X date (and time) field of the open dialog: its sections take the digits in order. */
async function typeDate(page: Page, label: string, digits: string) {
  const field = page.getByRole('dialog').getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(digits);
}

/** The last calendar month (UTC), the period the page starts with (the drawer's default). */
function lastMonth(): { from: string; to: string; end: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return {
    from: first.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
    end: new Date(last.getTime() + DAY_MS).toISOString(),
  };
}

const signed = (percent: number) => {
  const r = Math.round(percent * 10) / 10;
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${Math.abs(r).toFixed(1)} %`;
};

test('bunker delivery notes and soundings reconcile with the flow meters, flagged above 5 %; a fuel flow keeps its consumer and fuel', async ({
  page,
}) => {
  test.setTimeout(300_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await signInAs(page, 'admin', '/');
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const ships = (await (await page.request.get('/api/facilities', { headers })).json()) as {
    id: string;
    name: string;
  }[];
  const ship = ships.find((s) => s.name.startsWith('Straits')) ?? ships[0]!;
  const period = lastMonth();

  // The demo's executions derive the ledger as its files come in: wait until last month's HFO has been burnt.
  let flow = 0;
  await expect
    .poll(
      async () => {
        const r = await page.request.get(
          `/api/facilities/${ship.id}/reconciliation?from=${period.from}&to=${period.to}`,
          { headers },
        );
        const body = (await r.json()) as ReconciliationResult;
        flow = body.rows.find((row) => row.fuelType === 'HFO')?.flowMeterTonnes ?? 0;
        return flow;
      },
      { timeout: 180_000, intervals: [2_000] },
    )
    .toBeGreaterThan(1);

  // The page is reached from the ship's compliance tabs.
  await page.goto(`/facilities/${ship.id}/record-book`);
  await page.getByRole('tab', { name: 'Fuel records' }).click();
  await expect(page).toHaveURL(new RegExp(`/facilities/${ship.id}/fuel-records$`));
  const reconciliation = page.getByTestId('reconciliation');
  const hfo = reconciliation.locator('[data-testid="reconciliation-row"][data-fuel="HFO"]');
  await expect(hfo).toContainText('No sounding within 24 h of the start and the end');

  // A sounding at the period's start through the dialog; the one at its end through the API.
  const rob = 300;
  await page.getByRole('button', { name: 'New sounding' }).click();
  const sounding = page.getByRole('dialog', { name: 'New tank sounding' });
  await typeDate(page, 'Sounded (UTC)', `${period.from.replace(/-/g, '')}0000`);
  await sounding.getByRole('combobox', { name: 'Fuel type' }).click();
  await page.getByRole('option', { name: 'Heavy fuel oil (HFO)' }).click();
  await sounding.getByLabel('Remaining on board').fill(String(rob));
  await sounding.getByRole('button', { name: 'Add sounding' }).click();
  await expect(sounding).toHaveCount(0);
  await expect(page.getByTestId('sounding-row')).toHaveCount(1);
  await expect(page.getByTestId('sounding-row').first()).toContainText(
    `${period.from.replace(/-/g, '.')} 00:00`,
  );
  const added = await page.request.post(`/api/facilities/${ship.id}/tank-soundings`, {
    headers,
    data: { at: period.end, fuelType: 'HFO', robTonnes: rob },
  });
  expect(added.status()).toBe(201);

  // A note of 25 % more than the flow meters burnt: the flow meters are 20 % below what the notes account for.
  const mass = Math.round(flow * 1.25 * 10) / 10;
  await page.getByRole('button', { name: 'New note' }).click();
  const dialog = page.getByRole('dialog', { name: 'New bunker delivery note' });
  await dialog.getByRole('button', { name: 'Add note' }).click();
  await expect(dialog.getByText('Enter the mass delivered in t')).toBeVisible();
  await typeDate(page, 'Delivered (UTC)', `${period.from.slice(0, 8).replace(/-/g, '')}15` + '1230');
  await dialog.getByLabel('Port').fill('Rotterd');
  await page.getByRole('option', { name: /^Rotterdam \(NLRTM\)/ }).click();
  await dialog.getByRole('combobox', { name: 'Fuel type' }).click();
  await page.getByRole('option', { name: 'Heavy fuel oil (HFO)' }).click();
  await dialog.getByTestId('bdn-massTonnes').fill(String(mass));
  await dialog.getByTestId('bdn-sulfurPercent').fill('7');
  await dialog.getByTestId('bdn-densityKgM3').fill('985');
  await dialog.getByTestId('bdn-bdnNumber').fill('E2E-0001');
  await dialog.getByRole('button', { name: 'Add note' }).click();
  // The API's rule, at its field.
  await expect(dialog.getByText('Sulfur is at most 5 % m/m')).toBeVisible();
  await dialog.getByTestId('bdn-sulfurPercent').fill('2.7');
  await noSeriousViolations(page, '[role="dialog"]');
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-bdn-dialog-desktop.png') });
  await page.setViewportSize(PHONE);
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-bdn-dialog-phone.png') });
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Add note' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('bdn-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Rotterdam (NLRTM)');
  await expect(row).toContainText(`${mass.toLocaleString('en-US', { minimumFractionDigits: 1 })} t`);

  const expected = ((flow - mass) / mass) * 100;
  expect(expected).toBeLessThan(-5);
  await expect(hfo.getByTestId('reconciliation-difference')).toHaveText(signed(expected));
  await expect(hfo.getByTestId('reconciliation-flag')).toHaveText('Above 5 %');
  await expect(reconciliation.getByTestId('reconciliation-total')).toContainText('Above 5 %');

  await noSeriousViolations(page, '[data-testid="fuel-records-page"]');
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await expect(hfo.getByText('Above 5 %')).toBeVisible();
  await noSeriousViolations(page, '[data-testid="fuel-records-page"]');
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);

  // The note changed to 2 % more than burnt: within 5 %, no flag.
  const within = Math.round(flow * 1.02 * 10) / 10;
  await row.getByRole('button', { name: /Edit the note/ }).click();
  const edit = page.getByRole('dialog', { name: 'Bunker delivery note' });
  await expect(edit.getByTestId('bdn-port')).toHaveValue('Rotterdam (NLRTM)');
  await edit.getByTestId('bdn-massTonnes').fill(String(within));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(hfo.getByTestId('reconciliation-difference')).toHaveText(
    signed(((flow - within) / within) * 100),
  );
  await expect(hfo).toContainText('Within 5 %');
  await expect(hfo.getByTestId('reconciliation-flag')).toHaveCount(0);
  // The record book holds the note and its correction.
  const book = (await (
    await page.request.get(`/api/facilities/${ship.id}/record-book`, { headers })
  ).json()) as {
    kind: string;
    text: string;
  }[];
  expect(
    book
      .filter((e) => e.text.includes('E2E-0001'))
      .map((e) => e.kind)
      .sort(),
  ).toEqual(['bunkering', 'correction']);

  // Noon reports: one written during a voyage of the period, one whose date is not one.
  const voyages = (await (
    await page.request.get(`/api/facilities/${ship.id}/voyages?from=${period.from}&to=${period.to}`, {
      headers,
    })
  ).json()) as { departure: string; arrival: string }[];
  const voyage = voyages.find((v) => Date.parse(v.arrival) - Date.parse(v.departure) > 2 * 3_600_000)!;
  const noon = new Date(Date.parse(voyage.departure) + 3_600_000)
    .toISOString()
    .slice(0, 16)
    .replace('T', ' ');
  await page.getByLabel('Noon report CSV file').setInputFiles({
    name: 'noon.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Date,Condition,Cargo (t)\n${noon},laden,52000\nyesterday noon,ballast,\n`),
  });
  const result = page.getByTestId('noon-report-result');
  await expect(result).toContainText('1 report read, 1 voyage updated, 1 line not used.');
  await expect(result).toContainText(
    'Line 3: "yesterday noon" is not a date and time (YYYY-MM-DD HH:MM, UTC)',
  );

  // A fuel flow channel's consumer and fuel in the mapping panel.
  await page.goto(`/facilities/${ship.id}/config/channels`);
  const tree = page.getByTestId('datasource-tree');
  await tree.getByText('BOILER_FUEL_FLOW', { exact: true }).first().click();
  const panel = page.getByTestId('mapping-panel');
  await expect(panel.getByRole('combobox', { name: 'Consumer' })).toHaveText('Boiler');
  await panel.getByRole('combobox', { name: 'Consumer' }).click();
  await page.getByRole('option', { name: 'Other' }).click();
  await panel.getByRole('radio', { name: 'A fuel type channel' }).check();
  await panel.getByRole('button', { name: 'Update mapping' }).click();
  await expect(panel.getByText(FUEL_CHANNEL_MESSAGES.channelRequired)).toBeVisible();
  await panel.getByRole('radio', { name: 'One fuel' }).check();
  await panel.getByRole('combobox', { name: 'Fuel' }).click();
  await page.getByRole('option', { name: 'LFO' }).click();
  await panel.getByRole('button', { name: 'Update mapping' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');

  await page.reload();
  await page.getByTestId('datasource-tree').getByText('BOILER_FUEL_FLOW', { exact: true }).first().click();
  const again = page.getByTestId('mapping-panel');
  await expect(again.getByRole('combobox', { name: 'Consumer' })).toHaveText('Other');
  await expect(again.getByRole('radio', { name: 'One fuel' })).toBeChecked();
  await expect(again.getByRole('combobox', { name: 'Fuel' })).toHaveText('LFO');
  await page.evaluate(() => window.scrollTo(0, 0));
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-mapping-desktop.png') });

  // The ship's particulars for the CII on its info page: the contracts' rule at the field, then kept.
  await page.goto(`/facilities/${ship.id}/config/info`);
  await page.getByRole('combobox', { name: 'Ship type' }).click();
  await page.getByRole('option', { name: 'Bulk carrier' }).click();
  await page.getByTestId('ship-deadweightTonnes').fill('0');
  await page.getByTestId('ship-grossTonnage').fill('43012.5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Deadweight must be more than 0 t')).toBeVisible();
  await expect(page.getByText('Gross tonnage is a whole number')).toBeVisible();
  await page.getByTestId('ship-deadweightTonnes').fill('81250');
  await page.getByTestId('ship-grossTonnage').fill('43012');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Ship type' })).toHaveText('Bulk carrier');
  await expect(page.getByTestId('ship-deadweightTonnes')).toHaveValue('81250');
  await expect(page.getByTestId('ship-grossTonnage')).toHaveValue('43012');
  await still(page);
  await page.screenshot({ path: path.join(SHOTS, 'fuel-records-ship-info-desktop.png'), fullPage: true });
});

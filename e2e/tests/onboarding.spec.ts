import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { zipSync } from 'fflate';
import {
  demoShips,
  foreignColumnFields,
  foreignLogger,
  writeForeignDayFile,
  type ForeignLogger,
} from '@portal/demo-fleet';
import { CHANNELS_READ_BY_DEFAULTS } from '@portal/formula/defaults';
import { signInAs, type ReportData, noViolations, accessToken } from '../support';

/**
 * Issue 17: a ship onboarded the way a new customer would, through the screens, as the SystemAdmin: a new ship with
 * the demo ship's installed power, the demo ship's configuration imported, the data source's reader set in the form
 * for the ship's own (foreign) logger with its sample file, the suggested mappings accepted as they are, a week of
 * the logger's files uploaded and run, and the ship's dashboard for that week equal to the demo ship's. The foreign
 * loggers write the very samples of the demo ship (packages/demo-fleet/src/foreign.ts), so every KPI must be equal.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');
const DAY_MS = 86_400_000;
/** The demo ship whose week the onboarded ship's logger writes. */
const DEMO_SHIP_KEY = 'atlantic_meridian';
/** The channels of DOMAIN.md's "Channels a ship logs" table: those the default calculations read. */
const DOMAIN_CHANNELS = CHANNELS_READ_BY_DEFAULTS;
/** The ship dashboard's KPI widgets: test id of the number shown. */
const SHOWN_KPIS = [
  ['Marpol compliance', 'kpi-marpol-value'],
  ['Operational availability', 'kpi-availability-value'],
  ['CO2 reduction', 'kpi-co2-reduction-value'],
  ['SO2/CO2 ratio', 'ship-ratio-value'],
  ['Extra removal of sulfur', 'kpi-extra-removal-of-sulfur-value'],
  ['SFOC impact', 'kpi-sfoc-value'],
  ['Total CO2 emission', 'kpi-total-co2-emission-value'],
] as const;

const demoShip = demoShips().find((s) => s.key === DEMO_SHIP_KEY)!;
/** A week inside the e2e server's demo data (45 days up to yesterday): the 7 days ending 8 days ago. */
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const weekDays = Array.from({ length: 7 }, (_, i) => today - (14 - i) * DAY_MS);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dotted = (ms: number) => isoDay(ms).replace(/-/g, '.');

/** The files the customer has on disk: the sample (the week's first day) and the week zipped. */
function loggerFiles(logger: ForeignLogger) {
  const days = weekDays.map((day) => writeForeignDayFile(demoShip, new Date(day), logger));
  const zip = zipSync(Object.fromEntries(days.map((f) => [f.fileName, new Uint8Array(f.content)])));
  return {
    names: days.map((f) => f.fileName),
    sample: { name: days[0]!.fileName, mimeType: 'text/plain', buffer: days[0]!.content },
    week: { name: `${logger.key}-week.zip`, mimeType: 'application/zip', buffer: Buffer.from(zip) },
  };
}

/**
 * Times the steps of the flow; the total is what the goal is about (clicks and waits). What a customer does
 * not do (the accessibility check) is left out.
 */
function stopwatch(label: string) {
  const started = performance.now();
  let last = started;
  let excluded = 0;
  let excludedInLap = 0;
  const laps: string[] = [];
  return {
    async exclude(work: () => Promise<void>) {
      const from = performance.now();
      await work();
      excludedInLap += performance.now() - from;
    },
    lap(step: string) {
      const now = performance.now();
      laps.push(`${step} ${((now - last - excludedInLap) / 1000).toFixed(1)} s`);
      excluded += excludedInLap;
      excludedInLap = 0;
      last = now;
    },
    total(): number {
      const seconds = (performance.now() - started - excluded) / 1000;
      console.log(`[onboarding ${label}] ${seconds.toFixed(1)} s: ${laps.join(', ')}`);
      test.info().annotations.push({ type: 'time', description: `${label}: ${seconds.toFixed(1)} s` });
      return seconds;
    },
  };
}

/** Picks an option of a MUI select (its combobox opens a listbox). */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Step 1: the ship list's New ship dialog, then the ship's info with the demo ship's installed power and system. */
async function createShip(page: Page, name: string): Promise<string> {
  await page.goto('/facilities/overview');
  await page.getByRole('button', { name: 'New ship' }).click();
  const dialog = page.getByRole('dialog', { name: 'New ship' });
  await choose(page, dialog.getByRole('combobox', { name: 'Organization' }), 'Nordic Bulk Carriers');
  await dialog.getByLabel('Ship name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/facilities\/[0-9a-f-]{36}\/config\/info$/);
  const id = page.url().split('/').at(-3)!;
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await choose(
    page,
    page.getByRole('combobox', { name: 'Scrubber system type' }),
    demoShip.scrubberSystemType,
  );
  await page.getByLabel('Number of scrubbers').fill(String(demoShip.numberOfScrubbers));
  await page.getByLabel('Installed power (kW)').fill(String(demoShip.totalEffectKW));
  await page.getByRole('combobox', { name: 'System manufacturer' }).fill(demoShip.systemManufacturer);
  await page.getByRole('option', { name: demoShip.systemManufacturer, exact: true }).click();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/facilities/${id}/facility`) && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  return id;
}

/** Step 2: Data sources, Import configuration of the demo ship, Valid from left at its default. */
async function importConfiguration(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Data sources' }).click();
  await page.getByRole('button', { name: 'Import configuration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import configuration' });
  await choose(page, dialog.getByRole('combobox', { name: 'Ship' }), demoShip.name);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog).toHaveCount(0);
  // The demo ship's logger is its primary data source (another test may have added one more to the demo ship).
  const primary = page
    .getByTestId('datasource-tree')
    .getByTestId(/^datasource-/)
    .filter({ has: page.getByText('Primary', { exact: true }) });
  await expect(primary).toHaveCount(1);
  return (await primary.getAttribute('data-testid'))!.slice('datasource-'.length);
}

/** Step 3: the data source's reader set in the form for the logger, with its sample file, watching the preview. */
async function setReader(
  page: Page,
  dataSource: string,
  logger: ForeignLogger,
  sample: ReturnType<typeof loggerFiles>['sample'],
) {
  await page.getByRole('button', { name: `Edit ${dataSource}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit data source ${dataSource}` });
  await dialog.getByTestId('sample-file-input').setInputFiles(sample);
  const form = dialog.getByRole('group', { name: 'Parser configuration' });
  const delimiter = { ';': 'Semicolon ( ; )', ',': 'Comma ( , )', '\t': 'Tab' }[logger.delimiter];
  await choose(page, form.getByRole('combobox', { name: 'Delimiter' }), delimiter);
  await choose(
    page,
    form.getByRole('combobox', { name: 'Decimal separator' }),
    logger.decimalSeparator === ',' ? 'Comma ( , )' : 'Point ( . )',
  );
  if (logger.unitRow) {
    await form.getByLabel('Unit row').fill('2');
    await form.getByLabel('First data row').fill('3');
  }
  // The timestamp columns are chosen from the sample's header, read with the delimiter chosen.
  const [dateColumn, timeColumn] = logger.timestampColumns;
  if (timeColumn) await form.getByRole('switch', { name: 'Date and time in two columns' }).check();
  await form.getByRole('combobox', { name: timeColumn ? 'Date column' : 'Timestamp column' }).click();
  await page.getByRole('option', { name: dateColumn, exact: true }).click();
  if (timeColumn) {
    await form.getByRole('combobox', { name: 'Time column' }).click();
    await page.getByRole('option', { name: timeColumn, exact: true }).click();
  }
  await choose(page, form.getByRole('combobox', { name: 'Timestamp format' }), 'Custom pattern');
  await form.getByLabel('Pattern').fill(logger.timestampFormat);
  // The live preview reads the timestamps: the week's first day from midnight, a minute apart.
  const preview = dialog.getByRole('region', { name: `First rows of ${sample.name}` });
  const first = preview.getByRole('row').nth(1);
  await expect(first.getByRole('cell').nth(1)).toHaveText(`${dotted(weekDays[0]!)} 00:00:00`);
  await expect(preview.getByRole('row').nth(2).getByRole('cell').nth(1)).toHaveText(
    `${dotted(weekDays[0]!)} 00:01:00`,
  );
  await expect(dialog.getByText('Not read')).toHaveCount(0);
  await expect(dialog).toContainText(
    `The whole file reads as 1,440 rows from ${dotted(weekDays[0]!)} 00:00:00 to ${dotted(weekDays[0]!)} 23:59:00.`,
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
}

/** The Suggest mappings dialog passes axe at desktop and phone size; screenshots go to e2e/.artifacts. */
async function checkAccessibility(page: Page, key: string) {
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  fs.mkdirSync(artifacts, { recursive: true });
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({
      path: path.join(artifacts, `suggested-mappings-${key}-${size}.png`),
      fullPage: size === 'desktop',
    });
    await noViolations(page, '[role="dialog"]');
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Step 4: Suggest mappings, Accept all, Apply (no manual edit); answers how many DOMAIN channels were proposed
 * right, and checks that the channels tree shows them mapped.
 */
async function acceptSuggestions(
  page: Page,
  dataSource: string,
  logger: ForeignLogger,
  watch: ReturnType<typeof stopwatch>,
): Promise<number> {
  await page.getByRole('button', { name: `Suggest mappings for ${dataSource}` }).click();
  const dialog = page.getByRole('dialog', { name: `Suggest mappings for ${dataSource}` });
  await expect(dialog.getByRole('switch', { name: /^Accept / })).toHaveCount(DOMAIN_CHANNELS.length);
  const right = Object.fromEntries(
    Object.entries(foreignColumnFields(logger)).map(([column, field]) => [field, column]),
  );
  let correct = 0;
  for (const field of DOMAIN_CHANNELS) {
    const proposed = await dialog.getByTestId(`suggestion-${field}`).getByRole('combobox').textContent();
    if (proposed === right[field]) correct++;
    else console.log(`[onboarding ${logger.key}] ${field}: proposed ${proposed}, right ${right[field]}`);
  }
  if (logger.key === 'ams') await watch.exclude(() => checkAccessibility(page, logger.key));
  await dialog.getByRole('button', { name: 'Accept all' }).click();
  for (const toggle of await dialog.getByRole('switch', { name: /^Accept / }).all())
    await expect(toggle).toBeChecked();
  // The demo logger's 31 mappings: the 17 the calculations read get the new columns, the 14 others are gone.
  await expect(dialog.getByText('Mappings: 17 changed, 14 removed')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  // Apply names the 14 it would remove and asks first.
  const confirm = page.getByRole('dialog', { name: 'Remove 14 mapping(s)?' });
  await expect(confirm.getByRole('listitem')).toHaveCount(14);
  await confirm.getByRole('button', { name: 'Remove and apply' }).click();
  await expect(dialog).toHaveCount(0);
  const node = page.getByTestId(`datasource-${dataSource}`);
  for (const field of DOMAIN_CHANNELS)
    await expect(
      node.getByRole('listitem').filter({ has: page.getByText(right[field]!, { exact: true }) }),
    ).toContainText(field);
  await expect(node.getByText('Not mapped')).toHaveCount(logger.columns.length - DOMAIN_CHANNELS.length);
  return correct;
}

/**
 * Step 5: the files screen, Add file with the week (Run for the uploaded files ticked, as by default: the upload
 * queues their execution), until the execution is done. The week's columns that no channel maps are warned about
 * once, for the seven files.
 */
async function uploadAndRun(
  page: Page,
  shipName: string,
  dataSource: string,
  logger: ForeignLogger,
  files: ReturnType<typeof loggerFiles>,
  watch: ReturnType<typeof stopwatch>,
) {
  await page.goto('/facilities/overview');
  await page
    .getByTestId('ship-row')
    .filter({ hasText: shipName })
    .getByRole('link', { name: 'Upload data' })
    .click();
  await page.getByTestId(`files-${dataSource}`).getByRole('button', { name: 'Add file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add file' });
  await dialog.getByTestId('upload-file-input').setInputFiles(files.week);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('7 file(s) imported')).toBeVisible({ timeout: 60_000 });
  const unmapped = logger.columns.length - DOMAIN_CHANNELS.length;
  const warnings = dialog.getByRole('alert').filter({ hasText: 'not mapped to a channel' });
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText(
    `7 files, ${files.names[0]} to ${files.names[6]}: ${unmapped} columns of the file are not mapped to a channel`,
  );
  const queued = dialog.getByTestId('upload-execution');
  if (logger.key === 'ams')
    await watch.exclude(async () => {
      await page.screenshot({ path: path.join(artifacts, 'onboarding-upload-desktop.png') });
    });
  await expect(queued).toContainText('Execution successful!');
  await expect(queued).toBeInViewport();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('execution-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 90_000,
  });
}

/** Types a day into a MUI X date field of the open dialog: its sections take the digits in order. */
async function typeDate(page: Page, label: string, day: string) {
  const field = page.getByRole('dialog').getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(day.replace(/-/g, ''));
}

/** Step 6: a ship's dashboard opened from the drawer: the KPI numbers shown, and the reports the page loaded for it. */
async function dashboard(page: Page, name: string) {
  const reports = new Map<string, ReportData>();
  let id = '';
  const collect = async (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/reports/data' || response.status() !== 200) return;
    if (!id || url.searchParams.get('facilityId') !== id) return;
    const answer = (await response.json().catch(() => null)) as {
      reports: Record<string, ReportData>;
    } | null;
    for (const [report, data] of Object.entries(answer?.reports ?? {})) reports.set(report, data);
  };
  const link = page.getByTestId('drawer-ships').getByRole('link').filter({ hasText: name });
  id = (await link.getAttribute('href'))!.split('/').at(-1)!;
  page.on('response', collect);
  await link.click();
  await expect(page.getByTestId('ship-name')).toHaveText(name, { timeout: 30_000 });
  await expect.poll(() => reports.size).toBe(11);
  page.off('response', collect);
  const shown: Record<string, { value: string | null; text: string }> = {};
  for (const [kpi, testId] of SHOWN_KPIS) {
    const element = page.getByTestId(testId);
    await expect(element).toHaveAttribute('data-value', /./);
    shown[kpi] = {
      value: await element.getAttribute('data-value'),
      text: (await element.innerText()).trim(),
    };
  }
  // The ship's system as the header says it: type, scrubbers, manufacturer and installed power (CO2_SAVED reads it).
  await expect(page.getByTestId('ship-info')).toContainText(
    `${demoShip.scrubberSystemType} · ${demoShip.numberOfScrubbers} scrubber(s) · ${demoShip.systemManufacturer} · ${demoShip.totalEffectKW.toLocaleString('en-US')} kW`,
  );
  return { id, shown, reports };
}

/** A report's fields without those over the ship's whole life (the demo ship has 45 days, the new one a week). */
function periodFields(report: ReportData | undefined) {
  return Object.fromEntries(Object.entries(report?.fields ?? {}).filter(([field]) => field !== 'Lifetime'));
}

/** The calls the screens make, with the signed-in user's token. */
async function api(page: Page) {
  const token = await accessToken(page);
  return async (url: string) => {
    const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.ok(), `GET ${url}: ${response.status()}`).toBe(true);
    return response.json();
  };
}

test('Suggest mappings names the mappings Apply would remove and asks first; Undo puts them back with their ids', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const logger = foreignLogger('ams');
  const files = loggerFiles(logger);
  await signInAs(page, 'admin', '/');
  const shipId = await createShip(page, 'MV Undo Mappings');
  const dataSource = await importConfiguration(page);
  await setReader(page, dataSource, logger, files.sample);
  const get = await api(page);
  const [source] = (await get(`/api/algorithm/facility/${shipId}/datasource`)) as { id: string }[];
  const channelsUrl = `/api/algorithm/facilitydatasource/${source!.id}/facilitydatasourcechannels`;
  type Channel = { id: string; name: string; source: string };
  const before = (await get(channelsUrl)) as Channel[];
  expect(before).toHaveLength(31);
  const suggested = (await get(`/api/algorithm/facilitydatasource/${source!.id}/suggested-mappings`)) as {
    mappingsWithoutColumn: (Channel & { readByCalculation: boolean })[];
  };
  const unused = suggested.mappingsWithoutColumn.filter((m) => !m.readByCalculation);
  expect(unused).toHaveLength(14);

  await page.getByRole('button', { name: `Suggest mappings for ${dataSource}` }).click();
  const dialog = page.getByRole('dialog', { name: `Suggest mappings for ${dataSource}` });
  await dialog.getByRole('button', { name: 'Accept all' }).click();
  await expect(dialog.getByText('Mappings: 17 changed, 14 removed')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply' }).click();

  // The confirmation names each mapping that would go, with its column; nothing is changed yet.
  const confirm = page.getByRole('dialog', { name: 'Remove 14 mapping(s)?' });
  const listed = confirm.getByRole('list', { name: 'Mappings that would be removed' }).getByRole('listitem');
  await expect(listed).toHaveCount(14);
  expect((await listed.allTextContents()).sort()).toEqual(
    unused.map((m) => `${m.name}Column ${m.source}`).sort(),
  );
  expect(await get(channelsUrl)).toEqual(before);
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  fs.mkdirSync(artifacts, { recursive: true });
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect(confirm.getByRole('button', { name: 'Remove and apply' })).toBeInViewport();
    await page.screenshot({ path: path.join(artifacts, `suggested-mappings-remove-${size}.png`) });
    await noViolations(page, '[data-testid="remove-mappings-confirmation"]');
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Cancel goes back to the suggestions with nothing changed.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(dialog).toBeVisible();
  expect(await get(channelsUrl)).toEqual(before);

  // Yes: the mappings change and the 14 go; the notification offers Undo.
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await confirm.getByRole('button', { name: 'Remove and apply' }).click();
  await expect(dialog).toHaveCount(0);
  const notification = page.getByTestId('notification');
  await expect(notification).toContainText('Changes were saved. Mappings: 17 changed, 14 removed');
  await page.screenshot({ path: path.join(artifacts, 'suggested-mappings-undo-desktop.png') });
  await notification.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('notification')).toContainText('The previous mappings were restored');
  // Undo: the 31 mappings as they were, ids included (the calculations read them by id).
  await expect.poll(async () => get(channelsUrl)).toEqual(before);
  const node = page.getByTestId(`datasource-${dataSource}`);
  await expect(node.getByText(unused[0]!.name, { exact: true })).toBeVisible();
});

// All three loggers go the whole way: about 20 s each (the issue asked for the proposals of all three, and the week's
// KPIs of at least one).
for (const key of ['ams', 'bridge', 'opc'] as const) {
  test(`a ship whose logger is ${key} is onboarded through the screens and shows the demo ship's KPIs for the week`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const logger = foreignLogger(key);
    const files = loggerFiles(logger);
    const name = `MV Onboarded ${key.toUpperCase()}`;
    await signInAs(page, 'admin', '/');
    await expect(page.getByRole('banner')).toBeVisible();
    const watch = stopwatch(key);

    const id = await createShip(page, name);
    watch.lap('1 ship');
    const dataSource = await importConfiguration(page);
    watch.lap('2 import');
    await setReader(page, dataSource, logger, files.sample);
    watch.lap('3 reader');
    const correct = await acceptSuggestions(page, dataSource, logger, watch);
    watch.lap('4 mappings');
    console.log(`[onboarding ${key}] DOMAIN channels proposed right: ${correct}/${DOMAIN_CHANNELS.length}`);
    expect(correct).toBe(DOMAIN_CHANNELS.length);
    await uploadAndRun(page, name, dataSource, logger, files, watch);
    watch.lap('5 upload and run');
    // Step 6: the week on both dashboards (the period set in the period picker).
    await page.getByTestId('period-button').click();
    await page.getByRole('menuitem', { name: /Custom period/ }).click();
    await typeDate(page, 'From', isoDay(weekDays[0]!));
    await typeDate(page, 'To', isoDay(weekDays[6]!));
    await page.getByRole('dialog').getByRole('button', { name: 'Set' }).click();
    await expect(page.getByTestId('period-range')).toHaveText(
      `${dotted(weekDays[0]!)} – ${dotted(weekDays[6]!)}`,
    );
    const onboarded = await dashboard(page, name);
    expect(onboarded.id).toBe(id);
    const demo = await dashboard(page, demoShip.name);
    watch.lap('6 dashboards');
    watch.total();

    console.log(`[onboarding ${key}] KPIs shown for the week (onboarded | demo ship):`);
    for (const [kpi] of SHOWN_KPIS)
      console.log(`  ${kpi}: ${JSON.stringify(onboarded.shown[kpi])} | ${JSON.stringify(demo.shown[kpi])}`);
    expect(onboarded.shown).toEqual(demo.shown);
    // Every KPI has its number: the comparison is of values, not of two "No data".
    for (const [kpi] of SHOWN_KPIS) expect(onboarded.shown[kpi]!.value, kpi).not.toBe('null');
    expect([...onboarded.reports.keys()].sort()).toEqual([...demo.reports.keys()].sort());
    for (const [report, data] of demo.reports)
      expect(periodFields(onboarded.reports.get(report)), report).toEqual(periodFields(data));
  });
}

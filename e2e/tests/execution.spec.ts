import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInAs, accessToken } from '../support';

/**
 * Issue 6, part 1 in the browser: a user uploads logger files the ship did not have yet, runs an execution for
 * them from the files screen, sees Processing on the ship list while it runs and then the ship's new data range
 * and dashboard values for those days. The upload dialog's own Run offer is the second test (both with Run for the
 * uploaded files unticked); the third uploads as users do by default, and the upload itself queues the execution
 * (issue 19).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DAY_MS = 86_400_000;
const SHIP = 'Baltic Tern';
/** Another ship of the same user whose re-execution keeps the single worker busy, so Processing lasts long enough to see. */
const BUSY_SHIP = 'Straits Pioneer';

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dotted = (day: string) => day.replace(/-/g, '.');
/** The first day after the seeded demo data (the demo imports the days up to yesterday). */
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;

/** The API as the signed-in user. */
async function api(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const get = async <T>(request: APIRequestContext, url: string): Promise<T> => {
    const response = await request.get(url, { headers });
    expect(response.status(), url).toBe(200);
    return (await response.json()) as T;
  };
  return {
    get: <T>(url: string) => get<T>(page.request, url),
    post: (url: string, data: unknown) => page.request.post(url, { headers, data }),
  };
}

/** Logger files of a demo ship for the given days, written by the demo fleet generator; zipped when `zip`. */
function demoFiles(shipKey: string, days: number[], zip: boolean): { file: string; names: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-execution-'));
  const script = `
    import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
    import { zipSync } from 'fflate';
    import fs from 'node:fs';
    import path from 'node:path';
    const ship = demoShips().find((s) => s.key === ${JSON.stringify(shipKey)});
    const files = {};
    for (const day of ${JSON.stringify(days)}) {
      const f = await writeShipDayFile(ship, new Date(day));
      files[f.fileName] = new Uint8Array(f.content);
    }
    const names = Object.keys(files);
    const out = ${zip} ? path.join(${JSON.stringify(dir)}, 'upload.zip') : path.join(${JSON.stringify(dir)}, names[0]);
    fs.writeFileSync(out, ${zip} ? zipSync(files) : files[names[0]]);
    console.log(JSON.stringify({ file: out, names }));`;
  const scriptFile = path.join(root, 'apps', 'api', `.e2e-execution-${process.pid}.mts`);
  fs.writeFileSync(scriptFile, script);
  try {
    const output = execFileSync('npx', ['tsx', scriptFile], {
      cwd: path.join(root, 'apps', 'api'),
      encoding: 'utf8',
    });
    return JSON.parse(output.trim().split('\n').pop()!) as { file: string; names: string[] };
  } finally {
    fs.rmSync(scriptFile, { force: true });
  }
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_');

interface Ship {
  id: string;
  name: string;
}
interface DataSource {
  id: string;
  name: string;
  isPrimary: boolean;
}
interface DataFile {
  id: string;
  fileName: string;
  timeStampMin: string;
  timeStampMax: string;
}
interface ReportData {
  fields: Record<string, { value: unknown }>;
}

const availability = (
  client: Awaited<ReturnType<typeof api>>,
  facilityId: string,
  from: number,
  to: number,
) =>
  client
    .get<ReportData>(
      `/api/reports/FacilityOperationalavailability/data?${new URLSearchParams({ facilityId, from: new Date(from).toISOString(), to: new Date(to).toISOString() })}`,
    )
    .then((data) => data.fields.ActualAverage?.value ?? null);

/** Queues a re-execution of a ship's whole data so the one execution worker is busy for a while. */
async function keepWorkerBusy(client: Awaited<ReturnType<typeof api>>, facilityId: string) {
  const [dataSource] = await client.get<DataSource[]>(`/api/algorithm/facility/${facilityId}/datasource`);
  const files = await client.get<DataFile[]>(`/api/algorithm/facilitydatasource/${dataSource!.id}/file`);
  const from = files.map((f) => f.timeStampMin).sort()[0]!;
  const to = files
    .map((f) => f.timeStampMax)
    .sort()
    .at(-1)!;
  // Several runs of the whole range, one after the other on the one worker: an execution of a demo ship takes about
  // a second since the engine computes each distinct report calculation once, too short to see the queue otherwise.
  for (let i = 0; i < 8; i++) {
    const response = await client.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId,
      from,
      to,
      facilityDataSourceFileIds: files.map((f) => f.id),
    });
    expect(response.status()).toBe(202);
  }
}

test('a user uploads files, runs an execution, sees Processing and then the new data range and values', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signInAs(page, 'north.anna', '/');
  const client = await api(page);
  const ships = await client.get<Ship[]>('/api/facilities');
  const ship = ships.find((s) => s.name === SHIP)!;
  const busyShip = ships.find((s) => s.name === BUSY_SHIP)!;
  const dataSource = (await client.get<DataSource[]>(`/api/algorithm/facility/${ship.id}/datasource`)).find(
    (d) => d.isPrimary,
  )!;
  const days = [today, today + DAY_MS];
  const [first, last] = [isoDay(days[0]!), isoDay(days[1]!)];
  const zip = demoFiles(slug(SHIP), days, true);
  expect(zip.names).toHaveLength(2);
  // Nothing is stored for those days yet.
  expect(await availability(client, ship.id, days[0]!, days[1]! + DAY_MS - 1)).toBeNull();

  // Upload the zip on the files screen.
  await page.goto(`/facilities/${ship.id}/files`);
  const tree = page.getByTestId(`files-${dataSource.name}`);
  await tree.getByRole('button', { name: 'Add file' }).click();
  const upload = page.getByRole('dialog');
  await upload.getByTestId('upload-file-input').setInputFiles(zip.file);
  // The user runs by hand here: the upload queues nothing.
  await upload.getByLabel('Run for the uploaded files').uncheck();
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByText('2 file(s) imported')).toBeVisible({ timeout: 60_000 });
  // The dialog offers a run for the uploaded files' range; this time the user runs from the files screen.
  const offer = upload.getByTestId('run-panel');
  await expect(offer.getByLabel('From date')).toHaveValue(first);
  await expect(offer.getByLabel('To date')).toHaveValue(last);
  await upload.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('ship-data-range')).toContainText(`– ${dotted(last)} 23:59`);

  // Selecting the files fills the execution period.
  const run = page.getByTestId('run-panel');
  await expect(run.getByRole('button', { name: 'Run' })).toBeDisabled();
  for (const name of zip.names) await tree.getByRole('checkbox', { name: `Select ${name}` }).check();
  await expect(run.getByLabel('From date')).toHaveValue(first);
  await expect(run.getByLabel('From time')).toHaveValue('00:00');
  await expect(run.getByLabel('To date')).toHaveValue(last);
  await expect(run.getByLabel('To time')).toHaveValue('23:59');
  await expect(run).toContainText('2 file(s) selected');

  await keepWorkerBusy(client, busyShip.id);
  const executeRequest = page.waitForRequest(
    (r) => r.url().endsWith('/api/algorithm/calculations/measurement-field/execute') && r.method() === 'POST',
  );
  await run.getByRole('button', { name: 'Run' }).click();
  expect((await executeRequest).postDataJSON()).toMatchObject({
    facilityId: ship.id,
    from: `${first}T00:00:00.000Z`,
    to: `${last}T23:59:59.999Z`,
  });
  await expect(
    page.getByText(
      "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
    ),
  ).toBeVisible();
  // The files screen follows the execution by its id: queued behind the busy worker, or already processing.
  await expect(page.getByTestId('execution-progress')).toHaveText(
    /^(Queued|Processing) since \d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/,
  );

  // The ship list: Processing with the start time while it runs, then the new data range.
  await page.goto('/facilities');
  const row = page.getByTestId('ship-row').filter({ hasText: SHIP });
  const status = row.getByTestId('ship-status');
  await expect(status).toContainText('Processing');
  await expect(status).toContainText(new RegExp(`since ${dotted(isoDay(Date.now()))} \\d{2}:\\d{2}`));
  await page.screenshot({ path: path.join(os.tmpdir(), 'e2e-execution-processing.png'), fullPage: true });
  await expect(status).toHaveText('Ready', { timeout: 240_000 });
  await expect(row).toContainText(dotted(last));

  // The dashboard of the ship for those days shows the values the execution stored.
  const stored = await availability(client, ship.id, days[0]!, days[1]! + DAY_MS - 1);
  expect(typeof stored).toBe('number');
  await page.evaluate(
    ([from, to]) => localStorage.setItem('portal.period', JSON.stringify({ type: 'custom', from, to })),
    [first, last] as const,
  );
  await page.goto(`/ship/${ship.id}`);
  await expect(page.getByTestId('ship-name')).toHaveText(SHIP, { timeout: 30_000 });
  await expect(page.getByTestId('kpi-availability-value')).toHaveAttribute('data-value', String(stored));
  await page.evaluate(() => localStorage.removeItem('portal.period'));
});

test('the upload dialog offers to run for the uploaded files and queues that execution', async ({ page }) => {
  await signInAs(page, 'north.anna', '/');
  const client = await api(page);
  const ship = (await client.get<Ship[]>('/api/facilities')).find((s) => s.name === SHIP)!;
  const day = isoDay(today + 2 * DAY_MS);
  const single = demoFiles(slug(SHIP), [today + 2 * DAY_MS], false);

  await page.goto(`/facilities/${ship.id}/files`);
  await page.getByRole('button', { name: 'Add file' }).first().click();
  const upload = page.getByRole('dialog');
  await upload.getByTestId('upload-file-input').setInputFiles(single.file);
  await upload.getByLabel('Run for the uploaded files').uncheck();
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByText('1 file(s) imported')).toBeVisible({ timeout: 60_000 });
  const offer = upload.getByTestId('run-panel');
  await expect(offer).toContainText('The period spans the 1 uploaded file(s).');
  await expect(offer.getByLabel('From date')).toHaveValue(day);
  await expect(offer.getByLabel('From time')).toHaveValue('00:00');
  await expect(offer.getByLabel('To date')).toHaveValue(day);
  await expect(offer.getByLabel('To time')).toHaveValue('23:59');
  await page.screenshot({ path: path.join(os.tmpdir(), 'e2e-upload-run-offer.png') });

  const executeRequest = page.waitForRequest(
    (r) => r.url().endsWith('/api/algorithm/calculations/measurement-field/execute') && r.method() === 'POST',
  );
  await offer.getByRole('button', { name: 'Run' }).click();
  const body = (await executeRequest).postDataJSON() as {
    from: string;
    to: string;
    facilityDataSourceFileIds: string[];
  };
  expect(body).toMatchObject({
    facilityId: ship.id,
    from: `${day}T00:00:00.000Z`,
    to: `${day}T23:59:59.999Z`,
  });
  const files = await client.get<DataFile[]>(
    `/api/algorithm/facilitydatasource/${(await client.get<DataSource[]>(`/api/algorithm/facility/${ship.id}/datasource`)).find((d) => d.isPrimary)!.id}/file`,
  );
  expect(body.facilityDataSourceFileIds).toEqual(
    files.filter((f) => f.fileName === single.names[0]).map((f) => f.id),
  );
  await expect(
    page.getByText(
      "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
    ),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The dialog closed; the files screen follows the execution it queued until it is done.
  await expect(page.getByTestId('execution-progress')).toHaveText(/^Done \d{4}\.\d{2}\.\d{2} \d{2}:\d{2}: /, {
    timeout: 60_000,
  });

  await page.goto('/facilities');
  const row = page.getByTestId('ship-row').filter({ hasText: SHIP });
  await expect(row.getByTestId('ship-status')).toHaveText('Ready', { timeout: 60_000 });
  await expect(row).toContainText(dotted(day));
});

test('an upload runs the uploaded files by default: queued by the upload, Processing on the ship list, then the new range', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signInAs(page, 'north.anna', '/');
  const client = await api(page);
  const ships = await client.get<Ship[]>('/api/facilities');
  const ship = ships.find((s) => s.name === SHIP)!;
  const busyShip = ships.find((s) => s.name === BUSY_SHIP)!;
  const dayMs = today + 3 * DAY_MS;
  const day = isoDay(dayMs);
  const single = demoFiles(slug(SHIP), [dayMs], false);
  expect(await availability(client, ship.id, dayMs, dayMs + DAY_MS - 1)).toBeNull();

  await page.goto(`/facilities/${ship.id}/files`);
  await page.getByRole('button', { name: 'Add file' }).first().click();
  const upload = page.getByRole('dialog');
  await upload.getByTestId('upload-file-input').setInputFiles(single.file);
  await expect(upload.getByLabel('Run for the uploaded files')).toBeChecked();
  // The worker is busy with another ship: the upload's execution waits in the queue long enough to be seen.
  await keepWorkerBusy(client, busyShip.id);
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/algorithm/facilitydatasource/') && r.request().method() === 'POST',
  );
  await upload.getByRole('button', { name: 'Upload' }).click();
  const response = await answer;
  expect(new URL(response.url()).searchParams.get('execute')).toBeNull();
  const { execution } = (await response.json()) as { execution: { id: string; joined: boolean } | null };
  expect(execution).toMatchObject({ joined: false });
  await expect(upload.getByText('1 file(s) imported')).toBeVisible();
  await expect(upload.getByTestId('upload-execution')).toHaveText(
    "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
  );
  await expect(upload.getByTestId('run-panel')).toHaveCount(0);
  await upload.getByRole('button', { name: 'Close' }).click();
  // The files screen follows the upload's execution.
  await expect(page.getByTestId('execution-progress')).toHaveText(
    /^(Queued|Processing) since \d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/,
  );
  const followed = await client.get<{ origin: string; period: { from: string; to: string } }>(
    `/api/executions/${execution!.id}`,
  );
  expect(followed).toMatchObject({
    origin: 'upload',
    period: { from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` },
  });

  // The ship list shows Processing as for Run, then Ready with the new day.
  await page.goto('/facilities');
  const row = page.getByTestId('ship-row').filter({ hasText: SHIP });
  const status = row.getByTestId('ship-status');
  await expect(status).toContainText('Processing');
  await expect(status).toHaveText('Ready', { timeout: 240_000 });
  await expect(row).toContainText(dotted(day));
  expect(typeof (await availability(client, ship.id, dayMs, dayMs + DAY_MS - 1))).toBe('number');
});

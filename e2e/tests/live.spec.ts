import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { destinationPoint } from '@portal/contracts/rules/zone-approach';
import { EdgeNode, type Sample } from '@portal/edge';
import { accessToken, closeNotifications, mqttUrl, noSeriousViolations, signInAs, still } from '../support';

/**
 * Live data in the browser (issue 33, "Step 6 of 7 — Live", docs/decisions/0129-live-readout.md): a new ship's
 * gateway streams over MQTT Sparkplug B through the e2e server's embedded broker, as the ship's edge node
 * (packages/edge) with the ship's upload token. Its last 20 minutes (steaming east at 13 knots in open loop, 40
 * minutes from Singapore port waters) go out first; the ship dashboard's live readout shows the fuel flow's value,
 * then the next minute's different value without a reload. The stream's window execution raises the zone warning,
 * which the ship's map shows. Axe on both pages; screenshots at 1440x900 and 390x844 in e2e/.artifacts/screenshots.
 */
const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const MIN = 60_000;
const KNOTS = 13;
/** Singapore port waters begin at 103.6°E on 1.25°N (packages/contracts/src/discharge-zones.ts). */
const EDGE: [number, number] = [1.25, 103.6];
const CHANNELS: { name: string; dataType: 'Double' | 'Boolean'; unit: string }[] = [
  { name: 'FUEL_FLOW', dataType: 'Double', unit: 'kg/h' },
  { name: 'FUEL_SULFUR', dataType: 'Double', unit: '%' },
  { name: 'SCRUBBER_RUNNING', dataType: 'Boolean', unit: '' },
  { name: 'LATITUDE', dataType: 'Double', unit: '°' },
  { name: 'LONGITUDE', dataType: 'Double', unit: '°' },
  { name: 'SCRUBBER_MODE', dataType: 'Double', unit: '' },
];
const SHIP = `Live Test ${Date.now().toString(36)}`;

async function api(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const ok = async <T>(response: Promise<APIResponse>): Promise<T> => {
    const answer = await response;
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return (await answer.json().catch(() => null)) as T;
  };
  return {
    get: <T>(url: string) => ok<T>(page.request.get(url, { headers })),
    post: <T>(url: string, data: unknown) => ok<T>(page.request.post(url, { headers, data })),
    put: <T>(url: string, data: unknown) => ok<T>(page.request.put(url, { headers, data })),
  };
}

/** One minute of the ship's logger: `minutesBefore` minutes before its last fix, 40 minutes west of the edge. */
function minuteSamples(
  dataSourceId: string,
  time: number,
  minutesBefore: number,
  fuelFlow: number,
): Sample[] {
  const last = destinationPoint(EDGE[0], EDGE[1], 270, (KNOTS * 40) / 60);
  const [lat, lon] = destinationPoint(last[0], last[1], 270, (KNOTS * minutesBefore) / 60);
  const values: Record<string, number> = {
    FUEL_FLOW: fuelFlow,
    FUEL_SULFUR: 2.5,
    SCRUBBER_RUNNING: 1,
    LATITUDE: lat,
    LONGITUDE: lon,
    SCRUBBER_MODE: 1,
  };
  return CHANNELS.map((c) => ({ dataSourceId, channel: c.name, time, value: values[c.name]! }));
}

async function screenshots(page: Page, name: string) {
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await closeNotifications(page);
    await still(page);
    await noSeriousViolations(page, 'main');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `live-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a ship's gateway streams: its dashboard's live value moves without a reload, its map warns of the zone ahead", async ({
  page,
}) => {
  test.skip(process.env.E2E_LIVE === 'off', 'the server runs without the stream (E2E_LIVE=off)');
  test.setTimeout(300_000);
  await signInAs(page, 'admin', '/');
  const client = await api(page);
  const ships = await client.get<{ primaryOrganizationId: string }[]>('/api/facilities');
  const ship = await client.post<{ id: string }>('/api/facilities', {
    organizationId: ships[0]!.primaryOrganizationId,
    name: SHIP,
  });
  const source = await client.post<{ id: string }>(`/api/algorithm/facility/${ship.id}/datasource`, {
    name: 'Gateway',
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
  });
  for (const channel of CHANNELS)
    await client.post(`/api/algorithm/facilitydatasource/${source.id}/facilitydatasourcechannels`, {
      source: channel.name,
      name: channel.name,
      dataType: channel.dataType,
      description: '',
      unit: channel.unit,
      qualityScore: 5,
    });
  // The default calculations (drafts), those of the fields the zone warning reads approved.
  await client.post(`/api/algorithm/measurement-fields/facility/${ship.id}/default-calculations`, {});
  const fields = await client.get<{ id: string; name: string }[]>(
    `/api/algorithm/measurement-fields/facility/${ship.id}`,
  );
  for (const field of fields.filter((f) => CHANNELS.some((c) => c.name === f.name))) {
    const base = `/api/algorithm/facility/${ship.id}/measurement-field/${field.id}/calculations`;
    for (const calculation of await client.get<{ id: string }[]>(base))
      await client.put(`${base}/${calculation.id}/approve`, { validFrom: '2020-01-01T00:00:00Z' });
  }
  const { token } = await client.post<{ token: string }>(`/api/facilities/${ship.id}/upload-credentials`, {});

  // The ship's gateway: an edge node signed in with the ship's upload token.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-live-edge-'));
  const logged: string[] = [];
  const node = new EdgeNode({
    mqttUrl: mqttUrl(),
    facilityId: ship.id,
    token,
    stateDir,
    dataSources: [{ id: source.id, channels: CHANNELS.map((c) => ({ name: c.name, unit: c.unit || null })) }],
    reconnectMaxMs: 2_000,
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  try {
    node.start();
    // The last 20 minutes up to this minute, one minute at a time, the fuel flow at 1000 kg/h.
    const end = Math.floor(Date.now() / MIN) * MIN;
    for (let i = 19; i >= 0; i--) node.publish(minuteSamples(source.id, end - i * MIN, i, 1000));
    await expect
      .poll(() => node.stats.pending, {
        timeout: 30_000,
        message: `the broker takes them: ${logged.join('; ')}`,
      })
      .toBe(0);

    await page.goto(`/ship/${ship.id}`);
    const readout = page.getByTestId('live-readout');
    await expect(readout.getByTestId('live-link')).toHaveText('Online');
    const fuelFlow = readout.getByTestId('live-value-FUEL_FLOW');
    await expect(fuelFlow.getByTestId('live-value-text')).toHaveText('1,000 kg/h');
    const firstTime = await fuelFlow.getByTestId('live-value-time').textContent();
    await expect(readout.getByTestId('live-value-SCRUBBER_MODE').getByTestId('live-value-text')).toHaveText(
      '1',
    );
    await screenshots(page, 'dashboard');

    // The next minute: the fuel flow at 1250 kg/h, on the page without a reload (the readout asks every 10 s).
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    node.publish(minuteSamples(source.id, end + MIN, -1, 1250));
    await expect(fuelFlow.getByTestId('live-value-text')).toHaveText('1,250 kg/h', { timeout: 30_000 });
    await expect(fuelFlow.getByTestId('live-value-time')).not.toHaveText(firstTime ?? '');
    expect(navigations).toEqual([]);

    // The stream's window execution evaluates the zone warnings: the map shows the one ahead.
    await expect
      .poll(
        async () =>
          (await client.get<{ warnings: unknown[] }>(`/api/facilities/${ship.id}/zone-warnings`)).warnings
            .length,
        { timeout: 120_000 },
      )
      .toBe(1);
    await page.goto(`/ship/${ship.id}/map`);
    await expect(page.getByTestId('zone-warning')).toContainText(
      /^Open-loop discharge banned in Singapore port waters in \d+ min: switch to closed loop or to compliant fuel/,
    );
    const map = page.getByRole('region', { name: new RegExp(`^Map of ${SHIP}`) });
    await expect(map).toHaveAttribute('data-land', 'drawn');
    await expect(map.locator('path.map-marker-zone-warning')).toHaveCount(1);
    await screenshots(page, 'map');
  } finally {
    await node.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { destinationPoint } from '@portal/contracts/rules/zone-approach';
import { demoShips } from '@portal/demo-fleet';
import { EdgeNode, startDemoStream, type Sample } from '@portal/edge';
import {
  apiClient,
  closeNotifications,
  createShipWithChannels,
  mqttUrl,
  noSeriousViolations,
  signInAs,
  still,
  type ShipChannel,
} from '../support';

/**
 * Live data in the browser (issue 33, "Step 6 of 7 — Live", docs/decisions/0129-live-readout.md).
 *
 * A demo ship's value moves: the e2e server runs without the demo's own stream (DEMO_STREAM off: the other specs
 * compare a page with the API a moment apart, and a stream of the current minutes would move fleet figures between
 * the two), so this spec starts the demo stream itself (packages/edge `startDemoStream`, the same code `npm start`
 * runs) for the demo ship no other spec names (the sixth, Coral Navigator), through the server's embedded broker
 * with an upload token of the ship's. Its clock is a day ten days back, inside the demo fleet's logger files, run
 * thirty times fast: the files cover those minutes, so the executed values stay what they were (a file covering its
 * span wins, the same numbers) while the readout, the stream as it arrived, moves a minute every two seconds. The
 * ship dashboard's Live card shows the values, then later ones without a reload.
 *
 * A zone warning appears on the map: a new ship's gateway (an edge node with the ship's upload token) streams its
 * last 20 minutes (steaming east at 13 knots in open loop, 40 minutes from Singapore port waters); the stream's
 * window execution raises the warning, which the ship's map shows. Axe on both pages; screenshots at 1440x900 and
 * 390x844 in e2e/.artifacts/screenshots.
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
const CHANNELS: ShipChannel[] = [
  { name: 'FUEL_FLOW', dataType: 'Double', unit: 'kg/h' },
  { name: 'FUEL_SULFUR', dataType: 'Double', unit: '%' },
  { name: 'SCRUBBER_RUNNING', dataType: 'Boolean', unit: '' },
  { name: 'LATITUDE', dataType: 'Double', unit: '°' },
  { name: 'LONGITUDE', dataType: 'Double', unit: '°' },
  { name: 'SCRUBBER_MODE', dataType: 'Double', unit: '' },
];
const SHIP = `Live Test ${Date.now().toString(36)}`;

const DAY = 24 * 60 * MIN;
/** The demo ship whose live values this spec watches: no other spec names it. */
const DEMO_SHIP = demoShips(6)[5]!;
/** The demo stream's clock: ten days back at noon, thirty times fast (a minute every two seconds). */
const SPEED = 30;

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

test("a demo ship's live value moves on its dashboard without a reload", async ({ page }) => {
  test.skip(process.env.E2E_LIVE === 'off', 'the server runs without the stream (E2E_LIVE=off)');
  test.setTimeout(300_000);
  await signInAs(page, 'admin', '/');
  const client = await apiClient(page);
  const ships = await client.get<{ id: string; name: string }[]>('/api/facilities');
  const ship = ships.find((s) => s.name === DEMO_SHIP.name)!;
  expect(ship, `the demo ship ${DEMO_SHIP.name}`).toBeTruthy();
  const [source] = await client.get<{ id: string; isPrimary: boolean }[]>(
    `/api/algorithm/facility/${ship.id}/datasource`,
  );
  const credential = await client.post<{ id: string; token: string }>(
    `/api/facilities/${ship.id}/upload-credentials`,
    {},
  );
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-live-demo-'));
  const started = Date.now();
  const from = Math.floor((started - 10 * DAY) / DAY) * DAY + DAY / 2;
  const logged: string[] = [];
  const stream = startDemoStream({
    mqttUrl: mqttUrl(),
    facilityId: ship.id,
    token: credential.token,
    dataSourceId: source!.id,
    shipKey: DEMO_SHIP.key,
    stateDir,
    intervalMs: 500,
    now: () => from + (Date.now() - started) * SPEED,
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  try {
    await page.goto(`/ship/${ship.id}`);
    const readout = page.getByTestId('live-readout');
    await expect(readout.getByTestId('live-link'), logged.join('; ')).toHaveText('Online', {
      timeout: 30_000,
    });
    const values = readout.getByTestId('live-value-text');
    const times = readout.getByTestId('live-value-time');
    await expect(values.first()).toBeVisible();
    const firstValues = (await values.allTextContents()).join(' | ');
    const firstTime = await times.first().textContent();
    await screenshots(page, 'dashboard');

    // Later minutes on the page without a reload (the readout asks every 10 s).
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await expect(times.first()).not.toHaveText(firstTime ?? '', { timeout: 30_000 });
    await expect
      .poll(async () => (await values.allTextContents()).join(' | '), { timeout: 30_000 })
      .not.toBe(firstValues);
    expect(navigations).toEqual([]);
  } finally {
    await stream.stop();
    await client.delete(`/api/facilities/${ship.id}/upload-credentials/${credential.id}`);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test("a ship's gateway streams: its map warns of the zone ahead", async ({ page }) => {
  test.skip(process.env.E2E_LIVE === 'off', 'the server runs without the stream (E2E_LIVE=off)');
  test.setTimeout(300_000);
  await signInAs(page, 'admin', '/');
  const client = await apiClient(page);
  const { shipId, dataSourceId } = await createShipWithChannels(client, SHIP, 'Gateway', CHANNELS);
  const { token } = await client.post<{ token: string }>(`/api/facilities/${shipId}/upload-credentials`, {});

  // The ship's gateway: an edge node signed in with the ship's upload token.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-live-edge-'));
  const logged: string[] = [];
  const node = new EdgeNode({
    mqttUrl: mqttUrl(),
    facilityId: shipId,
    token,
    stateDir,
    dataSources: [
      { id: dataSourceId, channels: CHANNELS.map((c) => ({ name: c.name, unit: c.unit || null })) },
    ],
    reconnectMaxMs: 2_000,
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  try {
    node.start();
    // The last 20 minutes up to this minute, one minute at a time, the fuel flow at 1000 kg/h.
    const end = Math.floor(Date.now() / MIN) * MIN;
    for (let i = 19; i >= 0; i--) node.publish(minuteSamples(dataSourceId, end - i * MIN, i, 1000));
    await expect
      .poll(() => node.stats.pending, {
        timeout: 30_000,
        message: `the broker takes them: ${logged.join('; ')}`,
      })
      .toBe(0);

    // The stream's window execution evaluates the zone warnings: the map shows the one ahead.
    await expect
      .poll(
        async () =>
          (await client.get<{ warnings: unknown[] }>(`/api/facilities/${shipId}/zone-warnings`)).warnings
            .length,
        { timeout: 120_000 },
      )
      .toBe(1);
    await page.goto(`/ship/${shipId}/map`);
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

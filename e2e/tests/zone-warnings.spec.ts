import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { destinationPoint } from '@portal/contracts/rules/zone-approach';
import {
  apiClient,
  closeNotifications,
  createShipWithChannels,
  noSeriousViolations,
  signInAs,
  still,
  type ShipChannel,
} from '../support';

/**
 * Zone warnings before arrival (issue 33, docs/decisions/0123-zone-warnings.md) in the browser: a new ship logging
 * through a CSV data source, its last 20 minutes uploaded (steaming east at 13 knots in open loop, 40 minutes from
 * Singapore port waters), executed by the upload's job; its map shows the warning, the dashed track ahead and the
 * entry's dot; axe on the map page; screenshots at desktop and phone size.
 */
const MIN = 60_000;
const KNOTS = 13;
/** Singapore port waters begin at 103.6°E on 1.25°N (packages/contracts/src/discharge-zones.ts). */
const EDGE: [number, number] = [1.25, 103.6];
const CHANNELS: ShipChannel[] = [
  'FUEL_FLOW',
  'FUEL_SULFUR',
  'SCRUBBER_RUNNING',
  'LATITUDE',
  'LONGITUDE',
  'SCRUBBER_MODE',
].map((name) => ({ name, dataType: name === 'SCRUBBER_RUNNING' ? 'Boolean' : 'Double', unit: '' }));
const SHIP = `Zone Warning Test ${Date.now().toString(36)}`;

/** The last 20 minutes up to now of a ship steaming east at 13 knots, its last fix 40 minutes from the edge. */
function approachCsv(): string {
  const end = Math.floor(Date.now() / MIN) * MIN;
  const last = destinationPoint(EDGE[0], EDGE[1], 270, (KNOTS * 40) / 60);
  const lines = [['Timestamp', ...CHANNELS.map((c) => c.name)].join(',')];
  for (let i = 19; i >= 0; i--) {
    const [lat, lon] = destinationPoint(last[0], last[1], 270, (KNOTS * i) / 60);
    const t = new Date(end - i * MIN).toISOString().replace('T', ' ').slice(0, 19);
    lines.push([t, 1000, 2.5, 1, lat, lon, 1].join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('a ship heading into a no-discharge zone in open loop: the warning and its track ahead on the map', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signInAs(page, 'admin', '/');
  const client = await apiClient(page);
  const { shipId, dataSourceId } = await createShipWithChannels(client, SHIP, 'Logger', CHANNELS);
  // Uploaded as a logger's file: the upload queues its execution, which evaluates the zone warnings.
  await client.upload(
    `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
    'approach.csv',
    approachCsv(),
  );
  await expect
    .poll(
      async () =>
        (await client.get<{ warnings: unknown[] }>(`/api/facilities/${shipId}/zone-warnings`)).warnings
          .length,
      { timeout: 120_000 },
    )
    .toBe(1);

  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/ship/${shipId}/map`);
    const warning = page.getByTestId('zone-warning');
    await expect(warning).toContainText(
      /^Open-loop discharge banned in Singapore port waters in (39|40) min: switch to closed loop or to compliant fuel \(entry about/,
    );
    await expect(page.getByTestId('ship-motion')).toContainText('90° at 13.0 kn over ground');
    const map = page.getByRole('region', { name: new RegExp(`^Map of ${SHIP}`) });
    await expect(map).toHaveAttribute('data-land', 'drawn');
    await expect(map.locator('path.map-track-ahead')).toHaveCount(1);
    await expect(map.locator('path.map-marker-zone-warning')).toHaveCount(1);
    await expect(page.getByTestId('map-legend')).toContainText('Track ahead (dashed)');
    await expect(page.getByTestId('map-legend')).toContainText('Zone warning: entry');
    await closeNotifications(page);
    await still(page);
    await page.screenshot({ path: path.join(os.tmpdir(), `zone-warnings-map-${size}.png`), fullPage: true });
    await noSeriousViolations(page, 'main');
  }
});

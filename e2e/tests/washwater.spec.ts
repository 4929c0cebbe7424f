import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { isInEca } from '@portal/contracts/eca';
import { isInNoDischargeZone } from '@portal/contracts/discharge-zones';
import type { Track } from '@portal/contracts/map';
import { collectReports, signInAs, still, accessToken } from '../support';

/**
 * Washwater (issue 20) in the browser on the living demo: the ship map draws the zones, a legend and the track of a
 * ship whose voyage of the period crosses an emission control area and a no-discharge zone (Baltic Tern: the North
 * Sea and Baltic ECAs, the Elbe, the Kiel Canal and Danish waters), and says the same as text. Screenshots at
 * 1440x900 and 390x844 go to e2e/.artifacts/screenshots/washwater-*.png.
 */

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** Screenshots of one card at both sizes, once its charts have drawn again. */
async function cardShots(page: Page, testId: string, chartTestId: string, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await expect(page.getByTestId(chartTestId)).toHaveAttribute('data-ready', 'true');
    await still(page);
    // The card where it lies on the whole page: a card taller than a phone's screen is not under the fixed top bar.
    const box = await page.getByTestId(testId).evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    });
    await page.screenshot({
      path: path.join(SHOTS, `washwater-${name}-${size}.png`),
      fullPage: true,
      clip: box,
    });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function shipId(page: Page, name: string): Promise<string> {
  const card = page.getByTestId('ship-card').filter({ hasText: name });
  await expect(card).toHaveCount(1);
  return (await card.getAttribute('data-facility-id'))!;
}

test('the ship map draws the zones, the legend and a track that crosses an ECA and a no-discharge zone', async ({
  page,
}) => {
  await signInAs(page, 'north.anna');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  const id = await shipId(page, 'Baltic Tern');

  // From the dashboard's Map tab; the track the page receives is the one it draws.
  await page.goto(`/ship/${id}`);
  const trackAnswer = page.waitForResponse((r) => r.url().includes(`/api/facilities/${id}/track?`));
  await page.getByTestId('tab-map').click();
  await expect(page).toHaveURL(new RegExp(`/ship/${id}/map$`));
  const response = await trackAnswer;
  expect(response.status()).toBe(200);
  const track = (await response.json()) as Track;

  // The voyage of the period crosses both kinds of zone (checked here with the zones' own rules).
  const points = track.segments.flatMap((s) => s.points);
  expect(points.length).toBeGreaterThan(100);
  const now = Date.now();
  expect(points.some(([lat, lon]) => isInEca(lat, lon, now))).toBe(true);
  expect(points.some(([lat, lon]) => isInNoDischargeZone(lon, lat, now))).toBe(true);

  // The map: a labelled region, the land drawn, the zones and the track as SVG paths.
  const map = page.getByRole('region', { name: /^Map of Baltic Tern/ });
  await expect(map).toBeVisible();
  await expect(map).toHaveAttribute('data-land', 'drawn');
  await expect(map.locator('path.map-zone-eca').first()).toBeVisible();
  expect(await map.locator('path.map-zone-ndz').count()).toBeGreaterThan(0);
  await expect(map.locator('path.map-track')).toHaveCount(
    track.segments.filter((s) => s.points.length > 1).length +
      track.segments.filter((s) => s.points.length === 1).length,
  );
  // Each drawn stretch has a real path (more than a moveto).
  const lengths = await map
    .locator('path.map-track')
    .evaluateAll((paths) => paths.map((p) => (p as SVGPathElement).getTotalLength()));
  expect(Math.max(...lengths)).toBeGreaterThan(50);

  // The legend names both zone kinds and the track.
  const legend = page.getByTestId('map-legend');
  await expect(legend.getByText('Emission control area (ECA)')).toBeVisible();
  await expect(legend.getByText('No-discharge zone (open loop banned)')).toBeVisible();
  await expect(legend.getByText(/^Track/).first()).toBeVisible();
  await expect(page.getByTestId('track-summary')).toHaveAttribute('data-samples', String(track.samples));

  // As drawn, fitted to the track at each size.
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await still(page);
    await page.screenshot({ path: path.join(SHOTS, `washwater-map-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // A zone's popup says what it bans, since when and on whose word.
  // (Dispatched on the path: the zone's shape decides where a pointer would hit it.)
  await map.locator('path.map-zone-ndz').first().dispatchEvent('click');
  const popup = page.locator('.leaflet-popup-content');
  await expect(popup).toContainText('Bans:');
  await expect(popup).toContainText('In force from');
  await expect(popup).toContainText('Source:');
  await page.locator('.leaflet-popup-close-button').click();
  await expect(popup).toHaveCount(0);

  // The same as text: the track's segments and every zone.
  await page.getByRole('button', { name: 'The map as text' }).click();
  await expect(page.getByTestId('map-track-list-row')).toHaveCount(track.segments.length);
  await expect(page.getByTestId('map-zone-list')).toContainText('Kiel Canal');
  await expect(page.getByTestId('map-zone-list')).toContainText('North Sea');
});

test('the fleet map shows each ship at its last position, linked to its track', async ({ page }) => {
  await signInAs(page, 'north.anna', '/map');
  const map = page.getByRole('region', { name: /^Fleet map/ });
  await expect(map).toHaveAttribute('data-land', 'drawn');
  // north.anna sees North's three ships, each with a position in the period.
  await expect(map.locator('path.map-marker-position')).toHaveCount(3);
  await expect(page.getByTestId('fleet-map-summary')).toContainText('3 of 3 ship(s) with a position');
  await page.getByRole('button', { name: 'The map as text' }).click();
  const row = page.getByTestId('map-marker-list-row').filter({ hasText: 'Baltic Tern' });
  await row.getByRole('link', { name: 'Track of the period' }).click();
  await expect(page).toHaveURL(/\/ship\/[0-9a-f-]{36}\/map$/);
  await expect(page.getByTestId('ship-name')).toHaveText('Baltic Tern');
});

test('the washwater cards of both dashboards show the API numbers, the ship chart with its events as bands', async ({
  page,
}) => {
  const answers = collectReports(page);
  await signInAs(page, 'north.anna');
  await expect(page.getByTestId('fleet-dashboard')).toBeVisible();
  await expect.poll(() => answers.has('FacilityGroupWashwaterCompliance')).toBe(true);

  // The fleet card: the gauge on the fleet's share, a bar per ship of the answer.
  const fleet = answers.get('FacilityGroupWashwaterCompliance')!.data;
  const card = page.getByTestId('card-washwater');
  await expect(card.getByRole('heading', { name: 'Washwater compliance' })).toBeVisible();
  const share = fleet.fields.ActualAverage!.value as number;
  expect(share).toBeGreaterThan(0);
  await expect(page.getByTestId('card-washwater-value')).toHaveAttribute('data-value', String(share));
  await expect(page.getByTestId('card-washwater-gauge')).toHaveAttribute('data-ready', 'true');
  const perShip = fleet.fields.Facilities!.value as { facilityId: string; value: number | null }[];
  const bars = JSON.parse((await page.getByTestId('chart-washwater').getAttribute('data-points'))!) as {
    facilityId: string;
    value: number | null;
  }[];
  expect(bars.map((b) => [b.facilityId, b.value])).toEqual(perShip.map((p) => [p.facilityId, p.value]));
  // A ship without an hour of discharge has no bar, and is named under the chart.
  const without = perShip.filter((p) => p.value === null).length;
  await expect(page.getByTestId('washwater-no-discharge')).toHaveCount(without ? 1 : 0);
  await cardShots(page, 'card-washwater', 'card-washwater-gauge', 'fleet-card');

  // The ship card of Atlantic Meridian (its pH probe drifts low between calibrations).
  const id = await shipId(page, 'Atlantic Meridian');
  answers.clear();
  await page.goto(`/ship/${id}`);
  await expect(page.getByTestId('ship-name')).toHaveText('Atlantic Meridian');
  await expect.poll(() => answers.has('FacilityWashwaterCriteria')).toBe(true);
  await expect.poll(() => answers.has('FacilityWashwaterCompliance')).toBe(true);
  await expect.poll(() => answers.has('FacilityOpenLoopInNoDischargeZoneHours')).toBe(true);
  const compliance = answers.get('FacilityWashwaterCompliance')!.data;
  const criteria = answers.get('FacilityWashwaterCriteria')!.data;
  const hours = answers.get('FacilityOpenLoopInNoDischargeZoneHours')!.data;
  const ship = page.getByTestId('card-ship-washwater');
  await expect(ship.getByRole('heading', { name: 'Washwater' })).toBeVisible();
  for (const [testId, value] of [
    ['ship-washwater-compliance', compliance.fields.ActualAverage!.value],
    ['ship-washwater-ph', criteria.fields.PhWorst!.value],
    ['ship-washwater-pah', criteria.fields.PahWorst!.value],
    ['ship-washwater-turbidity', criteria.fields.TurbidityWorst!.value],
    ['ship-open-loop-ndz', hours.fields.ActualAverage!.value],
  ] as const) {
    expect(value, testId).not.toBeNull();
    await expect(page.getByTestId(testId)).toHaveAttribute('data-value', String(value));
  }
  // The drift shows: not every hour with discharge met every criterion.
  expect(compliance.fields.ActualAverage!.value as number).toBeLessThan(100);

  // The chart: the hourly pH of the answer, and one band per washwater event of the period.
  const series = page.getByTestId('washwater-series');
  await expect(series).toHaveAttribute(
    'data-points',
    String((criteria.fields.PhValues!.value as unknown[]).length),
  );
  await expect(page.getByTestId('washwater-chart')).toHaveAttribute('data-ready', 'true');
  const period = answers.get('FacilityWashwaterCriteria')!;
  const query = new URLSearchParams({ facilityId: id, limit: '500' });
  const body = period.body as { from?: string; to?: string } | null;
  const from = body?.from ?? new URL(period.url).searchParams.get('from')!;
  const to = body?.to ?? new URL(period.url).searchParams.get('to')!;
  query.set('from', from);
  query.set('to', to);
  query.append('type', 'washwater-exceedance');
  query.append('type', 'open-loop-in-no-discharge-zone');
  const events = await page.request.get(`/api/events?${query}`, {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(events.status()).toBe(200);
  const list = (await events.json()) as { items: { channel: string | null; type: string }[] };
  expect(list.items.length).toBeGreaterThan(0);
  await expect(series).toHaveAttribute('data-bands', String(list.items.length));
  await expect(page.getByTestId('washwater-band-legend')).toContainText('Washwater exceedance');
  await cardShots(page, 'card-ship-washwater', 'washwater-chart', 'ship-card');
});

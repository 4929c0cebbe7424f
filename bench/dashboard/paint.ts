/// <reference lib="dom" />
/**
 * The fleet dashboard in a real browser: first contentful paint and the first paint that shows the numbers
 * (every header KPI and the four gauge values filled from the API), with the bytes on the wire until then.
 * Each run is a new browser context (empty HTTP cache) that only carries the signed-in session over: its first
 * load is cold, a second load in a new page of the same context warm (the HTTP cache as the first left it).
 * Profiles: `localhost` (no emulation) and `satellite` (Chromium's network emulation through CDP,
 * Network.emulateNetworkConditions: 2 Mbit/s down, 512 kbit/s up, 600 ms round trip). Also the initial
 * JavaScript (the entry and its preloads from index.html) of the web build the server serves.
 *
 * Run against a running portal with the demo loaded:
 *   BASE_URL=http://localhost:18231 WEB_DIST=apps/web/dist npx tsx bench/dashboard/paint.ts \
 *     [--runs 5] [--profile all|localhost|satellite] [--waterfall] [--screenshots /tmp]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from '@playwright/test';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:18231';
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const runs = Number(arg('--runs') ?? 5);
const profileArg = arg('--profile') ?? 'all';
const screenshots = arg('--screenshots');

function initialJs(dist: string) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let raw = 0;
  let gzip = 0;
  let br = 0;
  for (const f of files) {
    const bytes = readFileSync(path.join(dist, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    // The build's precompressed file, as the server sends it to a browser that accepts brotli.
    const sent = path.join(dist, `${f}.br`);
    br += existsSync(sent) ? readFileSync(sent).length : bytes.length;
  }
  return { files: files.length, rawKb: raw / 1024, gzipKb: gzip / 1024, brKb: br / 1024 };
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto(BASE_URL + '/');
  const accept = page.getByRole('button', { name: /accept/i });
  await accept
    .or(page.getByRole('heading', { name: 'Sign in' }))
    .first()
    .waitFor();
  if (await accept.isVisible()) await accept.click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('fleet-dashboard').waitFor();
}

/**
 * Records, in the page, when every number card shows a value: the first animation frame after that (or 50 ms
 * later at the latest). A string, not a function: tsx would wrap inner functions in a helper the page lacks.
 */
const WATCH_NUMBERS = `(() => {
  const ids = ['kpi-extra-removal-of-sulfur-value', 'kpi-co2-reduction-value', 'kpi-total-co2-emission-value', 'card-marpol-value', 'card-ratio-value', 'card-availability-value', 'card-sfoc-value'];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const check = () => {
    const done = ids.every((id) => {
      const el = document.querySelector('[data-testid="' + id + '"]');
      return el && el.getAttribute('data-value') !== null && el.getAttribute('data-value') !== 'null' && !el.textContent.includes('\u2026');
    });
    if (!done) return void setTimeout(check, 5);
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      window.__numbersPaint = performance.now();
    };
    requestAnimationFrame(record);
    setTimeout(record, 50);
  };
  setTimeout(check, 0);
})();`;

/** Chromium's network emulation of a geostationary satellite link (the profile). */
const SATELLITE = {
  offline: false,
  latency: 600,
  downloadThroughput: (2_000_000 / 8) | 0,
  uploadThroughput: (512_000 / 8) | 0,
};
type Profile = 'satellite' | 'localhost';

interface Load {
  fcp: number;
  numbers: number;
  /** Bytes on the wire (headers and bodies, compressed as sent) until the numbers showed. */
  bytes: number;
  requests: number;
  fromCache: number;
}

/** One load of / in a new page of `context`: the numbers' paint, and what crossed the network until then. */
async function loadOnce(context: BrowserContext, profile: Profile, waterfall: boolean): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // The browser's cache as a browser has it (Playwright's CDP session would otherwise leave it as it is).
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  if (profile === 'satellite') await cdp.send('Network.emulateNetworkConditions', SATELLITE);
  let bytes = 0;
  let requests = 0;
  let fromCache = 0;
  let counting = true;
  cdp.on('Network.responseReceived', (e) => {
    if (!counting) return;
    requests++;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) fromCache++;
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (counting) bytes += e.encodedDataLength;
  });
  await page.goto(BASE_URL + '/');
  await page
    .waitForFunction(
      () => (window as unknown as { __numbersPaint?: number }).__numbersPaint !== undefined,
      undefined,
      { timeout: 60_000 },
    )
    .catch(async (error: unknown) => {
      await page.screenshot({ path: '/tmp/paint-timeout.png' });
      throw error;
    });
  counting = false;
  const r = await page.evaluate(() => {
    const w = window as unknown as { __numbersPaint: number; __fcp?: number };
    return { fcp: w.__fcp ?? NaN, numbers: w.__numbersPaint };
  });
  if (waterfall) {
    const entries = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => ({
        name: e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 70),
        start: Math.round(e.startTime),
        end: Math.round((e as PerformanceResourceTiming).responseEnd),
        size: (e as PerformanceResourceTiming).transferSize,
      })),
    );
    console.error(`-- ${profile}, numbers at ${Math.round(r.numbers)} ms`);
    for (const e of entries.sort((a, b) => a.start - b.start))
      console.error(
        `${String(e.start).padStart(5)} ${String(e.end).padStart(5)} ${String(e.size).padStart(7)} ${e.name}`,
      );
  }
  if (screenshots) {
    for (const [name, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(800);
      await page.screenshot({ path: path.join(screenshots, `fleet-${profile}-${name}.png`), fullPage: true });
    }
  }
  await page.close();
  return { ...r, bytes, requests, fromCache };
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const signedIn = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const first = await signedIn.newPage();
  await signIn(first, 'admin', 'Admin1234');
  const session = await first.evaluate(() => ({
    session: { ...sessionStorage },
    local: { ...localStorage },
  }));
  await signedIn.close();

  const profiles: Profile[] =
    profileArg === 'all'
      ? ['localhost', 'satellite']
      : [profileArg === 'satellite' ? 'satellite' : 'localhost'];
  const results: Record<string, Load[]> = {};
  for (const profile of profiles) {
    for (let i = 0; i < runs; i++) {
      // A new context: an empty HTTP cache that only carries the signed-in session over. Its first load is cold,
      // the second (a new page in the same context, as a browser opening the portal again) warm.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript((s) => {
        if (sessionStorage.length === 0)
          for (const [k, v] of Object.entries(s.session)) sessionStorage.setItem(k, v as string);
        for (const [k, v] of Object.entries(s.local))
          if (localStorage.getItem(k) === null) localStorage.setItem(k, v as string);
      }, session);
      await context.addInitScript(WATCH_NUMBERS);
      const last = process.argv.includes('--waterfall') && i === runs - 1;
      (results[`${profile} cold`] ??= []).push(await loadOnce(context, profile, last));
      (results[`${profile} warm`] ??= []).push(await loadOnce(context, profile, last));
      await context.close();
    }
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const js = process.env.WEB_DIST ? initialJs(process.env.WEB_DIST) : null;
  const summary = Object.entries(results).map(([name, loads]) => ({
    name,
    runs: loads.map((l) => Math.round(l.numbers)),
    fcpMedian: Math.round(median(loads.map((l) => l.fcp))),
    numbersMedian: Math.round(median(loads.map((l) => l.numbers))),
    numbersMax: Math.round(Math.max(...loads.map((l) => l.numbers))),
    kB: Math.round(median(loads.map((l) => l.bytes)) / 1024),
    requests: median(loads.map((l) => l.requests)),
    fromCache: median(loads.map((l) => l.fromCache)),
  }));
  console.log(JSON.stringify({ summary, initialJs: js }));
  console.log();
  console.log(
    '| load | KPI values visible, median ms | slowest ms | first contentful paint, median ms | kB on the wire until then | requests (from cache) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of summary)
    console.log(
      `| ${r.name} | ${r.numbersMedian} | ${r.numbersMax} | ${r.fcpMedian} | ${r.kB} | ${r.requests} (${r.fromCache}) |`,
    );
  if (js)
    console.log(
      `\nInitial JavaScript (the entry and its modulepreloads): ${js.files} files, ${js.rawKb.toFixed(1)} kB raw, ${js.gzipKb.toFixed(1)} kB gzip, ${js.brKb.toFixed(1)} kB brotli as sent.`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

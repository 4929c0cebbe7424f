/// <reference lib="dom" />
/**
 * The fleet dashboard in a real browser: first contentful paint and the first paint that shows the numbers
 * (every header KPI and the four gauge values filled from the API), from a cold load on localhost: a new browser
 * context (empty HTTP cache) that only carries the signed-in session over. Also the initial JavaScript (the
 * entry and its preloads from index.html, gzip) of the web build the server serves.
 *
 * Run against a running portal with the demo loaded:
 *   BASE_URL=http://localhost:18231 WEB_DIST=/path/to/dist npx tsx bench/dashboard/paint.ts [--runs 5] [--screenshots /tmp]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:18231';
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const runs = Number(arg('--runs') ?? 5);
const screenshots = arg('--screenshots');

function initialJs(dist: string) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = readFileSync(path.join(dist, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.length, rawKb: raw / 1024, gzipKb: gzip / 1024 };
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

  const results: { fcp: number; numbers: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((s) => {
      if (sessionStorage.length === 0)
        for (const [k, v] of Object.entries(s.session)) sessionStorage.setItem(k, v as string);
      for (const [k, v] of Object.entries(s.local))
        if (localStorage.getItem(k) === null) localStorage.setItem(k, v as string);
    }, session);
    await context.addInitScript(WATCH_NUMBERS);
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await page
      .waitForFunction(
        () => (window as unknown as { __numbersPaint?: number }).__numbersPaint !== undefined,
        undefined,
        { timeout: 30_000 },
      )
      .catch(async (error: unknown) => {
        await page.screenshot({ path: '/tmp/paint-timeout.png' });
        throw error;
      });
    const r = await page.evaluate(() => {
      const w = window as unknown as { __numbersPaint: number; __fcp?: number };
      return { fcp: w.__fcp ?? NaN, numbers: w.__numbersPaint };
    });
    results.push(r);
    if (process.argv.includes('--waterfall') && i === runs - 1) {
      const entries = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => ({
          name: e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 70),
          start: Math.round(e.startTime),
          end: Math.round((e as PerformanceResourceTiming).responseEnd),
        })),
      );
      for (const e of entries.sort((a, b) => a.start - b.start))
        console.log(`${String(e.start).padStart(5)} ${String(e.end).padStart(5)} ${e.name}`);
    }
    if (screenshots && i === runs - 1) {
      for (const [name, viewport] of [
        ['desktop', { width: 1440, height: 900 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.waitForTimeout(800);
        await page.screenshot({ path: path.join(screenshots, `fleet-${name}.png`), fullPage: true });
      }
    }
    await context.close();
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const js = process.env.WEB_DIST ? initialJs(process.env.WEB_DIST) : null;
  console.log(
    JSON.stringify({
      runs: results.map((r) => ({ fcp: Math.round(r.fcp), numbers: Math.round(r.numbers) })),
      fcpMedian: Math.round(median(results.map((r) => r.fcp))),
      numbersMedian: Math.round(median(results.map((r) => r.numbers))),
      numbersMax: Math.round(Math.max(...results.map((r) => r.numbers))),
      initialJs: js && {
        files: js.files,
        rawKb: Number(js.rawKb.toFixed(1)),
        gzipKb: Number(js.gzipKb.toFixed(1)),
      },
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Download } from '@playwright/test';
import yauzl from 'yauzl';
import type { ComplianceEvent, EventList, EventReport } from '@portal/contracts/events';
import type { InspectionPack } from '@portal/contracts/inspection-packs';
import { eventChart, eventTitle, eventValueText } from '@portal/contracts/rules/event-description';
import { signInAs, still, noSeriousViolations, accessToken } from '../support';

/**
 * Step 1 end to end, as a User of the demo fleet (north.anna): a washwater exceedance reads with its criterion's
 * wording and unit on the events list and its page; its report to the flag State and the port State is written,
 * sent and frozen (the API refuses to change it), then superseded by a revision made with a reason; both PDFs as
 * sent match the SHA-256 on the card. Then the ship's inspection pack of last month is built, downloaded and opened:
 * every file in the zip has the SHA-256 its manifest.csv gives (docs/decisions/0104-sent-reports.md,
 * docs/decisions/0106-inspection-packs.md). The pack's PDF and its first pages as PNG, and screenshots of the event
 * page and the report card at 1440x900 and 390x844, go to e2e/.artifacts/.
 */

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');
const SHOTS = path.join(ARTIFACTS, 'screenshots');
const PACK_DIR = path.join(ARTIFACTS, 'inspection-pack');
const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function downloaded(download: Download): Promise<Buffer> {
  return fs.readFileSync((await download.path())!);
}

/** Every entry of a zip, by name. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i++;
    } else field += c;
  }
  if (field || row.length) endRow();
  return rows;
}

/** The first day of the month before this one (UTC), as the Build dialog offers it. */
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

const hasTool = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

test('a washwater event is reported, frozen and revised, and the inspection pack holds what its manifest says', async ({
  page,
}) => {
  test.setTimeout(360_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(PACK_DIR, { recursive: true });

  // 1. The events list of washwater exceedances whose report is required, as north.anna (User of North).
  await signInAs(page, 'north.anna', '/events?type=washwater-exceedance&report=required');
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  const answer = await page.request.get(
    '/api/events?type=washwater-exceedance&reportRequired=true&limit=500',
    { headers: auth },
  );
  expect(answer.status()).toBe(200);
  const all = ((await answer.json()) as EventList).items;
  const rows = page.getByTestId('event-row');
  await expect(rows.first()).toBeVisible();
  const listed = new Set(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-event-id'))));
  // An event on the list not reported yet; a pH one of last month if there is one (the pack then shows its report).
  const { from, to } = lastMonth();
  const inLastMonth = (e: ComplianceEvent) => e.start.slice(0, 10) >= from && e.start.slice(0, 10) <= to;
  const candidates = all.filter((e) => listed.has(e.id) && e.reportSentOn === null);
  const rank = (e: ComplianceEvent) => (e.channel === 'WASHWATER_PH' ? 0 : 2) + (inLastMonth(e) ? 0 : 1);
  candidates.sort((a, b) => rank(a) - rank(b));
  const event = candidates[0];
  expect(event, 'the demo fleet has a washwater exceedance whose report is still to be sent').toBeDefined();
  const title = eventTitle(event!);
  const value = eventValueText(event!);
  test.info().annotations.push({ type: 'event', description: `${event!.facilityName}: ${title}, ${value}` });
  expect(title).toMatch(/^Washwater exceedance \(/);
  expect(value).not.toContain('SO2/CO2 ratio');
  if (event!.channel === 'WASHWATER_PH') expect(value).toMatch(/^pH \d+\.\d{2} \(minimum \d+\.\d{2}\)$/);

  const row = page.locator(`[data-testid="event-row"][data-event-id="${event!.id}"]`);
  await expect(row.getByTestId('event-link')).toHaveText(title);
  await expect(row.getByTestId('event-value')).toHaveText(value);
  await expect(row).not.toContainText('SO2/CO2 ratio');
  await row.getByTestId('event-link').click();
  await expect(page).toHaveURL(new RegExp(`/events/${event!.id}$`));
  await expect(page.getByTestId('event-title')).toContainText(title);
  await expect(page.getByTestId('fact-worst')).toHaveText(value);
  // The event's own texts name its criterion, never the ratio; its chart draws the discharge pH against its minimum.
  await expect(page.getByTestId('event-facts')).not.toContainText('SO2/CO2 ratio');
  const chart = page.getByTestId('event-chart');
  await expect(chart).toContainText(eventChart(event!).value.label);
  await expect(chart).toContainText(event!.channel === 'WASHWATER_PH' ? 'Minimum' : 'Limit');
  await expect(chart).not.toContainText('SO2/CO2 ratio');
  await expect(chart.locator('canvas')).toBeVisible();
  const timeline = page.getByTestId('event-timeline').getByTestId('timeline-entry').first();
  await expect(timeline).toContainText(value);
  await expect(page.getByTestId('event-timeline')).not.toContainText('SO2/CO2 ratio');

  // 2. The report: drafted from the event with its criterion, written, saved, marked sent; then frozen.
  const card = page.getByTestId('event-report-card');
  await expect(card.getByTestId('report-instrument')).toContainText(value);
  await expect(card.getByTestId('report-instrument')).not.toContainText('SO2/CO2 ratio');
  await card.getByTestId('report-cause').fill('Washwater pH probe drifted low between calibrations');
  await card
    .getByTestId('report-actionsTaken')
    .fill('Probe cleaned and calibrated with pH 4 and pH 7 buffers');
  await card.getByTestId('report-actionsPlanned').fill('Calibration every two weeks instead of monthly');
  await card.getByTestId('report-expectedRepair').fill('Repaired on board the same day');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await card.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(card.getByTestId('report-status')).toHaveText(
    /^Sent on \d{4}\.\d{2}\.\d{2} · SHA-256 [0-9a-f]{64}$/,
  );
  await expect(card.getByTestId('report-cause')).toHaveAttribute('readonly', '');
  await expect(card.getByTestId('report-expectedRepair')).toHaveAttribute('readonly', '');
  await expect(card.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Mark as sent' })).toHaveCount(0);
  // The API refuses a change to the report as sent, whoever asks.
  const sent = (await (
    await page.request.get(`/api/events/${event!.id}/report`, { headers: auth })
  ).json()) as EventReport;
  expect(sent.sentOn).not.toBeNull();
  const refused = await page.request.put(`/api/events/${event!.id}/report`, {
    headers: auth,
    data: {
      shipName: sent.shipName,
      imo: sent.imo,
      position: sent.position,
      start: sent.start,
      duration: sent.duration,
      egcs: sent.egcs,
      instrument: sent.instrument,
      cause: 'Changed after it was sent',
      actionsTaken: sent.actionsTaken,
      actionsPlanned: sent.actionsPlanned,
      expectedRepair: sent.expectedRepair,
    },
  });
  expect(refused.status()).toBe(409);
  await page.reload();
  await expect(card.getByTestId('report-cause')).toHaveValue(
    'Washwater pH probe drifted low between calibrations',
  );

  // 3. A revision with a reason, edited and sent; both PDFs as sent, each with the SHA-256 on the card.
  await card.getByRole('button', { name: 'New revision' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill('The port State asked for the calibration buffers used');
  await dialog.getByRole('button', { name: 'Make revision' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await expect(card.getByTestId('report-status')).toHaveText(
    'Revision 2, superseding revision 1: not sent yet. Edit it and mark it as sent.',
  );
  await card
    .getByTestId('report-actionsTaken')
    .fill('Probe cleaned and calibrated with pH 4.01 and pH 7.00 buffers, then checked against pH 10.01');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await card.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(card.getByTestId('report-status')).toHaveText(
    /^Revision 2 · Sent on \d{4}\.\d{2}\.\d{2} · SHA-256 [0-9a-f]{64}$/,
  );
  const revisions = card.getByTestId('report-revision');
  await expect(revisions).toHaveCount(2);
  const pdfs: Buffer[] = [];
  for (const n of [1, 2]) {
    const revision = card.locator(`[data-testid="report-revision"][data-revision="${n}"]`);
    const shown = /SHA-256 ([0-9a-f]{64})/.exec((await revision.textContent()) ?? '')?.[1];
    expect(shown, `revision ${n} shows its SHA-256`).toBeDefined();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: `Download revision ${n} (PDF)` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`_malfunction_report_revision_${n}\\.pdf$`));
    const pdf = await downloaded(download);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sha256(pdf), `revision ${n}'s PDF is the one whose SHA-256 the card shows`).toBe(shown);
    pdfs.push(pdf);
  }
  expect(sha256(pdfs[0]!)).not.toBe(sha256(pdfs[1]!));
  await expect(revisions.nth(1)).toContainText('The port State asked for the calibration buffers used');
  await expect(card.getByTestId('report-status')).toContainText(sha256(pdfs[1]!));

  // Screenshots of the event page and of the report card, frozen with its revisions; axe on the card.
  // The notifications come one after another: each closed until none is left.
  await expect
    .poll(async () => {
      const shown = page.getByTestId('notification');
      if ((await shown.count()) === 0) return 0;
      await shown
        .getByRole('button', { name: /close/i })
        .click({ timeout: 2000 })
        .catch(() => undefined);
      return shown.count();
    })
    .toBe(0);
  await noSeriousViolations(page, '[data-testid="event-report-card"]');
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await still(page);
    // From the top: the fixed top bar and side bar are drawn where the page is scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `inspection-event-page-${size}.png`), fullPage: true });
    // The card where it lies on the whole page: a card taller than the screen is not under the fixed top bar.
    const box = await card.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    });
    await page.screenshot({
      path: path.join(SHOTS, `inspection-report-card-${size}.png`),
      fullPage: true,
      clip: box,
    });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // 4. The ship's Inspection packs tab: the pack of last month, as the dialog offers it.
  await page.getByRole('link', { name: `Record book of ${event!.facilityName}` }).click();
  await page.getByRole('tab', { name: 'Inspection packs' }).click();
  await expect(page).toHaveURL(new RegExp(`/facilities/${event!.facilityId}/inspection-packs$`));
  await expect(page.getByRole('tab', { name: 'Inspection packs' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('inspection-packs-table')).toBeVisible();
  await noSeriousViolations(page, '[data-testid="inspection-packs-page"]');
  await page.getByRole('button', { name: 'Build inspection pack' }).click();
  const build = page.getByRole('dialog', { name: 'Build inspection pack' });
  await expect(build.getByRole('radio', { name: 'A calendar month' })).toBeChecked();
  const created = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      r.url().endsWith(`/api/facilities/${event!.facilityId}/inspection-packs`),
  );
  await build.getByRole('button', { name: 'Build', exact: true }).click();
  const response = await created;
  expect(response.status()).toBeLessThan(300);
  const pack = (await response.json()) as InspectionPack;
  expect([pack.from, pack.to]).toEqual([from, to]);

  // Ready: the list polled (no fixed wait), on the API and on the page.
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`/api/facilities/${event!.facilityId}/inspection-packs`, {
          headers: auth,
        });
        const found = ((await list.json()) as InspectionPack[]).find((p) => p.id === pack.id);
        if (found?.state === 'failed') throw new Error(`the pack failed: ${found.error}`);
        return found?.state;
      },
      { timeout: 240_000, intervals: [1000, 2000, 3000] },
    )
    .toBe('ready');
  const packRow = page.getByTestId(`inspection-pack-${pack.id}`);
  await expect(packRow.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  const ready = (
    (await (
      await page.request.get(`/api/facilities/${event!.facilityId}/inspection-packs`, { headers: auth })
    ).json()) as InspectionPack[]
  ).find((p) => p.id === pack.id)!;
  await noSeriousViolations(page, '[data-testid="inspection-packs-page"]');
  await page.screenshot({ path: path.join(SHOTS, 'inspection-packs-tab-desktop.png'), fullPage: true });

  const [zipDownload] = await Promise.all([
    page.waitForEvent('download'),
    packRow.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(zipDownload.suggestedFilename()).toBe(ready.fileName);
  const zip = await downloaded(zipDownload);
  expect(zip.length).toBe(ready.zipBytes);
  const entries = await unzip(zip);

  // The manifest: the PDF's row, then one per original, each hash that of the zip's entry.
  const manifest = parseCsv(entries.get('manifest.csv')!.toString('utf8'));
  expect(manifest[0]).toEqual([
    'path',
    'kind',
    'file_name',
    'data_source',
    'uploaded_utc',
    'bytes',
    'sha256',
    'sha256_at_upload',
    'note',
  ]);
  const records = manifest.slice(1).map((r) => Object.fromEntries(manifest[0]!.map((h, i) => [h, r[i]!])));
  const pdfRecords = records.filter((r) => r.kind === 'pdf');
  expect(pdfRecords).toHaveLength(1);
  const packPdf = entries.get(pdfRecords[0]!.path!)!;
  expect(packPdf, 'the PDF the manifest names is in the zip').toBeDefined();
  expect(sha256(packPdf)).toBe(pdfRecords[0]!.sha256);
  expect(sha256(packPdf)).toBe(ready.pdfSha256);
  expect(packPdf.length).toBe(Number(pdfRecords[0]!.bytes));
  const originals = records.filter((r) => r.kind === 'original');
  expect(originals.length, 'the demo ship has logger files in last month').toBeGreaterThan(0);
  expect(originals).toHaveLength(ready.originals!);
  const inZip = [...entries.keys()].filter((name) => name.startsWith('originals/'));
  expect(inZip.sort()).toEqual(originals.map((o) => o.path!).sort());
  const pdfText = (() => {
    fs.writeFileSync(path.join(PACK_DIR, 'pack.pdf'), packPdf);
    return hasTool('pdftotext')
      ? execFileSync('pdftotext', ['-layout', path.join(PACK_DIR, 'pack.pdf'), '-'], { encoding: 'utf8' })
      : null;
  })();
  for (const original of originals) {
    const bytes = entries.get(original.path!)!;
    expect(sha256(bytes), original.path).toBe(original.sha256);
    expect(bytes.length, original.path).toBe(Number(original.bytes));
    // The stored original as the portal recorded it at upload. (The API serves no single original for download:
    // the SHA-256 recorded at upload is the portal's own record of it, and the PDF lists it too.)
    expect(original.sha256_at_upload, original.path).toBe(original.sha256);
    expect(original.note, original.path).not.toContain('differs');
    if (pdfText !== null) expect(pdfText.replace(/\s+/g, ''), original.path).toContain(original.sha256);
  }
  // The pack's PDF lists the event with its revised report.
  if (pdfText !== null && inLastMonth(event!)) expect(pdfText).toContain(sha256(pdfs[1]!).slice(0, 12));

  // 5. qpdf checks the PDF; its first three pages as PNG for a person to look at.
  if (hasTool('qpdf')) {
    const check = spawnSync('qpdf', ['--check', path.join(PACK_DIR, 'pack.pdf')], { encoding: 'utf8' });
    expect(check.status, `qpdf --check: ${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('No syntax or stream encoding errors found');
  } else {
    test
      .info()
      .annotations.push({ type: 'skipped', description: 'qpdf is not installed: qpdf --check not run' });
  }
  if (hasTool('pdftoppm')) {
    for (const f of fs.readdirSync(PACK_DIR).filter((n) => n.endsWith('.png')))
      fs.unlinkSync(path.join(PACK_DIR, f));
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '3', 'pack.pdf', 'page'], {
      cwd: PACK_DIR,
    });
    expect(fs.readdirSync(PACK_DIR).filter((n) => n.endsWith('.png')).length).toBeGreaterThan(0);
  } else {
    test.info().annotations.push({ type: 'skipped', description: 'pdftoppm is not installed: no page PNGs' });
  }
});

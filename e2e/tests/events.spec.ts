import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signInAs, noViolations, accessToken } from '../support';

const SCREENSHOTS = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '.artifacts',
  'screenshots',
);

/**
 * Compliance events on the demo fleet (issue 18): a crew member who may upload to the ship acknowledges the open
 * malfunction that needs a report, an administrator closes it and downloads its report to the flag State, and the
 * ship's record book shows each step and still verifies.
 */
test('a malfunction is acknowledged, closed and reported, each step in the verified record book', async ({
  page,
  browser,
}) => {
  // south.lee (User) may upload to Gulf Horizon, the demo ship whose scrubber fails once a voyage.
  await signInAs(page, 'south.lee', '/events?state=open&classification=malfunction&report=required');
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  const first = page.getByTestId('event-row').first();
  await expect(first.getByTestId('event-report')).toHaveText('Report required');
  await first.getByTestId('event-link').click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}$/);
  const eventUrl = new URL(page.url()).pathname;
  const eventId = eventUrl.split('/').pop()!;
  await expect(page.getByTestId('event-title')).toHaveText('Scrubber off while required');
  await expect(page.getByTestId('event-state')).toHaveText('Open');

  // The form says what it needs; a User has no Close.
  const annotation = page.getByTestId('event-annotation');
  await annotation.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(annotation.getByText('Choose a cause')).toBeVisible();
  await expect(annotation.getByText('Describe the actions taken')).toBeVisible();
  await expect(annotation.getByRole('button', { name: 'Close event' })).toHaveCount(0);
  await annotation.getByTestId('event-cause').click();
  await page.getByRole('option', { name: 'Scrubber equipment' }).click();
  await annotation.getByLabel('Actions taken').fill('Circulation pump 1 restarted after its breaker tripped');
  await annotation.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await expect(page.getByTestId('event-state')).toHaveText('Acknowledged');
  // The report draft takes the acknowledgement.
  await expect(page.getByTestId('report-actionsTaken')).toHaveValue(
    'Circulation pump 1 restarted after its breaker tripped',
  );
  // Changed with a comment: a second revision, the first kept below it.
  await annotation.getByLabel('Comment').fill('Breaker found worn');
  await annotation.getByRole('button', { name: 'Save' }).click();
  const revisions = page.getByTestId('annotation-history').getByTestId('annotation-revision');
  await expect(revisions).toHaveCount(2);
  await expect(revisions.first()).toContainText('Revision 2 (current)');
  await expect(revisions.first()).toContainText('by south.lee on');
  await expect(revisions.first()).toContainText('Comment changed');
  await expect(revisions.first()).toContainText('Breaker found worn');
  await expect(revisions.nth(1)).toContainText('Revision 1');
  await expect(revisions.nth(1)).not.toContainText('Comment:');
  await page.getByTestId('annotation-history').screenshot({
    path: path.join(SCREENSHOTS, 'event-annotation-history.png'),
  });

  // The organization's administrator closes it and downloads the report to the flag State.
  const admin = await browser.newPage();
  await signInAs(admin, 'south.admin', eventUrl);
  const adminAnnotation = admin.getByTestId('event-annotation');
  await adminAnnotation.getByRole('button', { name: 'Close event' }).click();
  await admin.getByRole('dialog').getByLabel('Comment').fill('Breaker replaced; scrubber tested at sea');
  await admin.getByRole('dialog').getByRole('button', { name: 'Close event' }).click();
  await expect(admin.getByTestId('notification')).toHaveText('Changes were saved');
  await expect(admin.getByTestId('event-state')).toHaveText('Closed');
  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: 'Download (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Gulf_Horizon_\d{4}-\d{2}-\d{2}_malfunction_report\.pdf$/);

  // The ship's record book: the event, its acknowledgement and its closure, and the chain verifies.
  await admin.getByRole('link', { name: 'Record book of Gulf Horizon' }).click();
  await expect(admin.getByRole('tab', { name: 'Record book' })).toHaveAttribute('aria-selected', 'true');
  const entry = (kind: string) =>
    admin.locator(`[data-testid="record-book-row"][data-event-id="${eventId}"][data-kind="${kind}"]`);
  await expect(entry('event')).toHaveCount(1);
  await expect(entry('event-acknowledged')).toHaveCount(2);
  await expect(entry('event-acknowledged').filter({ hasText: 'Circulation pump 1 restarted' })).toHaveCount(
    2,
  );
  await expect(entry('event-acknowledged').filter({ hasText: 'Breaker found worn' })).toHaveCount(1);
  await expect(entry('event-closed')).toContainText('Breaker replaced; scrubber tested at sea');
  await admin.getByRole('button', { name: 'Verify' }).click();
  await expect(admin.getByTestId('verify-result')).toHaveText(/^Record book verified: \d+ entries$/);
  await admin.close();
});

/**
 * A fuel change-over in the record book (DOMAIN.md: "scrubber off while required" is a non-compliance unless a
 * change-over to compliant fuel is recorded): the form asks for the sulfur content of the fuel changed over to, and
 * the entry shows it. Its time is now, after the ship's data: nothing is derived again.
 */
test('a fuel change-over entry asks for the fuel sulfur from then on, and the record book shows it', async ({
  page,
}) => {
  await signInAs(page, 'south.admin', '/events?classification=malfunction');
  await page.getByTestId('event-row').first().getByTestId('event-link').click();
  await page.getByRole('link', { name: /^Record book of / }).click();
  await expect(page.getByRole('tab', { name: 'Record book' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('entry-fuel-sulfur')).toHaveCount(0);
  await dialog.getByTestId('entry-kind').click();
  await page.getByRole('option', { name: 'Fuel change-over' }).click();
  await dialog.getByTestId('entry-text').fill('Changed over to MGO before the ECA');
  await dialog.getByRole('button', { name: 'Add entry' }).click();
  await expect(dialog.getByText('Provide the sulfur content of the fuel changed over to')).toBeVisible();
  await noViolations(page, '[role="dialog"]');
  await dialog.screenshot({ path: `${SCREENSHOTS}/fuel-change-over-entry-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.screenshot({ path: `${SCREENSHOTS}/fuel-change-over-entry-phone.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByTestId('entry-fuel-sulfur').fill('0.08');
  await dialog.getByRole('button', { name: 'Add entry' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await expect(
    page.locator('[data-testid="record-book-row"][data-kind="fuel-change-over"]').last(),
  ).toContainText('Changed over to MGO before the ECA (fuel of 0.08 % m/m sulfur from then on)');
});

/**
 * What was sent stays as it was sent (docs/decisions/0104-sent-reports.md): the demo's reported scrubber stop shows
 * its report frozen with the SHA-256 of the PDF as sent; a new revision, made with a reason, is edited and sent like
 * the first, and both PDFs stay downloadable.
 */
test('a sent report is frozen, and a new revision made with a reason supersedes it', async ({ page }) => {
  await signInAs(page, 'admin', '/events');
  const token = await accessToken(page);
  const list = await page.request.get('/api/events?reportRequired=true&limit=200', {
    headers: { authorization: `Bearer ${token}` },
  });
  const reported = (
    (await list.json()) as { items: { id: string; reportSentOn: string | null }[] }
  ).items.find((e) => e.reportSentOn !== null);
  expect(reported, 'the demo reports its latest scrubber stop').toBeDefined();
  await page.goto(`/events/${reported!.id}`);

  const card = page.getByTestId('event-report-card');
  await expect(card.getByTestId('report-status')).toHaveText(
    /^Sent on \d{4}\.\d{2}\.\d{2} · SHA-256 [0-9a-f]{64}$/,
  );
  await expect(card.getByTestId('report-expectedRepair')).toHaveAttribute('readonly', '');
  await expect(card.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Mark as sent' })).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SCREENSHOTS}/report-sent-desktop.png` });

  await card.getByRole('button', { name: 'New revision' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Make revision' }).click();
  await expect(dialog.getByText('Say why the report is revised')).toBeVisible();
  await noViolations(page, '[role="dialog"]');
  await dialog.getByLabel('Reason').fill('The flag State asked for the date of the repair');
  await dialog.getByRole('button', { name: 'Make revision' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await expect(card.getByTestId('report-status')).toHaveText(
    'Revision 2, superseding revision 1: not sent yet. Edit it and mark it as sent.',
  );
  await card
    .getByTestId('report-expectedRepair')
    .fill('Repaired at the next port call, pump tested under load');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('notification')).toHaveText('Changes were saved');
  await card.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(card.getByTestId('report-status')).toHaveText(
    /^Revision 2 · Sent on \d{4}\.\d{2}\.\d{2} · SHA-256 [0-9a-f]{64}$/,
  );
  const revisions = card.getByTestId('report-revision');
  await expect(revisions).toHaveCount(2);
  await expect(revisions.nth(1)).toContainText('The flag State asked for the date of the repair');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download revision 2 (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/_malfunction_report_revision_2\.pdf$/);
  await card.screenshot({ path: `${SCREENSHOTS}/report-revision-2-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await card.screenshot({ path: `${SCREENSHOTS}/report-revision-2-phone.png` });
});

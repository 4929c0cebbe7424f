import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { MESSAGES } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import FilesPage from './FilesPage';

const DATA_SOURCE = {
  id: 'ds1',
  name: 'EGCS_Logger_CSV',
  channels: [],
  dataSourceReaderAcceptedFileExtensionsByComma: '.csv',
};
const FILE = {
  id: 'f1',
  fileName: 'day.csv',
  timeStampMin: '2025-03-08T00:00:00.000Z',
  timeStampMax: '2025-03-08T23:59:00.000Z',
  importedOn: '2025-03-10T08:00:00.000Z',
  rowCount: 1440,
  byteSize: 1000,
  warnings: [],
};
let filesAnswer: 'fail' | 'ok' = 'fail';
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const url = String(input);
  if (url.includes('/facilitydatasource/ds1/file'))
    return filesAnswer === 'fail'
      ? Response.json({ message: 'Database unavailable', code: 'INTERNAL' }, { status: 500 })
      : Response.json([FILE]);
  if (url.includes('/facility/ship-1/datasource')) return Response.json([DATA_SOURCE]);
  return Response.json({ items: [], failed: [] });
});

function renderPage() {
  renderWithProviders(
    <Routes>
      <Route path="/facilities/:facilityId/files" element={<FilesPage />} />
    </Routes>,
    { route: '/facilities/ship-1/files', fleet: { facilities: [] } },
  );
}

beforeEach(() => {
  filesAnswer = 'fail';
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('FilesPage', () => {
  it('shows a failed file listing with the default error notification, not an alert on the page', async () => {
    renderPage();
    const notification = await screen.findByTestId('notification', undefined, { timeout: 5_000 });
    expect(notification.textContent).toBe(MESSAGES.DEFAULT_ERROR);
    // The only alert is the notification's; the table says it has no list rather than "No files yet".
    expect(screen.getAllByRole('alert')).toEqual([notification]);
    const table = screen.getByTestId('files-EGCS_Logger_CSV');
    expect(within(table).getByText(/The files could not be listed/)).toBeTruthy();
    expect(within(table).queryByText('No files yet.')).toBeNull();

    // Try again lists them once the server answers.
    filesAnswer = 'ok';
    fireEvent.click(within(table).getByRole('button', { name: 'Try again' }));
    expect(await within(table).findByText('day.csv')).toBeTruthy();
    expect(within(table).queryByText(/could not be listed/)).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { DataSource } from '@portal/contracts/datasources';
import { MESSAGES } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { UploadDialog } from './UploadDialog';

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
let execution: { id: string; joined: boolean } | null = null;
const requests: { method: string; url: string }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  requests.push({ method, url });
  const body =
    method === 'POST'
      ? { ids: ['f1'], errorMessages: [], warnings: [], execution }
      : url.includes('/file')
        ? [FILE]
        : { items: [] };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

const DATA_SOURCES = [
  { id: 'ds1', name: 'Logger', dataSourceReaderAcceptedFileExtensionsByComma: '.csv' },
] as unknown as DataSource[];
const followed: string[] = [];

function renderDialog() {
  renderWithProviders(
    <UploadDialog
      facilityId="ship-1"
      dataSources={DATA_SOURCES}
      onClose={() => undefined}
      onQueued={(id) => followed.push(id)}
    />,
  );
  fireEvent.change(screen.getByTestId('upload-file-input'), {
    target: { files: [new File(['Timestamp,SO2\n'], 'day.csv')] },
  });
}

const uploads = () => requests.filter((r) => r.method === 'POST');

beforeEach(() => {
  requests.length = 0;
  followed.length = 0;
  execution = null;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UploadDialog', () => {
  it('runs for the uploaded files unless unticked: the upload queues the execution, which the files screen follows', async () => {
    execution = { id: 'e1', joined: false };
    renderDialog();
    const box = screen.getByLabelText('Run for the uploaded files') as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await screen.findByText(MESSAGES.EXECUTION_SUCCESS);
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]!.url).not.toContain('execute=');
    expect(followed).toEqual(['e1']);
    // No Run offer: the execution is queued already.
    expect(screen.queryByTestId('run-panel')).toBeNull();
  });

  it('says when the upload joined the execution waiting for the ship', async () => {
    execution = { id: 'e0', joined: true };
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await screen.findByText(
      'Added to the calculation already queued for this ship: it runs once for all the files uploaded meanwhile.',
    );
    expect(followed).toEqual(['e0']);
  });

  it('sends execute=false when unticked, and offers Run for the uploaded files instead', async () => {
    renderDialog();
    fireEvent.click(screen.getByLabelText('Run for the uploaded files'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await screen.findByText('1 file(s) imported');
    expect(uploads()[0]!.url).toContain('execute=false');
    await waitFor(() => expect(screen.getByTestId('run-panel')).toBeTruthy());
    expect(screen.queryByTestId('upload-execution')).toBeNull();
    expect(followed).toEqual([]);
  });
});

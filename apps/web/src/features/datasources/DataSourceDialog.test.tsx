import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { DataSourceReader, ReaderPreview, ReaderPreviewBody } from '@portal/contracts/datasources';
import { DEFAULT_DELIMITED_CONFIGURATION, READER_IDS } from '@portal/contracts/readers';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { DataSourceDialog } from './DataSourceDialog';

const READERS: DataSourceReader[] = [
  {
    id: READER_IDS.delimited,
    name: 'Delimited text (CSV)',
    defaultConfiguration: JSON.stringify(DEFAULT_DELIMITED_CONFIGURATION),
    acceptedFileExtensions: ['.csv', '.txt'],
    acceptedFileExtensionsByComma: '.csv,.txt',
  },
];

const SAMPLE = 'sample.csv';
const HEADER = ['Date', 'Time', 'SO2'];

/**
 * The preview as the server answers it: the sample's header and first rows; none of either while a timestamp column
 * is not named yet (the configuration's schema refuses an empty name: the time column after the date column).
 */
function previewOf(request: ReaderPreviewBody): ReaderPreview {
  const columns = (JSON.parse(request.dataSourceReaderConfiguration) as { timestampColumns: string[] })
    .timestampColumns;
  if (columns.some((c) => c === ''))
    return {
      fileName: SAMPLE,
      header: [],
      channels: [],
      rows: [],
      errors: ['Name the timestamp column'],
      file: null,
    };
  return {
    fileName: SAMPLE,
    header: HEADER,
    channels: [{ name: 'SO2', unit: null, description: null }],
    rows: [
      { row: 2, timestampText: '2025-03-08 00:00:00', timestamp: '2025-03-08T00:00:00.000Z', values: [12.5] },
      { row: 3, timestampText: '2025-03-08 00:01:00', timestamp: '2025-03-08T00:01:00.000Z', values: [12.7] },
    ],
    errors: [],
    file: null,
  };
}

/** The preview requests sent, in order. */
const previews: ReaderPreviewBody[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  let body: unknown;
  if (url.endsWith('/algorithm/datasourcereader')) body = READERS;
  else if (url.endsWith('/algorithm/facility/ship-1/datasource/preview/file')) {
    const request = JSON.parse(String((init!.body as FormData).get('request'))) as ReaderPreviewBody;
    previews.push(request);
    body = previewOf(request);
  } else return new Response(JSON.stringify({ message: `Not stubbed: ${url}` }), { status: 404 });
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

/** A preview is asked for a moment after the last change (PREVIEW_DEBOUNCE_MS), then read: a wait for its answer. */
const PREVIEW_WAIT = { timeout: 5_000 };

/** The names offered by the open list; none when no list opened (an empty list of a free text field does not). */
const optionNames = () => {
  const list = screen.queryByRole('listbox');
  return list
    ? within(list)
        .queryAllByRole('option')
        .map((o) => o.textContent)
    : [];
};

beforeEach(() => {
  previews.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DataSourceDialog', () => {
  it("still offers the sample's columns for the time column after the date column is chosen, when that preview reads no rows", async () => {
    renderWithProviders(<DataSourceDialog facilityId="ship-1" isFirst onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Add data source' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /^Reader/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Delimited text (CSV)' }));
    fireEvent.change(within(dialog).getByLabelText('Choose sample file'), {
      target: { files: [new File(['Date,Time,SO2\n2025-03-08,00:00:00,12.5\n'], SAMPLE)] },
    });
    // The first preview reads the sample's rows and header.
    await within(dialog).findByRole('region', { name: `First rows of ${SAMPLE}` }, PREVIEW_WAIT);
    const form = within(within(dialog).getByRole('group', { name: 'Parser configuration' }));

    // Two timestamp columns, the date column chosen from the sample's header.
    fireEvent.click(form.getByRole('switch', { name: 'Date and time in two columns' }));
    fireEvent.mouseDown(form.getByRole('combobox', { name: /^Date column/ }));
    expect(optionNames()).toEqual(HEADER);
    fireEvent.click(screen.getByRole('option', { name: 'Date' }));

    // The preview of Date and no time column yet reads nothing (no rows, no header).
    await within(dialog).findByText(`No rows read from ${SAMPLE}.`, undefined, PREVIEW_WAIT);
    expect(JSON.parse(previews.at(-1)!.dataSourceReaderConfiguration)).toMatchObject({
      timestampColumns: ['Date', ''],
    });

    // The time column is still chosen from the sample's columns.
    const timeColumn = form.getByRole('combobox', { name: /^Time column/ });
    fireEvent.mouseDown(timeColumn);
    expect(optionNames()).toEqual(HEADER);
    fireEvent.click(screen.getByRole('option', { name: 'Time' }));
    expect(timeColumn).toHaveProperty('value', 'Time');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Advanced' }));
    const json = within(dialog).getByLabelText('Parser configuration (JSON)') as HTMLTextAreaElement;
    expect(JSON.parse(json.value)).toMatchObject({ timestampColumns: ['Date', 'Time'] });
    // The next preview reads the sample with both columns.
    await within(dialog).findByRole('region', { name: `First rows of ${SAMPLE}` }, PREVIEW_WAIT);
    expect(JSON.parse(previews.at(-1)!.dataSourceReaderConfiguration)).toMatchObject({
      timestampColumns: ['Date', 'Time'],
    });
  });
});

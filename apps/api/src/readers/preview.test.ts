import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIMITED_CONFIGURATION, DEFAULT_XLSX_CONFIGURATION } from '@portal/contracts/readers';
import { previewDataFile } from './preview';

const file = (text: string) => ({ fileName: 'log.csv', content: Buffer.from(text, 'utf8') });
const csv = (configuration: Record<string, unknown> = {}) => ({
  readerId: 'delimited-text',
  configuration: { ...DEFAULT_DELIMITED_CONFIGURATION, ...configuration },
});
const utc0 = { utcTimezoneOffsetInMinutes: 0 };

describe('reader preview', () => {
  it('shows the header, units and the first rows with the timestamps read and the values', async () => {
    const text = [
      'Date;Time;SO2 Outlet;Running;Note',
      ';;ppm;;',
      '01.03.2026;10:00:00;12,5;1;ok',
      '01.03.2026;10:00:10;;0;N/A',
      ...Array.from(
        { length: 30 },
        (_, i) =>
          `01.03.2026;10:0${Math.floor((20 + i * 10) / 60)}:${String((20 + i * 10) % 60).padStart(2, '0')};1;1;x`,
      ),
    ].join('\n');
    const preview = await previewDataFile(
      file(text),
      csv({
        delimiter: ';',
        decimalSeparator: ',',
        unitRow: 2,
        firstDataRow: 3,
        timestampColumns: ['Date', 'Time'],
        timestampFormat: 'DD.MM.YYYY HH:mm:ss',
      }),
      { utcTimezoneOffsetInMinutes: 60 },
    );
    expect(preview.header).toEqual(['Date', 'Time', 'SO2 Outlet', 'Running', 'Note']);
    expect(preview.channels).toEqual([
      { name: 'SO2 Outlet', unit: 'ppm', description: null },
      { name: 'Running', unit: null, description: null },
      { name: 'Note', unit: null, description: null },
    ]);
    expect(preview.rows).toHaveLength(20);
    expect(preview.rows.slice(0, 2)).toEqual([
      {
        row: 3,
        timestampText: '01.03.2026 10:00:00',
        timestamp: '2026-03-01T09:00:00.000Z',
        values: [12.5, 1, 'ok'],
      },
      {
        row: 4,
        timestampText: '01.03.2026 10:00:10',
        timestamp: '2026-03-01T09:00:10.000Z',
        values: [null, 0, null],
      },
    ]);
    expect(preview.errors).toEqual([]);
    expect(preview.file).toEqual({
      rowCount: 32,
      timeStampMin: '2026-03-01T09:00:00.000Z',
      timeStampMax: '2026-03-01T09:05:10.000Z',
    });
  });

  it('says per row what does not match, and goes on with the next rows', async () => {
    const preview = await previewDataFile(
      file('Timestamp,A\n01.03.2026 10:00:00,1\n2026-13-01,2\n01.03.2026 10:00:20,3,4\n'),
      csv({ timestampFormat: 'DD.MM.YYYY HH:mm:ss' }),
      utc0,
    );
    expect(preview.rows.map((r) => r.timestamp)).toEqual([
      '2026-03-01T10:00:00.000Z',
      null,
      '2026-03-01T10:00:20.000Z',
    ]);
    expect(preview.errors).toEqual([
      'Row 4 has 3 values, but the header (row 1) has 2 columns.',
      "Row 3: the timestamp '2026-13-01' does not match DD.MM.YYYY HH:mm:ss.",
    ]);
    expect(preview.file).toBeNull();
  });

  it('still shows the header when the timestamp column is not in it, so that it can be chosen', async () => {
    const preview = await previewDataFile(file('Zeit\tA\n1772359200\t1\n'), csv({ delimiter: '\t' }), utc0);
    expect(preview.header).toEqual(['Zeit', 'A']);
    expect(preview.errors[0]).toMatch(/^The timestamp column 'Timestamp' is not in the header \(row 1\)/);
    const chosen = await previewDataFile(
      file('Zeit\tA\n1772359200\t1\n'),
      csv({ delimiter: '\t', timestampColumns: ['Zeit'], timestampFormat: 'UNIX_S' }),
      utc0,
    );
    expect(chosen.rows[0]).toMatchObject({ timestamp: '2026-03-01T10:00:00.000Z', values: [1] });
    expect(chosen.errors).toEqual([]);
  });

  it('reports a mistake past the first rows from reading the whole file', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `2026-03-01T10:${String(i).padStart(2, '0')}:00,${i}`);
    rows[25] = '2026-03-01T10:25:00,ERR';
    const preview = await previewDataFile(file(['Timestamp,A', ...rows].join('\n')), csv(), utc0);
    expect(preview.rows).toHaveLength(20);
    expect(preview.errors).toEqual([
      "Row 27, column 'A': 'ERR' is not a number, but the column holds numbers. Leave the cell empty (or write NaN) for a missing value.",
    ]);
  });

  it('answers the mistakes of a configuration, an unknown reader and an empty file', async () => {
    expect((await previewDataFile(file('x'), csv({ headerRow: 0 }), utc0)).errors).toEqual([
      'The parser configuration is not valid: headerRow: Rows are counted from 1.',
    ]);
    expect((await previewDataFile(file('x'), { readerId: 'pdf', configuration: {} }, utc0)).errors).toEqual([
      "Unknown data source reader 'pdf'.",
    ]);
    expect((await previewDataFile(file(''), csv(), utc0)).errors).toEqual(['The file is empty.']);
  });

  it('reads a workbook sheet: date cells, numbers and texts', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Log');
    ws.addRow(['Timestamp', 'Load', 'Mode']);
    ws.addRow([new Date(Date.UTC(2026, 2, 1, 10)), 80.5, 'open']);
    ws.addRow(['not a date', 81, 'closed']);
    const preview = await previewDataFile(
      { fileName: 'log.xlsx', content: Buffer.from(await wb.xlsx.writeBuffer()) },
      { readerId: 'excel-workbook', configuration: { ...DEFAULT_XLSX_CONFIGURATION, sheet: 'Log' } },
      { utcTimezoneOffsetInMinutes: 60 },
    );
    expect(preview.rows).toEqual([
      {
        row: 2,
        timestampText: '2026-03-01 10:00:00',
        timestamp: '2026-03-01T09:00:00.000Z',
        values: [80.5, 'open'],
      },
      { row: 3, timestampText: 'not a date', timestamp: null, values: [81, 'closed'] },
    ]);
    expect(preview.errors).toEqual([
      "Row 3: the timestamp 'not a date' does not match an Excel date number (e.g. 46053.5729).",
    ]);
  });
});

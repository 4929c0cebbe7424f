import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DELIMITED_CONFIGURATION,
  DEFAULT_XLSX_CONFIGURATION,
  type DelimitedReaderConfiguration,
  type XlsxReaderConfiguration,
} from '@portal/contracts/readers';
import { ReaderError, parseDataFile, type ParsedDataFile } from './index';

const csv = (configuration: Partial<DelimitedReaderConfiguration> = {}) => ({
  readerId: 'delimited-text',
  configuration: { ...DEFAULT_DELIMITED_CONFIGURATION, ...configuration },
});

async function parseCsv(
  text: string | Buffer,
  configuration: Partial<DelimitedReaderConfiguration> = {},
  offset = 0,
  extra = {},
): Promise<ParsedDataFile> {
  const content = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return parseDataFile({ fileName: 'log.csv', content }, csv(configuration), {
    utcTimezoneOffsetInMinutes: offset,
    ...extra,
  });
}

async function readerError(promise: Promise<unknown>): Promise<ReaderError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ReaderError) return err;
    throw err;
  }
  throw new Error('expected the file to be rejected');
}

const utc = (s: string) => Date.parse(`${s}Z`);
const channel = (p: ParsedDataFile, name: string) => {
  const ch = p.channels.find((c) => c.channel === name);
  if (!ch) throw new Error(`no channel ${name}`);
  return ch;
};

describe('delimited text: files that are read', () => {
  it('reads every plain number as the double parseFloat gives, whatever its decimals, sign or size (the codes of readers/columns.ts)', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    // Per column: decimals that vary from cell to cell and grow late in the file, negatives and -0, missing cells,
    // 15-digit mantissas (codes past 2^53 once scaled: the column turns to values), words and exponents.
    const makers: ((row: number) => string)[] = [
      () => (random() * 1000).toFixed(Math.floor(random() * 4)),
      (row) => (row < 900 ? String(Math.round(random() * 100)) : (random() * 100 - 50).toFixed(6)),
      (row) => (row % 5 === 0 ? '' : row % 7 === 0 ? '-0.00' : (random() * 20 - 10).toFixed(2)),
      (row) => (row === 500 ? '123456789012345' : (random() * 10).toFixed(3)),
      (row) => (row === 700 ? '1.5e3' : (random() * 10).toFixed(1)),
      (row) => (row % 3 === 0 ? '12.50' : '7.25'),
    ];
    const lines = ['Timestamp,A,B,C,D,E,F'];
    const cells: string[][] = [];
    for (let row = 0; row < 1000; row++) {
      const rowCells = makers.map((make) => make(row));
      cells.push(rowCells);
      lines.push(
        [
          new Date(Date.UTC(2026, 2, 1) + row * 1000).toISOString().slice(0, 19).replace('T', ' '),
          ...rowCells,
        ].join(','),
      );
    }
    const p = await parseCsv(lines.join('\n'));
    makers.forEach((_, c) => {
      const values = p.channels[c]!.values;
      for (let row = 0; row < 1000; row++) {
        const text = cells[row]![c]!;
        const expected = text === '' ? NaN : Number.parseFloat(text);
        if (!Object.is(values[row], expected))
          throw new Error(`column ${c}, row ${row}: ${text} read as ${values[row]}`);
      }
    });
    // Columns of plain numbers keep their codes for the storage; the one with an exponent holds values.
    expect(p.channels.map((ch) => ch.codes !== undefined)).toEqual([true, true, true, false, false, true]);
    expect(p.channels[5]!.codes!.decimals).toBe(2);
  });

  it('reads a comma separated file with a decimal point into UTC columns', async () => {
    const p = await parseCsv(
      'Timestamp,SO2,Pumps,Valve\n2026-03-01 10:00:00,12.5,3,on\n2026-03-01 10:00:10,-0.25,4,off\n2026-03-01 10:00:20,,5,true\n',
    );
    expect(p.rowCount).toBe(3);
    expect(Array.from(p.timestamps)).toEqual([
      utc('2026-03-01T10:00:00'),
      utc('2026-03-01T10:00:10'),
      utc('2026-03-01T10:00:20'),
    ]);
    expect(p.timeStampMin).toEqual(new Date(utc('2026-03-01T10:00:00')));
    expect(p.timeStampMax).toEqual(new Date(utc('2026-03-01T10:00:20')));
    expect(p.channels.map((c) => [c.channel, c.dataType])).toEqual([
      ['SO2', 'Double'],
      ['Pumps', 'Integer'],
      ['Valve', 'Boolean'],
    ]);
    expect(Array.from(channel(p, 'SO2').values)).toEqual([12.5, -0.25, NaN]);
    expect(Array.from(channel(p, 'Valve').values)).toEqual([1, 0, 1]);
  });

  it('reads ; with decimal comma, a unit and a description row and separate date and time columns', async () => {
    const text = [
      'Date;Time;Exhaust temp;SO2/CO2',
      ';;°C;ppm/%',
      ';;Temperature after scrubber;Emission ratio',
      '01.03.2026;23:59:50;251,5;4,12',
      '02.03.2026;00:00:00;249;1,5',
      '',
    ].join('\r\n');
    const p = await parseCsv(text, {
      delimiter: ';',
      decimalSeparator: ',',
      headerRow: 1,
      unitRow: 2,
      descriptionRow: 3,
      firstDataRow: 4,
      timestampColumns: ['Date', 'Time'],
      timestampFormat: 'DD.MM.YYYY HH:mm:ss',
    });
    expect(Array.from(p.timestamps)).toEqual([utc('2026-03-01T23:59:50'), utc('2026-03-02T00:00:00')]);
    expect(p.channels).toMatchObject([
      { channel: 'Exhaust temp', unit: '°C', description: 'Temperature after scrubber', dataType: 'Double' },
      { channel: 'SO2/CO2', unit: 'ppm/%', description: 'Emission ratio', dataType: 'Double' },
    ]);
    expect(Array.from(channel(p, 'Exhaust temp').values)).toEqual([251.5, 249]);
    expect(Array.from(channel(p, 'SO2/CO2').values)).toEqual([4.12, 1.5]);
  });

  it('reads quoted fields with delimiters, quotes and line breaks inside (RFC 4180)', async () => {
    const text =
      'Timestamp,Note,Load\n"2026-03-01 10:00:00", "pump 1, ""main""",  "12.5"\n2026-03-01 10:01:00,"two\nlines",13\n';
    const p = await parseCsv(text);
    expect(channel(p, 'Note').dataType).toBe('String');
    expect(channel(p, 'Note').texts).toEqual(['pump 1, "main"', 'two\nlines']);
    expect(Array.from(channel(p, 'Load').values)).toEqual([12.5, 13]);
  });

  it('decodes latin1 and utf-16le files and strips a UTF-8 byte order mark', async () => {
    const text = 'Timestamp;Öltemperatur\n2026-03-01 10:00:00;55\n';
    const latin1 = await parseCsv(Buffer.from(text.replace('Timestamp;Öl', 'Timestamp;Öl'), 'latin1'), {
      delimiter: ';',
      encoding: 'latin1',
    });
    expect(latin1.channels[0]!.channel).toBe('Öltemperatur');
    const utf16 = await parseCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), {
      delimiter: ';',
      encoding: 'utf-16le',
    });
    expect(utf16.channels[0]!.channel).toBe('Öltemperatur');
    expect(Array.from(utf16.channels[0]!.values)).toEqual([55]);
    const bom = await parseCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), {
      delimiter: ';',
    });
    expect(bom.timestamps[0]).toBe(utc('2026-03-01T10:00:00'));
  });

  it('turns the logger clock into UTC with the data source offset (local = UTC + offset)', async () => {
    const text = 'Timestamp,A\n2026-03-01 10:00:00,1\n';
    expect((await parseCsv(text, {}, 120)).timestamps[0]).toBe(utc('2026-03-01T08:00:00'));
    expect((await parseCsv(text, {}, -300)).timestamps[0]).toBe(utc('2026-03-01T15:00:00'));
  });

  it('lets a zone written in an ISO timestamp win over the offset, and reads Excel serial numbers', async () => {
    const iso = await parseCsv(
      'Timestamp,A\n2026-03-01T10:00:00+01:00,1\n2026-03-01T10:00:00.5,2\n',
      { timestampFormat: 'ISO' },
      60,
    );
    expect(Array.from(iso.timestamps)).toEqual([utc('2026-03-01T09:00:00'), utc('2026-03-01T09:00:00.500')]);
    const excel = await parseCsv('Timestamp;A\n46082,5;1\n', {
      delimiter: ';',
      decimalSeparator: ',',
      timestampFormat: 'EXCEL',
    });
    expect(excel.timestamps[0]).toBe(utc('2026-03-01T12:00:00'));
  });

  it('reads Unix seconds and milliseconds as UTC, whatever the data source offset', async () => {
    const seconds = await parseCsv(
      'Timestamp;A\n1772359200;1\n1772359260,5;2\n',
      { delimiter: ';', decimalSeparator: ',', timestampFormat: 'UNIX_S' },
      120,
    );
    expect(Array.from(seconds.timestamps)).toEqual([
      utc('2026-03-01T10:00:00'),
      utc('2026-03-01T10:01:00.500'),
    ]);
    const millis = await parseCsv(
      'Timestamp,A\n1772359200000,1\n1772359200250,2\n',
      { timestampFormat: 'UNIX_MS' },
      -300,
    );
    expect(Array.from(millis.timestamps)).toEqual([
      utc('2026-03-01T10:00:00'),
      utc('2026-03-01T10:00:00.250'),
    ]);
    // A number column beside a Unix timestamp stays a number column.
    expect(millis.channels[0]!.dataType).toBe('Integer');
    const bad = await readerError(
      parseCsv('Timestamp,A\n2026-03-01 10:00,1\n', { timestampFormat: 'UNIX_S' }),
    );
    expect(bad.message).toBe(
      "Row 2: the timestamp '2026-03-01 10:00' does not match Unix seconds (e.g. 1769867100).",
    );
  });

  it('reads the patterns loggers write: day first, month first, a T between date and time, date and time in two columns', async () => {
    const at = (rows: string, timestampFormat: string, extra: Partial<DelimitedReaderConfiguration> = {}) =>
      parseCsv(rows, { timestampFormat, ...extra }).then((p) => Array.from(p.timestamps));
    expect(await at('Timestamp,A\n01.03.2026 10:00:05,1\n', 'DD.MM.YYYY HH:mm:ss')).toEqual([
      utc('2026-03-01T10:00:05'),
    ]);
    expect(await at('Timestamp,A\n03/01/2026 10:07,1\n12/31/2025 23:59,2\n', 'MM/DD/YYYY HH:mm')).toEqual([
      utc('2025-12-31T23:59:00'),
      utc('2026-03-01T10:07:00'),
    ]);
    expect(await at('Timestamp,A\n2026-03-01T10:00:00,1\n', 'YYYY-MM-DDTHH:mm:ss')).toEqual([
      utc('2026-03-01T10:00:00'),
    ]);
    expect(await at('Timestamp,A\n2026-03-01 10:00:00.250,1\n', 'YYYY-MM-DD HH:mm:ss.SSS')).toEqual([
      utc('2026-03-01T10:00:00.250'),
    ]);
    expect(
      await at('Date\tTime\tA\n2026/03/01\t10:00\t1\n', 'YYYY/MM/DD HH:mm', {
        delimiter: '\t',
        timestampColumns: ['Date', 'Time'],
      }),
    ).toEqual([utc('2026-03-01T10:00:00')]);
    // The default reads ISO 8601 with a space or a T, with or without seconds.
    expect(
      Array.from((await parseCsv('Timestamp,A\n2026-03-01 10:00:00,1\n2026-03-01T10:01,2\n')).timestamps),
    ).toEqual([utc('2026-03-01T10:00:00'), utc('2026-03-01T10:01:00')]);
  });

  it('sorts rows that are out of order, keeping each value with its timestamp', async () => {
    const p = await parseCsv(
      'Timestamp,A,Note\n2026-03-01 10:00:20,3,c\n2026-03-01 10:00:00,1,a\n2026-03-01 10:00:10,2,b\n',
    );
    expect(Array.from(p.timestamps)).toEqual([
      utc('2026-03-01T10:00:00'),
      utc('2026-03-01T10:00:10'),
      utc('2026-03-01T10:00:20'),
    ]);
    expect(Array.from(channel(p, 'A').values)).toEqual([1, 2, 3]);
    expect(channel(p, 'Note').texts).toEqual(['a', 'b', 'c']);
  });

  it('treats the usual missing-value tokens as missing and keeps numbers with exponents exact', async () => {
    const p = await parseCsv(
      'Timestamp,A\n2026-03-01 10:00:00,NaN\n2026-03-01 10:00:01,N/A\n2026-03-01 10:00:02,-\n2026-03-01 10:00:03,null\n2026-03-01 10:00:04,1.5e3\n2026-03-01 10:00:05,0.1\n',
    );
    expect(Array.from(p.channels[0]!.values)).toEqual([NaN, NaN, NaN, NaN, 1500, 0.1]);
    expect(p.channels[0]!.dataType).toBe('Double');
  });

  it('parses numbers from bytes exactly as JavaScript does', async () => {
    const samples = [
      '0.1',
      '123456.789',
      '-98765.4321',
      '3.14159265358979',
      '1234567890123456789',
      '0.000001',
      '+7',
      '5.',
    ];
    const text =
      'Timestamp,A\n' +
      samples.map((s, i) => `2026-03-01 10:00:${String(i).padStart(2, '0')},${s}\n`).join('');
    const p = await parseCsv(text);
    expect(Array.from(p.channels[0]!.values)).toEqual(samples.map(Number));
  });

  it('ignores trailing empty lines and a delimiter at the end of every line', async () => {
    const p = await parseCsv('Timestamp;A;\n2026-03-01 10:00:00;1;\n2026-03-01 10:00:01;2;\n\n\n', {
      delimiter: ';',
    });
    expect(p.rowCount).toBe(2);
    expect(p.channels.map((c) => c.channel)).toEqual(['A']);
  });

  it('reads a date column that is not the timestamp as UTCDateTime', async () => {
    const p = await parseCsv(
      'Timestamp,Last service\n2026-03-01 10:00:00,2026-02-01 08:00:00\n2026-03-01 10:00:01,\n',
      {},
      60,
    );
    expect(p.channels[0]!.dataType).toBe('UTCDateTime');
    expect(p.channels[0]!.values[0]).toBe(utc('2026-02-01T07:00:00'));
  });
});

describe('delimited text: files that are rejected, with a message naming the place', () => {
  it('rejects an empty file', async () => {
    for (const text of ['', '\r\n\n  ']) {
      const err = await readerError(parseCsv(text));
      expect(err.code).toBe('EMPTY_FILE');
      expect(err.message).toBe('The file is empty.');
    }
  });

  it('rejects a file with only a header', async () => {
    for (const text of ['Timestamp,A', 'Timestamp,A\n', 'Timestamp,A\r\n\r\n']) {
      const err = await readerError(parseCsv(text));
      expect(err.code).toBe('HEADER_ONLY');
      expect(err.message).toBe('The file has a header but no data rows (data is expected from row 2).');
    }
  });

  it('rejects a timestamp that does not match the format, naming the row', async () => {
    const err = await readerError(
      parseCsv('Timestamp,A\n01.03.2026 10:00:00,1\n2026-13-01 00:00,2\n', {
        timestampFormat: 'DD.MM.YYYY HH:mm:ss',
      }),
    );
    expect(err.code).toBe('BAD_TIMESTAMP');
    expect(err.message).toBe("Row 3: the timestamp '2026-13-01 00:00' does not match DD.MM.YYYY HH:mm:ss.");
    const iso = await readerError(parseCsv('Timestamp,A\n2026-03-01 10:00:00,1\n01.03.2026 11:00,2\n'));
    expect(iso.message).toBe(
      "Row 3: the timestamp '01.03.2026 11:00' does not match ISO 8601 (e.g. 2026-01-31T13:45:00).",
    );
    const invalidDay = await readerError(parseCsv('Timestamp,A\n2026-02-30 10:00:00,1\n'));
    expect(invalidDay.message).toContain('Row 2');
    const empty = await readerError(parseCsv('Timestamp,A\n,1\n'));
    expect(empty.message).toBe('Row 2: the timestamp is empty.');
  });

  it('rejects duplicate timestamps, naming both rows', async () => {
    const err = await readerError(
      parseCsv('Timestamp,A\n2026-03-01 10:00:00,1\n2026-03-01 10:00:10,2\n2026-03-01 10:00:00,3\n'),
    );
    expect(err.code).toBe('DUPLICATE_TIMESTAMP');
    expect(err.message).toBe(
      'Rows 2 and 4 have the same timestamp (2026-03-01 10:00:00). Each row needs its own time.',
    );
  });

  it('rejects a non-numeric cell in a numeric channel, naming row, column and cell', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `2026-03-01 10:00:0${i},${i === 6 ? 'ERR' : i * 1.5}`);
    const err = await readerError(parseCsv(`Timestamp,SO2\n${rows.join('\n')}\n`));
    expect(err.code).toBe('NON_NUMERIC');
    expect(err.message).toBe(
      "Row 8, column 'SO2': 'ERR' is not a number, but the column holds numbers. Leave the cell empty (or write NaN) for a missing value.",
    );
  });

  it('rejects a number written with the other decimal separator', async () => {
    const err = await readerError(
      parseCsv('Timestamp;A\n2026-03-01 10:00:00;1,5\n2026-03-01 10:00:01;2.5\n', {
        delimiter: ';',
        decimalSeparator: ',',
      }),
    );
    expect(err.code).toBe('NON_NUMERIC');
    expect(err.message).toContain("Row 3, column 'A': '2.5'");
  });

  it('rejects rows with fewer or more values than the header', async () => {
    const fewer = await readerError(
      parseCsv('Timestamp,A,B\n2026-03-01 10:00:00,1,2\n2026-03-01 10:00:01,1\n'),
    );
    expect(fewer.code).toBe('ROW_LENGTH');
    expect(fewer.message).toBe('Row 3 has 2 values, but the header (row 1) has 3 columns.');
    const more = await readerError(parseCsv('Timestamp,A\n2026-03-01 10:00:00,1,2\n'));
    expect(more.code).toBe('ROW_LENGTH');
    expect(more.message).toBe('Row 2 has more values than the 2 columns of the header (row 1).');
    const blank = await readerError(
      parseCsv('Timestamp,A\n2026-03-01 10:00:00,1\n\n2026-03-01 10:00:01,1\n'),
    );
    expect(blank.message).toBe('Row 3 is empty; every data row needs 2 values as in the header.');
  });

  it('rejects a 10 MB line without splitting it', async () => {
    const huge = Buffer.alloc(10 * 1024 * 1024, '1');
    const content = Buffer.concat([
      Buffer.from('Timestamp,A\n2026-03-01 10:00:00,'),
      huge,
      Buffer.from('\n'),
    ]);
    const err = await readerError(parseCsv(content));
    expect(err.code).toBe('LINE_TOO_LONG');
    expect(err.message).toBe(
      'Row 2 is 10,485,780 bytes long; a row may hold at most 1,048,576 bytes. Check the delimiter and line breaks of the file.',
    );
    const small = await readerError(
      parseCsv('Timestamp,A\n2026-03-01 10:00:00,12345\n', {}, 0, { maxLineBytes: 20 }),
    );
    expect(small.code).toBe('LINE_TOO_LONG');
  });

  it('rejects a header with 5,000 columns', async () => {
    const header = ['Timestamp', ...Array.from({ length: 4999 }, (_, i) => `C${i}`)].join(',');
    const row = ['2026-03-01 10:00:00', ...Array.from({ length: 4999 }, () => '1')].join(',');
    const err = await readerError(parseCsv(`${header}\n${row}\n`));
    expect(err.code).toBe('TOO_MANY_COLUMNS');
    expect(err.message).toBe('The header has more than 2,000 columns; a file may have at most 2,000.');
    const p = await parseCsv(`${header}\n${row}\n`, {}, 0, { maxColumns: 5000 });
    expect(p.channels).toHaveLength(4999);
  });

  it('explains a missing timestamp column, listing the header it found', async () => {
    const err = await readerError(parseCsv('Timestamp;A\n2026-03-01 10:00:00;1\n'));
    expect(err.code).toBe('MISSING_TIMESTAMP_COLUMN');
    expect(err.message).toBe(
      "The timestamp column 'Timestamp' is not in the header (row 1). The header has 'Timestamp;A'. Check the delimiter and the header row of the data source.",
    );
  });

  it('rejects an unclosed quote, duplicate column names and a bad configuration', async () => {
    expect((await readerError(parseCsv('Timestamp,A\n2026-03-01 10:00:00,"1\n'))).code).toBe(
      'UNCLOSED_QUOTE',
    );
    const dup = await readerError(parseCsv('Timestamp,A,A\n2026-03-01 10:00:00,1,2\n'));
    expect(dup.message).toBe("The header (row 1) names the column 'A' twice (columns 2 and 3).");
    const bad = await readerError(parseCsv('Timestamp,A\n', { decimalSeparator: ',' }));
    expect(bad.code).toBe('BAD_CONFIGURATION');
    expect(bad.message).toContain('The delimiter and the decimal separator must differ');
    const unknown = await readerError(
      parseDataFile(
        { fileName: 'a.csv', content: Buffer.from('x') },
        { readerId: 'pdf', configuration: csv().configuration },
        { utcTimezoneOffsetInMinutes: 0 },
      ),
    );
    expect(unknown.message).toBe("Unknown data source reader 'pdf'.");
  });
});

describe('excel workbook', () => {
  const xlsx = (configuration: Partial<XlsxReaderConfiguration> = {}) => ({
    readerId: 'excel-workbook',
    configuration: { ...DEFAULT_XLSX_CONFIGURATION, ...configuration },
  });

  async function workbook(rows: unknown[][], sheetName = 'Log'): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['nothing here']);
    const ws = wb.addWorksheet(sheetName);
    for (const r of rows) ws.addRow(r);
    ws.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss';
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('reads date cells as the logger clock and applies the offset', async () => {
    const content = await workbook([
      ['Timestamp', 'SO2', 'Running', 'Mode'],
      [new Date(utc('2026-03-01T10:00:00')), 12.5, true, 'open loop'],
      [new Date(utc('2026-03-01T10:00:10')), 13, false, 'closed loop'],
      [],
      [new Date(utc('2026-03-01T09:59:50')), { formula: '1+1', result: 2 }, true, null],
    ]);
    const p = await parseDataFile({ fileName: 'log.xlsx', content }, xlsx({ sheet: 'Log' }), {
      utcTimezoneOffsetInMinutes: 60,
    });
    expect(p.rowCount).toBe(3);
    expect(Array.from(p.timestamps)).toEqual([
      utc('2026-03-01T08:59:50'),
      utc('2026-03-01T09:00:00'),
      utc('2026-03-01T09:00:10'),
    ]);
    expect(p.channels.map((c) => [c.channel, c.dataType])).toEqual([
      ['SO2', 'Double'],
      ['Running', 'Boolean'],
      ['Mode', 'String'],
    ]);
    expect(Array.from(channel(p, 'SO2').values)).toEqual([2, 12.5, 13]);
    expect(Array.from(channel(p, 'Running').values)).toEqual([1, 1, 0]);
    expect(channel(p, 'Mode').texts).toEqual([null, 'open loop', 'closed loop']);
  });

  it('combines a date cell and a time cell, and picks the sheet by number', async () => {
    const content = await workbook([
      ['Date', 'Time', 'Load'],
      [new Date(utc('2026-03-01T00:00:00')), new Date(utc('1899-12-30T13:30:00')), 80],
    ]);
    const p = await parseDataFile(
      { fileName: 'log.xlsx', content },
      xlsx({ sheet: 2, timestampColumns: ['Date', 'Time'] }),
      { utcTimezoneOffsetInMinutes: 0 },
    );
    expect(p.timestamps[0]).toBe(utc('2026-03-01T13:30:00'));
  });

  it('reads text timestamps with the configured format', async () => {
    const content = await workbook([
      ['Timestamp', 'Load'],
      ['01/03/2026 10:00', 80],
    ]);
    const p = await parseDataFile(
      { fileName: 'log.xlsx', content },
      xlsx({ sheet: 'Log', timestampFormat: 'DD/MM/YYYY HH:mm' }),
      { utcTimezoneOffsetInMinutes: 0 },
    );
    expect(p.timestamps[0]).toBe(utc('2026-03-01T10:00:00'));
  });

  it('reads Unix seconds written as numbers or as text', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Log');
    for (const row of [
      ['Timestamp', 'Load'],
      [1772359200, 80],
      ['1772359260', 81],
    ])
      ws.addRow(row);
    const content = Buffer.from(await wb.xlsx.writeBuffer());
    const p = await parseDataFile(
      { fileName: 'log.xlsx', content },
      xlsx({ sheet: 'Log', timestampFormat: 'UNIX_S' }),
      { utcTimezoneOffsetInMinutes: 60 },
    );
    expect(Array.from(p.timestamps)).toEqual([utc('2026-03-01T10:00:00'), utc('2026-03-01T10:01:00')]);
  });

  it('rejects a broken workbook, a missing sheet, a header-only sheet and text in a numeric column', async () => {
    const opts = { utcTimezoneOffsetInMinutes: 0 };
    const broken = await readerError(
      parseDataFile(
        { fileName: 'x.xlsx', content: Buffer.from('PK\u0003\u0004 not really a workbook') },
        xlsx(),
        opts,
      ),
    );
    expect(broken.code).toBe('UNREADABLE_WORKBOOK');
    expect(broken.message).toBe('The workbook could not be read: it is damaged or not an .xlsx file.');
    const good = await workbook([['Timestamp', 'A']]);
    const sheet = await readerError(
      parseDataFile({ fileName: 'x.xlsx', content: good }, xlsx({ sheet: 'Data' }), opts),
    );
    expect(sheet.message).toBe("The workbook has no sheet 'Data' (its sheets: 'Notes', 'Log').");
    expect(
      (await readerError(parseDataFile({ fileName: 'x.xlsx', content: good }, xlsx({ sheet: 'Log' }), opts)))
        .code,
    ).toBe('HEADER_ONLY');
    const text = await workbook([
      ['Timestamp', 'A'],
      [new Date(utc('2026-03-01T10:00:00')), 1],
      [new Date(utc('2026-03-01T10:00:01')), 'ERR'],
      [new Date(utc('2026-03-01T10:00:02')), 2],
    ]);
    const nonNumeric = await readerError(
      parseDataFile({ fileName: 'x.xlsx', content: text }, xlsx({ sheet: 'Log' }), opts),
    );
    expect(nonNumeric.message).toContain("Row 3, column 'A': 'ERR' is not a number");
  });
});

describe('delimited text: other delimiters', () => {
  it('reads tab and space separated files, empty cells included', async () => {
    const tab = await parseCsv('Timestamp\tA\tB\n2026-03-01T10:00:00\t1\t\n', {
      delimiter: '\t',
      timestampFormat: 'ISO',
    });
    expect(tab.channels.map((c) => Array.from(c.values))).toEqual([[1], [NaN]]);
    const space = await parseCsv('Timestamp A B C\n2026-03-01T10:00:00  "x y" 2\n', {
      delimiter: ' ',
      timestampFormat: 'ISO',
    });
    expect(space.channels.map((c) => c.dataType)).toEqual(['Double', 'String', 'Integer']);
    expect(space.channels[1]!.texts).toEqual(['x y']);
  });
});

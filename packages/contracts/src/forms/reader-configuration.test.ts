import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIMITED_CONFIGURATION, DEFAULT_XLSX_CONFIGURATION } from '../readers';
import {
  chooseTimestampFormat,
  readerForm,
  validateReaderForm,
  withReaderForm,
  type ReaderForm,
} from './reader-configuration';

const CSV = 'delimited-text';
const XLSX = 'excel-workbook';
const json = (value: unknown) => JSON.stringify(value, null, 2);
const defaults = json(DEFAULT_DELIMITED_CONFIGURATION);
const form = (text: string) => readerForm(text)!;
const change = (patch: Partial<ReaderForm>, text = defaults, reader = CSV) =>
  withReaderForm(reader, text, patch);

describe('reader configuration form', () => {
  it("reads the reader's default into the form's fields", () => {
    expect(readerForm(defaults)).toEqual({
      delimiter: 'comma',
      otherDelimiter: '',
      decimalSeparator: '.',
      headerRow: '1',
      unitRow: '',
      descriptionRow: '',
      firstDataRow: '2',
      timestampColumn: 'Timestamp',
      twoTimestampColumns: false,
      timeColumn: '',
      timestampFormat: 'ISO',
      timestampPattern: '',
      encoding: 'utf-8',
      sheet: '1',
    });
    expect(validateReaderForm(CSV, defaults)).toEqual({});
    expect(validateReaderForm(XLSX, json(DEFAULT_XLSX_CONFIGURATION))).toEqual({});
  });

  it('writes a change into the JSON and reads it back (the form and Advanced show the same)', () => {
    const tab = change({ delimiter: 'tab', decimalSeparator: ',', unitRow: '2', firstDataRow: '3' });
    expect(JSON.parse(tab)).toMatchObject({
      delimiter: '\t',
      decimalSeparator: ',',
      unitRow: 2,
      firstDataRow: 3,
    });
    expect(form(tab)).toMatchObject({ delimiter: 'tab', unitRow: '2', firstDataRow: '3' });
    const other = change({ delimiter: 'other', otherDelimiter: '#' });
    expect(JSON.parse(other).delimiter).toBe('#');
    expect(form(other)).toMatchObject({ delimiter: 'other', otherDelimiter: '#' });
    const two = change({ twoTimestampColumns: true, timestampColumn: 'Date', timeColumn: 'Time' });
    expect(JSON.parse(two).timestampColumns).toEqual(['Date', 'Time']);
    expect(JSON.parse(change({ twoTimestampColumns: false }, two)).timestampColumns).toEqual(['Date']);
    const sheet = change({ sheet: 'Log' }, json(DEFAULT_XLSX_CONFIGURATION), XLSX);
    expect(JSON.parse(sheet).sheet).toBe('Log');
    expect(JSON.parse(change({ sheet: '2' }, sheet, XLSX)).sheet).toBe(2);
  });

  it('keeps keys the form does not show, and answers a text that is not a JSON object as it is', () => {
    expect(
      JSON.parse(change({ headerRow: '3' }, json({ ...DEFAULT_DELIMITED_CONFIGURATION, x: 1 }))),
    ).toMatchObject({
      x: 1,
      headerRow: 3,
    });
    expect(readerForm('{"delimiter": ')).toBeNull();
    expect(withReaderForm(CSV, '[1]', { headerRow: '2' })).toBe('[1]');
    expect(validateReaderForm(CSV, 'nope')).toEqual({
      '': 'The parser configuration is not valid JSON; correct it under Advanced',
    });
  });

  it('offers the named timestamp formats and a custom pattern that starts from the usual one', () => {
    const custom = change(chooseTimestampFormat(form(defaults), 'custom'));
    expect(JSON.parse(custom).timestampFormat).toBe('YYYY-MM-DD HH:mm:ss');
    expect(form(custom)).toMatchObject({
      timestampFormat: 'custom',
      timestampPattern: 'YYYY-MM-DD HH:mm:ss',
    });
    const unix = change(chooseTimestampFormat(form(custom), 'UNIX_MS'), custom);
    expect(JSON.parse(unix).timestampFormat).toBe('UNIX_MS');
    expect(form(unix).timestampFormat).toBe('UNIX_MS');
  });

  it.each<[Partial<ReaderForm>, Record<string, string>]>([
    [{ headerRow: '' }, { headerRow: 'Row is required' }],
    [{ headerRow: 'abc' }, { headerRow: 'Must be a whole number' }],
    [{ unitRow: '0' }, { unitRow: 'Rows are counted from 1' }],
    [{ firstDataRow: '1' }, { firstDataRow: 'The first data row must come after the header row' }],
    [{ delimiter: 'other', otherDelimiter: '' }, { otherDelimiter: 'Provide a delimiter' }],
    [{ delimiter: 'other', otherDelimiter: '::' }, { otherDelimiter: 'The delimiter is one character' }],
    [{ decimalSeparator: ',' }, { decimalSeparator: 'The delimiter and the decimal separator must differ' }],
    [{ timestampColumn: '' }, { timestampColumn: 'Choose the timestamp column' }],
    [{ twoTimestampColumns: true, timeColumn: '' }, { timeColumn: 'Choose the time column' }],
    [
      { timestampFormat: 'custom', timestampPattern: '' },
      { timestampPattern: 'Provide a timestamp pattern' },
    ],
    [
      { timestampFormat: 'custom', timestampPattern: 'HH:mm:ss' },
      { timestampPattern: 'A pattern needs YYYY, MM and DD (e.g. DD.MM.YYYY HH:mm:ss)' },
    ],
  ])('says what is wrong: %j', (patch, expected) => {
    expect(validateReaderForm(CSV, change(patch))).toEqual(expected);
  });

  it('asks for the sheet of a workbook', () => {
    expect(validateReaderForm(XLSX, change({ sheet: '' }, json(DEFAULT_XLSX_CONFIGURATION), XLSX))).toEqual({
      sheet: 'Sheet is required',
    });
  });
});

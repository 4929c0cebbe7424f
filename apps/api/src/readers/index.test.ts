import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIMITED_CONFIGURATION, DEFAULT_XLSX_CONFIGURATION } from '@portal/contracts/readers';
import { READER_DEFINITIONS, acceptedExtensionsByComma } from './index';

describe('reader definitions', () => {
  it('offers the delimited text and the workbook reader with their defaults', () => {
    expect(READER_DEFINITIONS).toEqual([
      {
        id: 'delimited-text',
        name: 'Delimited text (CSV)',
        acceptedFileExtensions: ['.csv', '.txt'],
        defaultConfiguration: DEFAULT_DELIMITED_CONFIGURATION,
      },
      {
        id: 'excel-workbook',
        name: 'Excel workbook (XLSX)',
        acceptedFileExtensions: ['.xlsx'],
        defaultConfiguration: DEFAULT_XLSX_CONFIGURATION,
      },
    ]);
  });

  it('lists the accepted extensions of a reader for the upload', () => {
    expect(acceptedExtensionsByComma('delimited-text')).toBe('.csv,.txt');
    expect(acceptedExtensionsByComma('excel-workbook')).toBe('.xlsx');
    expect(acceptedExtensionsByComma('unknown')).toBe('');
  });
});

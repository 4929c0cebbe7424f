import { describe, expect, it } from 'vitest';
import type { UploadedFileWarnings } from '../data-health';
import { groupUploadWarnings, uploadWarningFiles } from './upload-warnings';

const unmapped = {
  kind: 'unmappedColumns' as const,
  message: '2 columns of the file are not mapped to a channel: A and B.',
  names: ['A', 'B'],
};
const gap = (count: number) => ({
  kind: 'timeGaps' as const,
  message: `${count} time gaps longer than 10 samples.`,
  count,
});
const file = (day: number, warnings: UploadedFileWarnings['warnings']): UploadedFileWarnings => ({
  id: `id-${day}`,
  fileName: `LOG_202611${String(day).padStart(2, '0')}.csv`,
  warnings,
});

describe('groupUploadWarnings', () => {
  it('lists a warning that every file of a week gives once, with the seven files', () => {
    const week = [10, 11, 12, 13, 14, 15, 16].map((day) => file(day, [unmapped]));
    expect(groupUploadWarnings(week)).toEqual([
      { warning: unmapped, fileNames: week.map((f) => f.fileName) },
    ]);
  });

  it('keeps warnings that differ apart, in the order of the files', () => {
    const groups = groupUploadWarnings([
      file(10, [gap(2)]),
      file(11, [unmapped, gap(2)]),
      file(12, [gap(3), unmapped]),
    ]);
    expect(groups.map((g) => [g.warning.message, g.fileNames])).toEqual([
      ['2 time gaps longer than 10 samples.', ['LOG_20261110.csv', 'LOG_20261111.csv']],
      [unmapped.message, ['LOG_20261111.csv', 'LOG_20261112.csv']],
      ['3 time gaps longer than 10 samples.', ['LOG_20261112.csv']],
    ]);
  });

  it('is empty when no file warns', () => {
    expect(groupUploadWarnings([file(10, []), file(11, [])])).toEqual([]);
  });
});

describe('uploadWarningFiles', () => {
  it('names one or two files, and counts more between the first and the last', () => {
    expect(uploadWarningFiles(['a.csv'])).toBe('a.csv');
    expect(uploadWarningFiles(['a.csv', 'b.csv'])).toBe('a.csv and b.csv');
    expect(uploadWarningFiles(['a.csv', 'b.csv', 'c.csv'])).toBe('3 files, a.csv to c.csv');
  });
});

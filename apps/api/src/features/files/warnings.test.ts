import { describe, expect, it } from 'vitest';
import { fileWarnings, formatSpan, nameList, type FileWarningInput } from './warnings';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 1);
const minutes = (n: number, every = 1) => Float64Array.from({ length: n }, (_, i) => T0 + i * every * MIN);

const input = (over: Partial<FileWarningInput> = {}): FileWarningInput => ({
  columns: ['SO2', 'CO2'],
  mappings: [
    { source: 'SO2', name: 'SO2_PPM' },
    { source: 'CO2', name: 'CO2_PCT' },
  ],
  timestamps: minutes(60),
  measureFrequencySeconds: 60,
  gapSamples: 10,
  now: T0 + 10 * 86_400_000,
  otherData: null,
  ...over,
});

describe('upload warnings', () => {
  it('has none for a file that matches its mappings, without gaps, in the expected range', () => {
    expect(fileWarnings(input())).toEqual([]);
  });

  it('says that no column matches a mapped channel, listing them', () => {
    const [warning, ...rest] = fileWarnings(input({ columns: ['ME1_FO_FLOW_KGH', 'SO2 Outlet [ppm]'] }));
    expect(warning).toEqual({
      kind: 'missingChannels',
      message:
        'No column of the file matches a mapped channel, so its data is not used. Missing: SO2 (SO2_PPM) and CO2 (CO2_PCT). Check the channel mappings of the data source.',
      names: ['SO2', 'CO2'],
      count: 2,
    });
    expect(rest).toEqual([
      {
        kind: 'unmappedColumns',
        message: '2 columns of the file are not mapped to a channel: ME1_FO_FLOW_KGH and SO2 Outlet [ppm].',
        names: ['ME1_FO_FLOW_KGH', 'SO2 Outlet [ppm]'],
        count: 2,
      },
    ]);
  });

  it('counts the mapped channels a file lacks when it has some of them', () => {
    expect(fileWarnings(input({ columns: ['SO2'] }))[0]?.message).toBe(
      '1 of the 2 mapped channels is not in the file: CO2 (CO2_PCT).',
    );
  });

  it('says a data source without mappings uses none of the columns', () => {
    expect(fileWarnings(input({ mappings: [] }))[0]?.message).toBe(
      "The data source has no channel mappings yet: the file's 2 columns are stored but not used.",
    );
  });

  it('warns of timestamps in the future, before 2000, or more than a year from the ship’s other data', () => {
    const future = fileWarnings(input({ now: T0 - 86_400_000 }));
    expect(future).toEqual([expect.objectContaining({ kind: 'timestampsOutOfRange', count: 60 })]);
    expect(future[0]!.message).toMatch(
      /^60 rows have timestamps in the future \(up to 2026\.03\.01 00:59 UTC\)/,
    );
    const early = fileWarnings(input({ timestamps: Float64Array.from([Date.UTC(1970, 0, 1), T0]) }));
    expect(early[0]!.message).toMatch(/^1 row has a timestamp before 2000/);
    const far = fileWarnings(input({ otherData: { min: Date.UTC(2020, 0, 1), max: Date.UTC(2020, 5, 1) } }));
    expect(far[0]!.message).toMatch(/more than a year away from the ship's other data/);
    expect(
      fileWarnings(input({ otherData: { min: Date.UTC(2025, 9, 1), max: Date.UTC(2026, 1, 1) } })),
    ).toEqual([]);
  });

  it('warns of time gaps longer than N samples, naming the longest', () => {
    const ts = Float64Array.from([
      ...minutes(10),
      T0 + 30 * MIN,
      T0 + 31 * MIN,
      T0 + 31 * MIN + 2 * 3_600_000 + 5 * MIN,
    ]);
    expect(fileWarnings(input({ timestamps: ts }))).toEqual([
      {
        kind: 'timeGaps',
        message:
          '2 time gaps are longer than 10 samples (10 min); the longest is 2 h 5 min, from 2026.03.01 00:31 to 2026.03.01 02:36 UTC.',
        count: 2,
      },
    ]);
    expect(fileWarnings(input({ timestamps: ts, gapSamples: 200 }))).toEqual([]);
  });

  it('lists the rows a reader refused with its first reasons', () => {
    expect(
      fileWarnings(input({ refusedRows: { count: 2, reasons: ['Row 3: bad.', 'Row 9: bad.'] } }))[0],
    ).toEqual({ kind: 'refusedRows', message: '2 rows were refused: Row 3: bad. Row 9: bad.', count: 2 });
  });
});

describe('texts', () => {
  it('lists names with "and", at most ten', () => {
    expect(nameList(['A'])).toBe('A');
    expect(nameList(['A', 'B', 'C'])).toBe('A, B and C');
    expect(nameList(Array.from({ length: 13 }, (_, i) => `C${i}`))).toBe(
      'C0, C1, C2, C3, C4, C5, C6, C7, C8, C9 and 3 more',
    );
  });

  it('writes spans as a person reads them', () => {
    expect(formatSpan(45_000)).toBe('45 s');
    expect(formatSpan(10 * MIN)).toBe('10 min');
    expect(formatSpan(125 * MIN)).toBe('2 h 5 min');
    expect(formatSpan(76 * 60 * MIN)).toBe('3 d 4 h');
  });
});

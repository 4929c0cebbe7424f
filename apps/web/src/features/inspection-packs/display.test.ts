import { describe, expect, it } from 'vitest';
import { packContentText, packPeriodText, packRequestText, packStateText } from './display';

describe('what the pack list says', () => {
  it('gives a building pack its percent and stage, a failed one its error', () => {
    expect(
      packStateText({
        state: 'building',
        progress: 0.426,
        stage: 'Original logger files: 120 of 365',
        error: null,
      }),
    ).toBe('Building 42 %: Original logger files: 120 of 365');
    expect(packStateText({ state: 'queued', progress: 0, stage: null, error: null })).toBe('Queued');
    expect(
      packStateText({ state: 'queued', progress: 0, stage: 'Trying again after: timeout', error: null }),
    ).toBe('Queued: Trying again after: timeout');
    expect(
      packStateText({
        state: 'failed',
        progress: 0.3,
        stage: null,
        error: 'The original of a.csv is not stored',
      }),
    ).toBe('Failed: The original of a.csv is not stored');
    expect(packStateText({ state: 'ready', progress: 1, stage: null, error: null })).toBe('Ready');
  });

  it('names the period, who asked and what the zip holds', () => {
    expect(packPeriodText({ from: '2025-03-01', to: '2025-03-31' })).toBe('March 2025');
    expect(packPeriodText({ from: '2025-03-03', to: '2025-03-05' })).toBe('2025.03.03 to 2025.03.05');
    expect(packRequestText({ requestedBy: 'north.anna', requestedOn: '2025-04-02T10:15:00.000Z' })).toBe(
      'north.anna, 2025.04.02 10:15',
    );
    expect(packContentText({ state: 'ready', originals: 31, zipBytes: 5_400_000 })).toBe(
      '31 logger files, 5.4 MB',
    );
    expect(packContentText({ state: 'ready', originals: 1, zipBytes: 900 })).toBe('1 logger file, 900 B');
    expect(packContentText({ state: 'building', originals: null, zipBytes: null })).toBe('');
  });
});

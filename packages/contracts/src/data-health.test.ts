import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATA_HEALTH_THRESHOLDS,
  dataHealthThresholdsBodySchema,
  defaultThreshold,
  gapDurationText,
  healthBadge,
  healthCoverageText,
  healthHeadline,
  thresholdText,
  type ChannelHealth,
} from './data-health';

describe('data health defaults', () => {
  it('bound the physical ranges of the DOMAIN channels', () => {
    expect(defaultThreshold('WASHWATER_PH')).toMatchObject({ min: 0, max: 14 });
    expect(defaultThreshold('CO2_PCT')).toMatchObject({ min: 0, max: 25 });
    expect(defaultThreshold('LATITUDE')).toMatchObject({ min: -90, max: 90 });
    expect(defaultThreshold('LONGITUDE')).toMatchObject({ min: -180, max: 180 });
    expect(defaultThreshold('FUEL_SULFUR')).toMatchObject({ min: 0, max: 5, flatLineHours: null });
    expect(defaultThreshold('ENGINE_LOAD')).toMatchObject({ min: 0, max: 120 });
    expect(defaultThreshold('FUEL_FLOW')).toMatchObject({ min: 0, max: null });
    expect(new Set(DEFAULT_DATA_HEALTH_THRESHOLDS.map((t) => t.fieldName)).size).toBe(
      DEFAULT_DATA_HEALTH_THRESHOLDS.length,
    );
  });

  it('check only staleness for a field without defaults', () => {
    expect(defaultThreshold('MY_CUSTOM')).toEqual({
      fieldName: 'MY_CUSTOM',
      min: null,
      max: null,
      staleHours: 2,
      flatLineHours: null,
    });
  });

  it('refuse a lowest value above the highest', () => {
    const body = (min: number, max: number) => ({
      thresholds: [{ fieldName: 'SO2_PPM', min, max, staleHours: 1, flatLineHours: 1 }],
    });
    expect(dataHealthThresholdsBodySchema.safeParse(body(0, 10)).success).toBe(true);
    expect(dataHealthThresholdsBodySchema.safeParse(body(10, 0)).success).toBe(false);
  });
});

describe('data health texts', () => {
  it('badges a ship by its flagged channels', () => {
    const none = { stale: 0, flatLined: 0, outOfRange: 0 };
    expect(healthBadge({ status: 'ok', ...none })).toEqual({ label: 'Healthy', warn: false });
    expect(healthBadge({ status: 'flagged', ...none, stale: 2, outOfRange: 1 })).toEqual({
      label: '2 stale, 1 out of range',
      warn: true,
    });
    expect(healthBadge({ status: 'noData', ...none })).toEqual({ label: 'No data', warn: false });
    expect(healthBadge({ status: 'noChannels', ...none })).toEqual({
      label: 'No mapped channels',
      warn: true,
    });
  });

  it('writes coverage and thresholds', () => {
    expect(healthCoverageText(0.98456)).toBe('98.5 %');
    expect(healthCoverageText(1)).toBe('100.0 %');
    expect(healthCoverageText(null)).toBe('No data');
    expect(thresholdText(defaultThreshold('WASHWATER_PH'))).toBe(
      'Range 0 – 14 · stale after 2 h · flat-line after 2 h',
    );
    expect(thresholdText(defaultThreshold('FUEL_FLOW'))).toBe(
      'At least 0 · stale after 2 h · flat-line after 2 h',
    );
    expect(thresholdText({ min: null, max: null, staleHours: null, flatLineHours: null })).toBe(
      'Not checked',
    );
  });
});

describe('the health headline', () => {
  const channel = (coverage: number | null, flags: ChannelHealth['flags'] = []) =>
    ({ coverage, flags }) as ChannelHealth;
  const noGaps = { gaps: [], gapCount: 0 };

  it('says healthy only when no channel is flagged, none covers too little and the data has no gap', () => {
    expect(healthHeadline({ channels: [channel(1), channel(0.97)], ...noGaps })).toEqual({
      healthy: true,
      text: 'All 2 mapped channels are healthy.',
    });
  });

  it('is not healthy at 42.9 % coverage with a 4-day gap, though no channel is flagged (seen from outside)', () => {
    const channels = Array.from({ length: 17 }, () => channel(0.429));
    const gap = { from: '2026-10-03T00:00:00Z', to: '2026-10-07T02:00:00Z', minutes: 4 * 1440 + 120 };
    expect(healthHeadline({ channels, gaps: [gap], gapCount: 1 })).toEqual({
      healthy: false,
      text: 'The ship sent no data for 4 days 2 h. All 17 mapped channels cover less than 95 % of the period (lowest 42.9 %).',
    });
  });

  it('names several gaps by the longest, low coverage and flagged channels', () => {
    const gaps = [{ from: 'a', to: 'b', minutes: 95 }];
    const text = healthHeadline({ channels: [channel(0.9), channel(1, ['stale'])], gaps, gapCount: 3 }).text;
    expect(text).toBe(
      'The ship sent no data 3 times, the longest for 1 h 35 min. 1 of 2 mapped channels cover less than 95 % of the period (lowest 90.0 %). 1 of 2 mapped channels are flagged.',
    );
  });

  it('counts gaps and low coverage on the badge', () => {
    const base = { status: 'flagged', stale: 0, flatLined: 0, outOfRange: 0 } as const;
    expect(healthBadge({ ...base, gaps: 2, lowCoverage: 17 })).toEqual({
      label: '2 data gaps, 17 low coverage',
      warn: true,
    });
  });

  it('says a duration in days, hours and minutes', () => {
    expect([45, 320, 1440, 5880].map(gapDurationText)).toEqual([
      '45 min',
      '5 h 20 min',
      '1 day',
      '4 days 2 h',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { webhookSettingsSchema } from '../../config';
import { nextAttemptAt, retryDelayMs } from './schedule';

const defaults = webhookSettingsSchema.parse({});

describe('webhook retry schedule', () => {
  it('doubles the delay from 30 s up to an hour by default', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((n) => retryDelayMs(n, defaults) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600,
    ]);
  });

  it('keeps trying for 24 h after the delivery was made, then stops', () => {
    const created = new Date('2025-01-01T00:00:00Z');
    let at = created;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(attempts, created, at, defaults);
      if (!next) break;
      at = next;
      attempts++;
    }
    // 8 attempts in the first 63.5 min (30 s, 1, 2, ... 32 min apart), then 22 hourly ones: the 31st would be past 24 h.
    expect(attempts).toBe(30);
    expect(at.getTime() - created.getTime()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(at.getTime() - created.getTime()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it('takes fractions of a second for tests', () => {
    const settings = webhookSettingsSchema.parse({
      WEBHOOK_RETRY_DELAY_SECONDS: '0.2',
      WEBHOOK_RETRY_DELAY_MAX_SECONDS: '0.5',
      WEBHOOK_RETRY_WINDOW_SECONDS: '1',
    });
    const created = new Date(0);
    expect(nextAttemptAt(1, created, new Date(0), settings)?.getTime()).toBe(200);
    expect(nextAttemptAt(2, created, new Date(200), settings)?.getTime()).toBe(600);
    expect(nextAttemptAt(3, created, new Date(600), settings)).toBeNull();
  });
});

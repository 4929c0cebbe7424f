import type { WebhookSettings } from '../../config';

export type RetrySettings = Pick<
  WebhookSettings,
  'WEBHOOK_RETRY_DELAY_SECONDS' | 'WEBHOOK_RETRY_DELAY_MAX_SECONDS' | 'WEBHOOK_RETRY_WINDOW_SECONDS'
>;

/** The wait after the n-th failed attempt (1-based): the first delay, doubled each time, at most the longest. */
export function retryDelayMs(attempt: number, settings: RetrySettings): number {
  const seconds = Math.min(
    settings.WEBHOOK_RETRY_DELAY_SECONDS * 2 ** Math.max(0, attempt - 1),
    settings.WEBHOOK_RETRY_DELAY_MAX_SECONDS,
  );
  return Math.round(seconds * 1000);
}

/**
 * When to try again after the n-th attempt failed at `failedAt`, or null when that would be past the retry window
 * counted from the delivery's creation (the delivery is then failed).
 */
export function nextAttemptAt(
  attempt: number,
  createdOn: Date,
  failedAt: Date,
  settings: RetrySettings,
): Date | null {
  const next = failedAt.getTime() + retryDelayMs(attempt, settings);
  return next <= createdOn.getTime() + settings.WEBHOOK_RETRY_WINDOW_SECONDS * 1000 ? new Date(next) : null;
}

import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_MESSAGES,
  nextTryText,
  responseText,
  webhookBodySchema,
  webhookUrlProblem,
} from './webhooks';
import { eventValueUnit } from './rules/event-description';

describe('webhook URL rule', () => {
  it('takes http and https URLs', () => {
    expect(webhookUrlProblem('https://hooks.example.com/portal')).toBeNull();
    expect(webhookUrlProblem(' http://10.0.0.1:8080/x?y=1 ')).toBeNull();
  });

  it('names what is wrong', () => {
    expect(webhookUrlProblem('')).toBe(WEBHOOK_MESSAGES.urlRequired);
    expect(webhookUrlProblem('   ')).toBe(WEBHOOK_MESSAGES.urlRequired);
    expect(webhookUrlProblem('hooks.example.com/portal')).toBe(WEBHOOK_MESSAGES.urlInvalid);
    expect(webhookUrlProblem('ftp://hooks.example.com/')).toBe(WEBHOOK_MESSAGES.urlScheme);
    expect(webhookUrlProblem('file:///etc/passwd')).toBe(WEBHOOK_MESSAGES.urlScheme);
    expect(webhookUrlProblem('javascript:alert(1)')).toBe(WEBHOOK_MESSAGES.urlScheme);
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/')).toBe(WEBHOOK_MESSAGES.urlCredentials);
    expect(webhookUrlProblem(`https://example.com/${'a'.repeat(2000)}`)).toBe(WEBHOOK_MESSAGES.urlTooLong);
  });
});

describe('webhook body', () => {
  it('keeps the event types in their list order, once each, and is enabled by default', () => {
    const parsed = webhookBodySchema.parse({
      url: ' https://example.com/h ',
      eventTypes: ['data-gap', 'emission-exceedance', 'data-gap'],
    });
    expect(parsed).toEqual({
      url: 'https://example.com/h',
      eventTypes: ['emission-exceedance', 'data-gap'],
      enabled: true,
    });
  });

  it('refuses no event type and an unknown one', () => {
    const none = webhookBodySchema.safeParse({ url: 'https://example.com/h', eventTypes: [] });
    expect(none.error?.issues[0]?.message).toBe(WEBHOOK_MESSAGES.eventTypesRequired);
    const unknown = webhookBodySchema.safeParse({ url: 'https://example.com/h', eventTypes: ['test'] });
    expect(unknown.success).toBe(false);
  });
});

describe('webhook display rules', () => {
  it('gives the unit of the worst value', () => {
    expect(eventValueUnit({ type: 'emission-exceedance', channel: null, fault: null })).toBe(
      'SO2 (ppm)/CO2 (% v/v)',
    );
    // A scrubber stop has no value (the event description's rule, rules/event-description.ts).
    expect(eventValueUnit({ type: 'scrubber-off', channel: null, fault: null })).toBeNull();
    expect(eventValueUnit({ type: 'washwater-exceedance', channel: 'WASHWATER_PH', fault: null })).toBe('pH');
    expect(eventValueUnit({ type: 'sensor-fault', channel: 'CO2_PCT', fault: 'stale' })).toBe('% v/v');
    expect(eventValueUnit({ type: 'sensor-fault', channel: 'SCRUBBER_RUNNING', fault: 'stale' })).toBeNull();
    expect(eventValueUnit({ type: 'data-gap', channel: null, fault: null })).toBeNull();
  });

  it('says when the next try is', () => {
    const format = (iso: string) => `at ${iso}`;
    expect(nextTryText({ status: 'pending', nextAttemptOn: '2025-01-01T00:00:00Z' }, format)).toBe(
      'at 2025-01-01T00:00:00Z',
    );
    expect(nextTryText({ status: 'pending', nextAttemptOn: null }, format)).toBe('Now');
    expect(nextTryText({ status: 'delivered', nextAttemptOn: null }, format)).toBe('–');
    expect(nextTryText({ status: 'failed', nextAttemptOn: null }, format)).toBe('No more tries');
  });

  it('shows the HTTP status, else what went wrong', () => {
    expect(responseText({ responseStatus: 500, outcome: 'http-error', error: null })).toBe('500');
    expect(responseText({ responseStatus: null, outcome: 'timeout', error: 'x' })).toBe('Timed out');
    expect(responseText({ responseStatus: null, error: null })).toBe('–');
  });
});

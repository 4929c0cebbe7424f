import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@portal/contracts/events';
import {
  deliveryLabel,
  deliveryStatusColor,
  eventTypesText,
  toggleEventType,
  webhookFormErrors,
} from './display';

describe('webhook display rules', () => {
  it('colours the delivery status', () => {
    expect(deliveryStatusColor('delivered')).toBe('success');
    expect(deliveryStatusColor('pending')).toBe('warning');
    expect(deliveryStatusColor('failed')).toBe('error');
  });

  it('says what a delivery was about', () => {
    expect(deliveryLabel({ kind: 'test', eventType: null, shipName: null })).toBe('Test');
    expect(deliveryLabel({ kind: 'opened', eventType: 'scrubber-off', shipName: 'Atlantic Meridian' })).toBe(
      'Event opened: Scrubber off while required, Atlantic Meridian',
    );
    expect(deliveryLabel({ kind: 'resolved', eventType: null, shipName: null })).toBe('Event ended');
  });

  it('checks the form as the API does', () => {
    expect(webhookFormErrors({ url: '', eventTypes: [], enabled: true })).toEqual({
      url: 'Provide the URL',
      eventTypes: 'Choose at least one event type',
    });
    expect(
      webhookFormErrors({ url: 'https://example.com/h', eventTypes: ['data-gap'], enabled: true }),
    ).toEqual({});
    expect(webhookFormErrors({ url: 'ftp://x', eventTypes: ['data-gap'], enabled: true }).url).toBe(
      'Must start with http:// or https://',
    );
  });

  it('keeps ticked types in the list order', () => {
    expect(toggleEventType(['data-gap'], 'emission-exceedance', true)).toEqual([
      'emission-exceedance',
      'data-gap',
    ]);
    expect(toggleEventType(['emission-exceedance', 'data-gap'], 'data-gap', false)).toEqual([
      'emission-exceedance',
    ]);
  });

  it('names the types', () => {
    expect(eventTypesText([...EVENT_TYPES])).toBe('All event types');
    expect(eventTypesText(['data-gap', 'emission-exceedance'])).toBe('Emission exceedance, Data gap');
  });
});

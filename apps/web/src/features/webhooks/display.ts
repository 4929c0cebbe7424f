import { EVENT_TYPE_NAMES, EVENT_TYPES, type EventType } from '@portal/contracts/events';
import {
  WEBHOOK_DELIVERY_KIND_NAMES,
  WEBHOOK_MESSAGES,
  webhookUrlProblem,
  WEBHOOK_TOPICS,
  type WebhookTopic,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from '@portal/contracts/webhooks';
import { ZONE_WARNING_NAME } from '@portal/contracts/zone-warnings';

/** The chip colour of a delivery's status. */
export function deliveryStatusColor(status: WebhookDeliveryStatus): 'success' | 'warning' | 'error' {
  return status === 'delivered' ? 'success' : status === 'failed' ? 'error' : 'warning';
}

/** What a delivery was about: "Test", or "Event opened: Scrubber off while required, Atlantic Meridian". */
export function deliveryLabel(delivery: Pick<WebhookDelivery, 'kind' | 'eventType' | 'shipName'>): string {
  const kind = WEBHOOK_DELIVERY_KIND_NAMES[delivery.kind];
  if (delivery.kind === 'test') return kind;
  if (delivery.kind === 'zone-warning') return delivery.shipName ? `${kind}: ${delivery.shipName}` : kind;
  const type = delivery.eventType
    ? (EVENT_TYPE_NAMES[delivery.eventType as EventType] ?? delivery.eventType)
    : null;
  const about = [type, delivery.shipName].filter(Boolean).join(', ');
  return about ? `${kind}: ${about}` : kind;
}

export interface WebhookFormValues {
  url: string;
  eventTypes: WebhookTopic[];
  enabled: boolean;
}

/** The form's problems by field (the same rules as the API's; the address itself is checked by the server). */
export function webhookFormErrors(values: WebhookFormValues): Partial<Record<'url' | 'eventTypes', string>> {
  const errors: Partial<Record<'url' | 'eventTypes', string>> = {};
  const url = webhookUrlProblem(values.url);
  if (url) errors.url = url;
  if (!values.eventTypes.length) errors.eventTypes = WEBHOOK_MESSAGES.eventTypesRequired;
  return errors;
}

/** The event types (and zone warnings) ticked, in the list's order. */
export function toggleEventType(
  types: readonly WebhookTopic[],
  type: WebhookTopic,
  on: boolean,
): WebhookTopic[] {
  return WEBHOOK_TOPICS.filter((t) => (t === type ? on : types.includes(t)));
}

/** A topic's name on the screen: an event type's, or "Zone warnings before arrival". */
export const topicName = (topic: WebhookTopic) =>
  topic === 'zone-warning' ? ZONE_WARNING_NAME : EVENT_TYPE_NAMES[topic];

/** The event types of a webhook in words ("All event types" when it wants every one). */
export function eventTypesText(types: readonly string[]): string {
  const zone = types.includes('zone-warning') ? [ZONE_WARNING_NAME] : [];
  if (EVENT_TYPES.every((t) => types.includes(t))) return ['All event types', ...zone].join(', ');
  return [...EVENT_TYPES.filter((t) => types.includes(t)).map((t) => EVENT_TYPE_NAMES[t]), ...zone].join(
    ', ',
  );
}

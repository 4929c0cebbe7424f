import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface WebhooksTable {
  id: Generated<string>;
  organization_id: string;
  url: string;
  event_types: string[];
  secret: string;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_on: GeneratedTimestamp;
  updated_on: GeneratedTimestamp;
  secret_rotated_on: GeneratedTimestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  idempotency_key: string;
  kind: string;
  alert_id: string | null;
  event_id: string | null;
  facility_id: string | null;
  /** The JSON body, exactly as signed and sent. */
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_on: NullableTimestamp;
  created_on: GeneratedTimestamp;
  finished_on: NullableTimestamp;
  last_response_status: number | null;
  last_error: string | null;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_on: Timestamp;
  duration_ms: number;
  outcome: string;
  response_status: number | null;
  error: string | null;
  next_attempt_on: NullableTimestamp;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}

import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
type NullableDay = ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;

/** The alert outbox (migration 0018_alerts): written with the event change that causes it. */
export interface AlertsTable {
  id: Generated<string>;
  facility_id: string;
  event_id: string;
  kind: string;
  level: number;
  dedupe_key: string;
  occurred_on: Timestamp;
  created_on: GeneratedTimestamp;
  snapshot: Json<unknown>;
  fanned_out_on: NullableTimestamp;
}

export interface AlertDeliveriesTable {
  id: Generated<string>;
  idempotency_key: string;
  alert_id: string | null;
  user_id: string;
  channel: string;
  kind: Generated<string>;
  digest_day: NullableDay;
  digest_id: string | null;
  status: string;
  address: string | null;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  transport: string | null;
  message_id: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_on: GeneratedTimestamp;
  sent_on: NullableTimestamp;
  /** Held by the recipient's quiet hours until then (null: not held). */
  send_after: NullableTimestamp;
}

export interface AlertSubscriptionsTable {
  user_id: string;
  email: string | null;
  settings: NullableJson<unknown>;
  updated_on: GeneratedTimestamp;
}

export interface OrganizationAlertDefaultsTable {
  organization_id: string;
  settings: NullableJson<unknown>;
  reminder_hours: number;
  updated_on: GeneratedTimestamp;
}

export interface AlertTables {
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_subscriptions: AlertSubscriptionsTable;
  organization_alert_defaults: OrganizationAlertDefaultsTable;
}

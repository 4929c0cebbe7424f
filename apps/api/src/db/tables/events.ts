import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
/** A date column: read as a Date at 00:00 UTC or a 'YYYY-MM-DD' string depending on the driver. */
type NullableDay = ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;

export interface ComplianceEventsTable {
  id: Generated<string>;
  facility_id: string;
  type: string;
  start_on: Timestamp;
  end_on: Timestamp;
  ongoing: Generated<boolean>;
  worst_value: number | null;
  limit_value: number | null;
  start_latitude: number | null;
  start_longitude: number | null;
  end_latitude: number | null;
  end_longitude: number | null;
  classification: string | null;
  report_required: Generated<boolean>;
  channel: ColumnType<string | null, string | null | undefined, string | null>;
  fault: ColumnType<string | null, string | null | undefined, string | null>;
  rules: Json<unknown>;
  derived_on: GeneratedTimestamp;
  acknowledged_on: NullableTimestamp;
  acknowledged_by: string | null;
  cause: string | null;
  actions_taken: string | null;
  comment: string | null;
  closed_on: NullableTimestamp;
  closed_by: string | null;
  report: NullableJson<unknown>;
  report_sent_on: NullableDay;
  /** Generated: the list's order (0 report due, 1 needs attention, 2 informational, 3 acknowledged, 4 closed). */
  attention: ColumnType<number, never, never>;
}

/** An acknowledgement of an event as it was given: revision 1 the first, each change the next (migration 0021). */
export interface ComplianceEventAnnotationsTable {
  event_id: string;
  revision: number;
  cause: string;
  actions_taken: string;
  comment: string;
  acknowledged_on: Timestamp;
  acknowledged_by: string | null;
}

export interface RecordBookEntriesTable {
  id: Generated<string>;
  facility_id: string;
  sequence: ColumnType<string | number, number | string, never>;
  kind: string;
  occurred_on: Timestamp;
  recorded_on: Timestamp;
  recorded_by: string | null;
  recorded_by_name: string;
  latitude: number | null;
  longitude: number | null;
  event_id: string | null;
  corrects_id: string | null;
  body: Json<unknown>;
  previous_hash: string;
  hash: string;
}

export interface OrganizationEventRulesTable {
  organization_id: string;
  rules: Json<unknown>;
  updated_on: GeneratedTimestamp;
}

/**
 * A revision of an event's flag/port State report (migration 0022): open (sent_on null) until marked sent, then kept
 * as sent, its PDF's bytes and SHA-256 with it (none for a report sent before the portal kept them).
 */
export interface EventReportRevisionsTable {
  id: Generated<string>;
  facility_id: string;
  event_id: string;
  revision: number;
  reason: string | null;
  report: Json<unknown>;
  created_on: GeneratedTimestamp;
  created_by: string | null;
  created_by_name: string | null;
  sent_on: NullableDay;
  sent_by: string | null;
  sent_by_name: string | null;
  sent_recorded_on: NullableTimestamp;
  pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  sha256: string | null;
}

export interface EventTables {
  compliance_events: ComplianceEventsTable;
  compliance_event_annotations: ComplianceEventAnnotationsTable;
  event_report_revisions: EventReportRevisionsTable;
  record_book_entries: RecordBookEntriesTable;
  organization_event_rules: OrganizationEventRulesTable;
}
